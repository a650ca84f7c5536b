// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration file and the latency curve it describes.
 *
 * The cost per visited entry is not constant: it rises once the exit list
 * outgrows the L1 cache (audit_filter_syscall() follows one list_head and
 * reads one mask word per entry), so the curve is kept as measured points
 * rather than a single slope.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include "model/calibration.h"

#define DEFAULT_PATH "/var/lib/auditskip/calibration.json"

const char *const eval_kind_names[NR_EVAL_KINDS] = {
	[EVAL_ARCH] = "arch",
	[EVAL_UID] = "uid",
	[EVAL_AUID] = "auid",
	[EVAL_GID] = "gid",
	[EVAL_PERM] = "perm",
	[EVAL_EXIT] = "exit",
	[EVAL_SUCCESS] = "success",
	[EVAL_DIR] = "dir",
	[EVAL_EXE] = "exe",
	[EVAL_LSM] = "lsm",
	[EVAL_ARCH_PASS] = "arch_pass",
	[EVAL_MATCH] = "match",
};

const char *calibration_default_path(void)
{
	return DEFAULT_PATH;
}

/* ------------------------------------------------------------- saving --- */

static struct json_object *to_json(const struct calibration *c)
{
	struct json_object *o = json_object_new_object(), *pts = json_object_new_array();

	if (!o || !pts) {
		json_object_put(o);
		json_object_put(pts);
		return NULL;
	}
	json_object_object_add(o, "schema", json_object_new_int(CALIBRATION_SCHEMA));
	json_object_object_add(o, "ns_per_entry", json_object_new_double(c->ns_per_entry));
	json_object_object_add(o, "ns_context", json_object_new_double(c->ns_context));
	if (c->ns_empty_walk > 0)
		json_object_object_add(o, "ns_empty_walk",
				       json_object_new_double(c->ns_empty_walk));
	if (c->walk_call_timed)
		json_object_object_add(o, "ns_walk_call", json_object_new_double(c->ns_walk_call));
	if (c->counting_mode[0]) {
		struct json_object *k = json_object_new_object();

		json_object_object_add(k, "mode", json_object_new_string(c->counting_mode));
		json_object_object_add(k, "ns_added", json_object_new_double(c->ns_counting));
		json_object_object_add(o, "counting", k);
	}
	json_object_object_add(o, "rules_used", json_object_new_int(c->rules_used));
	json_object_object_add(o, "kernel", json_object_new_string(c->kernel));
	json_object_object_add(o, "when", json_object_new_int64(c->when));
	for (int i = 0; i < c->npoints && i < CALIBRATION_MAX_POINTS; i++) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "rules", json_object_new_int(c->points[i].rules));
		json_object_object_add(p, "ns", json_object_new_double(c->points[i].ns));
		json_object_array_add(pts, p);
	}
	json_object_object_add(o, "points", pts);
	if (calibration_prices_evaluations(c)) {
		struct json_object *ev = json_object_new_object();

		for (int k = 0; k < NR_EVAL_KINDS; k++)
			if (c->eval_measured[k])
				json_object_object_add(ev, eval_kind_names[k],
						       json_object_new_double(c->ns_eval[k]));
		json_object_object_add(o, "evaluation_ns", ev);
	}
	return o;
}

/* Creates the last directory of `path` if missing (/var/lib/auditskip on first use). */
static int make_parent_dir(const char *path)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return mkdir(dir, 0755) && errno != EEXIST ? -errno : 0;
}

/* `text` and a newline into a temporary file renamed to `path`: never half a file. */
static int write_atomically(const char *path, const char *text)
{
	size_t len = strlen(text);
	char tmp[4096];
	int fd, err;

	err = make_parent_dir(path);
	if (err)
		return err;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1 || fsync(fd)) {
		err = errno ? -errno : -EIO;
		close(fd);
		unlink(tmp);
		return err;
	}
	close(fd);
	if (rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}

int calibration_save(const char *path, const struct calibration *c)
{
	struct json_object *o = to_json(c);
	int err;

	if (!o)
		return -ENOMEM;
	err = write_atomically(path, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return err;
}

/* ------------------------------------------------------------ loading --- */

/* The whole file into `buf`, NUL-terminated; -EINVAL if it does not fit. */
static int read_small_file(const char *path, char *buf, size_t size, size_t *len)
{
	FILE *fp = fopen(path, "re");
	int err = 0;

	if (!fp)
		return -errno;
	*len = fread(buf, 1, size - 1, fp);
	if (ferror(fp))
		err = -EIO;
	else if (!feof(fp)) /* far larger than any calibration */
		err = -EINVAL;
	fclose(fp);
	buf[*len] = '\0';
	return err;
}

static bool get_number(struct json_object *o, const char *key, double *v)
{
	struct json_object *f;

	if (!json_object_object_get_ex(o, key, &f) ||
	    !(json_object_is_type(f, json_type_double) || json_object_is_type(f, json_type_int)))
		return false;
	*v = json_object_get_double(f);
	return isfinite(*v);
}

/*
 * Far past anything measured (a getpid of a second), so that the model's
 * arithmetic on an accepted file stays finite.
 */
static bool plausible_ns(double ns)
{
	return ns >= 0 && ns <= 1e9;
}

/* The "points" array, which may be absent. */
static bool points_from_json(struct json_object *o, struct calibration *r)
{
	struct json_object *pts;
	double v;

	if (!json_object_object_get_ex(o, "points", &pts))
		return true;
	if (!json_object_is_type(pts, json_type_array) ||
	    json_object_array_length(pts) > CALIBRATION_MAX_POINTS)
		return false;
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		struct json_object *p = json_object_array_get_idx(pts, i);

		if (!json_object_is_type(p, json_type_object) || !get_number(p, "rules", &v) ||
		    !get_number(p, "ns", &r->points[i].ns))
			return false;
		/* Whole rule counts, rising: the curve is piecewise linear between them. */
		if (v != floor(v) || v < 0 || v > CALIBRATION_MAX_RULES ||
		    (i > 0 && v <= r->points[i - 1].rules) || !plausible_ns(r->points[i].ns))
			return false;
		r->points[i].rules = (int)v;
		r->npoints++;
	}
	return true;
}

/*
 * The optional "evaluation_ns" object: kinds it does not know are refused,
 * a file from a newer auditskip should not be half read. Noise can make a
 * measured price slightly negative; far below zero is no measurement.
 */
static bool evaluations_from_json(struct json_object *o, struct calibration *r)
{
	struct json_object *ev;

	if (!json_object_object_get_ex(o, "evaluation_ns", &ev))
		return true;
	if (!json_object_is_type(ev, json_type_object))
		return false;
	json_object_object_foreach(ev, name, val)
	{
		int k = 0;

		while (k < NR_EVAL_KINDS && strcmp(eval_kind_names[k], name))
			k++;
		(void)val;
		if (k == NR_EVAL_KINDS || !get_number(ev, name, &r->ns_eval[k]) ||
		    !plausible_ns(r->ns_eval[k] + 1e3))
			return false;
		r->eval_measured[k] = true;
	}
	return true;
}

/* The optional "counting" object: the mode measured and what its programs add. */
static bool counting_from_json(struct json_object *o, struct calibration *r)
{
	struct json_object *k, *mode;

	if (!json_object_object_get_ex(o, "counting", &k))
		return true;
	if (!json_object_object_get_ex(k, "mode", &mode) ||
	    !json_object_is_type(mode, json_type_string) || !json_object_get_string_len(mode) ||
	    (size_t)json_object_get_string_len(mode) >= sizeof(r->counting_mode) ||
	    !get_number(k, "ns_added", &r->ns_counting) || fabs(r->ns_counting) > 1e9)
		return false;
	snprintf(r->counting_mode, sizeof(r->counting_mode), "%s", json_object_get_string(mode));
	return true;
}

static bool from_json(struct json_object *o, struct calibration *r)
{
	struct json_object *f;
	double v;

	if (!get_number(o, "schema", &v) || v != CALIBRATION_SCHEMA)
		return false;
	if (!get_number(o, "ns_per_entry", &r->ns_per_entry) || !plausible_ns(r->ns_per_entry))
		return false;
	if (!get_number(o, "ns_context", &r->ns_context) || !plausible_ns(r->ns_context))
		return false;
	/* Optional: files from before it was measured have none. */
	if (json_object_object_get_ex(o, "ns_empty_walk", &f) &&
	    (!get_number(o, "ns_empty_walk", &r->ns_empty_walk) || !plausible_ns(r->ns_empty_walk)))
		return false;
	r->walk_call_timed = json_object_object_get_ex(o, "ns_walk_call", &f);
	if (r->walk_call_timed &&
	    (!get_number(o, "ns_walk_call", &r->ns_walk_call) || !plausible_ns(r->ns_walk_call)))
		return false;
	if (!json_object_object_get_ex(o, "rules_used", &f) ||
	    !json_object_is_type(f, json_type_int) || json_object_get_int(f) < 1)
		return false;
	r->rules_used = json_object_get_int(f);
	if (!json_object_object_get_ex(o, "when", &f) || !json_object_is_type(f, json_type_int))
		return false;
	r->when = json_object_get_int64(f);
	if (!json_object_object_get_ex(o, "kernel", &f) ||
	    !json_object_is_type(f, json_type_string) ||
	    (size_t)json_object_get_string_len(f) >= sizeof(r->kernel))
		return false;
	snprintf(r->kernel, sizeof(r->kernel), "%s", json_object_get_string(f));
	return points_from_json(o, r) && evaluations_from_json(o, r) && counting_from_json(o, r);
}

int calibration_parse(const char *text, size_t len, struct calibration *c)
{
	struct calibration r = { 0 };
	struct json_tokener *tok;
	struct json_object *o;
	int err = -EINVAL;

	if (len > CALIBRATION_MAX_BYTES)
		return -EINVAL;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(o, json_type_object))
		goto out;
	/* One object and nothing after it but white space. */
	for (size_t i = json_tokener_get_parse_end(tok); i < len; i++)
		if (!text[i] || !strchr(" \t\r\n", text[i]))
			goto out;
	if (!from_json(o, &r))
		goto out;
	*c = r;
	err = 0;
out:
	json_object_put(o);
	json_tokener_free(tok);
	return err;
}

int calibration_load(const char *path, struct calibration *c)
{
	char buf[CALIBRATION_MAX_BYTES + 1];
	size_t len = 0;
	int err;

	err = read_small_file(path, buf, sizeof(buf), &len);
	if (err)
		return err;
	return calibration_parse(buf, len, c);
}

/* -------------------------------------------------------------- model --- */

double calibration_fit_slope(const struct calibration_point *p, int n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int m = 0;

	for (int i = 0; i < n; i++) {
		if (p[i].rules < 1)
			continue;
		sx += p[i].rules;
		sy += p[i].ns;
		m++;
	}
	if (m < 2)
		return 0;
	sx /= m;
	sy /= m;
	for (int i = 0; i < n; i++) {
		if (p[i].rules < 1)
			continue;
		sxx += (p[i].rules - sx) * (p[i].rules - sx);
		sxy += (p[i].rules - sx) * (p[i].ns - sy);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

/*
 * Past the last point the curve follows the fit through the upper half of
 * the points (from rules >= last / 2, at least two points): a fit through
 * all of them under-predicts long lists, and the last segment alone is too
 * noisy to extend far.
 */
static double extend_past_last(const struct calibration_point *p, int n, double rules)
{
	const struct calibration_point *last = &p[n - 1];
	int upper = 0;

	while (upper < n - 2 && p[upper].rules < last->rules / 2)
		upper++;
	return last->ns + (rules - last->rules) * calibration_fit_slope(&p[upper], n - upper);
}

double calibration_latency_at(const struct calibration *c, double rules)
{
	struct calibration_point p[CALIBRATION_MAX_POINTS + 1];
	int n = 0;

	/* The measured empty walk anchors the curve at 0 entries. */
	if (c->ns_empty_walk > 0)
		p[n++] = (struct calibration_point){ .rules = 0, .ns = c->ns_empty_walk };
	for (int i = 0; i < c->npoints && i < CALIBRATION_MAX_POINTS; i++)
		if (c->points[i].rules >= 1)
			p[n++] = c->points[i];
	if (n < 2 || (n == 2 && p[0].rules == 0))
		return rules * c->ns_per_entry;
	/*
	 * A longer list cannot walk faster, and disturbances only add time: a
	 * point above one measured with more rules is noise, lowered to it.
	 */
	for (int i = n - 2; i >= 0; i--)
		if (p[i].ns > p[i + 1].ns)
			p[i].ns = p[i + 1].ns;
	if (rules > p[n - 1].rules)
		return extend_past_last(p, n, rules);
	/* The segment holding `rules`; below the first point, the first segment. */
	for (int i = 0; i < n - 1; i++) {
		const struct calibration_point *a = &p[i], *b = &p[i + 1];

		if (rules <= b->rules || i == n - 2)
			return a->ns + (b->ns - a->ns) * (rules - a->rules) / (b->rules - a->rules);
	}
	return rules * c->ns_per_entry; /* not reached */
}

double calibration_walk_ns(const struct calibration *c, double entries)
{
	double ns;

	if (entries <= 0)
		return c->ns_walk_call;
	ns = calibration_latency_at(c, entries) - calibration_latency_at(c, 0);
	return (ns > 0 ? ns : 0) + c->ns_walk_call;
}

double calibration_eval_ns(const struct calibration *c, enum eval_kind k)
{
	/* A machine whose LSM takes no audit rule cannot time a label field. */
	if (k == EVAL_LSM && !c->eval_measured[k])
		k = EVAL_UID;
	return c->eval_measured[k] && c->ns_eval[k] > 0 ? c->ns_eval[k] : 0;
}

bool calibration_prices_evaluations(const struct calibration *c)
{
	for (int k = 0; k < NR_EVAL_KINDS; k++)
		if (c->eval_measured[k])
			return true;
	return false;
}

double calibration_arch_pass_ns(const struct calibration *c)
{
	double ns;

	if (!c->eval_measured[EVAL_ARCH_PASS] || !c->eval_measured[EVAL_UID])
		return 0;
	ns = c->ns_eval[EVAL_ARCH_PASS] - c->ns_eval[EVAL_UID];
	return ns > 0 ? ns : 0;
}

/*
 * The time model: the file asked for, else the default file if there is
 * one, else the series' slope. A file that is asked for and missing, or
 * corrupt, is an error: estimates from the wrong model would mislead.
 */
int calibration_choose(const char *asked, struct calibration *c, const char **from)
{
	const char *path = asked ? asked : calibration_default_path();
	int err = calibration_load(path, c);

	*from = err ? NULL : path;
	if (!err || (err == -ENOENT && !asked)) {
		if (err)
			*c = (struct calibration){ .ns_per_entry = DEFAULT_NS_PER_ENTRY };
		return 0;
	}
	if (err == -ENOENT)
		fprintf(stderr,
			"auditskip: no calibration at %s: run 'auditskip calibrate --calibration %s'\n",
			path, path);
	else if (err == -EINVAL)
		fprintf(stderr,
			"auditskip: %s is not a valid calibration: remove it or run 'auditskip calibrate'\n",
			path);
	else
		fprintf(stderr, "auditskip: cannot read %s: %s\n", path, strerror(-err));
	return err;
}

double calibration_counting_ns(const struct calibration *c, const char *mode)
{
	return c->counting_mode[0] && !strcmp(c->counting_mode, mode) && c->ns_counting > 0 ?
		       c->ns_counting :
		       NAN;
}
