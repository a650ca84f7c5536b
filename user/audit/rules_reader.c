// SPDX-License-Identifier: GPL-2.0
/*
 * auditctl -R without the kernel: the lines of a file (fileopt()) or of a
 * rules.d directory in augenrules' order, each split into words as
 * auditctl splits it, parsed (auditctl_parse.c) and sent to the emulated
 * kernel list (kernel_list.c); auditctl's -i and -c decide whether an
 * error ends the reading.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libaudit.h>
#include "audit/rules_file.h"
#include "audit/rules_file_internal.h"

/* auditctl reads a line at most this long (LINE_SIZE with its NUL); more is the next line. */
#define LINE_MAX_READ 6143

int string_list_add(char ***v, size_t *n, const char *s)
{
	char **grown = realloc(*v, (*n + 1) * sizeof(**v));

	if (!grown)
		return -ENOMEM;
	*v = grown;
	grown[*n] = strdup(s);
	if (!grown[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

void line_note(struct reader *rd, const char *fmt, ...)
{
	char raw[700], text[700], where[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	escape_controls(text, sizeof(text), raw);
	snprintf(where, sizeof(where), "%s:%u", rd->at->file, rd->at->line);
	{
		char line[1024];

		snprintf(line, sizeof(line), "%s: %s", where, text);
		string_list_add(&rd->rs->notes, &rd->rs->nnotes, line);
	}
}

/* The reason a line fails, auditctl's words; the caller decides whether reading stops. */
int line_error(struct reader *rd, const char *fmt, ...)
{
	char raw[sizeof(rd->msg)];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	escape_controls(rd->msg, sizeof(rd->msg), raw);
	n = strlen(rd->msg);
	snprintf(rd->msg + n, sizeof(rd->msg) - n, "%s", line_damage_hint(rd->at));
	return -EINVAL;
}

/* A file of CRLF lines reads without error, the \r in each last word: said once. */
static void note_crlf(struct reader *rd, const struct source_line *sl)
{
	size_t len = strlen(sl->text);

	if (rd->crlf_noted || !len || sl->text[len - 1] != '\r')
		return;
	rd->crlf_noted = true;
	line_note(
		rd,
		"the line ends in \\r (CRLF line endings?): auditctl keeps the \\r in the last word, here and on every such line");
}

/* auditctl's preprocess(): "\ " and "\\" are kept from splitting, then put back. */
static void hide_escapes(char *buf)
{
	bool esc = false;

	for (size_t i = 0; buf[i]; i++) {
		if (buf[i] == '\\' && !esc) {
			esc = true;
			continue;
		}
		if (esc) {
			if (buf[i] == ' ')
				buf[i] = buf[i - 1] = 0x07;
			else if (buf[i] == '\\')
				buf[i] = buf[i - 1] = 0x04;
			esc = false;
		}
	}
}

static void restore_escapes(char *s)
{
	char *out = s;

	while (*s) {
		/* Only the pairs hide_escapes() made: a lone marker byte is kept. */
		if ((*s == 0x07 || *s == 0x04) && s[1] == *s) {
			*out++ = *s == 0x07 ? ' ' : '\\';
			s += 2;
			continue;
		}
		*out++ = *s++;
	}
	*out = '\0';
}

/* A line's error: noted when auditctl goes on (-i, -c), else the error; 0 or -EINVAL. */
static int line_failed(struct reader *rd, const struct source_line *sl)
{
	bool stop = !rd->ignore_errors;

	if (!stop) {
		line_note(rd, "%s (auditctl goes on: -%c)", rd->msg,
			  rd->continue_errors ? 'c' : 'i');
		rd->failed_on |= rd->continue_errors;
	}
	/* Under -c the first error is the one reported at the end. */
	if (rd->err && (stop || (rd->continue_errors && !rd->err->message[0]))) {
		snprintf(rd->err->file, sizeof(rd->err->file), "%s", sl->file);
		rd->err->line = sl->line;
		snprintf(rd->err->message, sizeof(rd->err->message), "%s", rd->msg);
	}
	return stop ? -EINVAL : 0;
}

/* 0 on success or a skipped error, else the error that ends reading. */
static int read_line(struct reader *rd, const struct source_line *sl)
{
	struct line_state ls = { .add = LIST_UNSET, .del = LIST_UNSET, .action = -1 };
	char *buf, **argv, *tok;
	int argc = 0, ret;
	size_t i = 0, ntok;

	rd->at = sl;
	rd->msg[0] = '\0';
	while (sl->text[i] == ' ')
		i++;
	if (!sl->text[i])
		return 0;
	buf = strdup(sl->text);
	if (!buf)
		return -ENOMEM;
	hide_escapes(buf);
	ntok = strlen(buf) / 2 + 3;
	argv = calloc(ntok + 1, sizeof(*argv));
	if (!argv) {
		free(buf);
		return -ENOMEM;
	}
	/* audit_strsplit(): split on spaces only. */
	argv[argc++] = "auditctl";
	for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		if (argc == 1 && tok[0] == '#')
			goto done;
		if (argc > 1)
			restore_escapes(tok);
		argv[argc++] = tok;
	}
	if (argc == 1)
		goto done;
	rd->lines_read++;
	note_crlf(rd, sl);

	_audit_syscalladded = _audit_permadded = _audit_archadded = 0;
	_audit_exeadded = _audit_filterfsadded = 0;
	_audit_elf = 0;
	ls.rule = audit_rule_create_data();
	if (!ls.rule) {
		ret = -ENOMEM;
		goto out;
	}
	ret = auditctl_parse_line(rd, &ls, argc, argv);
	if (ret == 0 && ls.delete_all) {
		if (rd->locked)
			ret = line_error(rd, "Error deleting rule (Operation not permitted)");
		else
			kernel_list_delete_all(rd, ls.delete_key);
	} else if (ret == 0 && _audit_syscalladded && ls.add == LIST_UNSET &&
		   ls.del == LIST_UNSET) {
		ret = line_error(rd, "Error - no list specified");
	} else if (ret == 1) {
		ret = kernel_list_send(rd, &ls);
	}
	audit_rule_free_data(ls.rule);
	if (ret == -EINVAL && rd->msg[0])
		ret = line_failed(rd, sl);
	goto out;
done:
	ret = 0;
out:
	free(argv);
	free(buf);
	return ret;
}

static int read_lines(struct reader *rd, const struct source_line *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = read_line(rd, &lines[i]);

		if (err)
			return err;
	}
	/* What auditctl -R does under -c: every other rule loaded, exit 1 at the end. */
	if (rd->failed_on)
		return string_list_add(
			&rd->rs->notes, &rd->rs->nnotes,
			"-c: auditctl -R loads every rule but the lines that failed (noted above), then exits 1");
	return 0;
}

int push_line(struct line_list *l, const char *text, size_t len, const char *file,
	      unsigned int line)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct source_line *grown = realloc(l->v, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		l->v = grown;
		l->cap = cap;
	}
	l->v[l->n].text = strndup(text, len);
	if (!l->v[l->n].text)
		return -ENOMEM;
	l->v[l->n].file = file;
	l->v[l->n].line = line;
	l->v[l->n].damage = 0;
	l->n++;
	return 0;
}

int copy_line(struct line_list *l, const struct source_line *from)
{
	int err = push_line(l, from->text, strlen(from->text), from->file, from->line);

	if (!err)
		l->v[l->n - 1].damage = from->damage;
	return err;
}

void free_lines(struct line_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/*
 * The lines fgets() would give auditctl: split at '\n', and a line longer
 * than auditctl's buffer continues as the next one, numbered as such.
 */
static int split_lines(struct line_list *l, const char *text, size_t len, const char *file)
{
	unsigned int line = 1, continued = 0;
	size_t start = 0;

	while (start < len) {
		size_t end = start, kept;
		int err;

		while (end < len && text[end] != '\n' && end - start < LINE_MAX_READ)
			end++;
		/* auditctl stops at a NUL inside a line. */
		kept = strnlen(text + start, end - start);
		err = push_line(l, text + start, kept, file, line++);
		if (err)
			return err;
		l->v[l->n - 1].damage = continued | (kept < end - start ? LINE_NUL : 0);
		continued = 0;
		if (end < len && text[end] != '\n') {
			l->v[l->n - 1].damage |= LINE_CUT;
			continued = LINE_CONTINUED;
		}
		start = end < len && text[end] == '\n' ? end + 1 : end;
	}
	return 0;
}

static int slurp(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, n = 0;
	char *buf = NULL;

	if (!f)
		return -errno;
	for (;;) {
		if (n == cap) {
			char *grown = realloc(buf, cap ? cap * 2 : 65536);

			if (!grown) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = grown;
			cap = cap ? cap * 2 : 65536;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int err = -EIO;

		free(buf);
		fclose(f);
		return err;
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
}

static void set_error(struct rules_file_error *err, const char *file, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	snprintf(err->file, sizeof(err->file), "%s", file);
	err->line = 0;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

/* Nothing to predict or advise on: an error, not an empty report. */
static int no_rule(struct rules_file_error *err, const char *path, const char *why)
{
	set_error(err, path, "no rule in %s: %s", path, why);
	if (err)
		err->file[0] = '\0'; /* the message names it */
	return -ENODATA;
}

static int reader_init(struct reader *rd, struct ruleset *rs, struct rules_file_error *err)
{
	memset(rd, 0, sizeof(*rd));
	memset(rs, 0, sizeof(*rs));
	if (err)
		memset(err, 0, sizeof(*err));
	rd->rs = rs;
	rd->err = err;
	kernel_classes_from_tables(&rd->classes);
	return 0;
}

int rules_text_read(const char *text, size_t len, const char *name, struct ruleset *rs,
		    struct rules_file_error *err)
{
	struct line_list lines = { 0 };
	struct reader rd;
	int ret;

	reader_init(&rd, rs, err);
	ret = string_list_add(&rs->sources, &rs->nsources, name);
	if (!ret)
		ret = split_lines(&lines, text, len, rs->sources[0]);
	if (!ret)
		ret = read_lines(&rd, lines.v, lines.n);
	free_lines(&lines);
	if (ret == -ENOMEM)
		set_error(err, name, "out of memory");
	return ret;
}

static int read_directory(struct reader *rd, const char *dir)
{
	struct line_list raw = { 0 }, ordered = { 0 };
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d) {
		err = -errno;
		set_error(rd->err, dir, "cannot read the directory: %s", strerror(-err));
		return err;
	}
	while ((de = readdir(d)) && !err)
		if (augenrules_takes_name(de->d_name))
			err = string_list_add(&names, &n, de->d_name);
	closedir(d);
	if (!err)
		qsort(names, n, sizeof(*names), augenrules_name_compare);
	for (size_t i = 0; i < n && !err; i++) {
		char path[PATH_MAX];
		char *text;
		size_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		err = slurp(path, &text, &len);
		if (err) {
			/* augenrules' cat fails on it and goes on. */
			if (err == -ENOMEM)
				break;
			{
				char line[PATH_MAX + 128];

				snprintf(
					line, sizeof(line),
					"%s: cannot be read (%s): left out, as augenrules leaves it",
					path, strerror(-err));
				string_list_add(&rd->rs->notes, &rd->rs->nnotes, line);
			}
			err = 0;
			continue;
		}
		err = string_list_add(&rd->rs->sources, &rd->rs->nsources, path);
		if (!err)
			err = split_lines(&raw, text, len, rd->rs->sources[rd->rs->nsources - 1]);
		free(text);
	}
	if (!err)
		err = augenrules_order(&raw, &ordered);
	if (!err)
		err = read_lines(rd, ordered.v, ordered.n);
	if (!err && !rd->lines_read)
		err = no_rule(rd->err, dir,
			      n ? "its files are empty or hold only comments" :
				  "no file in it ends in .rules");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free_lines(&raw);
	free_lines(&ordered);
	return err;
}

int rules_file_read(const char *path, struct ruleset *rs, struct rules_file_error *err)
{
	struct line_list lines = { 0 };
	struct reader rd;
	struct stat st;
	char *text;
	size_t len;
	int ret;

	reader_init(&rd, rs, err);
	if (stat(path, &st)) {
		ret = -errno;
		set_error(err, path, "%s",
			  ret == -ENOENT ? "audit rules file doesn't exist" : strerror(-ret));
		return ret;
	}
	if (S_ISDIR(st.st_mode))
		return read_directory(&rd, path);
	if (!S_ISREG(st.st_mode)) {
		set_error(err, path, "Error - %s is not a regular file", path);
		return -EINVAL;
	}
	ret = slurp(path, &text, &len);
	if (ret) {
		set_error(err, path, "Error opening %s (%s)", path, strerror(-ret));
		return ret;
	}
	ret = string_list_add(&rs->sources, &rs->nsources, path);
	/* auditctl -R refuses these; the reading goes on, and says so. */
	if (!ret && st.st_uid != 0)
		string_list_add(&rs->notes, &rs->nnotes,
				"auditctl -R would refuse this file: it isn't owned by root");
	if (!ret && (st.st_mode & S_IWOTH))
		string_list_add(&rs->notes, &rs->nnotes,
				"auditctl -R would refuse this file: it is world writable");
	if (!ret)
		ret = split_lines(&lines, text, len, rs->sources[0]);
	free(text);
	if (!ret)
		ret = read_lines(&rd, lines.v, lines.n);
	if (!ret && !rd.lines_read)
		ret = no_rule(err, path, "the file is empty or holds only comments");
	free_lines(&lines);
	if (ret == -ENOMEM)
		set_error(err, path, "out of memory");
	return ret;
}

int rules_file_leave_out_refused(struct ruleset *rs)
{
	size_t kept = 0, out;
	char note[200];

	for (size_t i = 0; i < rs->n; i++) {
		if (rs->rules[i].refused_here)
			rule_free(&rs->rules[i]);
		else
			rs->rules[kept++] = rs->rules[i];
	}
	out = rs->n - kept;
	rs->n = kept;
	if (!out)
		return 0;
	snprintf(
		note, sizeof(note),
		"%zu rule%s that would not load here left out, as auditctl -R with -i leaves them (--keep-refused keeps them in the analysis)",
		out, out == 1 ? "" : "s");
	return string_list_add(&rs->notes, &rs->nnotes, note);
}
