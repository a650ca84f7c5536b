// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a workload profile (profile.h). The file comes from outside (any
 * machine, any editor): everything is checked, and the first thing wrong
 * is said in one line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model/profile.h"

static int bad(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A string member of at most size - 1 bytes into `out`; `optional` allows it absent. */
static int get_string(json_object *o, const char *key, char *out, size_t size, bool optional,
		      char *why, size_t why_size)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v) {
		if (optional)
			return 0;
		return bad(why, why_size, "no \"%s\"", key);
	}
	if (!json_object_is_type(v, json_type_string))
		return bad(why, why_size, "\"%s\" is not a string", key);
	if ((size_t)json_object_get_string_len(v) >= size)
		return bad(why, why_size, "\"%s\" is longer than %zu bytes", key, size - 1);
	memcpy(out, json_object_get_string(v), json_object_get_string_len(v) + 1);
	return 0;
}

/* A non-negative integer; json-c keeps values past INT64_MAX as unsigned. */
static int get_count(json_object *v, __u64 *out)
{
	if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return -EINVAL;
	*out = json_object_get_uint64(v);
	return 0;
}

static int parse_arches(json_object *o, struct profile *p, char *why, size_t size)
{
	json_object *arr;
	size_t n;

	if (!json_object_object_get_ex(o, "arches", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return bad(why, size, "no \"arches\" array");
	n = json_object_array_length(arr);
	if (n < 1 || n > NR_ARCHES)
		return bad(why, size, "\"arches\" holds %zu names, not 1 to %d", n, NR_ARCHES);
	for (size_t i = 0; i < n; i++) {
		json_object *v = json_object_array_get_idx(arr, i);
		const char *name = json_object_get_string(v);

		if (!v || !json_object_is_type(v, json_type_string) || !name[0] ||
		    strlen(name) >= sizeof(p->arches[i]))
			return bad(why, size, "\"arches\"[%zu] is not an arch name", i);
		if (i && !strcmp(name, p->arches[0]))
			return bad(why, size, "\"arches\" names %s twice", name);
		strcpy(p->arches[i], name);
	}
	return 0;
}

static int arch_index(const struct profile *p, const char *name)
{
	for (int a = 0; a < NR_ARCHES; a++)
		if (p->arches[a][0] && !strcmp(p->arches[a], name))
			return a;
	return -1;
}

static int parse_syscalls(json_object *o, struct profile *p, char *why, size_t size)
{
	json_object *arr;
	size_t n;

	if (!json_object_object_get_ex(o, "syscalls", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return bad(why, size, "no \"syscalls\" array");
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(arr, i), *v;
		const char *arch;
		__u64 nr, calls;
		int a;

		if (!e || !json_object_is_type(e, json_type_object))
			return bad(why, size, "\"syscalls\"[%zu] is not an object", i);
		if (!json_object_object_get_ex(e, "arch", &v) || !v ||
		    !json_object_is_type(v, json_type_string))
			return bad(why, size, "\"syscalls\"[%zu] has no \"arch\" string", i);
		arch = json_object_get_string(v);
		a = arch_index(p, arch);
		if (a < 0)
			return bad(why, size,
				   "\"syscalls\"[%zu]: arch \"%.32s\" is not in \"arches\"", i,
				   arch);
		if (!json_object_object_get_ex(e, "nr", &v) || get_count(v, &nr) ||
		    nr > SLOT_OUT_OF_RANGE)
			return bad(why, size,
				   "\"syscalls\"[%zu]: \"nr\" is not a number from 0 to %d", i,
				   SLOT_OUT_OF_RANGE);
		if (!json_object_object_get_ex(e, "calls", &v) || get_count(v, &calls) || !calls)
			return bad(why, size,
				   "\"syscalls\"[%zu]: \"calls\" is not a positive integer", i);
		if (p->calls[a * NR_SLOTS + nr])
			return bad(why, size, "\"syscalls\"[%zu]: %s %llu is listed twice", i,
				   p->arches[a], (unsigned long long)nr);
		p->calls[a * NR_SLOTS + nr] = calls;
	}
	return 0;
}

static int parse_blind_spots(json_object *o, struct profile *p, char *why, size_t size)
{
	json_object *b, *v;

	if (!json_object_object_get_ex(o, "blind_spots", &b) || !b)
		return 0;
	if (!json_object_is_type(b, json_type_object))
		return bad(why, size, "\"blind_spots\" is neither an object nor null");
	if (!json_object_object_get_ex(b, "exit_calls_inferred", &v) ||
	    get_count(v, &p->exit_calls_inferred) ||
	    !json_object_object_get_ex(b, "uring_enter_calls", &v) ||
	    get_count(v, &p->uring_enter_calls))
		return bad(
			why, size,
			"\"blind_spots\" needs the integers \"exit_calls_inferred\" and \"uring_enter_calls\"");
	p->blind_spots_known = true;
	return 0;
}

static int parse_object(json_object *o, struct profile *p, char *why, size_t size)
{
	char format[64];
	json_object *v;
	int err;

	if (!json_object_is_type(o, json_type_object))
		return bad(why, size, "not a JSON object");
	if (get_string(o, "format", format, sizeof(format), false, why, size) ||
	    strcmp(format, PROFILE_FORMAT))
		return bad(why, size, "not an auditskip profile (no \"format\": \"%s\")",
			   PROFILE_FORMAT);
	if (!json_object_object_get_ex(o, "version", &v) || !v ||
	    !json_object_is_type(v, json_type_int))
		return bad(why, size, "no \"version\" number");
	if (json_object_get_int64(v) != PROFILE_VERSION)
		return bad(why, size, "format version %lld, this auditskip reads version %d",
			   (long long)json_object_get_int64(v), PROFILE_VERSION);
	err = get_string(o, "kernel", p->kernel, sizeof(p->kernel), false, why, size);
	err = err ?: get_string(o, "mode", p->mode, sizeof(p->mode), true, why, size);
	err = err ?: get_string(o, "scope", p->scope, sizeof(p->scope), true, why, size);
	if (err)
		return err;
	if (json_object_object_get_ex(o, "seconds", &v) && v) {
		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return bad(why, size, "\"seconds\" is not a number");
		p->seconds = json_object_get_double(v);
	}
	err = parse_arches(o, p, why, size);
	err = err ?: parse_syscalls(o, p, why, size);
	return err ?: parse_blind_spots(o, p, why, size);
}

int profile_parse(const char *buf, size_t len, struct profile *p, char *why, size_t why_size)
{
	struct json_tokener *tok;
	json_object *o;
	size_t end;
	int err;

	memset(p, 0, sizeof(*p));
	if (len > PROFILE_MAX_BYTES)
		return bad(why, why_size, "larger than %d bytes", PROFILE_MAX_BYTES);
	if (memchr(buf, '\0', len))
		return bad(why, why_size, "not a text file (it holds a NUL byte)");
	tok = json_tokener_new();
	if (!tok)
		return bad(why, why_size, "out of memory");
	o = json_tokener_parse_ex(tok, buf, (int)len);
	if (!o) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		err = bad(why, why_size, "not valid JSON: %s",
			  e == json_tokener_continue ? "it ends too soon" :
						       json_tokener_error_desc(e));
		json_tokener_free(tok);
		return err;
	}
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (end < len && strchr(" \t\r\n", buf[end]))
		end++;
	if (end < len)
		err = bad(why, why_size, "text after the JSON object (at byte %zu)", end);
	else
		err = parse_object(o, p, why, why_size);
	json_object_put(o);
	if (err)
		memset(p, 0, sizeof(*p));
	return err;
}

int profile_load(const char *path, struct profile *p, char *why, size_t why_size)
{
	FILE *fp = fopen(path, "re");
	size_t len;
	char *buf;
	int err;

	if (!fp) {
		err = -errno;
		snprintf(why, why_size, "%s", strerror(-err));
		return err;
	}
	buf = malloc(PROFILE_MAX_BYTES + 1);
	if (!buf) {
		fclose(fp);
		return bad(why, why_size, "out of memory");
	}
	len = fread(buf, 1, PROFILE_MAX_BYTES + 1, fp);
	err = ferror(fp) ? -EIO : 0;
	fclose(fp);
	if (err)
		snprintf(why, why_size, "cannot read it");
	else
		err = profile_parse(buf, len, p, why, why_size);
	free(buf);
	return err;
}
