// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json.c - recursive-descent JSON reader, see json.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* Deeper nesting than forkbench ever writes is an error, not a crash. */
#define JSON_MAX_DEPTH 64

struct parser {
	const char *p, *end;
	unsigned int line;
	char *err;
	size_t errlen;
	bool failed;
};

static void __attribute__((format(printf, 2, 3))) perr(struct parser *ps,
							const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = true;
	n = snprintf(ps->err, ps->errlen, "line %u: ", ps->line);
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n')
			ps->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		ps->p++;
	}
}

static struct json *new_value(struct parser *ps, enum json_type type)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j) {
		perr(ps, "out of memory");
		return NULL;
	}
	j->type = type;
	j->line = ps->line;
	return j;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t len = strlen(word);

	if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len))
		return false;
	ps->p += len;
	return true;
}

static int hex4(struct parser *ps, unsigned int *out)
{
	*out = 0;
	if (ps->end - ps->p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = *ps->p++;

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*out |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*out |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static size_t put_utf8(char *dst, unsigned int cp)
{
	if (cp < 0x80) {
		dst[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		dst[0] = 0xc0 | (cp >> 6);
		dst[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		dst[0] = 0xe0 | (cp >> 12);
		dst[1] = 0x80 | ((cp >> 6) & 0x3f);
		dst[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	dst[0] = 0xf0 | (cp >> 18);
	dst[1] = 0x80 | ((cp >> 12) & 0x3f);
	dst[2] = 0x80 | ((cp >> 6) & 0x3f);
	dst[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/*
 * The code point of a \u escape, ps->p just past the "\u"; a surrogate
 * pair is two escapes for one code point.  NUL is refused: the strings
 * are C strings.
 */
static int parse_u_escape(struct parser *ps, unsigned int *ret_cp)
{
	unsigned int cp, lo;

	if (hex4(ps, &cp)) {
		perr(ps, "bad \\u escape");
		return -1;
	}
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u') {
			perr(ps, "lone surrogate in string");
			return -1;
		}
		ps->p += 2;
		if (hex4(ps, &lo) || lo < 0xdc00 || lo >= 0xe000) {
			perr(ps, "bad surrogate pair");
			return -1;
		}
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp < 0xe000) {
		perr(ps, "lone surrogate in string");
		return -1;
	}
	if (cp == 0) {
		perr(ps, "NUL in string");
		return -1;
	}
	*ret_cp = cp;
	return 0;
}

/* ps->p is just past the opening quote. */
static char *parse_string(struct parser *ps)
{
	/* the decoded string is never longer than the encoded one */
	const char *start = ps->p;
	char *out, *o;

	while (ps->p < ps->end && *ps->p != '"') {
		if (*ps->p == '\\' && ps->p + 1 < ps->end)
			ps->p++;
		ps->p++;
	}
	if (ps->p >= ps->end) {
		perr(ps, "unterminated string");
		return NULL;
	}
	out = o = malloc(ps->p - start + 1);
	if (!out) {
		perr(ps, "out of memory");
		return NULL;
	}
	ps->p = start;
	while (*ps->p != '"') {
		unsigned char c = *ps->p++;
		unsigned int cp;

		if (c < 0x20) {
			perr(ps, "control character in string");
			goto bad;
		}
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = *ps->p++;
		switch (c) {
		case '"': case '\\': case '/':
			*o++ = c;
			break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (parse_u_escape(ps, &cp))
				goto bad;
			o += put_utf8(o, cp);
			break;
		default:
			perr(ps, "bad escape '\\%c'", c);
			goto bad;
		}
	}
	ps->p++;
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

static struct json *parse_value(struct parser *ps, unsigned int depth);

static struct json *parse_container(struct parser *ps, unsigned int depth,
				    bool object)
{
	struct json *j = new_value(ps, object ? JSON_OBJECT : JSON_ARRAY);
	size_t cap = 0;
	char close = object ? '}' : ']';

	if (!j)
		return NULL;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return j;
	}
	for (;;) {
		char *key = NULL;
		struct json *v;

		skip_ws(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"') {
				perr(ps, "expected a member name");
				goto bad;
			}
			ps->p++;
			key = parse_string(ps);
			if (!key)
				goto bad;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				perr(ps, "expected ':' after member name");
				goto bad;
			}
			ps->p++;
		}
		v = parse_value(ps, depth + 1);
		if (!v) {
			free(key);
			goto bad;
		}
		if (j->nr == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			struct json **items = realloc(j->items, ncap * sizeof(*items));
			char **keys = items && object ?
				realloc(j->keys, ncap * sizeof(*keys)) : j->keys;

			if (items)
				j->items = items;
			if (!items || (object && !keys)) {
				free(key);
				json_free(v);
				perr(ps, "out of memory");
				goto bad;
			}
			j->keys = keys;
			cap = ncap;
		}
		j->items[j->nr] = v;
		if (object)
			j->keys[j->nr] = key;
		j->nr++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return j;
		}
		perr(ps, "expected ',' or '%c'", close);
		goto bad;
	}
bad:
	json_free(j);
	return NULL;
}

static struct json *parse_number(struct parser *ps)
{
	const char *s = ps->p;
	char buf[64], *end;
	struct json *j;

	/* RFC 8259 grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
	if (s < ps->end && *s == '-')
		s++;
	if (s < ps->end && *s == '0')
		s++;
	else if (s < ps->end && *s >= '1' && *s <= '9')
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
	else
		goto bad;
	if (s < ps->end && *s == '.') {
		if (++s >= ps->end || *s < '0' || *s > '9')
			goto bad;
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < ps->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < ps->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= ps->end || *s < '0' || *s > '9')
			goto bad;
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
	}
	if ((size_t)(s - ps->p) >= sizeof(buf)) {
		perr(ps, "number too long");
		return NULL;
	}
	memcpy(buf, ps->p, s - ps->p);
	buf[s - ps->p] = '\0';
	j = new_value(ps, JSON_NUMBER);
	if (!j)
		return NULL;
	errno = 0;
	j->number = strtod(buf, &end);
	if (*end || !isfinite(j->number)) {
		json_free(j);
		perr(ps, "number out of range: %s", buf);
		return NULL;
	}
	ps->p = s;
	return j;
bad:
	perr(ps, "invalid value");
	return NULL;
}

static struct json *parse_value(struct parser *ps, unsigned int depth)
{
	struct json *j;

	if (depth > JSON_MAX_DEPTH) {
		perr(ps, "nested too deeply");
		return NULL;
	}
	skip_ws(ps);
	if (ps->p >= ps->end) {
		perr(ps, "unexpected end of input");
		return NULL;
	}
	switch (*ps->p) {
	case '{':
		return parse_container(ps, depth, true);
	case '[':
		return parse_container(ps, depth, false);
	case '"':
		j = new_value(ps, JSON_STRING);
		if (!j)
			return NULL;
		ps->p++;
		j->string = parse_string(ps);
		if (!j->string) {
			json_free(j);
			return NULL;
		}
		return j;
	case 't':
	case 'f':
	case 'n':
		if (literal(ps, "true")) {
			j = new_value(ps, JSON_BOOL);
			if (j)
				j->boolean = true;
			return j;
		}
		if (literal(ps, "false"))
			return new_value(ps, JSON_BOOL);
		if (literal(ps, "null"))
			return new_value(ps, JSON_NULL);
		perr(ps, "invalid literal");
		return NULL;
	default:
		return parse_number(ps);
	}
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = {
		.p = text, .end = text + len, .line = 1,
		.err = err, .errlen = errlen,
	};
	struct json *j;

	if (errlen)
		err[0] = '\0';
	j = parse_value(&ps, 0);
	if (!j)
		return NULL;
	skip_ws(&ps);
	if (ps.p != ps.end) {
		perr(&ps, "trailing data after the document");
		json_free(j);
		return NULL;
	}
	return j;
}

void json_free(struct json *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->nr; i++) {
		json_free(j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->string);
	free(j);
}

const struct json *json_get(const struct json *j, const char *key)
{
	if (!j || j->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < j->nr; i++)
		if (!strcmp(j->keys[i], key))
			return j->items[i];
	return NULL;
}
