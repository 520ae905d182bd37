/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * emit.h - the emitter hijack_plan_print() walks a plan through: one call
 * per field, written as text or as JSON by the back-end chosen.
 *
 * Each call names a field once, with its JSON key and the printf format
 * that shows it in the text (given the value; an object's, its key), so
 * the formats are literals of the walk, never data.  A NULL key leaves it
 * out of the JSON, a NULL text out of the text, and either NULL on an
 * object or a list leaves out everything it holds.  In a JSON list the
 * items have no key.
 */
#ifndef HIJACK_EMIT_H
#define HIJACK_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "hijack.h"

/* Deeper than any walk of a plan goes (a limit: plan, limits, rlimits, one). */
#define EMIT_DEPTH 8

struct emitter;

struct emitter_ops {
	/* Text: printf(@text, @key); JSON: "key":{ (just { in a list). */
	void (*begin)(struct emitter *e, const char *key, const char *text);
	/* Text: @text as it is. */
	void (*end)(struct emitter *e, const char *text);
	/* Text: @text, then each item after @sep but the first. */
	void (*list_begin)(struct emitter *e, const char *key, const char *text,
			   const char *sep);
	/* Text: @empty when the list had no item. */
	void (*list_end)(struct emitter *e, const char *empty);
	/* A string; NULL is null in JSON, "-" in the text. */
	void (*str)(struct emitter *e, const char *key, const char *text,
		    const char *s);
	/* Numbers: the text's format takes a long long, unsigned for u64. */
	void (*i64)(struct emitter *e, const char *key, const char *text,
		    long long v);
	void (*u64)(struct emitter *e, const char *key, const char *text,
		    unsigned long long v);
	/* "yes" or "no" in the text. */
	void (*boolean)(struct emitter *e, const char *key, const char *text,
			bool b);
	/* Words of the text only. */
	void (*text)(struct emitter *e, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	/* As hijack_container_print() writes it, in either form. */
	void (*container)(struct emitter *e, const char *key,
			  const struct hijack_container *c);
};

struct emitter {
	const struct emitter_ops *ops;
	FILE *f;
	bool json;		/* which back-end: what both write alike asks */
	int depth;		/* open objects and lists */
	int mute;		/* depth where output stopped; 0: none */
	bool first[EMIT_DEPTH];	/* no item yet at this depth */
	bool list[EMIT_DEPTH];	/* a list, not an object */
	const char *sep[EMIT_DEPTH];
};

/* Start the output on @f, as JSON or as text. */
void hj_emit_init(struct emitter *e, bool json, FILE *f);

#endif
