/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - a small strict JSON reader (RFC 8259) for forkbench documents.
 *
 * The whole document becomes a tree of struct json.  Strings are kept as
 * UTF-8 with escapes decoded; numbers as double.  Small and strict on
 * purpose: the gate's inputs are machine-written, and anything odd in them
 * is a bug to report with its line number, not to guess around.
 */
#ifndef HIJACK_BENCH_JSON_H
#define HIJACK_BENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type type;
	bool boolean;
	double number;
	char *string;
	/* arrays and objects: nr items; objects also have keys */
	size_t nr;
	struct json **items;
	char **keys;
	unsigned int line;	/* where the value starts, for messages */
};

/*
 * Parse text[0..len).  On failure returns NULL and writes "line N: what"
 * into err.
 */
struct json *json_parse(const char *text, size_t len, char *err, size_t errlen);

void json_free(struct json *j);

/* Member key of an object, or NULL (also when j is not an object). */
const struct json *json_get(const struct json *j, const char *key);

#endif
