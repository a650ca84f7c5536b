/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One counting run, in the order bootstrap-style tools use: open (time
 * model, metrics port, kernel symbols), attach (everything but the counting
 * program, and the first rule sync), start the target, lower privileges
 * (and start serving metrics), run (sync, read,
 * report until told to stop), finish (last sync and the summary) and close.
 */
#ifndef __SESSION_H
#define __SESSION_H

#include <stdbool.h>
#include <sys/types.h>
#include "live/attach.h"
#include "live/command.h"
#include "model/counts.h"
#include "live/privileges.h"
#include "model/run_state.h"
#include "model/duty.h"
#include "model/resync.h"
#include "audit/ruleset.h"
#include "model/rule_cost.h"
#include "model/shadowing.h"

struct metrics_server;

/* What a counting or profiling run is asked to do (its command line). */
struct count_options {
	bool profiling;	 /* `profile`: record the calls into `output` instead of counting */
	int mode;	 /* enum attach_mode, or -1: best that loads */
	double interval; /* seconds; 0: only the final report */
	double duration; /* seconds; 0: until interrupted */
	int top;
	bool json;
	bool verbose;
	pid_t pid;	      /* 0: whole machine */
	char **argv;	      /* `-- COMMAND ARGS`, NULL-terminated, or NULL */
	const char *btf_path; /* NULL: /sys/kernel/btf/vmlinux */
	int sync_ms;	      /* how often audit's status is read; the rules at least this often */
	const char *metrics;  /* ADDR:PORT for Prometheus, or NULL */
	const char *metrics_textfile; /* file the metrics page is written to, or NULL */
	const char *web_config;	      /* --web.config.file: TLS and basic auth, or NULL */
	const char *user;	      /* --user: counted as this user once started, or NULL */
	long corrupt_nr;	      /* tests only: a syscall bit the mirror must lack, or -1 */
	bool test_fail_start; /* tests only: fail between spawning the command and releasing it */
	const char *calibration; /* the time model's file, NULL: the default one */
	int per_comm;		 /* --per-comm: top N process names, 0: off */
	int per_rule;		 /* --per-rule: top N exit rules by cost, 0: off */
	bool timing;		 /* --timing: time the walks (trampoline modes) */
	const char *output;	 /* profile: the file the profile is written to */
	int list_period_ms;	 /* tests only: the periodic listing's period, 0: from its cost */
	int notify_rcvbuf;	 /* tests only: the change socket's buffer in bytes, 0: default */
	double duty_window_s;	 /* --duty WINDOW/PERIOD; 0: count all the time */
	double duty_period_s;
	bool idle_detach; /* detach while nothing walks (whole-machine counting) */
};

struct session {
	struct count_options *opt;
	struct attach_req req;
	struct attached at;
	struct metrics_server *metrics;
	struct run_as run_as; /* --user; name NULL: stay root */
	struct command child; /* `-- COMMAND`; pid 0 without one */
	int notify_fd;	      /* rule changes audit logs, -1: none */
	struct calibration calib;
	char kernel[128], scope[256], mirror_how[320], counting_price[256];
	struct ruleset rules;
	struct shadowing shadowing;	      /* of `rules`, worked out at each listing */
	struct kernel_classes kernel_classes; /* as BPF read them, for advise */
	struct run_state run;		      /* what the reports and the metrics show */
	struct walk_counts *now, *prev, *delta;
	struct comm_row *comms;		     /* --per-comm */
	struct rule_costs rule_costs;	     /* --per-rule */
	struct design_savings designs;	     /* --per-rule: priced on the walks so far */
	struct design_inputs *design_inputs; /* what they are priced from, kept allocated */
	slot_hist *hist;		     /* --timing: walk times by slot, since start */
	/* Staleness: what the last sync saw (see update_stale()). */
	bool was_ruleless;
	bool change_heard;    /* audit logged a rule change since the last sync */
	struct resync resync; /* when to list the rules */
	struct duty duty;     /* when the counting programs are attached */
	bool status_due;      /* audit logged a change of its settings: read them now */
	__u64 notifications;  /* AUDIT_CONFIG_CHANGE records heard */
	__u64 walks_then;
	__u64 epochs;	      /* tracepoint mode: ruleless epochs begun (see watch_ruleless()) */
	double epoch_began_s; /* wall clock: the listing that began the current one */
	double last_change_s; /* wall clock: the last rule change heard */
	double start;
	int command_status; /* -1 while the command runs, or without one */
	bool exec_failed;   /* the command could not be executed: exit 127 */
};

/*
 * Each phase prints one line on failure and returns a negative errno;
 * session_close() undoes whatever the earlier phases did, and kills and
 * reaps a command that was started but never counted.
 */
int session_open(struct session *ss, struct count_options *opt);
int session_attach(struct session *ss);
int session_start_target(struct session *ss);
/* Drops what the loop does not need (and switches to --user), then serves metrics. */
int session_lower_privileges(struct session *ss);
int session_run(struct session *ss);
void session_finish(struct session *ss);
/* `profile`: instead of session_finish(), the counts as a profile in `path`. */
int session_save_profile(struct session *ss, const char *path);
/* The exit status: the command's, 0, or 1 (127 when the command cannot run). */
int session_close(struct session *ss, int err);

#endif /* __SESSION_H */
