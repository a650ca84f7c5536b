// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's audit policy around a calibration: its rule list saved
 * record by record, taken off with audit enabled, watched for changes by
 * another process while the run measures, then put back in its order and
 * compared record by record, and audit's flag as it was.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "audit/auditnl.h"
#include "live/calibrate.h"
#include "live/calibrate_internal.h"

static void saved_rules_free(struct saved_rules *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->rec[i]);
	free(s->rec);
	free(s->len);
	memset(s, 0, sizeof(*s));
}

/* A record is kept whole: header plus string buffer, as it is sent back. */
static int saved_rules_push(const struct audit_rule_data *d, size_t listed, void *arg)
{
	size_t len = sizeof(*d) + d->buflen;
	struct saved_rules *s = arg;
	struct audit_rule_data **rec;
	size_t *lens;

	(void)listed;
	rec = realloc(s->rec, (s->n + 1) * sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	s->rec = rec;
	lens = realloc(s->len, (s->n + 1) * sizeof(*lens));
	if (!lens)
		return -ENOMEM;
	s->len = lens;
	s->rec[s->n] = malloc(len);
	if (!s->rec[s->n])
		return -ENOMEM;
	memcpy(s->rec[s->n], d, len);
	s->len[s->n] = len;
	s->n++;
	return 0;
}

/* Every record of AUDIT_LIST_RULES, in the kernel's order. */
static int list_rules(int fd, struct saved_rules *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = auditnl_list_rules(fd, saved_rules_push, out);
	if (ret)
		saved_rules_free(out);
	return ret;
}

static bool same_rules(const struct saved_rules *a, const struct saved_rules *b, size_t *first_diff)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (a->len[i] != b->len[i] || memcmp(a->rec[i], b->rec[i], a->len[i]))
			break;
	*first_diff = i;
	return a->n == b->n && i == a->n;
}

/* The raw `enabled` value of AUDIT_GET: 0, 1 or 2 (locked). */
static int read_enabled(int fd, unsigned int *enabled)
{
	struct audit_status st;
	int ret = auditnl_get_status(fd, &st);

	if (!ret)
		*enabled = st.enabled;
	return ret;
}

/*
 * Someone else changing audit while we measure (a test suite, auditd
 * reloading rules) makes the numbers meaningless and the restore unsafe: the
 * list must hold exactly our `loaded` rules and audit must still be on.
 */
int calib_check_undisturbed(int fd, int loaded)
{
	struct saved_rules now;
	unsigned int enabled = 0;
	bool ours = true;
	int ret;

	ret = read_enabled(fd, &enabled);
	if (ret)
		return ret;
	ret = list_rules(fd, &now);
	if (ret)
		return ret;
	for (size_t i = 0; i < now.n; i++)
		if (!calib_rule_is_ours(now.rec[i]))
			ours = false;
	if (enabled != 1 || !ours || now.n != (size_t)loaded) {
		fprintf(stderr,
			"calibrate: audit was changed by another process during "
			"calibration (enabled %u, %zu rules loaded, %d expected%s)\n",
			enabled, now.n, loaded, ours ? "" : ", some not ours");
		ret = -EBUSY;
	}
	saved_rules_free(&now);
	return ret;
}

void calib_run_free(struct calib_run *r)
{
	free(r->removed);
	saved_rules_free(&r->saved);
	auditnl_close(r->fd);
}

/* The socket and audit's flag; refuses a locked audit, whose rules cannot be put back. */
int calib_open_audit(struct calib_run *r)
{
	int ret;

	r->fd = auditnl_open();
	if (r->fd < 0) {
		fprintf(stderr, "calibrate: cannot open the audit netlink socket: %s\n",
			strerror(-r->fd));
		return r->fd;
	}
	ret = read_enabled(r->fd, &r->enabled);
	if (ret) {
		fprintf(stderr, "calibrate: cannot read audit status: %s\n", strerror(-ret));
		return ret;
	}
	if (r->enabled == 2) {
		fprintf(stderr,
			"calibrate: audit is locked (enabled 2): the rule list cannot be "
			"changed and restored, so nothing was touched\n");
		return -EPERM;
	}
	return 0;
}

/* A copy of the machine's rule list to put back; refuses if calibration rules are in it. */
int calib_save_rules(struct calib_run *r)
{
	int ret = list_rules(r->fd, &r->saved);

	if (ret) {
		fprintf(stderr, "calibrate: cannot save the rule list (%s): nothing was touched\n",
			strerror(-ret));
		return ret;
	}
	for (size_t i = 0; i < r->saved.n; i++) {
		if (calib_rule_is_ours(r->saved.rec[i])) {
			fprintf(stderr,
				"calibrate: rules with key %s are loaded already (another "
				"calibration running, or left over?): nothing was touched\n",
				CALIBRATION_KEY);
			return -EBUSY;
		}
	}
	r->removed = calloc(r->saved.n + 1, sizeof(*r->removed));
	return r->removed ? 0 : -ENOMEM;
}

static const int calib_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static volatile sig_atomic_t stop_signal;

static void ask_to_stop(int sig)
{
	stop_signal = sig;
}

void calib_catch_signals(struct calib_run *r)
{
	struct sigaction sa = { .sa_handler = ask_to_stop, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(calib_signals) / sizeof(calib_signals[0]); i++)
		sigaction(calib_signals[i], &sa, &r->old_actions[i]);
}

void calib_release_signals(struct calib_run *r)
{
	for (size_t i = 0; i < sizeof(calib_signals) / sizeof(calib_signals[0]); i++)
		sigaction(calib_signals[i], &r->old_actions[i], NULL);
}

int calib_stopped(void)
{
	return stop_signal;
}

/* Audit on, the saved rules off (last first), each noted for the restore. */
int calib_take_policy_off(struct calib_run *r)
{
	int ret;

	if (r->verbose)
		fprintf(stderr, "calibrate: saved %zu rules, audit enabled %u\n", r->saved.n,
			r->enabled);
	if (!r->enabled) {
		ret = auditnl_set_enabled(r->fd, 1);
		if (ret) {
			fprintf(stderr, "calibrate: cannot enable audit: %s\n", strerror(-ret));
			return ret;
		}
		r->enabled_by_us = true;
	}
	for (size_t i = r->saved.n; i-- > 0;) {
		ret = auditnl_delete_rule(r->fd, r->saved.rec[i]);
		if (ret) {
			fprintf(stderr, "calibrate: cannot delete saved rule %zu: %s\n", i + 1,
				strerror(-ret));
			return ret;
		}
		r->removed[i] = true;
	}
	return 0;
}

/*
 * Puts the saved list back: calibration rules off, saved records re-added in
 * listing order (the kernel cleared any prepend flag when it first added
 * them, so appending rebuilds each list's order), then compared record by
 * record with a fresh listing.
 */
static int restore_rules(struct calib_run *r)
{
	const struct saved_rules *saved = &r->saved;
	struct saved_rules now;
	int ret, err = calib_rules_remove(r);
	size_t diff;

	for (size_t i = 0; i < saved->n; i++) {
		if (!r->removed[i])
			continue;
		ret = auditnl_add_rule(r->fd, saved->rec[i]);
		if (ret) {
			fprintf(stderr, "calibrate: CANNOT RESTORE saved rule %zu of %zu: %s\n",
				i + 1, saved->n, strerror(-ret));
			err = err ?: ret;
		}
	}
	ret = list_rules(r->fd, &now);
	if (ret) {
		fprintf(stderr, "calibrate: cannot list rules to verify the restore: %s\n",
			strerror(-ret));
		return err ?: ret;
	}
	if (!same_rules(saved, &now, &diff)) {
		fprintf(stderr,
			"calibrate: RULES NOT RESTORED EXACTLY: %zu rules saved, %zu loaded now, "
			"first difference at rule %zu (compare `auditctl -l` with your rule files)\n",
			saved->n, now.n, diff + 1);
		err = err ?: -EIO;
	}
	saved_rules_free(&now);
	return err;
}

/* The rules as they were, then audit's flag as it was. */
int calib_put_policy_back(struct calib_run *r)
{
	int ret, err = restore_rules(r);

	if (!err && r->verbose)
		fprintf(stderr, "calibrate: %zu saved rules restored and verified\n", r->saved.n);
	if (r->enabled_by_us) {
		ret = auditnl_set_enabled(r->fd, 0);
		if (ret) {
			fprintf(stderr,
				"calibrate: CANNOT DISABLE AUDIT AGAIN: %s "
				"(run `auditctl -e 0`)\n",
				strerror(-ret));
			err = err ?: ret;
		}
	}
	return err;
}
