// SPDX-License-Identifier: GPL-2.0
/*
 * What a rules file's bytes did that its words do not show: a message
 * never echoes a control byte raw (a \r would move the cursor, a NUL end
 * the text), and it says what probably happened (a file saved with CRLF
 * line endings or a UTF-8 byte order mark, a binary file, a line longer
 * than auditctl reads at once).
 */
#include <stdio.h>
#include <string.h>
#include "audit/rules_file_internal.h"

void escape_controls(char *out, size_t size, const char *text)
{
	size_t n = 0;

	if (!size)
		return;
	for (const unsigned char *p = (const unsigned char *)text; *p && n + 5 < size; p++) {
		if (*p == '\r')
			n += snprintf(out + n, size - n, "\\r");
		else if (*p == '\t')
			n += snprintf(out + n, size - n, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			n += snprintf(out + n, size - n, "\\x%02x", *p);
		else
			out[n++] = *p;
	}
	out[n] = '\0';
}

/* Control bytes other than tab and a final \r: not a text file. */
static bool has_binary(const char *text)
{
	size_t len = strlen(text);

	for (size_t i = 0; i < len; i++) {
		unsigned char c = text[i];

		if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == len)) || c == 0x7f)
			return true;
	}
	return false;
}

const char *line_damage_hint(const struct source_line *sl)
{
	size_t len = strlen(sl->text);

	if (sl->damage & LINE_CUT)
		return " (the line is longer than auditctl's limit of 6143 bytes: auditctl reads the rest as the next line)";
	if (sl->damage & LINE_CONTINUED)
		return " (the rest of the line before, which is longer than auditctl's limit of 6143 bytes)";
	if (sl->damage & LINE_NUL || has_binary(sl->text))
		return " (binary file? it holds control bytes)";
	if (len && sl->text[len - 1] == '\r')
		return " (CRLF line endings? auditctl reads the \\r as part of the last word)";
	if (sl->line == 1 && !strncmp(sl->text, "\xef\xbb\xbf", 3))
		return " (the file starts with a UTF-8 byte order mark, which auditctl reads as part of the first word: save it without the BOM)";
	return "";
}
