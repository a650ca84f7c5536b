// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics page as metrics_render() writes it: resyncs by reason and the
 * last one's time, build info, the mirror's changes as a counter, the
 * sharper masks' walks and saving, the outcome counters only where the
 * mode sees outcomes, and the rules a never rule before them shadows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "audit/rules_file.h"
#include "audit/syscalls.h"
#include "model/shadowing.h"
#include "model/time_saved.h"
#include "output/metrics_page.h"

static struct counts_snapshot snap;
static struct calibration calib = { .ns_per_entry = DEFAULT_NS_PER_ENTRY };
static struct resync rs;

/*
 * A run of 100 rules: native syscall 39 (x86's getpid) walked 10 times, all
 * skippable; 59 (execve) 4 times, 3 of them skippable by the per-arch mask.
 */
static struct run_state run(bool outcomes)
{
	struct run_state r = { .cfg = { .kernel = "6.12.0",
					.mode = "fentry",
					.calib = &calib,
					.outcomes = outcomes } };
	struct scan_counts getpid = { .walks = 10,
				      .skippable_walks = 10,
				      .needless_rule_visits = 1000,
				      .skippable_arch_mask = 10,
				      .skippable_perm_mask = 10 };
	struct scan_counts execve = { .walks = 4, .skippable_arch_mask = 3 };

	memset(&snap, 0, sizeof(snap));
	counts_add(&snap.slot[39], &getpid);
	counts_add(&snap.total, &getpid);
	counts_add(&snap.slot[59], &execve);
	counts_add(&snap.total, &execve);
	resync_init(&rs, 100, 0);
	r.live.mirror.exit_rules = 100;
	r.live.mirror.generation = 7;
	r.live.resync = &rs;
	return r;
}

static char *render(const struct run_state *r)
{
	char *page = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);

	assert_non_null(f);
	metrics_render(f, r, &snap);
	fclose(f);
	return page;
}

/* The value of the sample that starts with `series ` on the page, or -1. */
static double sample(const char *page, const char *series)
{
	size_t n = strlen(series);

	for (const char *l = page; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, series, n) && l[n] == ' ')
			return strtod(l + n + 1, NULL);
	return -1;
}

static void test_resyncs_by_reason(void **state)
{
	struct run_state r = run(false);
	struct timespec now, mono;
	char *page;

	(void)state;
	page = render(&r);
	assert_null(strstr(page, "auditskip_last_resync_timestamp_seconds"));
	free(page);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &now);
	resync_listed(&rs, RESYNC_START, mono.tv_sec - 30.0, 0.001, true);
	resync_listed(&rs, RESYNC_LOST, mono.tv_sec - 20.0, 0.001, true);
	resync_listed(&rs, RESYNC_LOST, mono.tv_sec - 10.0, 0.001, true);
	page = render(&r);
	assert_true(sample(page, "auditskip_resyncs_total{reason=\"start\"}") == 1);
	assert_true(sample(page, "auditskip_resyncs_total{reason=\"change\"}") == 0);
	assert_true(sample(page, "auditskip_resyncs_total{reason=\"lost\"}") == 2);
	assert_true(sample(page, "auditskip_resyncs_total{reason=\"periodic\"}") == 0);
	/* The last listing, 10 s (and a fraction) ago, in wall-clock time. */
	double ago = now.tv_sec - sample(page, "auditskip_last_resync_timestamp_seconds");
	assert_true(ago > 9 && ago < 12);
	free(page);
}

static void test_build_info_and_mirror_counter(void **state)
{
	struct run_state r = run(false);
	char *page = render(&r);

	(void)state;
	assert_non_null(strstr(page, "auditskip_build_info{version=\""));
	assert_non_null(strstr(page, "\",kernel=\"6.12.0\",mode=\"fentry\"} 1\n"));
	assert_non_null(strstr(page, "# TYPE auditskip_mirror_changes_total counter\n"));
	assert_true(sample(page, "auditskip_mirror_changes_total") == 7);
	assert_true(sample(page, "auditskip_mirror_generation") == 7);
	free(page);
}

/* A per-syscall family's series for native syscall `nr`. */
static const char *series(const char *family, unsigned int nr)
{
	static char buf[192];
	char sc[64];

	slot_name(0, nr, sc, sizeof(sc));
	snprintf(buf, sizeof(buf), "%s{syscall=\"%s\",arch=\"%s\"}", family, sc, arch_name(0));
	return buf;
}

static void test_sharper_masks(void **state)
{
	struct run_state r = run(false);
	char *page = render(&r);
	double patch = sample(page, "auditskip_estimated_saved_seconds_total");
	double arch =
		sample(page, "auditskip_estimated_saved_sharper_seconds_total{mask=\"arch\"}");
	double perm =
		sample(page, "auditskip_estimated_saved_sharper_seconds_total{mask=\"perm\"}");

	(void)state;
	assert_true(sample(page, series("auditskip_skippable_arch_mask_total", 59)) == 3);
	assert_true(sample(page, series("auditskip_skippable_perm_mask_total", 59)) == 0);
	assert_true(sample(page, series("auditskip_skippable_perm_mask_total", 39)) == 10);
	/* perm skips nothing beyond the patch; arch three walks over all 100 rules more. */
	assert_true(patch > 0 && perm == patch);
	assert_true(arch - patch > 3 * 100 * DEFAULT_NS_PER_ENTRY / 1e9 * 0.99);
	assert_true(arch - patch < 3 * 100 * DEFAULT_NS_PER_ENTRY / 1e9 * 1.01);
	free(page);
}

static void test_outcomes_only_where_known(void **state)
{
	struct run_state r = run(false);
	char *page = render(&r);

	(void)state;
	assert_null(strstr(page, "auditskip_raced_matches_total"));
	assert_null(strstr(page, "auditskip_missed_matches_total"));
	free(page);
	r = run(true);
	page = render(&r);
	assert_true(sample(page, "auditskip_raced_matches_total") == 0);
	assert_true(sample(page, "auditskip_missed_matches_total") == 0);
	free(page);
}

/* Each run-level counter is on the page only in the runs whose mode can know it. */
static void test_run_counters_only_where_known(void **state)
{
	struct run_state r = run(false);
	char *page;

	(void)state;
	r.cfg.infers_exit_walks = true;
	r.live.counters[RUN_COUNTER_exit_walks_inferred] = 5;
	r.live.counters[RUN_COUNTER_recursion_misses] = 2;
	page = render(&r);
	assert_true(sample(page, "auditskip_exit_walks_inferred_total") == 5);
	assert_true(sample(page, "auditskip_uring_enter_walks_total") == 0);
	assert_true(sample(page, "auditskip_recursion_misses_total") == 2);
	assert_non_null(strstr(page, "# TYPE auditskip_recursion_misses_total counter\n"));
	assert_null(strstr(page, "auditskip_walks_switched_out_total"));
	assert_null(strstr(page, "auditskip_mirror_lag_walks_total"));
	free(page);
	r = run(true);
	r.cfg.counts_mirror_lag = true;
	page = render(&r);
	assert_true(sample(page, "auditskip_walks_switched_out_total") == 0);
	assert_true(sample(page, "auditskip_mirror_lag_walks_total") == 0);
	assert_null(strstr(page, "auditskip_exit_walks_inferred_total"));
	free(page);
}

/* The gauge counts the shadowed rules, and is left out until they are worked out. */
static void test_shadowed_rules_gauge(void **state)
{
	static const char text[] =
		"-a never,exit -F arch=b64 -S kill\n"
		"-a always,exit -F arch=b64 -S kill -k new\n"
		"-a always,exit -F arch=b64 -S kill,getpid -k old\n"
		"-a always,exit -F arch=b64 -S getpid -k free\n";
	struct rules_file_error e = { 0 };
	struct run_state r = run(false);
	struct ruleset set;
	struct shadowing s;
	char *page = render(&r);

	(void)state;
	assert_null(strstr(page, "auditskip_shadowed_rules"));
	free(page);
	assert_int_equal(rules_text_read(text, strlen(text), "test", &set, &e), 0);
	assert_int_equal(shadowing_find(&set, NULL, &s), 0);
	r.live.rules = &set;
	r.live.shadowing = &s;
	page = render(&r);
	assert_non_null(strstr(page, "# HELP auditskip_shadowed_rules "));
	assert_non_null(strstr(page, "# TYPE auditskip_shadowed_rules gauge\n"));
	assert_true(sample(page, "auditskip_shadowed_rules") == 2);
	free(page);
	shadowing_free(&s);
	ruleset_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resyncs_by_reason),
		cmocka_unit_test(test_build_info_and_mirror_counter),
		cmocka_unit_test(test_sharper_masks),
		cmocka_unit_test(test_outcomes_only_where_known),
		cmocka_unit_test(test_run_counters_only_where_known),
		cmocka_unit_test(test_shadowed_rules_gauge),
	};

	return cmocka_run_group_tests_name("metrics page", tests, NULL, NULL);
}
