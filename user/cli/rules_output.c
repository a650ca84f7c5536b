// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* asprintf() */
#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "audit/rules_file.h"
#include "cli/rules_output.h"

/* What every file advise writes begins with. */
static const char written_by[] = "## Written by auditskip advise";

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;

	return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* The directory `path` is in, as stat() sees it; false if it cannot be read. */
static bool parent_of(const char *path, struct stat *st)
{
	char *copy = strdup(path);
	bool ok = copy && stat(dirname(copy), st) == 0;

	free(copy);
	return ok;
}

int rules_output_check(const char *path, const char *input, const struct ruleset *rs)
{
	struct stat out, in, dir;

	if (stat(path, &out) == 0) {
		bool read = input && same_file(&out, input);

		for (size_t i = 0; i < rs->nsources && !read; i++)
			read = same_file(&out, rs->sources[i]);
		if (read) {
			fprintf(stderr,
				"auditskip: %s is a file the rules were read from: write elsewhere, then compare and move it\n",
				path);
			return -1;
		}
	}
	if (input && stat(input, &in) == 0 && S_ISDIR(in.st_mode) && parent_of(path, &dir) &&
	    dir.st_dev == in.st_dev && dir.st_ino == in.st_ino) {
		fprintf(stderr,
			"auditskip: %s is in %s, the directory read: augenrules would merge it with the rules it replaces; write it elsewhere\n",
			path, input);
		return -1;
	}
	return 0;
}

/* The id `auditskip rules` gives `text` once loaded: 0, or -1 after a message. */
static int id_once_loaded(const char *path, const char *text, size_t len, char id[RULESET_ID_LEN])
{
	struct rules_file_error fe;
	struct ruleset rs;

	if (rules_text_read(text, len, path, &rs, &fe)) {
		fprintf(stderr,
			"auditskip: %s not written: read back as auditctl -R would load it, line %u fails (%s)\n",
			path, fe.line, fe.message);
		ruleset_free(&rs);
		return -1;
	}
	ruleset_id(&rs, id);
	ruleset_free(&rs);
	return 0;
}

/* `text` with the id line after its first line, into the open file f. */
static int write_with_id(FILE *f, const char *text, size_t len, const char id[RULESET_ID_LEN])
{
	const char *nl = memchr(text, '\n', len);
	size_t head = nl ? (size_t)(nl - text) + 1 : len;

	fwrite(text, 1, head, f);
	fprintf(f, "## Once loaded, 'auditskip rules' gives this set the id %s.\n", id);
	fwrite(text + head, 1, len - head, f);
	return ferror(f) ? -EIO : 0;
}

int rules_output_write(const char *path, const char *text, size_t len)
{
	char id[RULESET_ID_LEN], *tmp;
	FILE *f = NULL;
	int fd, err = 0;

	if (id_once_loaded(path, text, len, id))
		return -1;
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		fprintf(stderr, "auditskip: out of memory\n");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd >= 0 && fchmod(fd, 0640) == 0)
		f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
	} else {
		err = write_with_id(f, text, len, id);
		if (fclose(f) && !err)
			err = -errno;
	}
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		fprintf(stderr, "auditskip: cannot write %s: %s\n", path, strerror(-err));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	return err ? -1 : 0;
}

/* Whether `path` begins as the files advise writes begin. */
static bool written_by_advise(const char *path)
{
	char head[sizeof(written_by)] = "";
	FILE *f = fopen(path, "r");
	bool ours = f && fread(head, 1, sizeof(head) - 1, f) == sizeof(head) - 1 &&
		    !strcmp(head, written_by);

	if (f)
		fclose(f);
	return ours;
}

int rules_output_none(const char *path, const char *why)
{
	struct stat st;

	if (stat(path, &st)) {
		fprintf(stderr, "auditskip: nothing written to %s: %s\n", path, why);
	} else if (written_by_advise(path) && unlink(path) == 0) {
		fprintf(stderr,
			"auditskip: nothing written to %s: %s; the older %s, written by auditskip advise, is removed so that it cannot be loaded in its place\n",
			path, why, path);
	} else {
		fprintf(stderr,
			"auditskip: nothing written to %s: %s; %s exists and was left as it was: it is not this run's output\n",
			path, why, path);
	}
	return 1;
}
