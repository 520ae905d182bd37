// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * escape.c - every text a record carries goes through audit_escape().
 *
 * What is escaped and why: a newline would start a second syslog line (a
 * forged record), a double quote or a right bracket would end an RFC 5424
 * parameter early and let the rest pose as parameters of its own, and any
 * other control character, DEL or byte above 0x7f may act on the terminal
 * of whoever reads the log.  So only printable ASCII passes, and the
 * result is one line of it that every reader shows the same way.  The
 * escape is \xHH, and the backslash itself is \\, so the original bytes
 * can be read back exactly (hijack(1), AUDIT).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "audit.h"

static bool passes(unsigned char c, bool keep_space)
{
	if (c == ' ')
		return keep_space;
	return c > ' ' && c < 0x7f && c != '\\' && c != '"' && c != ']';
}

/* The width of @c escaped for a record (audit_escape()). */
static size_t record_width(unsigned char c, bool keep_space)
{
	return passes(c, keep_space) ? 1 : c == '\\' ? 2 : 4;
}

/*
 * For a terminal, what a session file holds (session.c): it is already
 * escaped for a record, printable ASCII with its backslashes doubled, and
 * shown as it is, so that a listing reads like the records.  Anything
 * else, which hijack never writes, still cannot reach the terminal raw.
 */
static size_t display_width(unsigned char c, bool unused)
{
	(void)unused;
	return c >= ' ' && c < 0x7f ? 1 : 4;
}

/* @s into @buf, each byte as wide as @width says: itself, \\ or \xHH. */
static bool escape(const char *s, size_t (*width)(unsigned char, bool),
		   bool keep_space, char *buf, size_t buflen)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	if (!buflen)
		return !*s;
	for (; *p; p++) {
		size_t need = width(*p, keep_space);

		/* Stop before the escape that would not fit whole. */
		if (n + need >= buflen) {
			buf[n] = '\0';
			return false;
		}
		if (need == 1)
			buf[n] = (char)*p;
		else if (need == 2)
			buf[n] = buf[n + 1] = '\\';
		else
			(void)snprintf(buf + n, 5, "\\x%02x", *p);
		n += need;
	}
	buf[n] = '\0';
	return true;
}

bool audit_escape(const char *s, bool keep_space, char *buf, size_t buflen)
{
	return escape(s, record_width, keep_space, buf, buflen);
}

bool audit_escape_display(const char *s, char *buf, size_t buflen)
{
	return escape(s, display_width, false, buf, buflen);
}
