// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration's own rules: exit rules on openat that no task matches,
 * added and deleted one by one to set how many the exit walk visits, and
 * the task rule that makes contexts non-dummy with an empty exit list.
 * All carry CALIBRATION_KEY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <libaudit.h>
#include "audit/auditnl.h"
#include "live/calibrate.h"
#include "live/calibrate_internal.h"

bool calib_rule_is_ours(const struct audit_rule_data *d)
{
	return memmem(d->buf, d->buflen, CALIBRATION_KEY, strlen(CALIBRATION_KEY)) != NULL ||
	       calib_rule_is_eval_match(d);
}

int calib_rules_in_list(const struct calib_run *r)
{
	return r->loaded + r->empty_walk_loaded + r->eval_loaded;
}

/* "-a always,LIST [-F arch=ARCH] -F uid=UID -k auditskip-calibrate" (arch 0: none) */
static struct audit_rule_data *uid_rule(unsigned int list, __u32 arch, __u32 uid)
{
	size_t keylen = strlen(CALIBRATION_KEY);
	struct audit_rule_data *d = calloc(1, sizeof(*d) + keylen);
	unsigned int f = 0;

	if (!d)
		return NULL;
	d->flags = list;
	d->action = AUDIT_ALWAYS;
	if (arch) {
		d->fields[f] = AUDIT_ARCH;
		d->values[f] = arch;
		d->fieldflags[f++] = AUDIT_EQUAL;
	}
	d->fields[f] = AUDIT_UID;
	d->values[f] = uid;
	d->fieldflags[f++] = AUDIT_EQUAL;
	d->fields[f] = AUDIT_FILTERKEY;
	d->values[f] = keylen;
	d->fieldflags[f++] = AUDIT_EQUAL;
	memcpy(d->buf, CALIBRATION_KEY, keylen);
	d->buflen = keylen;
	d->field_count = f;
	return d;
}

/* "-a always,exit -F arch=b64 -S openat -F uid=N -k auditskip-calibrate" */
static struct audit_rule_data *calib_rule(int i)
{
	struct audit_rule_data *d =
		uid_rule(AUDIT_FILTER_EXIT, audit_machine_to_elf(audit_detect_machine()),
			 CALIB_UID_BASE + i);
	int nr = SYS_openat;

	if (d)
		d->mask[nr / 32] |= 1U << (nr % 32);
	return d;
}

/*
 * "-a always,task -F uid=N -k auditskip-calibrate": counted in audit_n_rules,
 * so contexts are not dummy, but on the task list, which only fork filters
 * on: every syscall walks an empty exit list. It never matches, so forks
 * are not audited differently.
 */
static struct audit_rule_data *empty_walk_rule(void)
{
	return uid_rule(AUDIT_FILTER_TASK, 0, CALIB_UID_BASE);
}

static int change_rule(int fd, struct audit_rule_data *d, bool add)
{
	int ret;

	if (!d)
		return -ENOMEM;
	ret = add ? auditnl_add_rule(fd, d) : auditnl_delete_rule(fd, d);
	free(d);
	return ret;
}

static int add_calib_rule(int fd, int i)
{
	return change_rule(fd, calib_rule(i), true);
}

static int del_calib_rule(int fd, int i)
{
	return change_rule(fd, calib_rule(i), false);
}

/* Brings the number of calibration rules from *loaded to `want`. */
int calib_rules_set(int fd, int *loaded, int want)
{
	int ret;

	while (*loaded < want) {
		ret = add_calib_rule(fd, *loaded + 1);
		if (ret) {
			fprintf(stderr, "calibrate: cannot add calibration rule %d: %s\n",
				*loaded + 1, strerror(-ret));
			return ret;
		}
		(*loaded)++;
	}
	while (*loaded > want) {
		ret = del_calib_rule(fd, *loaded);
		if (ret) {
			fprintf(stderr, "calibrate: cannot delete calibration rule %d: %s\n",
				*loaded, strerror(-ret));
			return ret;
		}
		(*loaded)--;
	}
	return 0;
}

int calib_empty_walk_set(struct calib_run *r, bool want)
{
	int ret;

	if (r->empty_walk_loaded == want)
		return 0;
	ret = change_rule(r->fd, empty_walk_rule(), want);
	if (ret) {
		fprintf(stderr, "calibrate: cannot %s the empty-walk task rule: %s\n",
			want ? "add" : "delete", strerror(-ret));
		return ret;
	}
	r->empty_walk_loaded = want;
	return 0;
}

/* Every rule the run added deleted (one already gone is no error); the first error. */
int calib_rules_remove(struct calib_run *r)
{
	int ret, err = calib_eval_rules_remove(r) ?: calib_scratch_dir_remove(r);

	if (r->empty_walk_loaded) {
		ret = change_rule(r->fd, empty_walk_rule(), false);
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "calibrate: cannot delete the empty-walk task rule: %s\n",
				strerror(-ret));
			err = err ?: ret;
		}
		r->empty_walk_loaded = false;
	}
	for (int i = r->loaded; i >= 1; i--) {
		ret = del_calib_rule(r->fd, i);
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "calibrate: cannot delete calibration rule %d: %s\n", i,
				strerror(-ret));
			err = err ?: ret;
		}
	}
	r->loaded = 0;
	return err;
}
