/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time model: what one visited exit-rule entry costs on this machine,
 * as getpid(2) latencies measured with 0..N exit rules that cannot match it
 * (calibrate.h), and the file they are kept in. auditskip turns the entries
 * its skippable walks visited into nanoseconds saved with it.
 */
#ifndef __CALIBRATION_H
#define __CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>

#define CALIBRATION_SCHEMA 1
#define CALIBRATION_MAX_POINTS 16
/* Most rules a point may have been measured with (audit has no limit; far past any list). */
#define CALIBRATION_MAX_RULES 1000000
/*
 * Without a calibration: 2.8 ns per visited entry, the slope between 128 and
 * 256 rules in the patch series' cover letter ((791 - 428) / 128).
 */
#define DEFAULT_NS_PER_ENTRY 2.8

/*
 * What audit_filter_rules() costs when a visited entry's mask has the
 * syscall's bit, by the kind of the field that ends it: each measured as
 * ns per evaluation beyond the visit, with rules naming getpid whose one
 * field (before a uid field that tells them apart) fails. EVAL_ARCH_PASS:
 * an arch field that passes, then a uid field that fails. EVAL_MATCH: a
 * keyless never rule whose one field passes, so the walk ends there (what
 * a never,exit prefix entry costs). EVAL_LSM: a subject or object label
 * field, which asks the LSM (measured where an LSM takes the rule:
 * AppArmor, Debian's default; elsewhere priced as a uid field). Watch
 * and path rules are kept on the inode hash, not the exit list, so the
 * walk never evaluates them.
 */
enum eval_kind {
	EVAL_ARCH,
	EVAL_UID,
	EVAL_AUID,
	EVAL_GID,
	EVAL_PERM,
	EVAL_EXIT,
	EVAL_SUCCESS,
	EVAL_DIR,
	EVAL_EXE,
	EVAL_LSM,
	EVAL_ARCH_PASS,
	EVAL_MATCH,
	NR_EVAL_KINDS
};

/* "arch", "uid", ...: the names in the calibration file and the reports. */
extern const char *const eval_kind_names[NR_EVAL_KINDS];

struct calibration_point {
	int rules; /* exit rules loaded (0: dummy contexts) */
	double ns; /* getpid latency: lowest of the passes' medians */
};

struct calibration {
	double ns_per_entry; /* least-squares slope over the points with rules >= 1 */
	double ns_context;   /* fixed cost of a non-dummy context vs dummy, 0 if unknown */
	/* getpid latency with a non-dummy context and an empty exit list, 0 if not measured */
	double ns_empty_walk;
	/*
	 * What the call the patch skips costs with nothing to walk (its body
	 * timed by fentry and fexit, calltime.h); 0 unless walk_call_timed.
	 * A coarse clock (QEMU TCG's) can time a body this small as 0.
	 */
	double ns_walk_call;
	bool walk_call_timed;
	/*
	 * What counting itself adds to each syscall here: getpid with the
	 * counting programs of counting_mode attached, less with nothing
	 * attached. counting_mode "" where it was not measured (no attach mode
	 * loads); a count in another mode does not use it.
	 */
	char counting_mode[24];
	double ns_counting;
	int rules_used;	  /* most rules loaded while calibrating */
	char kernel[128]; /* uname -r */
	long long when;	  /* Unix time */
	/* ns per evaluation by kind, where eval_measured (a kernel may refuse a kind). */
	double ns_eval[NR_EVAL_KINDS];
	bool eval_measured[NR_EVAL_KINDS];
	/* Extensions: the measurements the fit came from. */
	int npoints;
	struct calibration_point points[CALIBRATION_MAX_POINTS];
};

/* What counting in `mode` adds to each syscall here, or NAN: not calibrated in that mode, or noise.
 */
double calibration_counting_ns(const struct calibration *c, const char *mode);

/* JSON via json-c, written to a temporary file and renamed. 0 or -errno. */
int calibration_save(const char *path, const struct calibration *c);
/* Far larger than any calibration file. */
#define CALIBRATION_MAX_BYTES 8191

/* 0, -ENOENT (no file), -EINVAL (not a calibration), or another -errno. */
int calibration_load(const char *path, struct calibration *c);
/* The same from a file's `len` bytes (no terminating NUL needed): 0, -EINVAL or -ENOMEM. */
int calibration_parse(const char *text, size_t len, struct calibration *c);
/* /var/lib/auditskip/calibration.json */
const char *calibration_default_path(void);
/*
 * The time model: the file asked for (NULL: the default file, if there is
 * one), else the series' slope (*from NULL). 0, or a negative errno after
 * one line: a file asked for must be there and valid.
 */
int calibration_choose(const char *asked, struct calibration *c, const char **from);

/* Least-squares slope of ns over rules, points with rules >= 1 only; 0 under two. */
double calibration_fit_slope(const struct calibration_point *p, int n);
/*
 * getpid latency at `rules` non-matching exit rules: piecewise linear
 * through ns_empty_walk at 0 (when measured) and the points with rules >= 1,
 * extended below the first along the first segment and past the last along
 * the fitted slope of the upper half of the points; a point above one with
 * more rules is taken as noise and lowered to it. With fewer than two
 * points of rules >= 1, rules * ns_per_entry.
 */
double calibration_latency_at(const struct calibration *c, double rules);
/*
 * What one walk over `entries` rules that cannot match costs, and so what
 * skipping it saves: the latency curve at `entries` less its value at zero
 * entries (a non-dummy context with nothing to walk), never below 0, plus
 * the call that walks nothing (ns_walk_call).
 */
double calibration_walk_ns(const struct calibration *c, double entries);

/* The price of one evaluation that ends at a field of kind `k`, 0 where not measured. */
double calibration_eval_ns(const struct calibration *c, enum eval_kind k);
/* What an arch field that passes adds to an evaluation (arch_pass less uid), 0 if unknown. */
double calibration_arch_pass_ns(const struct calibration *c);
/* Whether any evaluation price was measured. */
bool calibration_prices_evaluations(const struct calibration *c);

#endif /* __CALIBRATION_H */
