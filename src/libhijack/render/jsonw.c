// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * jsonw.c - the JSON string writer (see jsonw.h).
 */
#include "jsonw.h"

size_t hj_utf8_char(const char *s, unsigned int *ret_cp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp;
	size_t need, i;

	if (*p < 0x80) {
		*ret_cp = *p;
		return *p ? 1 : 0;
	}
	/* 0xc0 and 0xc1 only ever start an overlong form of ASCII. */
	need = *p >= 0xf0 && *p < 0xf5 ? 3 :
	       *p >= 0xe0 && *p < 0xf0 ? 2 :
	       *p >= 0xc2 && *p < 0xe0 ? 1 : 0;
	if (!need)
		return 0;
	cp = *p & (0x3fu >> need);
	for (i = 1; i <= need; i++) {
		/* Also stops at the NUL: it is no continuation byte. */
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	/* Shortest form only, no surrogate, nothing past U+10FFFF. */
	if ((need == 2 && cp < 0x800) ||
	    (need == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret_cp = cp;
	return need + 1;
}

void hj_json_string(FILE *f, const char *s)
{
	unsigned int cp;
	size_t n;

	fputc('"', f);
	while (s && *s) {
		n = hj_utf8_char(s, &cp);
		if (!n) {
			/* Not UTF-8: the byte, as the character of its number. */
			fprintf(f, "\\u%04x", (unsigned int)(unsigned char)*s++);
			continue;
		}
		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			fprintf(f, "\\u%04x", cp);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

void hj_json_string_or_null(FILE *f, const char *s)
{
	if (s)
		hj_json_string(f, s);
	else
		fputs("null", f);
}
