// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * emit.c - the text and JSON back-ends of the emitter (emit.h).
 *
 * Both keep the same state: how deep the output is, whether an item was
 * written at this depth yet, and from which depth on nothing is written.
 * The JSON back-end writes keys, separators and brackets; the text one
 * writes each field through its printf format, and a list's separator
 * between items.
 */
#include <stdarg.h>
#include <stdio.h>

#include "emit.h"
#include "jsonw.h"

/*
 * Before the value of @key at this depth: whether to write at all, and
 * what goes before it (a separator, in JSON the key).  Every back-end call
 * starts here.
 */
static bool item(struct emitter *e, const char *key, const char *text)
{
	bool json = e->json;
	int d = e->depth;

	if (e->mute)
		return false;
	/* In a JSON list the items have no key, and all are written. */
	if (json ? (!key && d && !e->list[d]) : !text)
		return false;
	if (!e->first[d] && (json || e->list[d]))
		fputs(json ? "," : e->sep[d], e->f);
	e->first[d] = false;
	if (json && key && !e->list[d]) {
		hj_json_string(e->f, key);
		fputc(':', e->f);
	}
	return true;
}

/* Open an object or a list; @on false silences all it holds. */
static void push(struct emitter *e, bool on, bool list, const char *sep)
{
	e->depth++;
	if (!on && !e->mute)
		e->mute = e->depth;
	e->first[e->depth] = true;
	e->list[e->depth] = list;
	e->sep[e->depth] = sep;
}

/* Close it: whether its end is written. */
static bool pop(struct emitter *e)
{
	bool on = !e->mute;

	if (e->mute == e->depth)
		e->mute = 0;
	e->depth--;
	return on;
}

/* Both forms: hijack_container_print() writes either. */
static void any_container(struct emitter *e, const char *key,
			  const struct hijack_container *c)
{
	if (item(e, key, ""))
		(void)hijack_container_print(c, e->json, e->f);
}

/* An object or a list: its brackets, and the newline ending the output. */
static void json_open(struct emitter *e, const char *key, const char *text,
		      bool list)
{
	bool on = item(e, key, text);

	if (on)
		fputc(list ? '[' : '{', e->f);
	push(e, on, list, NULL);
}

static void json_close(struct emitter *e, bool list)
{
	if (pop(e))
		fputs(list ? "]" : e->depth ? "}" : "}\n", e->f);
}

static void json_begin(struct emitter *e, const char *key, const char *text)
{
	json_open(e, key, text, false);
}

static void json_end(struct emitter *e, const char *text)
{
	(void)text;
	json_close(e, false);
}

static void json_list_begin(struct emitter *e, const char *key,
			    const char *text, const char *sep)
{
	(void)sep;
	json_open(e, key, text, true);
}

static void json_list_end(struct emitter *e, const char *empty)
{
	(void)empty;
	json_close(e, true);
}

static void json_str(struct emitter *e, const char *key, const char *text,
		     const char *s)
{
	if (item(e, key, text))
		hj_json_string_or_null(e->f, s);
}

static void json_i64(struct emitter *e, const char *key, const char *text,
		     long long v)
{
	if (item(e, key, text))
		fprintf(e->f, "%lld", v);
}

static void json_u64(struct emitter *e, const char *key, const char *text,
		     unsigned long long v)
{
	if (item(e, key, text))
		fprintf(e->f, "%llu", v);
}

static void json_boolean(struct emitter *e, const char *key, const char *text,
			 bool b)
{
	if (item(e, key, text))
		fputs(b ? "true" : "false", e->f);
}

static void json_text(struct emitter *e, const char *fmt, ...)
{
	(void)e;
	(void)fmt;
}

static const struct emitter_ops json_ops = {
	.begin = json_begin,
	.end = json_end,
	.list_begin = json_list_begin,
	.list_end = json_list_end,
	.str = json_str,
	.i64 = json_i64,
	.u64 = json_u64,
	.boolean = json_boolean,
	.text = json_text,
	.container = any_container,
};

static void text_begin(struct emitter *e, const char *key, const char *text)
{
	bool on = item(e, key, text);

	if (on)
		fprintf(e->f, text, key);
	push(e, on, false, "");
}

static void text_end(struct emitter *e, const char *text)
{
	if (pop(e) && text)
		fputs(text, e->f);
}

static void text_list_begin(struct emitter *e, const char *key,
			    const char *text, const char *sep)
{
	bool on = item(e, key, text);

	if (on)
		fputs(text, e->f);
	push(e, on, true, sep);
}

static void text_list_end(struct emitter *e, const char *empty)
{
	bool none = e->first[e->depth];

	if (pop(e) && none && empty)
		fputs(empty, e->f);
}

static void text_str(struct emitter *e, const char *key, const char *text,
		     const char *s)
{
	if (item(e, key, text))
		fprintf(e->f, text, s ? s : "-");
}

static void text_i64(struct emitter *e, const char *key, const char *text,
		     long long v)
{
	if (item(e, key, text))
		fprintf(e->f, text, v);
}

static void text_u64(struct emitter *e, const char *key, const char *text,
		     unsigned long long v)
{
	if (item(e, key, text))
		fprintf(e->f, text, v);
}

static void text_boolean(struct emitter *e, const char *key, const char *text,
			 bool b)
{
	if (item(e, key, text))
		fprintf(e->f, text, b ? "yes" : "no");
}

static void text_text(struct emitter *e, const char *fmt, ...)
{
	va_list ap;

	if (e->mute)
		return;
	va_start(ap, fmt);
	vfprintf(e->f, fmt, ap);
	va_end(ap);
}

static const struct emitter_ops text_ops = {
	.begin = text_begin,
	.end = text_end,
	.list_begin = text_list_begin,
	.list_end = text_list_end,
	.str = text_str,
	.i64 = text_i64,
	.u64 = text_u64,
	.boolean = text_boolean,
	.text = text_text,
	.container = any_container,
};

void hj_emit_init(struct emitter *e, bool json, FILE *f)
{
	*e = (struct emitter){ .ops = json ? &json_ops : &text_ops, .f = f,
			       .json = json };
	e->first[0] = true;
}
