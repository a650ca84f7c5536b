/* SPDX-License-Identifier: GPL-2.0 */
/* What every JSON report does: one object per line, numbers and strings by key, a mask. */
#ifndef __JSON_OUT_H
#define __JSON_OUT_H

#include <stdio.h>
#include <stdlib.h>
#include <json-c/json.h>
#include "audit/mask.h"

/* Bumped when a key changes meaning or goes away; new keys keep it. */
#define JSON_SCHEMA 2

static inline void print_json(FILE *out, json_object *o)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	fflush(out);
	json_object_put(o);
}

static inline void add_u64(json_object *o, const char *key, __u64 v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

/*
 * v rounded to `decimals` places and printed as such: json-c prints every
 * binary digit (13136199.999999998), more than anything here was measured to.
 */
static inline json_object *json_rounded(double v, int decimals)
{
	char text[64];

	snprintf(text, sizeof(text), "%.*f", decimals, v);
	return json_object_new_double_s(strtod(text, NULL), text);
}

static inline void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

/* add_str(), with null for no string. */
static inline void add_str_or_null(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

static inline json_object *mask_json(json_object *o, const syscall_mask m, __u32 exit_rules)
{
	char hex[MASK_HEX_LEN + 1];

	mask_to_hex(m, hex);
	add_u64(o, "exit_rules", exit_rules);
	add_u64(o, "mask_bits", mask_count(m));
	add_str(o, "mask_hex", hex);
	return o;
}

#endif /* __JSON_OUT_H */
