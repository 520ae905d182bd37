// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_jsonw - the JSON string writer (src/libhijack/render/jsonw.c) and the
 * name check that shares its UTF-8 reader (engine-common.c:
 * hj_printable()).
 *
 * Whatever the string, the output must be one JSON string that a strict
 * parser reads (jansson refuses what is not UTF-8), with no raw control
 * in it: none of C0, DEL or the C1 controls (U+0080 to U+009F, in UTF-8
 * C2 80 to C2 9F), which a terminal showing the output may obey.  And it
 * must say what the input was: a character of valid UTF-8 as itself, a
 * byte that is not UTF-8 as the character of the same number (hijack(1),
 * JSON OUTPUT).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"
#include "render/jsonw.h"
#include "testlib.h"

/* Valid text around the bytes tried: ASCII, 2 and 4 bytes of UTF-8. */
static const char *const contexts[] = { "", "a", "\xc3\xa9", "\xf0\x9f\x98\x80" };

/*
 * hj_json_string() of @s, as a string of its own (free it).  One stream
 * for all, and no ck_assert on the way (in fork mode each records its
 * place with a system call): millions of strings are written.
 */
static char *written(const char *s)
{
	static char buf[256];
	static FILE *f;
	char *out;
	long len;

	if (!f)
		f = fmemopen(buf, sizeof(buf), "w");
	if (!f)
		ck_abort_msg("fmemopen: %m");
	rewind(f);
	hj_json_string(f, s);
	len = ftell(f);
	if (fflush(f) != 0 || len < 0 || len >= (long)sizeof(buf))
		ck_abort_msg("writing %s: %ld bytes", s, len);
	out = strndup(buf, (size_t)len);
	if (!out)
		ck_abort_msg("strndup: %m");
	return out;
}

/* No byte of @out is a control, and no character of it a C1 control. */
static void assert_inert(const char *out, const char *in)
{
	const unsigned char *p = (const unsigned char *)out;

	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			ck_abort_msg("raw control %#x in %s (from %s)", *p, out, in);
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)
			ck_abort_msg("raw C1 control in %s", out);
	}
}

/*
 * Parse @out strictly as one JSON string; return what it decodes to (free
 * it).  jansson refuses invalid UTF-8, overlong forms and surrogates.
 */
static char *parsed(const char *out)
{
	json_error_t err;
	json_t *j = json_loads(out, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
	char *v;

	if (!j || !json_is_string(j))
		ck_abort_msg("not one JSON string: %s (%s)", out, err.text);
	v = strdup(json_string_value(j));
	json_decref(j);
	if (!v)
		ck_abort_msg("strdup: %m");
	return v;
}

/* What one byte of input stands for when alone: itself, or U+00XX. */
static void expect_byte(char *buf, unsigned int b)
{
	if (b < 0x80) {
		buf[0] = (char)b;
		buf[1] = '\0';
	} else {
		buf[0] = (char)(0xc0 | b >> 6);
		buf[1] = (char)(0x80 | (b & 0x3f));
		buf[2] = '\0';
	}
}

/*
 * Every byte value, alone and at the start, middle and end of valid text:
 * between whole characters no byte from 0x80 up can be part of valid
 * UTF-8, so each must come back as U+00XX and the text around it as is.
 */
START_TEST(every_byte_everywhere)
{
	char in[64], want[64], one[4];
	unsigned int b, i, j;

	for (b = 1; b < 256; b++) {
		expect_byte(one, b);
		for (i = 0; i < ARRAY_SIZE(contexts); i++)
			for (j = 0; j < ARRAY_SIZE(contexts); j++) {
				const char *l = contexts[i], *r = contexts[j];
				char *out, *got;

				(void)snprintf(in, sizeof(in), "%s%c%s%s", l, (char)b, r, l);
				(void)snprintf(want, sizeof(want), "%s%s%s%s", l, one, r, l);
				out = written(in);
				assert_inert(out, in);
				got = parsed(out);
				if (strcmp(got, want) != 0)
					ck_abort_msg("byte %#x in context %u/%u: %s",
						     b, i, j, out);
				free(got);
				free(out);
			}
	}
}
END_TEST

/* The escapes themselves, and the characters that pass as they are. */
START_TEST(escapes)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "\"\"" },
		{ "plain /srv/a b", "\"plain /srv/a b\"" },
		{ "q\"b\\", "\"q\\\"b\\\\\"" },
		{ "\n\t\x1b[31m", "\"\\u000a\\u0009\\u001b[31m\"" },
		{ "\x7f", "\"\\u007f\"" },
		/* A directory name with CSI, DEL and a byte that is not UTF-8. */
		{ "hjx\x9b\x7f\xffy", "\"hjx\\u009b\\u007f\\u00ffy\"" },
		/* C1 in valid UTF-8, and the first character past it. */
		{ "\xc2\x80\xc2\x9b\xc2\x9f\xc2\xa0", "\"\\u0080\\u009b\\u009f\xc2\xa0\"" },
		{ "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x82\xac \xef\xbf\xbf",
		  "\"\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x82\xac \xef\xbf\xbf\"" },
		{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },
		/* Overlong forms, byte by byte. */
		{ "\xc0\xaf", "\"\\u00c0\\u00af\"" },
		{ "\xc1\xbf", "\"\\u00c1\\u00bf\"" },
		{ "\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"" },
		{ "\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"" },
		/* A surrogate, and past U+10FFFF. */
		{ "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },
		{ "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" },
		{ "\xf5\x80\x80\x80", "\"\\u00f5\\u0080\\u0080\\u0080\"" },
		/* Cut short: the lead byte alone, and what follows read afresh. */
		{ "\xe2\x82", "\"\\u00e2\\u0082\"" },
		{ "\xe2\x82" "a", "\"\\u00e2\\u0082a\"" },
		{ "\xe2\xc3\xa9", "\"\\u00e2\xc3\xa9\"" },
		{ "\xf0\x9f\x98", "\"\\u00f0\\u009f\\u0098\"" },
		{ "\xf0\x9f\x98\xc2\x9b", "\"\\u00f0\\u009f\\u0098\\u009b\"" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *out = written(cases[i].in);

		ck_assert_msg(strcmp(out, cases[i].out) == 0, "case %zu: %s, not %s",
			      i, out, cases[i].out);
		assert_inert(out, cases[i].in);
		free(parsed(out));
		free(out);
	}
}
END_TEST

/*
 * Every pair of bytes, and every triple that starts a sequence of three or
 * four bytes (a lead byte, then a continuation byte): valid JSON, and
 * inert.
 */
START_TEST(every_pair_and_triple)
{
	char in[4] = { 0 };
	unsigned int a, b, c;

	for (a = 1; a < 256; a++)
		for (b = 1; b < 256; b++)
			for (c = 0; c < (a >= 0xe0 && b >= 0x80 && b < 0xc0 ? 256u : 1u); c++) {
				char *out;

				in[0] = (char)a;
				in[1] = (char)b;
				in[2] = (char)c;
				out = written(in);
				assert_inert(out, in);
				free(parsed(out));
				free(out);
			}
}
END_TEST

/* Every code point, written as UTF-8: itself unless a control. */
START_TEST(every_character)
{
	char in[8], want[16];
	unsigned int cp;

	for (cp = 1; cp <= 0x10ffff; cp++) {
		char *out;

		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		if (cp < 0x80) {
			in[0] = (char)cp;
			in[1] = '\0';
		} else if (cp < 0x800) {
			in[0] = (char)(0xc0 | cp >> 6);
			in[1] = (char)(0x80 | (cp & 0x3f));
			in[2] = '\0';
		} else if (cp < 0x10000) {
			in[0] = (char)(0xe0 | cp >> 12);
			in[1] = (char)(0x80 | (cp >> 6 & 0x3f));
			in[2] = (char)(0x80 | (cp & 0x3f));
			in[3] = '\0';
		} else {
			in[0] = (char)(0xf0 | cp >> 18);
			in[1] = (char)(0x80 | (cp >> 12 & 0x3f));
			in[2] = (char)(0x80 | (cp >> 6 & 0x3f));
			in[3] = (char)(0x80 | (cp & 0x3f));
			in[4] = '\0';
		}
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			(void)snprintf(want, sizeof(want), "\"\\u%04x\"", cp);
		else if (cp == '"' || cp == '\\')
			(void)snprintf(want, sizeof(want), "\"\\%c\"", (char)cp);
		else
			(void)snprintf(want, sizeof(want), "\"%s\"", in);
		out = written(in);
		if (strcmp(out, want) != 0)
			ck_abort_msg("U+%04X: %s, not %s", cp, out, want);
		free(out);
	}
}
END_TEST

START_TEST(null_strings)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	hj_json_string(f, NULL);
	hj_json_string_or_null(f, NULL);
	hj_json_string_or_null(f, "\xff");
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, "\"\"null\"\\u00ff\"");
	free(buf);
}
END_TEST

/* Engine names: refused with a control or what is not UTF-8. */
START_TEST(printable_names)
{
	static const char *const good[] = {
		"web", "a b", "\xc3\xa9t\xc3\xa9", "\xf0\x9f\x98\x80",
		"\xc2\xa0", "\xf4\x8f\xbf\xbf", "~",
	};
	static const char *const bad[] = {
		"a\tb", "\x1b[31m", "\x7f", "\xc2\x9b", "\xc2\x80", "\xc2\x9f",
		"\x9b", "\xff", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xe2\x82", "x\xf0\x9f\x98",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		ck_assert_msg(hj_printable(good[i]), "good %zu refused", i);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(!hj_printable(bad[i]), "bad %zu passed", i);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jsonw");
	TCase *tc = tcase_create("jsonw");

	tcase_add_test(tc, every_byte_everywhere);
	tcase_add_test(tc, escapes);
	tcase_add_test(tc, every_pair_and_triple);
	tcase_add_test(tc, every_character);
	tcase_add_test(tc, null_strings);
	tcase_add_test(tc, printable_names);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
