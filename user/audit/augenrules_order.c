// SPDX-License-Identifier: GPL-2.0
/*
 * augenrules' order of a rules.d directory: which files it reads, in GNU
 * ls -v's order, and where it moves the control lines of their
 * concatenation.
 */
#include <ctype.h>
#include <string.h>
#include "audit/rules_file_internal.h"

/*
 * GNU ls -v's order (gnulib's filevercmp()), which augenrules lists
 * rules.d with: names compared without their suffixes first, then whole;
 * runs of digits by value, '~' before everything, letters before other
 * characters.
 */
static int version_order(unsigned char c)
{
	if (isdigit(c))
		return 0;
	if (isalpha(c))
		return c;
	if (c == '~')
		return -1;
	return c + 256;
}

static int version_compare(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i = 0, j = 0;

	while (i < alen || j < blen) {
		int first_diff = 0;

		while ((i < alen && !isdigit((unsigned char)a[i])) ||
		       (j < blen && !isdigit((unsigned char)b[j]))) {
			int ac = i == alen ? 0 : version_order(a[i]);
			int bc = j == blen ? 0 : version_order(b[j]);

			if (ac != bc)
				return ac - bc;
			i++;
			j++;
		}
		while (i < alen && a[i] == '0')
			i++;
		while (j < blen && b[j] == '0')
			j++;
		while (i < alen && j < blen && isdigit((unsigned char)a[i]) &&
		       isdigit((unsigned char)b[j])) {
			if (!first_diff)
				first_diff = a[i] - b[j];
			i++;
			j++;
		}
		if (i < alen && isdigit((unsigned char)a[i]))
			return 1;
		if (j < blen && isdigit((unsigned char)b[j]))
			return -1;
		if (first_diff)
			return first_diff;
	}
	return 0;
}

/* Length without the suffix (\.[A-Za-z~][A-Za-z0-9~]*)*$ that filevercmp() sets aside. */
static size_t without_suffix(const char *s)
{
	size_t len = strlen(s), prefix = len;

	for (size_t i = len; i-- > 0;) {
		if (s[i] == '.' && i + 1 < len &&
		    (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '~')) {
			size_t k = i + 1;

			while (k < prefix && (isalnum((unsigned char)s[k]) || s[k] == '~'))
				k++;
			if (k == prefix) {
				prefix = i;
				continue;
			}
		}
		if (!isalnum((unsigned char)s[i]) && s[i] != '~')
			break;
	}
	return prefix;
}

int augenrules_name_compare(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	size_t ap = without_suffix(a), bp = without_suffix(b);
	int diff = version_compare(a, ap, b, bp);

	if (!diff && (ap != strlen(a) || bp != strlen(b)))
		diff = version_compare(a, strlen(a), b, strlen(b));
	return diff ? diff : strcmp(a, b);
}

/*
 * mawk, Debian's awk, reads augenrules' "^\\s*-e" as "s" repeated, not
 * white space: a line is moved only when the option starts it.
 */
static bool starts_with_option(const char *line, const char *opt)
{
	while (*line == 's')
		line++;
	return !strncmp(line, opt, strlen(opt));
}

static bool is_bare_delete(const char *line)
{
	if (!starts_with_option(line, "-D"))
		return false;
	while (*line == 's')
		line++;
	for (line += 2; *line == 's'; line++)
		;
	return !*line;
}

/*
 * augenrules: the files' lines in ls -v order, empty and comment lines
 * dropped, the last bare -D first, then the last -b and the last -f, the
 * other lines in order, and the last -e at the end.
 */
int augenrules_order(const struct line_list *in, struct line_list *out)
{
	const struct source_line *del = NULL, *backlog = NULL, *failure = NULL, *enable = NULL;
	struct line_list rest = { 0 };
	int err = 0;

	for (size_t i = 0; i < in->n && !err; i++) {
		const struct source_line *l = &in->v[i];

		if (!l->text[0] || l->text[0] == '#' || (starts_with_option(l->text, "#")))
			continue;
		if (starts_with_option(l->text, "-e"))
			enable = l;
		else if (is_bare_delete(l->text))
			del = l;
		else if (starts_with_option(l->text, "-f"))
			failure = l;
		else if (starts_with_option(l->text, "-b"))
			backlog = l;
		else
			err = copy_line(&rest, l);
	}
	const struct source_line *head[] = { del, backlog, failure };

	for (size_t i = 0; i < 3 && !err; i++)
		if (head[i])
			err = copy_line(out, head[i]);
	for (size_t i = 0; i < rest.n && !err; i++)
		err = copy_line(out, &rest.v[i]);
	if (enable && !err)
		err = copy_line(out, enable);
	free_lines(&rest);
	return err;
}

bool augenrules_takes_name(const char *name)
{
	size_t len = strlen(name);

	/* ls without -a leaves out hidden names; augenrules greps "\\.rules$". */
	return name[0] != '.' && len > 6 && !strcmp(name + len - 6, ".rules");
}
