/* SPDX-License-Identifier: GPL-2.0 */
/* Text and JSON reports. */
#ifndef __REPORT_H
#define __REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "auditskip.h"
#include "rules.h"

struct counts_snapshot {
	struct scan_counts slot[NR_SLOTS];
	struct scan_counts total;
};

struct report_ctx {
	FILE *out;
	bool json;
	int top;
	const char *kernel;
	const char *mode;
	const char *blind;	/* what the mode cannot see */
	const char *mirror_how;
	const char *scope;	/* whole machine, pid N, or the command */
	const struct ruleset *rules;	/* from netlink, for names and keys */
	struct mask_mirror mirror;	/* as the BPF side classifies now */
};

void report_start(const struct report_ctx *r);
void report_interval(const struct report_ctx *r, const struct counts_snapshot *delta,
		     double seconds);
/* command_status: the command's exit status, or -1 without a command. */
void report_summary(const struct report_ctx *r, const struct counts_snapshot *total,
		    double seconds, int command_status);
/* `auditskip rules` */
void report_rules(FILE *out, const struct ruleset *rs, bool json);

#endif /* __REPORT_H */
