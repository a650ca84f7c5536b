/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload profile: how often a workload made each syscall that audit
 * would filter once a rule is loaded, per arch and number, recorded by
 * `auditskip profile` with no rule needed and read by `auditskip whatif`.
 *
 * The file is one JSON object (format version PROFILE_VERSION):
 *
 *   {"format": "auditskip-profile", "version": 1,
 *    "kernel": "6.18.44", "arches": ["x86_64", "i386"],
 *    "mode": "tracepoint", "scope": "make (pid 42) and its descendants",
 *    "seconds": 12.5,
 *    "syscalls": [{"arch": "x86_64", "nr": 39, "name": "getpid", "calls": 1000}, ...],
 *    "blind_spots": {"exit_calls_inferred": 3, "uring_enter_calls": 0}}
 *
 * `arches` names the counters' arches, native first (audit's names);
 * each `syscalls` entry names one of them, `nr` 0..2047 or 2048 for
 * numbers past the mask, `calls` at least 1; `name` is for people and
 * not read back. `blind_spots` is null where the mode has none.
 */
#ifndef __PROFILE_H
#define __PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "auditskip.h"
#include "model/counts.h"

#define PROFILE_FORMAT "auditskip-profile"
#define PROFILE_VERSION 1
/* Larger files are refused before they are parsed. */
#define PROFILE_MAX_BYTES (4 << 20)

struct profile {
	char kernel[128];
	char arches[NR_ARCHES][16]; /* "" where the machine has no such arch */
	char mode[32];
	char scope[256];
	double seconds;
	__u64 calls[NR_COUNT_SLOTS]; /* arch * NR_SLOTS + slot */
	bool blind_spots_known;	     /* the mode counted the two below */
	__u64 exit_calls_inferred;   /* exit and exit_group judged at their entry */
	/* io_uring_enter calls: each op they ran inline walks again, not in `calls` */
	__u64 uring_enter_calls;
};

/* From the walks a profiling run counted (every one a call audit would filter). */
void profile_from_counts(struct profile *p, const struct counts_snapshot *s);
/* Written to PATH.tmp, then renamed over `path`. 0 or -errno. */
int profile_save(const char *path, const struct profile *p);

/*
 * Parses a profile file held in buf[0..len), which need not be
 * NUL-terminated. 0, or -EINVAL with one line in `why` saying what is wrong.
 */
int profile_parse(const char *buf, size_t len, struct profile *p, char *why, size_t why_size);
/* Reads and parses `path`: 0, or -errno with `why` filled in. */
int profile_load(const char *path, struct profile *p, char *why, size_t why_size);

#endif /* __PROFILE_H */
