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

bool audit_escape(const char *s, bool keep_space, char *buf, size_t buflen)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	if (!buflen)
		return !*s;
	for (; *p; p++) {
		size_t need = passes(*p, keep_space) ? 1 : *p == '\\' ? 2 : 4;

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

/*
 * For a terminal, what a session file holds (session.c): it is already
 * escaped as above, printable ASCII with its backslashes doubled, and
 * shown as it is, so that a listing reads like the records.  Anything
 * else, which hijack never writes, still cannot reach the terminal raw.
 */
bool audit_escape_display(const char *s, char *buf, size_t buflen)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	if (!buflen)
		return !*s;
	for (; *p; p++) {
		bool plain = *p >= ' ' && *p < 0x7f;
		size_t need = plain ? 1 : 4;

		if (n + need >= buflen) {
			buf[n] = '\0';
			return false;
		}
		if (plain)
			buf[n] = (char)*p;
		else
			(void)snprintf(buf + n, 5, "\\x%02x", *p);
		n += need;
	}
	buf[n] = '\0';
	return true;
}
