/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Basic authentication for --metrics against the bcrypt hashes of the web
 * configuration. bcrypt is slow by design (tens of ms at cost 10), so a
 * scraper that keeps sending the right password is checked once: the last
 * few credentials that passed are remembered, in memory only.
 */
#ifndef __BASIC_AUTH_H
#define __BASIC_AUTH_H

#include <stdbool.h>
#include "http/webconfig.h"

struct basic_auth;

/* Checks against wc's users (wc must outlive it); NULL when out of memory. */
struct basic_auth *basic_auth_new(const struct web_config *wc);
void basic_auth_free(struct basic_auth *a);
/* True when USER is configured and PASSWORD matches its hash. Thread-safe. */
bool basic_auth_check(struct basic_auth *a, const char *user, const char *password);

#endif /* __BASIC_AUTH_H */
