// SPDX-License-Identifier: GPL-2.0
/*
 * bcrypt_hash PASSWORD [COST]: the hash 'htpasswd -nbB' would print for
 * PASSWORD ($2b$, cost 10 by default), made by libcrypt, so the tests need
 * no apache2-utils.
 */
#define _GNU_SOURCE
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct crypt_data cd = { 0 };
	unsigned long cost = argc > 2 ? strtoul(argv[2], NULL, 10) : 10;
	const char *salt, *hash;

	if (argc < 2 || argc > 3 || cost < 4 || cost > 31) {
		fprintf(stderr, "usage: bcrypt_hash PASSWORD [COST 4..31]\n");
		return 2;
	}
	salt = crypt_gensalt_rn("$2b$", cost, NULL, 0, cd.setting, sizeof(cd.setting));
	hash = salt ? crypt_r(argv[1], salt, &cd) : NULL;
	if (!hash || hash[0] == '*') {
		fprintf(stderr, "bcrypt_hash: libcrypt cannot make a bcrypt hash here\n");
		return 1;
	}
	puts(hash);
	return 0;
}
