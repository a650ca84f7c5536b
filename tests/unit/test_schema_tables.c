// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON schema (tests/host/json-schema.json) against the tables it
 * follows: blind_spots against the run-level counters (run_counters.h),
 * every row's key there, nullable exactly when some mode cannot know it,
 * and no key the table lacks; the mode enum against modes[] (modes.h).
 * Run from the top of the tree (make unit-test).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "live/modes.h"
#include "model/run_counters.h"

#define SCHEMA "tests/host/json-schema.json"

/* The first object named `name` in the schema, depth first. */
static json_object *find_key(json_object *o, const char *name)
{
	json_object *hit = NULL;

	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; !hit && i < json_object_array_length(o); i++)
			hit = find_key(json_object_array_get_idx(o, i), name);
		return hit;
	}
	if (!json_object_is_type(o, json_type_object))
		return NULL;
	json_object_object_foreach(o, key, val)
	{
		if (!strcmp(key, name))
			return val;
		if (!hit)
			hit = find_key(val, name);
	}
	return hit;
}

/* Whether a property's "type" allows null. */
static bool nullable(json_object *prop)
{
	json_object *type;

	if (!json_object_object_get_ex(prop, "type", &type) ||
	    !json_object_is_type(type, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(type); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(type, i)), "null"))
			return true;
	return false;
}

static void test_blind_spots_follow_run_counters(void **state)
{
	json_object *schema = json_object_from_file(SCHEMA), *props, *prop;

	(void)state;
	assert_non_null(schema);
	assert_true(
		json_object_object_get_ex(find_key(schema, "blind_spots"), "properties", &props));
	for (int id = 0; id < NR_RUN_COUNTERS; id++) {
		const struct run_counter_info *ci = &run_counter_info[id];

		if (!json_object_object_get_ex(props, ci->name, &prop))
			fail_msg("%s: no blind_spots.%s", SCHEMA, ci->name);
		if (nullable(prop) != (ci->known != RUN_KNOWN_ALWAYS))
			fail_msg("%s: blind_spots.%s %s null, the table says it is %s", SCHEMA,
				 ci->name, nullable(prop) ? "allows" : "does not allow",
				 ci->known == RUN_KNOWN_ALWAYS ? "always known" :
								 "not always known");
	}
	json_object_object_foreach(props, key, val)
	{
		bool found = false;

		(void)val;
		for (int id = 0; id < NR_RUN_COUNTERS; id++)
			found |= !strcmp(run_counter_info[id].name, key);
		if (!found)
			fail_msg("%s: blind_spots.%s is in no row of run_counters.h", SCHEMA, key);
	}
	json_object_put(schema);
}

/* The first "mode" property with an enum: the start line's how.mode. */
static void test_mode_enum_follows_modes(void **state)
{
	json_object *schema = json_object_from_file(SCHEMA), *mode, *values;

	(void)state;
	assert_non_null(schema);
	mode = find_key(find_key(schema, "how"), "mode");
	assert_true(json_object_object_get_ex(mode, "enum", &values));
	assert_int_equal(json_object_array_length(values), MODE_COUNT);
	for (int m = 0; m < MODE_COUNT; m++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(values, m)),
			   modes[m].name))
			fail_msg("%s: how.mode's enum[%d] is %s, modes[] has %s", SCHEMA, m,
				 json_object_get_string(json_object_array_get_idx(values, m)),
				 modes[m].name);
	json_object_put(schema);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blind_spots_follow_run_counters),
		cmocka_unit_test(test_mode_enum_follows_modes),
	};

	return cmocka_run_group_tests_name("schema tables", tests, NULL, NULL);
}
