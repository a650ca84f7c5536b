// SPDX-License-Identifier: GPL-2.0
/*
 * The price of an evaluation: what audit_filter_rules() adds to a visited
 * entry when the entry's mask has the syscall's bit, by the kind of field
 * that ends it (calibration.h's enum eval_kind).
 *
 * Each kind is timed as the visits are: getpid with N exit rules, here
 * naming getpid, whose first field fails for the timing child (uid 0, its
 * own arch, getpid succeeding), so every walk evaluates all N and matches
 * none. A uid field after it tells the N rules apart and is never reached.
 * The price is the latency above the visit curve at N, divided by N. The
 * match kind is one keyless never rule whose field passes: its walk ends
 * there, as a never,exit prefix entry ends it (time_match()).
 *
 * The dir and exe kinds need a path: a directory made for the run, removed
 * only after its rules are deleted (a directory removed under a tree or exe
 * rule removes the rule automatically, the stale accounting this tool
 * looks for).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <libaudit.h>
#include "audit/auditnl.h"
#include "live/calibrate.h"
#include "live/calibrate_internal.h"

/* An exit value getpid never returns (it returns the caller's pid). */
#define EXIT_THAT_FAILS (-4095)

/*
 * Fewer rules and passes than the curve: every pass adds and deletes each
 * kind's rules, and each change logs a record (to a TCG guest's serial
 * console, the slowest part of the run). 32 rules still put an evaluation
 * kind's few ns well above a getpid's noise.
 */
#define EVAL_RULES 32
#define EVAL_PASSES 3

/* What one kind's rule i holds, built into an AUDIT_ADD_RULE record. */
struct eval_rule {
	unsigned int action;
	unsigned int nfields;
	__u32 fields[3], ops[3], values[3];
	const char *strings[3]; /* string fields' text, NULL for numbers */
	char exe[sizeof(((struct calib_run *)0)->scratch_dir) + 16];
};

static void add_field(struct eval_rule *e, __u32 type, __u32 op, __u32 value, const char *str)
{
	e->fields[e->nfields] = type;
	e->ops[e->nfields] = op;
	e->values[e->nfields] = value;
	e->strings[e->nfields++] = str;
}

/* Rule i of kind k: the field that ends its evaluation, the uid that tells it apart, the key. */
static void eval_rule_of(const struct calib_run *r, enum eval_kind k, int i, struct eval_rule *e)
{
	__u32 native = audit_machine_to_elf(audit_detect_machine());

	memset(e, 0, sizeof(*e));
	e->action = AUDIT_ALWAYS;
	switch (k) {
	case EVAL_ARCH:
		add_field(e, AUDIT_ARCH, AUDIT_NOT_EQUAL, native, NULL);
		break;
	case EVAL_UID:
		break; /* the distinguishing uid field is the one that fails */
	case EVAL_AUID:
		add_field(e, AUDIT_LOGINUID, AUDIT_EQUAL, CALIB_UID_BASE, NULL);
		break;
	case EVAL_GID:
		add_field(e, AUDIT_GID, AUDIT_EQUAL, CALIB_UID_BASE, NULL);
		break;
	case EVAL_PERM:
		add_field(e, AUDIT_PERM, AUDIT_EQUAL, AUDIT_PERM_WRITE | AUDIT_PERM_ATTR, NULL);
		break;
	case EVAL_EXIT:
		add_field(e, AUDIT_EXIT, AUDIT_EQUAL, (__u32)EXIT_THAT_FAILS, NULL);
		break;
	case EVAL_SUCCESS:
		add_field(e, AUDIT_SUCCESS, AUDIT_EQUAL, 0, NULL);
		break;
	case EVAL_DIR:
		add_field(e, AUDIT_DIR, AUDIT_EQUAL, 0, r->scratch_dir);
		break;
	case EVAL_EXE:
		/* One path per rule: a mark each, as separate exe rules have. */
		snprintf(e->exe, sizeof(e->exe), "%s/exe%d", r->scratch_dir, i);
		add_field(e, AUDIT_EXE, AUDIT_EQUAL, 0, e->exe);
		break;
	case EVAL_LSM:
		/*
		 * A label no task has: AppArmor takes it as the rule's label;
		 * SELinux refuses a type its policy lacks (then not priced).
		 */
		add_field(e, AUDIT_SUBJ_TYPE, AUDIT_EQUAL, 0, "auditskip_calibration");
		break;
	case EVAL_ARCH_PASS:
		add_field(e, AUDIT_ARCH, AUDIT_EQUAL, native, NULL);
		break;
	case EVAL_MATCH:
		/* Keyless, as a prefix rule is: a key would be copied at the match. */
		e->action = AUDIT_NEVER;
		add_field(e, AUDIT_UID, AUDIT_NOT_EQUAL, CALIB_UID_BASE, NULL);
		return;
	case NR_EVAL_KINDS:
		return;
	}
	add_field(e, AUDIT_UID, AUDIT_EQUAL, CALIB_UID_BASE + 1 + i, NULL);
	add_field(e, AUDIT_FILTERKEY, AUDIT_EQUAL, 0, CALIBRATION_KEY);
}

static struct audit_rule_data *eval_rule_data(const struct calib_run *r, enum eval_kind k, int i)
{
	struct audit_rule_data *d;
	struct eval_rule e;
	size_t len = 0;
	int nr = SYS_getpid;

	eval_rule_of(r, k, i, &e);
	for (unsigned int f = 0; f < e.nfields; f++)
		len += e.strings[f] ? strlen(e.strings[f]) : 0;
	d = calloc(1, sizeof(*d) + len);
	if (!d)
		return NULL;
	d->flags = AUDIT_FILTER_EXIT;
	d->action = e.action;
	d->mask[nr / 32] |= 1U << (nr % 32);
	for (unsigned int f = 0; f < e.nfields; f++) {
		d->fields[f] = e.fields[f];
		d->fieldflags[f] = e.ops[f];
		d->values[f] = e.values[f];
		if (e.strings[f]) {
			d->values[f] = strlen(e.strings[f]);
			memcpy(d->buf + d->buflen, e.strings[f], d->values[f]);
			d->buflen += d->values[f];
		}
	}
	d->field_count = e.nfields;
	return d;
}

bool calib_rule_is_eval_match(const struct audit_rule_data *d)
{
	return d->flags == AUDIT_FILTER_EXIT && d->action == AUDIT_NEVER && d->field_count == 1 &&
	       d->fields[0] == AUDIT_UID && d->fieldflags[0] == AUDIT_NOT_EQUAL &&
	       d->values[0] == CALIB_UID_BASE;
}

static int change_eval_rule(struct calib_run *r, enum eval_kind k, int i, bool add)
{
	struct audit_rule_data *d = eval_rule_data(r, k, i);
	int ret;

	if (!d)
		return -ENOMEM;
	ret = add ? auditnl_add_rule(r->fd, d) : auditnl_delete_rule(r->fd, d);
	free(d);
	return ret;
}

int calib_eval_rules_remove(struct calib_run *r)
{
	for (; r->eval_loaded > 0; r->eval_loaded--) {
		int ret = change_eval_rule(r, r->eval_kind, r->eval_loaded - 1, false);

		/* Counted as still loaded: the scratch directory stays while it may be. */
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "calibrate: cannot delete a %s evaluation rule: %s\n",
				eval_kind_names[r->eval_kind], strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int calib_scratch_dir_remove(struct calib_run *r)
{
	int err = 0;

	/* Only once no rule names it: removing it under a rule is the stale bug. */
	if (r->eval_loaded || !r->scratch_dir[0])
		return 0;
	if (rmdir(r->scratch_dir) && errno != ENOENT) {
		err = -errno;
		fprintf(stderr, "calibrate: cannot remove %s: %s\n", r->scratch_dir,
			strerror(errno));
	}
	r->scratch_dir[0] = '\0';
	return err;
}

/*
 * Kind k's n rules loaded, no other calibration rule: 0, -ENOTSUP where the
 * kernel refuses one (a kind whose field is not built in; its rules are
 * deleted again), or the error that stops the run.
 */
static int eval_rules_load(struct calib_run *r, enum eval_kind k, int n)
{
	int ret = calib_eval_rules_remove(r)		 ?:
			  calib_empty_walk_set(r, false) ?:
							   calib_rules_set(r->fd, &r->loaded, 0);

	r->eval_kind = k;
	while (!ret && r->eval_loaded < n) {
		ret = change_eval_rule(r, k, r->eval_loaded, true);
		if (!ret) {
			r->eval_loaded++;
		} else if (ret != -ENOMEM) {
			if (r->verbose)
				fprintf(stderr,
					"calibrate: the kernel refuses %s evaluation rule %d (%s): "
					"the kind is not priced\n",
					eval_kind_names[k], r->eval_loaded + 1, strerror(-ret));
			return calib_eval_rules_remove(r) ?: -ENOTSUP;
		}
	}
	return ret;
}

/* A directory for the dir and exe kinds; false (said with -v) where none can be made. */
static bool make_scratch_dir(struct calib_run *r)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(r->scratch_dir, sizeof(r->scratch_dir), "%s/auditskip-calibrate.XXXXXX",
		 tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(r->scratch_dir)) {
		if (r->verbose)
			fprintf(stderr, "calibrate: no directory for the dir and exe kinds (%s)\n",
				strerror(errno));
		r->scratch_dir[0] = '\0';
		return false;
	}
	return true;
}

/* getpid latency with kind k's rules loaded: 0, -ENOTSUP (refused), or the run's error. */
static int time_kind(struct calib_run *r, enum eval_kind k, int rules, int pass, double *ns)
{
	int err = eval_rules_load(r, k, rules);

	err = err ?: calib_time_getpid(r, ns);
	err = err ?: calib_check_undisturbed(r->fd, calib_rules_in_list(r));
	if (!err && r->verbose)
		fprintf(stderr, "calibrate: pass %d, %3d %s evaluation rules: %.1f ns\n", pass + 1,
			rules, eval_kind_names[k], *ns);
	return err;
}

/*
 * One match a walk, whatever the rules: its few ns stand against the noise
 * of two latencies, not spread over N. So each pass times one visit-only
 * rule right before it, and the price is the median of the passes' paired
 * differences, which a slow drift of the machine does not move.
 */
static int time_match(struct calib_run *r, int pass, double *diff)
{
	double visit, match;
	int err = calib_eval_rules_remove(r)		 ?:
			  calib_empty_walk_set(r, false) ?:
							   calib_rules_set(r->fd, &r->loaded, 1);

	err = err ?: calib_time_getpid(r, &visit);
	err = err ?: time_kind(r, EVAL_MATCH, 1, pass, &match);
	if (!err)
		*diff = match - visit;
	return err;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int calib_measure_evaluations(struct calib_run *r, int max_rules, struct calibration *c)
{
	int n = max_rules < EVAL_RULES ? max_rules : EVAL_RULES;
	double best[NR_EVAL_KINDS] = { 0 }, match[EVAL_PASSES];
	bool refused[NR_EVAL_KINDS] = { false };
	bool have_dir = make_scratch_dir(r);
	int err = 0;

	refused[EVAL_DIR] = refused[EVAL_EXE] = !have_dir;
	for (int pass = 0; pass < EVAL_PASSES && !err; pass++) {
		for (int j = 0; j < NR_EVAL_KINDS && !err; j++) {
			enum eval_kind k = pass % 2 ? NR_EVAL_KINDS - 1 - j : j;
			double ns;

			if (calib_stopped())
				return -EINTR;
			if (refused[k])
				continue;
			if (k == EVAL_MATCH)
				err = time_match(r, pass, &match[pass]);
			else
				err = time_kind(r, k, n, pass, &ns);
			if (err == -ENOTSUP) {
				refused[k] = true;
				err = 0;
			} else if (!err && k != EVAL_MATCH && (!pass || ns < best[k])) {
				best[k] = ns;
			}
		}
	}
	err = calib_eval_rules_remove(r) ?: calib_scratch_dir_remove(r) ?: err;
	for (int k = 0; k < NR_EVAL_KINDS && !err; k++) {
		c->eval_measured[k] = !refused[k];
		if (refused[k])
			continue;
		if (k == EVAL_MATCH) {
			qsort(match, EVAL_PASSES, sizeof(match[0]), by_value);
			c->ns_eval[k] = match[EVAL_PASSES / 2];
		} else {
			c->ns_eval[k] = (best[k] - calibration_latency_at(c, n)) / n;
		}
		/* An evaluation adds work to a walk: a price at or below 0 is noise. */
		if (c->ns_eval[k] <= 0) {
			fprintf(stderr,
				"calibrate: the %s evaluation measured at %.1f ns: the machine is too noisy, try again\n",
				eval_kind_names[k], c->ns_eval[k]);
			err = -EAGAIN;
		}
	}
	return err;
}
