// SPDX-License-Identifier: GPL-2.0
/* Writing a workload profile (profile.h); profile_parse.c reads it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "model/profile.h"
#include "audit/syscalls.h"

void profile_from_counts(struct profile *p, const struct counts_snapshot *s)
{
	for (enum slot_arch a = 0; a < NR_ARCHES; a++)
		snprintf(p->arches[a], sizeof(p->arches[a]), "%s",
			 arch_machine(a) >= 0 ? arch_name(a) : "");
	for (unsigned int i = 0; i < NR_COUNT_SLOTS; i++)
		p->calls[i] = s->slot[i].walks;
}

static json_object *to_json(const struct profile *p)
{
	json_object *o = json_object_new_object(), *arches = json_object_new_array();
	json_object *calls = json_object_new_array(), *blind = NULL;

	json_object_object_add(o, "format", json_object_new_string(PROFILE_FORMAT));
	json_object_object_add(o, "version", json_object_new_int(PROFILE_VERSION));
	json_object_object_add(o, "kernel", json_object_new_string(p->kernel));
	for (enum slot_arch a = 0; a < NR_ARCHES; a++)
		if (p->arches[a][0])
			json_object_array_add(arches, json_object_new_string(p->arches[a]));
	json_object_object_add(o, "arches", arches);
	json_object_object_add(o, "mode", json_object_new_string(p->mode));
	json_object_object_add(o, "scope", json_object_new_string(p->scope));
	json_object_object_add(o, "seconds", json_object_new_double(p->seconds));
	for (unsigned int i = 0; i < NR_COUNT_SLOTS; i++) {
		enum slot_arch a = i / NR_SLOTS;
		json_object *e;
		char name[64];

		if (!p->calls[i] || !p->arches[a][0])
			continue;
		slot_name(a, i % NR_SLOTS, name, sizeof(name));
		e = json_object_new_object();
		json_object_object_add(e, "arch", json_object_new_string(p->arches[a]));
		json_object_object_add(e, "nr", json_object_new_int(i % NR_SLOTS));
		json_object_object_add(e, "name", json_object_new_string(name));
		json_object_object_add(e, "calls", json_object_new_uint64(p->calls[i]));
		json_object_array_add(calls, e);
	}
	json_object_object_add(o, "syscalls", calls);
	if (p->blind_spots_known) {
		blind = json_object_new_object();
		json_object_object_add(blind, "exit_calls_inferred",
				       json_object_new_uint64(p->exit_calls_inferred));
		json_object_object_add(blind, "uring_enter_calls",
				       json_object_new_uint64(p->uring_enter_calls));
	}
	json_object_object_add(o, "blind_spots", blind);
	return o;
}

int profile_save(const char *path, const struct profile *p)
{
	json_object *o = to_json(p);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
	char tmp[4096];
	FILE *fp;
	int err = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		json_object_put(o);
		return -ENAMETOOLONG;
	}
	fp = fopen(tmp, "we");
	if (!fp) {
		err = -errno;
		json_object_put(o);
		return err;
	}
	if (fprintf(fp, "%s\n", text) < 0 || fflush(fp) || fsync(fileno(fp)))
		err = errno ? -errno : -EIO;
	if (fclose(fp) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	json_object_put(o);
	return err;
}
