// SPDX-License-Identifier: GPL-2.0
/*
 * auditskip: how often would the aggregate syscall-mask check of the audit
 * patch series skip the exit filter walk, on this stock kernel?
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libaudit.h>
#include "calibrate.h"
#include "report.h"
#include "rules.h"
#include "rulesfile.h"
#include "session.h"
#include "sysinfo.h"

/* One clear line for what stops us before anything is attached. */
static int preflight(const struct env *env, struct audit_status_info *st)
{
	const char *missing = missing_privilege();
	int err;

	if (missing) {
		fprintf(stderr, "auditskip: needs root: this process lacks %s\n", missing);
		return -EPERM;
	}
	err = audit_status_read(st);
	if (err == -EPROTONOSUPPORT) {
		fprintf(stderr,
			"auditskip: this kernel has no audit support (CONFIG_AUDIT is off): nothing to measure\n");
		return err;
	}
	if (err) {
		fprintf(stderr, "auditskip: cannot read audit status: %s\n", strerror(-err));
		return err;
	}
	if (env->command == CMD_COUNT && !st->enabled) {
		fprintf(stderr,
			"auditskip: audit is disabled: enable it with 'auditctl -e 1', then start the processes to measure (tasks forked before that are never audited)\n");
		return -EINVAL;
	}
	if (env->pid && kill(env->pid, 0) && errno == ESRCH) {
		fprintf(stderr, "auditskip: no process with pid %d\n", env->pid);
		return -ESRCH;
	}
	return 0;
}

/* rules --file: nothing is loaded, so no privilege is needed. */
static int cmd_rules_file(const struct env *env)
{
	struct rules_file_error fe;
	struct ruleset rs;
	int err = rules_file_read(env->rules_file, &rs, &fe);

	if (err) {
		if (fe.line)
			fprintf(stderr, "auditskip: %s:%u: %s\n", fe.file, fe.line, fe.message);
		else
			fprintf(stderr, "auditskip: %s: %s\n", fe.file, fe.message);
		ruleset_free(&rs);
		return 1;
	}
	report_rules(stdout, &rs, env->json);
	ruleset_free(&rs);
	return 0;
}

static int cmd_rules(const struct env *env)
{
	struct audit_status_info st;
	struct ruleset rs;
	int err;

	if (env->rules_file)
		return cmd_rules_file(env);
	err = preflight(env, &st);

	if (err)
		return 1;
	err = ruleset_load(&rs);
	if (err) {
		fprintf(stderr, "auditskip: cannot list audit rules: %s\n", strerror(-err));
		return 1;
	}
	report_rules(stdout, &rs, env->json);
	ruleset_free(&rs);
	return 0;
}

static int cmd_calibrate(const struct env *env)
{
	const char *path = env->calibration ? env->calibration : calibration_default_path();
	struct audit_status_info st;
	struct calibration c;
	struct ruleset rs;
	int rules = env->calib_rules, err = preflight(env, &st);

	if (err)
		return 1;
	if (!rules) {
		/* The per-entry cost grows with the list: calibrate up to its length. */
		if (ruleset_load(&rs)) {
			fprintf(stderr, "auditskip: cannot list audit rules\n");
			return 1;
		}
		rules = ruleset_exit_rules(&rs) > 64 ? ruleset_exit_rules(&rs) : 64;
		ruleset_free(&rs);
	}
	err = calibrate_run_on_cpu(rules, env->calib_cpu, env->verbose, &c);
	if (err) /* 75 (EX_TEMPFAIL): another process changed audit policy; try again */
		return err == -EBUSY || err == -EAGAIN ? 75 : 1;
	err = calibration_save(path, &c);
	if (err) {
		fprintf(stderr, "auditskip: cannot save %s: %s\n", path, strerror(-err));
		return 1;
	}
	printf("calibrated up to %d rules: %.2f ns per visited entry (fit), %.0f ns for a non-dummy context\n",
	       c.rules_used, c.ns_per_entry, c.ns_context);
	for (int i = 0; i < c.npoints; i++) {
		printf("  %4d rules: getpid %.0f ns\n", c.points[i].rules, c.points[i].ns);
		if (c.points[i].rules == 0)
			printf("  empty exit list (one task rule): getpid %.0f ns\n",
			       c.ns_empty_walk);
	}
	printf("saved to %s\n", path);
	return 0;
}

static int cmd_count(struct env *env)
{
	struct audit_status_info st;
	struct session ss;
	int err;

	if (preflight(env, &st))
		return 1;
	err = session_open(&ss, env);
	if (!err)
		err = session_attach(&ss);
	if (!err)
		err = session_start_target(&ss);
	if (!err)
		err = session_run(&ss);
	if (!err)
		session_finish(&ss);
	return session_close(&ss, err);
}

int main(int argc, char **argv)
{
	struct env env = {
		.mode = -1, .top = 10, .sync_ms = 1000, .corrupt_nr = -1, .calib_cpu = -1
	};
	int err = parse_args(argc, argv, &env);

	if (err)
		return err;
	set_aumessage_mode(MSG_QUIET, DBG_NO);
	switch (env.command) {
	case CMD_RULES:
		return cmd_rules(&env);
	case CMD_CALIBRATE:
		return cmd_calibrate(&env);
	default:
		return cmd_count(&env);
	}
}
