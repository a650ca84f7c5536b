/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --web.config.file: TLS and basic authentication for --metrics, in the
 * YAML format of the Prometheus exporter toolkit:
 *
 *   tls_server_config:
 *     cert_file: server.crt      # relative paths: from the file's directory
 *     key_file: server.key
 *   basic_auth_users:
 *     prometheus: $2y$10$...     # bcrypt, as htpasswd -nB makes it
 *
 * Keys of the toolkit auditskip does not implement are refused by name,
 * never ignored: a setting that silently did nothing would be worse.
 */
#ifndef __WEBCONFIG_H
#define __WEBCONFIG_H

#include <stddef.h>

struct web_user {
	char *name;
	char *hash; /* bcrypt: $2a$, $2b$ or $2y$ */
};

struct web_config {
	char *cert_file, *key_file; /* both or neither; NULL: plain HTTP */
	struct web_user *users;	    /* none: no authentication */
	size_t nusers;
};

/*
 * Parses one YAML document of `len` bytes (not NUL-terminated). Paths are
 * kept as written. 0, or -EINVAL with `err` filled as "line N: what".
 * On failure nothing is left to free; on success webconfig_free() it.
 */
int webconfig_parse(const char *buf, size_t len, struct web_config *wc, char *err, size_t err_size);
/* Reads and parses PATH; relative cert_file and key_file become relative to PATH's directory. */
int webconfig_load(const char *path, struct web_config *wc, char *err, size_t err_size);
void webconfig_free(struct web_config *wc);

#endif /* __WEBCONFIG_H */
