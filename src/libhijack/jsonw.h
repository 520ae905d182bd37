/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jsonw.h - the one JSON string writer of the tree: --explain=json in the
 * library, and the benchmark tools (forkbench, benchcmp) that compile
 * jsonw.c in beside their own sources.  It depends on nothing of libhijack.
 */
#ifndef HIJACK_JSONW_H
#define HIJACK_JSONW_H

#include <stdio.h>

/*
 * Write @s as a JSON string, quotes included.  Strings come from /proc,
 * from containers and from the command line: they may hold anything, so
 * '"' and '\\' are escaped and every control character is written as
 * \u00XX.  Bytes from 0x80 up pass through as they are.  NULL is written
 * as the empty string.
 */
void hj_json_string(FILE *f, const char *s);

/* As hj_json_string(), but NULL is written as null. */
void hj_json_string_or_null(FILE *f, const char *s);

#endif
