// SPDX-License-Identifier: GPL-2.0
/*
 * --metrics-textfile PATH: the /metrics page written to a file on every
 * resync, for node_exporter's textfile collector (which reads *.prom files
 * of one directory on every scrape). Works without the HTTP server, so in
 * static builds too.
 *
 * The page goes to PATH.tmp in the same directory and is renamed over PATH:
 * rename(2) within one file system replaces the name atomically, so a
 * reader opens either the whole old page or the whole new one, never a
 * truncated file. The collector ignores PATH.tmp (it does not end in .prom).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "output/metrics_page.h"
#include "output/metrics_textfile.h"

int metrics_textfile_check(const char *path, char *err, size_t err_size)
{
	char *copy = strdup(path), *dir;
	struct stat st;
	int ret = -1;

	if (!copy) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	dir = dirname(copy);
	if (!*path || path[strlen(path) - 1] == '/')
		snprintf(err, err_size, "give a file name, not a directory");
	else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		snprintf(err, err_size, "exists and is not a regular file");
	else if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		snprintf(err, err_size, "no directory %s", dir);
	else if (access(dir, W_OK | X_OK))
		snprintf(err, err_size, "cannot write in %s: %s", dir, strerror(errno));
	else
		ret = 0;
	free(copy);
	return ret;
}

static int write_page(const char *path, const char *tmp, const struct run_state *r,
		      const struct counts_snapshot *total)
{
	FILE *out;
	int fd, err = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	out = fdopen(fd, "w");
	if (!out) {
		err = -errno;
		close(fd);
		goto fail;
	}
	metrics_render(out, r, total);
	if (fflush(out) || ferror(out))
		err = errno ? -errno : -EIO;
	if (fclose(out) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (!err)
		return 0;
fail:
	unlink(tmp);
	return err;
}

void metrics_textfile_write(const char *path, const struct run_state *r,
			    const struct counts_snapshot *total)
{
	static int last_err;
	char *tmp;
	int err;

	if (!path)
		return;
	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return;
	err = write_page(path, tmp, r, total);
	/* A full disk would otherwise print a line on every resync. */
	if (err && err != last_err)
		fprintf(stderr, "auditskip: cannot write %s: %s\n", path, strerror(-err));
	last_err = err;
	free(tmp);
}
