// SPDX-License-Identifier: GPL-2.0
/*
 * audit_bench: the patch series' getpid(2) microbenchmark. It measures the
 * fixed per-syscall cost audit adds under whatever policy the caller has
 * loaded, and never changes that policy itself.
 *
 * Remember that only tasks forked after audit was first enabled are
 * audited: start this program after `auditctl -e 1`.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "live/getpid_timing.h"

static struct {
	long iterations;
	long rounds;
	long warmup;
	int cpu;
	bool json;
} env = { .iterations = 200000, .rounds = 21, .warmup = 2, .cpu = -1 };

const char *argp_program_version = "audit_bench " AUDITSKIP_VERSION;

static const char doc[] =
	"Times getpid(2) under the audit policy the caller has loaded.\n"
	"\n"
	"EXAMPLES:\n"
	"    audit_bench                  # 21 rounds of 200000 calls\n"
	"    audit_bench -c 1 --json      # pinned to CPU 1, one JSON object\n";

static const struct argp_option options[] = {
	{ "iterations", 'n', "N", 0, "getpid calls per round (default 200000)", 0 },
	{ "rounds", 'r', "N", 0, "Measured rounds (default 21)", 0 },
	{ "warmup", 'w', "N", 0, "Unmeasured rounds first (default 2)", 0 },
	{ "cpu", 'c', "CPU", 0, "Pin to this CPU", 0 },
	{ "json", 'j', NULL, 0, "Print one JSON object", 0 },
	{},
};

static long parse_count(struct argp_state *state, const char *arg, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min)
		argp_error(state, "invalid number '%s' (at least %ld)", arg, min);
	return v;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'n':
		env.iterations = parse_count(state, arg, 1);
		break;
	case 'r':
		env.rounds = parse_count(state, arg, 1);
		break;
	case 'w':
		env.warmup = parse_count(state, arg, 0);
		break;
	case 'c':
		env.cpu = parse_count(state, arg, 0);
		break;
	case 'j':
		env.json = true;
		break;
	case ARGP_KEY_ARG:
		argp_usage(state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { options, parse_opt, NULL, doc, NULL, NULL, NULL };
	double *ns;
	int err = argp_parse(&argp, argc, argv, 0, NULL, NULL);

	if (err)
		return 2;
	if (env.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(env.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "audit_bench: cannot pin to CPU %d: %s\n", env.cpu,
				strerror(errno));
			return 1;
		}
	}
	ns = calloc(env.rounds, sizeof(*ns));
	if (!ns) {
		fprintf(stderr, "audit_bench: out of memory\n");
		return 1;
	}
	for (long i = 0; i < env.warmup; i++)
		getpid_round_ns(CLOCK_MONOTONIC, env.iterations);
	for (long i = 0; i < env.rounds; i++)
		ns[i] = getpid_round_ns(CLOCK_MONOTONIC, env.iterations);
	sort_values(ns, env.rounds);

	if (env.json)
		printf("{\"iterations\":%ld,\"rounds\":%ld,\"cpu\":%d,\"median_ns\":%.1f,"
		       "\"min_ns\":%.1f,\"p90_ns\":%.1f}\n",
		       env.iterations, env.rounds, env.cpu, percentile(ns, env.rounds, 50), ns[0],
		       percentile(ns, env.rounds, 90));
	else
		printf("getpid: median %.1f ns, min %.1f ns, p90 %.1f ns (%ld rounds x %ld calls%s)\n",
		       percentile(ns, env.rounds, 50), ns[0], percentile(ns, env.rounds, 90),
		       env.rounds, env.iterations, env.cpu >= 0 ? ", pinned" : "");
	free(ns);
	return 0;
}
