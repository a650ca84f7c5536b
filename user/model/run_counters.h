/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every run-level counter (one number for the whole run, not per syscall),
 * defined once: what the mode counts without seeing it, or cannot see,
 * counted. The renderers loop over the table: the text report, the JSON
 * object `blind_spots` (null where the mode has no such gap) and the
 * metrics page (left out there). tests/unit/test_schema_tables.c holds the
 * JSON schema to it.
 *
 * X(name, source, known, show, label, note, help)
 *   name:   the BPF global (source RUN_FROM_BSS), the JSON key, and the
 *           metric auditskip_NAME_total
 *   source: where the session reads it (a token it pastes): RUN_FROM_BSS,
 *           the BPF global of that name; RUN_FROM_PROG_INFO, the kernel's
 *           count of skipped runs of the loaded programs
 *   known:  in which runs the number means something (enum run_known)
 *   show:   the text report prints it when known (RUN_SHOW_KNOWN), or only
 *           when it is also above 0 (RUN_SHOW_NONZERO)
 *   label, note: the text report's line; help: the metric's HELP
 *
 * Adding one: the BPF global that counts it, a row here, its key in
 * tests/host/json-schema.json's blind_spots, and its meaning in
 * doc/json.md.
 */
#ifndef __RUN_COUNTERS_H
#define __RUN_COUNTERS_H

#include <stdbool.h>
#include <linux/types.h>

#define RUN_COUNTERS(X)                                                                          \
	X(exit_walks_inferred, RUN_FROM_BSS, RUN_KNOWN_INFERS_EXIT_WALKS, RUN_SHOW_KNOWN,        \
	  "exit walks inferred", "a task's last syscall, judged by the context at its entry",    \
	  "Walks of a task's last syscall (exit, exit_group, killed without a signal) judged "   \
	  "by the context at that syscall's entry.")                                             \
	X(uring_enter_walks, RUN_FROM_BSS, RUN_KNOWN_INFERS_EXIT_WALKS, RUN_SHOW_NONZERO,        \
	  "io_uring_enter walks", "each op run inline walked once more, unseen here",            \
	  "io_uring_enter walks: each op it ran inline walked the exit list once more, which "   \
	  "this mode does not see.")                                                             \
	X(recursion_misses, RUN_FROM_PROG_INFO, RUN_KNOWN_ALWAYS, RUN_SHOW_NONZERO,              \
	  "BPF runs skipped",                                                                    \
	  "program runs the kernel skipped, any task: walks maybe not counted",                  \
	  "Runs of auditskip's programs the kernel skipped (already running on that CPU); each " \
	  "may be a walk not counted.")                                                          \
	X(walks_switched_out, RUN_FROM_BSS, RUN_KNOWN_OUTCOMES, RUN_SHOW_NONZERO,                \
	  "walks not paired", "switched out mid-walk: outcome and time not counted",             \
	  "Walks whose task was switched out between fentry and fexit: their outcome and time "  \
	  "are not counted.")                                                                    \
	X(mirror_lag_walks, RUN_FROM_BSS, RUN_KNOWN_MIRROR_LAG, RUN_SHOW_NONZERO,                \
	  "walks, mirror behind",                                                                \
	  "judged while the rules had changed since the loader listed them",                     \
	  "Walks judged while audit_n_rules differed from the count of the loader's last "       \
	  "listing: the mirror may not have held the rules they walked.")

enum run_counter_id {
#define RUN_COUNTER_ID(name, ...) RUN_COUNTER_##name,
	RUN_COUNTERS(RUN_COUNTER_ID)
#undef RUN_COUNTER_ID
	NR_RUN_COUNTERS
};

/* In which runs a counter means something: what the mode can tell. */
enum run_known {
	RUN_KNOWN_ALWAYS,
	RUN_KNOWN_OUTCOMES,	     /* the mode sees whether a rule matched */
	RUN_KNOWN_INFERS_EXIT_WALKS, /* the mode judges walks at the next entry */
	RUN_KNOWN_MIRROR_LAG,	     /* a loader-kept mirror whose lag BPF can tell */
};

enum run_counter_show {
	RUN_SHOW_KNOWN,
	RUN_SHOW_NONZERO,
};

struct run_counter_info {
	const char *name;
	enum run_known known;
	enum run_counter_show show;
	const char *label, *note, *help;
};

extern const struct run_counter_info run_counter_info[NR_RUN_COUNTERS];

struct run_settings;
/* Whether counter `id` means something in a run counting as `cfg` says. */
bool run_counter_known(const struct run_settings *cfg, enum run_counter_id id);

#endif /* __RUN_COUNTERS_H */
