/* SPDX-License-Identifier: GPL-2.0 */
/* Picks the most faithful attach mode this kernel lets load, and attaches it. */
#ifndef __ATTACH_H
#define __ATTACH_H

#include <stdbool.h>
#include <linux/types.h>
#include "auditskip.h"
#include "live/modes.h"

struct attach_req {
	int mode; /* -1: best that loads */
	bool filter_tasks;
	bool follow_children;
	__u64 exit_list_addr; /* 0: the loader keeps the mirror */
	__u64 uring_list_addr;
	__u64 n_rules_addr; /* 0: audit_n_rules is not listed */
	__u64 classes_addr; /* 0: classes (kernel/auditfilter.c) is not listed */
	long corrupt_nr;    /* tests only: a bit the mirror must lack, or -1 */
	bool per_comm;
	bool per_rule; /* --per-rule: matches by rule (outcome modes) */
	bool timing;
	bool profile; /* `profile`: every syscall audit would filter, dummy contexts too */
	const char *btf_path;
	bool verbose;
};

struct attached {
	struct auditskip_bpf *skel;
	enum attach_mode mode;
	bool kernel_mirror; /* BPF rebuilds the mirror from the kernel's list */
	bool detailed;	    /* the hot path's programs that test the options */
	bool counting;	    /* the counting programs are attached */
	bool reattaches;    /* they attach again once detached (attach_stop_counting()) */
};

/* libbpf's own log on standard error with -v, else none (what failed is said in our words). */
void attach_libbpf_log(bool verbose);

/*
 * Loads and attaches everything but the counting program, so the mirror
 * can be built before the first walk is counted. On failure prints one
 * line saying what to do and returns a negative errno, nothing attached.
 */
int attach_prepare(const struct attach_req *req, struct attached *out);
int attach_start_counting(struct attached *at);
/*
 * Detaches the counting programs, loaded still, maps and mirror kept: the
 * syscalls pay nothing until attach_start_counting() again.
 */
void attach_stop_counting(struct attached *at);
void attach_destroy(struct attached *at);

#endif /* __ATTACH_H */
