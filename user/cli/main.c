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
#include "model/advise.h"
#include "model/advise_profile.h"
#include "live/calibrate.h"
#include "output/whatif_report.h"
#include "model/profile.h"
#include "output/report.h"
#include "audit/ruleset.h"
#include "audit/rules_source.h"
#include "audit/rules_file.h"
#include "live/session.h"
#include "audit/syscalls.h"
#include "live/sysinfo.h"
#include "model/sharper_masks.h"

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
	if ((env->command == CMD_COUNT || env->command == CMD_PROFILE) && !st->enabled) {
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

/* --file PATH into rs; 0, or -1 after auditctl's kind of message. */
static int read_rules_file(const struct env *env, struct ruleset *rs)
{
	struct rules_file_error fe;
	int err = rules_file_read(env->rules_file, rs, &fe);

	if (!err)
		return 0;
	if (fe.line)
		fprintf(stderr, "auditskip: %s:%u: %s\n", fe.file, fe.line, fe.message);
	else
		fprintf(stderr, "auditskip: %s: %s\n", fe.file, fe.message);
	ruleset_free(rs);
	return -1;
}

/* rules --file: nothing is loaded, so no privilege is needed. */
static int cmd_rules_file(const struct env *env)
{
	struct ruleset rs;

	if (read_rules_file(env, &rs))
		return 1;
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

/*
 * The permission classes as the running kernel filled them, the way a
 * counting run gets them: BPF copies them on the first rule listing where
 * it keeps the mask mirror (fexit programs, bpf_loop(), 'classes' in
 * /proc/kallsyms). False elsewhere.
 */
static bool read_kernel_classes(struct env *env, struct kernel_classes *out)
{
	struct session ss;
	bool got = false;
	int err = session_open(&ss, env);

	if (!err)
		err = session_attach(&ss);
	if (!err && kernel_classes_valid(&ss.kernel_classes)) {
		*out = ss.kernel_classes;
		got = true;
	}
	session_close(&ss, err);
	return got;
}

static int check_profile_arches(const struct profile *p, const char *path);

/* env->profile read and checked, and the calibration to price it; NULL after a message. */
static struct profile *open_profile(const struct env *env, struct calibration *calib,
				    const char **calib_from)
{
	struct profile *prof = calloc(1, sizeof(*prof));
	char why[512];

	if (!prof) {
		fprintf(stderr, "auditskip: out of memory\n");
		return NULL;
	}
	if (profile_load(env->profile, prof, why, sizeof(why))) {
		fprintf(stderr, "auditskip: %s is not a usable profile: %s\n", env->profile, why);
	} else if (!check_profile_arches(prof, env->profile) &&
		   !load_calibration(env, calib, calib_from)) {
		return prof;
	}
	free(prof);
	return NULL;
}

/* advise --profile: the rewrite's predicted effect on a recorded workload. */
static int advise_on_profile(const struct env *env, const struct ruleset *rs,
			     const struct advice *a, const struct kernel_classes *kc)
{
	struct advise_prediction ap;
	struct calibration calib;
	const char *calib_from;
	struct profile *prof = open_profile(env, &calib, &calib_from);
	int ret = 1;

	if (!prof)
		return 1;
	if (!advise_predict(rs, a, prof, kc, &ap)) {
		advise_prediction_report(stdout, &ap, prof, env->profile, &calib, env->top,
					 env->json);
		ret = 0;
	}
	advise_prediction_free(&ap);
	free(prof);
	return ret;
}

static int cmd_advise(struct env *env)
{
	struct audit_status_info st;
	struct kernel_classes kc;
	struct advice a;
	struct ruleset rs;
	bool have_classes;
	int err, ret = 1;
	FILE *out;

	/*
	 * A rules file needs no privilege to read; its perm= rewrites still
	 * need the running kernel's classes, which only root can get.
	 */
	if (env->rules_file) {
		if (read_rules_file(env, &rs))
			return 1;
		have_classes = !missing_privilege() && read_kernel_classes(env, &kc);
	} else {
		if (preflight(env, &st))
			return 1;
		have_classes = read_kernel_classes(env, &kc);
		err = ruleset_load(&rs);
		if (err) {
			fprintf(stderr, "auditskip: cannot list audit rules: %s\n", strerror(-err));
			return 1;
		}
	}
	if (advise_build(&rs, have_classes ? &kc : NULL, &a)) {
		fprintf(stderr, "auditskip: out of memory\n");
		ruleset_free(&rs);
		return 1;
	}
	if (env->output) {
		out = fopen(env->output, "w");
		if (!out) {
			fprintf(stderr, "auditskip: cannot write %s: %s\n", env->output,
				strerror(errno));
			goto cleanup;
		}
		err = advise_write_rules(out, &rs, &a,
					 env->rules_file ? env->rules_file : "the rules loaded");
		if (fclose(out) && !err)
			err = -errno;
		if (err) {
			if (err != -EINVAL)
				fprintf(stderr, "auditskip: cannot write %s: %s\n", env->output,
					strerror(-err));
			unlink(env->output);
			goto cleanup;
		}
	}
	advise_report(stdout, &rs, &a, env->json);
	ret = env->profile ? advise_on_profile(env, &rs, &a, have_classes ? &kc : NULL) : 0;
cleanup:
	advise_free(&a);
	ruleset_free(&rs);
	return ret;
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
	if (err) /* 75 (EX_TEMPFAIL): audit policy changed meanwhile, or too noisy; try again */
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
	if (c.walk_call_timed)
		printf("  the call that walks an empty exit list: %.1f ns (fentry/fexit timing)\n",
		       c.ns_walk_call);
	else
		printf("  the call that walks an empty exit list: not timed here (no fentry), "
		       "left out of predictions\n");
	printf("saved to %s\n", path);
	return 0;
}

/*
 * Counting, or with `profiling` every call audit would filter recorded into
 * a profile file; only counting drops privileges once started.
 */
static int cmd_count(struct env *env, bool profiling)
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
	if (!err && !profiling)
		err = session_lower_privileges(&ss);
	if (!err)
		err = session_run(&ss);
	if (!err && profiling)
		err = session_save_profile(&ss, env->output);
	else if (!err)
		session_finish(&ss);
	return session_close(&ss, err);
}

/* The profile's arches are this machine's: rule masks and arch= fields are numbered by them. */
static int check_profile_arches(const struct profile *p, const char *path)
{
	for (enum slot_arch a = 0; a < NR_ARCHES; a++) {
		const char *here = arch_machine(a) >= 0 ? arch_name(a) : "";

		if (strcmp(p->arches[a], here) && (p->arches[a][0] || a == ARCH_NATIVE)) {
			fprintf(stderr,
				"auditskip: %s was recorded on %s, this machine is %s: predict on the machine it was recorded on\n",
				path, p->arches[ARCH_NATIVE], arch_name(ARCH_NATIVE));
			return -EINVAL;
		}
	}
	return 0;
}

static int cmd_whatif(const struct env *env)
{
	struct audit_status_info st;
	struct prediction pred;
	struct calibration calib;
	struct ruleset rs = { 0 };
	const char *calib_from;
	struct profile *prof = open_profile(env, &calib, &calib_from);
	char why[512], kernel[128];
	int ret = 1;

	if (!prof)
		return 1;
	/* The rules loaded now need root; a rules file does not. */
	if (!strcmp(env->rules_path, "-") && preflight(env, &st))
		goto out;
	if (rules_source_read(env->rules_path, &rs, why, sizeof(why))) {
		fprintf(stderr, "auditskip: %s\n", why);
		goto out;
	}
	if (prediction_make(&rs, prof, NULL, &pred)) {
		fprintf(stderr, "auditskip: out of memory\n");
		goto out;
	}
	kernel_release(kernel, sizeof(kernel));
	prediction_report(stdout,
			  &(struct whatif_run){
				  .rules_path = env->rules_path,
				  .profile_path = env->profile,
				  .rules = &rs,
				  .profile = prof,
				  .pred = &pred,
				  .calib = &calib,
				  .calib_from = calib_from,
				  .kernel = kernel,
				  .perm_classes = whatif_perm_classes(NULL),
				  .top = env->top,
			  },
			  env->json);
	prediction_free(&pred);
	ret = 0;
out:
	ruleset_free(&rs);
	free(prof);
	return ret;
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
	case CMD_ADVISE:
		return cmd_advise(&env);
	case CMD_PROFILE:
		return cmd_count(&env, true);
	case CMD_WHATIF:
		return cmd_whatif(&env);
	default:
		return cmd_count(&env, false);
	}
}
