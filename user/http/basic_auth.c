// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <crypt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "http/basic_auth.h"

/* Credentials that passed, remembered: one per scraper is all it takes. */
#define REMEMBERED 8

struct basic_auth {
	const struct web_config *wc;
	pthread_mutex_t lock;
	struct {
		size_t user;
		char *password; /* NULL: free slot */
	} passed[REMEMBERED];
	unsigned int next;
};

struct basic_auth *basic_auth_new(const struct web_config *wc)
{
	struct basic_auth *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->wc = wc;
	pthread_mutex_init(&a->lock, NULL);
	return a;
}

void basic_auth_free(struct basic_auth *a)
{
	if (!a)
		return;
	for (int i = 0; i < REMEMBERED; i++) {
		if (a->passed[i].password)
			explicit_bzero(a->passed[i].password, strlen(a->passed[i].password));
		free(a->passed[i].password);
	}
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* Equal strings, in time that depends on the lengths only. */
static bool same(const char *x, const char *y)
{
	size_t lx = strlen(x), ly = strlen(y);
	unsigned char d = lx != ly;

	for (size_t i = 0; i < lx && i < ly; i++)
		d |= (unsigned char)x[i] ^ (unsigned char)y[i];
	return !d;
}

static bool remembered(struct basic_auth *a, size_t user, const char *password)
{
	bool hit = false;

	pthread_mutex_lock(&a->lock);
	for (int i = 0; i < REMEMBERED && !hit; i++)
		hit = a->passed[i].password && a->passed[i].user == user &&
		      same(a->passed[i].password, password);
	pthread_mutex_unlock(&a->lock);
	return hit;
}

static void remember(struct basic_auth *a, size_t user, const char *password)
{
	char *copy = strdup(password);
	unsigned int slot;

	if (!copy)
		return;
	pthread_mutex_lock(&a->lock);
	slot = a->next++ % REMEMBERED;
	if (a->passed[slot].password)
		explicit_bzero(a->passed[slot].password, strlen(a->passed[slot].password));
	free(a->passed[slot].password);
	a->passed[slot].user = user;
	a->passed[slot].password = copy;
	pthread_mutex_unlock(&a->lock);
}

bool basic_auth_check(struct basic_auth *a, const char *user, const char *password)
{
	struct crypt_data *cd;
	const char *hash = NULL, *out;
	size_t u;
	bool ok;

	for (u = 0; u < a->wc->nusers; u++) {
		if (!strcmp(a->wc->users[u].name, user)) {
			hash = a->wc->users[u].hash;
			break;
		}
	}
	if (!hash)
		return false;
	if (remembered(a, u, password))
		return true;
	cd = calloc(1, sizeof(*cd)); /* 32 KiB: not for a server thread's stack */
	if (!cd)
		return false;
	out = crypt_r(password, hash, cd);
	/* crypt_r() fails with NULL or a string starting with '*'. */
	ok = out && out[0] != '*' && same(out, hash);
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	if (ok)
		remember(a, u, password);
	return ok;
}
