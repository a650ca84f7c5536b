// SPDX-License-Identifier: GPL-2.0
/* The run-level counters' table (run_counters.h), and in which runs each is known. */
#include "model/run_counters.h"
#include "model/run_state.h"

const struct run_counter_info run_counter_info[NR_RUN_COUNTERS] = {
#define RUN_COUNTER_INFO(n, source, k, s, l, nt, h) \
	[RUN_COUNTER_##                             \
		n] = { .name = #n, .known = k, .show = s, .label = l, .note = nt, .help = h },
	RUN_COUNTERS(RUN_COUNTER_INFO)
#undef RUN_COUNTER_INFO
};

bool run_counter_known(const struct run_settings *cfg, enum run_counter_id id)
{
	switch (run_counter_info[id].known) {
	case RUN_KNOWN_OUTCOMES:
		return cfg->outcomes;
	case RUN_KNOWN_INFERS_EXIT_WALKS:
		return cfg->infers_exit_walks;
	case RUN_KNOWN_MIRROR_LAG:
		return cfg->counts_mirror_lag;
	case RUN_KNOWN_ALWAYS:
		break;
	}
	return true;
}
