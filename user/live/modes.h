/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attach modes as data: what each hooks, which programs count, what it
 * can see and what it needs. The loader, the session, the reports and the
 * help read these fields rather than test for a mode by name; adding a mode
 * means its BPF programs, its entry in modes[] and its tests.
 */
#ifndef __MODES_H
#define __MODES_H

#include <stdbool.h>
#include "auditskip.h"

/* What a mode can see and needs, as modes[].sees; the session and the reports read these. */
enum mode_sees {
	MODE_SEES_OUTCOMES = 1 << 0,	  /* whether a rule matched (missed matches) */
	MODE_TIMES_WALKS = 1 << 1,	  /* fentry and fexit around the walk: --timing */
	MODE_SEES_URING = 1 << 2,	  /* the io_uring list's walks */
	MODE_JUDGES_AT_ENTRY = 1 << 3,	  /* a walk is judged at its task's next entry */
	MODE_COUNTS_MIRROR_LAG = 1 << 4,  /* walks judged by a loader-kept mirror behind */
	MODE_HOOKS_WALKS_ONLY = 1 << 5,	  /* audit calls its hook only with a rule loaded */
	MODE_NEEDS_TASK_STORAGE = 1 << 6, /* BPF task storage (5.11 and later) */
};

#define MAX_MODE_PROGS 3

struct mode_info {
	const char *name;
	const char *target;  /* kernel function, NULL for the tracepoint */
	const char *how;     /* what the counting program hooks */
	const char *blind;   /* what this mode cannot see */
	const char *summary; /* one line for --help */
	/*
	 * The counting programs, the ones to attach first leading: a program
	 * with a NAME_detailed twin gets it when an option needs it; "?NAME"
	 * is left out where the kernel lacks its hook.
	 */
	const char *progs[MAX_MODE_PROGS];
	unsigned int sees; /* enum mode_sees */
};

extern const struct mode_info modes[MODE_COUNT];
int mode_from_name(const char *name);
/* Whether mode `m` has every flag of `what` (enum mode_sees). */
bool mode_sees(enum attach_mode m, unsigned int what);
/* "filter-op, filter-syscall, syscall-exit or tracepoint" */
const char *mode_names_or(void);

#endif /* __MODES_H */
