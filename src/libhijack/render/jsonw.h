/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jsonw.h - the one JSON string writer of the tree: --explain=json in the
 * library, and the benchmark tools (forkbench, benchcmp) that compile
 * jsonw.c in beside their own sources.  It depends on nothing of libhijack.
 */
#ifndef HIJACK_JSONW_H
#define HIJACK_JSONW_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write @s as a JSON string, quotes included.  Strings come from /proc,
 * from containers and from the command line: they may hold anything, and
 * what is written is always valid UTF-8 JSON that acts on no terminal:
 *  - '"' and '\\' are escaped with a backslash;
 *  - the controls, C0 (below 0x20), DEL and C1 (U+0080 to U+009F, which
 *    terminals may obey as ESC sequences), are written as \u00XX;
 *  - a byte that is not part of valid UTF-8 (see hj_utf8_char()) is
 *    written as \u00XX of its own value, XX from 80 to ff, and the bytes
 *    after it are looked at afresh;
 *  - every other character, é or an emoji, passes as it is.
 * So \u00a0 to \u00ff in the output always stand for such a byte (the
 * character of the same number is written as itself), and \u0080 to
 * \u009f for either that byte or the C1 control: hijack(1) states the
 * rule for the readers of --explain=json.  NULL is written as the empty
 * string.
 */
void hj_json_string(FILE *f, const char *s);

/* As hj_json_string(), but NULL is written as null. */
void hj_json_string_or_null(FILE *f, const char *s);

/*
 * The character that starts @s in UTF-8: return its length in bytes, 1 to
 * 4, with its code point in *@ret_cp; or 0 when @s starts with the NUL that
 * ends it, or with a byte no valid sequence starts with: a continuation
 * byte, a lead byte without all its continuation bytes, an overlong form,
 * a surrogate or a code point past U+10FFFF.
 */
size_t hj_utf8_char(const char *s, unsigned int *ret_cp);

#endif
