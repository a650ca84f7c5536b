/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line every unit test binary takes, as the host and guest
 * suites do:
 *
 *   test_NAME                run every test
 *   test_NAME -t PATTERN...  only the tests PATTERN names (repeatable; a
 *                            shell glob, e.g. -t 'test_latency_*')
 *   test_NAME -l             list the tests, one a line, and run none
 *
 * A pattern that names no test is an error (exit 2), never an empty pass.
 * The tests picked run as one cmocka group, so CMOCKA_MESSAGE_OUTPUT=TAP
 * (tests/run-all.sh) plans exactly the tests that run.
 *
 * Each test file's main() ends in
 *   return unit_main(argc, argv, "group name", tests, setup, teardown);
 */
#ifndef AUDITSKIP_UNIT_MAIN_H
#define AUDITSKIP_UNIT_MAIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#define unit_main(argc, argv, group_name, tests, group_setup, group_teardown) \
	unit_run_selected((argc), (argv), (group_name), (tests),              \
			  sizeof(tests) / sizeof((tests)[0]), (group_setup), (group_teardown))

static bool unit_picked(const char *name, char **patterns, int npatterns)
{
	for (int i = 0; i < npatterns; i++)
		if (fnmatch(patterns[i], name, 0) == 0)
			return true;
	return npatterns == 0;
}

static int unit_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-l] [-t NAME]... (NAME may be a glob)\n", prog);
	return 2;
}

static int unit_run_selected(int argc, char **argv, const char *group,
			     const struct CMUnitTest *tests, size_t ntests,
			     CMFixtureFunction group_setup, CMFixtureFunction group_teardown)
{
	char **patterns = calloc(argc, sizeof(*patterns));
	struct CMUnitTest *picked = calloc(ntests, sizeof(*picked));
	int npatterns = 0, opt, status = 0;
	bool list = false;
	size_t npicked = 0;

	if (!patterns || !picked) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		status = 1;
		goto out;
	}
	while ((opt = getopt(argc, argv, "lt:")) != -1) {
		if (opt == 'l') {
			list = true;
		} else if (opt == 't') {
			patterns[npatterns++] = optarg;
		} else {
			status = unit_usage(argv[0]);
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
		status = unit_usage(argv[0]);
		goto out;
	}
	for (int i = 0; i < npatterns; i++) {
		bool hit = false;

		for (size_t t = 0; t < ntests; t++)
			hit = hit || fnmatch(patterns[i], tests[t].name, 0) == 0;
		if (!hit) {
			fprintf(stderr, "%s: no test matches '%s'; the tests are:", argv[0],
				patterns[i]);
			for (size_t t = 0; t < ntests; t++)
				fprintf(stderr, " %s", tests[t].name);
			fprintf(stderr, "\n");
			status = 2;
			goto out;
		}
	}
	for (size_t t = 0; t < ntests; t++) {
		if (!unit_picked(tests[t].name, patterns, npatterns))
			continue;
		if (list)
			printf("%s\n", tests[t].name);
		else
			picked[npicked++] = tests[t];
	}
	if (!list)
		status = _cmocka_run_group_tests(group, picked, npicked, group_setup,
						 group_teardown);
out:
	free(patterns);
	free(picked);
	return status;
}

#endif
