// SPDX-License-Identifier: GPL-2.0
/*
 * Counts walks of audit's exit filter list and classifies each one against a
 * mirror of the aggregate exit-rule mask: a walk whose syscall bit is clear
 * is one the patched kernel would skip. The loader turns on the programs of
 * exactly one attach mode, plus, where it can find the kernel's lists, the
 * mirror_* programs that keep the mirror equal to them.
 *
 * One object, so one skeleton and one load for every mode; its parts are
 * in headers by concern, included here in the order they build on each
 * other (each uses only what those above it declare). The hot programs'
 * instruction counts are the same as in the single file they came from
 * (bench/bpf-insns.sh, bench/results/bpf-insns-*).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "auditskip.h"

char LICENSE[] SEC("license") = "GPL";

/* Shared by every concern. */
#include "kernel_values.bpf.h"
#include "maps.bpf.h"
#include "globals.bpf.h"
/* Counting a walk, in every mode. */
#include "scope.bpf.h"
#include "counting.bpf.h"
#include "mirror_loader.bpf.h"
#include "outcome.bpf.h"
/* The attach modes: the loader loads one mode's programs. */
#include "mode_filter_op.bpf.h"
#include "mode_filter_syscall.bpf.h"
#include "mode_syscall_exit.bpf.h"
#include "ruleless.bpf.h"
#include "mode_tracepoint.bpf.h"
/* The mirror kept by BPF, where the loader finds the kernel's lists. */
#include "mirror.bpf.h"
