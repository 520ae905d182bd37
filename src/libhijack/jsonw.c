// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * jsonw.c - the JSON string writer (see jsonw.h).
 */
#include "jsonw.h"

void hj_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
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
