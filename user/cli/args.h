/* SPDX-License-Identifier: GPL-2.0 */
/* Command line. */
#ifndef __ARGS_H
#define __ARGS_H

#include <stdbool.h>
#include <sys/types.h>

enum subcommand {
	CMD_COUNT,     /* attach and count walks */
	CMD_RULES,     /* print the exit rules and their aggregate mask */
	CMD_CALIBRATE, /* measure the cost of a visited rule entry */
	CMD_ADVISE,    /* equivalent rewrites of the rules that let the skip fire */
	CMD_PROFILE,   /* record a workload's syscalls, no rule needed */
	CMD_WHATIF,    /* predict a rule set's walks on a recorded profile */
};

struct env {
	enum subcommand command;
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
	const char *calibration; /* file to read (count) or write (calibrate) */
	int calib_rules;	 /* calibrate: most rules added; 0: max(64, exit rules) */
	int calib_cpu;		 /* calibrate: CPU to time on, -1: the current one */
	int per_comm;		 /* --per-comm: top N process names, 0: off */
	bool timing;		 /* --timing: time the walks (trampoline modes) */
	const char *output;	 /* profile: -o FILE; advise: the rules file to write, or NULL */
	const char *profile;	 /* whatif: --profile FILE */
	const char *rules_path;	 /* whatif: --rules PATH, "-": the rules loaded now */
	int list_period_ms;	 /* tests only: the periodic listing's period, 0: from its cost */
	int notify_rcvbuf;	 /* tests only: the change socket's buffer in bytes, 0: default */
	const char *rules_file;	 /* rules --file: a rules file or rules.d directory to read */
};

/* 0, or the exit status for a bad command line (after a message). */
int parse_args(int argc, char **argv, struct env *env);

#endif /* __ARGS_H */
