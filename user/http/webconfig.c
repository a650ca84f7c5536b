// SPDX-License-Identifier: GPL-2.0
/*
 * The web configuration file, parsed with libyaml's document loader. The
 * input comes from outside, so every node is checked for its type before
 * use, each key may appear once, and every error names its line.
 */
#define _GNU_SOURCE
#include <crypt.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "http/webconfig.h"

/* Far more than any real file; a bound on what a mistaken path can make us read. */
#define WEBCONFIG_MAX_BYTES (1 << 20)
#define WEBCONFIG_MAX_USERS 1024

struct parse {
	yaml_document_t doc;
	struct web_config *wc;
	char *err;
	size_t err_size;
};

static int fail_at(struct parse *p, const yaml_node_t *node, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	len = snprintf(p->err, p->err_size, "line %zu: ", node ? node->start_mark.line + 1 : 1);
	va_start(ap, fmt);
	if (len < p->err_size)
		vsnprintf(p->err + len, p->err_size - len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* An empty value (`key:`) reads as the null scalar: the key is as good as absent. */
static bool is_null(const yaml_node_t *n)
{
	const char *s = scalar(n);

	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null"));
}

/* A scalar with no NUL inside: YAML allows "\0", C strings do not. */
static int string_value(struct parse *p, const yaml_node_t *key, const yaml_node_t *v, char **out)
{
	const char *s = scalar(v);

	if (!s)
		return fail_at(p, v, "%s: expected a string", scalar(key));
	if (strlen(s) != v->data.scalar.length)
		return fail_at(p, v, "%s: contains a NUL byte", scalar(key));
	if (*out)
		return fail_at(p, key, "%s: given twice", scalar(key));
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/*
 * Calls `fn` for each key and value of mapping `node`; keys must be
 * plain strings and unique.
 */
typedef int (*pair_fn)(struct parse *p, const yaml_node_t *key, const yaml_node_t *value);

static int each_pair(struct parse *p, const yaml_node_t *node, const char *what, pair_fn fn)
{
	yaml_node_pair_t *pair;

	if (node->type != YAML_MAPPING_NODE)
		return fail_at(p, node, "%s: expected a mapping of keys to values", what);
	for (pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; pair++) {
		const yaml_node_t *k = yaml_document_get_node(&p->doc, pair->key);
		const yaml_node_t *v = yaml_document_get_node(&p->doc, pair->value);
		int err;

		if (!scalar(k) || strlen(scalar(k)) != k->data.scalar.length)
			return fail_at(p, k, "%s: keys must be strings", what);
		for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < pair; q++)
			if (!strcmp(scalar(yaml_document_get_node(&p->doc, q->key)), scalar(k)))
				return fail_at(p, k, "%s: '%s' given twice", what, scalar(k));
		err = fn(p, k, v);
		if (err)
			return err;
	}
	return 0;
}

/* The toolkit's other TLS settings: named so the refusal says what is missing. */
static const char *const tls_unsupported[] = {
	"cert",
	"key",
	"client_auth_type",
	"client_ca_file",
	"client_ca",
	"cipher_suites",
	"curve_preferences",
	"min_version",
	"max_version",
	"client_allowed_sans",
	"prefer_server_cipher_suites",
};

static int tls_pair(struct parse *p, const yaml_node_t *k, const yaml_node_t *v)
{
	const char *key = scalar(k);

	if (!strcmp(key, "cert_file"))
		return string_value(p, k, v, &p->wc->cert_file);
	if (!strcmp(key, "key_file"))
		return string_value(p, k, v, &p->wc->key_file);
	for (size_t i = 0; i < sizeof(tls_unsupported) / sizeof(tls_unsupported[0]); i++)
		if (!strcmp(key, tls_unsupported[i]))
			return fail_at(p, k, "tls_server_config: %s is not supported by auditskip",
				       key);
	return fail_at(p, k, "tls_server_config: unknown key '%s' (cert_file, key_file)", key);
}

/* bcrypt only: what htpasswd -B and the toolkit's documentation make. */
static bool is_bcrypt(const char *h)
{
	return (!strncmp(h, "$2a$", 4) || !strncmp(h, "$2b$", 4) || !strncmp(h, "$2y$", 4)) &&
	       crypt_checksalt(h) == CRYPT_SALT_OK && strlen(h) == 60;
}

static int user_pair(struct parse *p, const yaml_node_t *k, const yaml_node_t *v)
{
	struct web_config *wc = p->wc;
	struct web_user *u;
	char *hash = NULL;
	int err;

	if (!*scalar(k) || strchr(scalar(k), ':'))
		return fail_at(p, k,
			       "basic_auth_users: a user name must be non-empty, without ':'");
	if (wc->nusers == WEBCONFIG_MAX_USERS)
		return fail_at(p, k, "basic_auth_users: more than %d users", WEBCONFIG_MAX_USERS);
	err = string_value(p, k, v, &hash);
	if (err)
		return err;
	if (!is_bcrypt(hash)) {
		free(hash);
		return fail_at(
			p, v,
			"basic_auth_users: %s: not a bcrypt hash ($2y$..., 60 characters, as 'htpasswd -nB %s' makes)",
			scalar(k), scalar(k));
	}
	u = realloc(wc->users, (wc->nusers + 1) * sizeof(*u));
	if (!u) {
		free(hash);
		return -ENOMEM;
	}
	wc->users = u;
	u[wc->nusers].hash = hash;
	u[wc->nusers].name = strdup(scalar(k));
	if (!u[wc->nusers].name) {
		free(hash);
		return -ENOMEM;
	}
	wc->nusers++;
	return 0;
}

static int top_pair(struct parse *p, const yaml_node_t *k, const yaml_node_t *v)
{
	const char *key = scalar(k);

	if (!strcmp(key, "tls_server_config")) {
		int err = is_null(v) ? 0 : each_pair(p, v, key, tls_pair);

		if (!err && !p->wc->cert_file != !p->wc->key_file)
			err = fail_at(p, k, "tls_server_config needs both cert_file and key_file");
		return err;
	}
	if (!strcmp(key, "basic_auth_users"))
		return is_null(v) ? 0 : each_pair(p, v, key, user_pair);
	if (!strcmp(key, "http_server_config"))
		return fail_at(p, k, "http_server_config is not supported by auditskip");
	return fail_at(p, k, "unknown key '%s' (tls_server_config, basic_auth_users)", key);
}

void webconfig_free(struct web_config *wc)
{
	for (size_t i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	free(wc->cert_file);
	free(wc->key_file);
	*wc = (struct web_config){ 0 };
}

int webconfig_parse(const char *buf, size_t len, struct web_config *wc, char *err, size_t err_size)
{
	struct parse p = { .wc = wc, .err = err, .err_size = err_size };
	yaml_parser_t parser;
	yaml_node_t *root;
	int rc = 0;

	*wc = (struct web_config){ 0 };
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &p.doc)) {
		size_t len = snprintf(err, err_size, "line %zu: %s", parser.problem_mark.line + 1,
				      parser.problem ? parser.problem : "not YAML");

		/* Where the construct that failed began: an unclosed '[' or quote. */
		if (parser.context && len < err_size)
			snprintf(err + len, err_size - len, " %s started on line %zu",
				 parser.context, parser.context_mark.line + 1);
		yaml_parser_delete(&parser);
		return -EINVAL;
	}
	root = yaml_document_get_root_node(&p.doc);
	/* An empty file is valid, as in the toolkit: plain HTTP, no authentication. */
	if (root && !is_null(root))
		rc = each_pair(&p, root, "the file", top_pair);
	if (rc == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	yaml_document_delete(&p.doc);
	yaml_parser_delete(&parser);
	if (rc)
		webconfig_free(wc);
	return rc;
}

/* PATH read whole, NUL-terminated; 0 or a negative errno. */
static int read_small_file(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = malloc(WEBCONFIG_MAX_BYTES + 1);
	size_t n = 0;
	int err = 0;

	if (!f || !buf) {
		err = f ? -ENOMEM : -errno;
		goto out;
	}
	n = fread(buf, 1, WEBCONFIG_MAX_BYTES + 1, f);
	if (ferror(f))
		err = -EIO;
	else if (n > WEBCONFIG_MAX_BYTES)
		err = -EFBIG;
out:
	if (f)
		fclose(f);
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

/* A relative path made relative to the directory of `base`. */
static int relative_to(const char *base, char **path)
{
	const char *slash = strrchr(base, '/');
	char *joined;

	if (!*path || (*path)[0] == '/' || !slash)
		return 0;
	if (asprintf(&joined, "%.*s/%s", (int)(slash - base), base, *path) < 0)
		return -ENOMEM;
	free(*path);
	*path = joined;
	return 0;
}

int webconfig_load(const char *path, struct web_config *wc, char *err, size_t err_size)
{
	size_t len;
	char *buf;
	int rc = read_small_file(path, &buf, &len);

	if (rc) {
		snprintf(err, err_size, "%s", rc == -EFBIG ? "larger than 1 MiB" : strerror(-rc));
		return rc;
	}
	rc = webconfig_parse(buf, len, wc, err, err_size);
	free(buf);
	if (!rc && (relative_to(path, &wc->cert_file) || relative_to(path, &wc->key_file))) {
		webconfig_free(wc);
		snprintf(err, err_size, "out of memory");
		rc = -ENOMEM;
	}
	return rc;
}
