// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * explain.c - show a plan without carrying it out (--explain).
 */
#include <stdio.h>
#include <sys/sysmacros.h>

#include "internal.h"

static const char *dir_mode_name(enum hijack_dir_mode m)
{
	switch (m) {
	case HIJACK_DIR_TARGET:
		return "target";
	case HIJACK_DIR_KEEP:
		return "keep";
	case HIJACK_DIR_PATH:
		return "path";
	}
	return "unknown";
}

static const char *ns_action(const struct hijack_ns_state *s)
{
	if (!s->ino)
		return "unsupported";
	if (s->enter)
		return "enter";
	if (s->ino == s->self_ino && s->dev == s->self_dev)
		return "same";
	return "skip";
}

/* Strings from /proc (paths) may hold anything: escape them for JSON. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
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

static void print_text(const struct hijack_plan *p, FILE *f)
{
	int i;

	fprintf(f, "target:  pid %d\n", (int)p->pid);
	fprintf(f, "method:  %s", hijack_method_name(p->method));
	if (p->method_fallback != HIJACK_METHOD_AUTO)
		fprintf(f, " (falls back to %s)",
			hijack_method_name(p->method_fallback));
	if (p->syscall_nr > 0)
		fprintf(f, "; kernel has hijack(2) as syscall %ld",
			p->syscall_nr);
	else
		fprintf(f, "; kernel has no hijack(2)");
	fputc('\n', f);
	fprintf(f, "%-8s %-14s %-14s %s\n", "ns", "caller", "target",
		"action");
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		const struct hijack_ns_state *s = &p->ns[i];

		fprintf(f, "%-8s %-14lu %-14lu %s\n", hijack_ns_name(i),
			(unsigned long)s->self_ino, (unsigned long)s->ino,
			ns_action(s));
	}
	fprintf(f, "root:    %s (%s)\n", p->root, dir_mode_name(p->root_mode));
	fprintf(f, "cwd:     %s (%s)\n", p->wd, dir_mode_name(p->wd_mode));
}

static void print_json(const struct hijack_plan *p, FILE *f)
{
	int i;

	fprintf(f, "{\"pid\":%d,\"method\":\"%s\",\"fallback\":", (int)p->pid,
		hijack_method_name(p->method));
	if (p->method_fallback != HIJACK_METHOD_AUTO)
		fprintf(f, "\"%s\"", hijack_method_name(p->method_fallback));
	else
		fputs("null", f);
	fprintf(f, ",\"syscall_nr\":");
	if (p->syscall_nr > 0)
		fprintf(f, "%ld", p->syscall_nr);
	else
		fputs("null", f);
	fputs(",\"namespaces\":{", f);
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		const struct hijack_ns_state *s = &p->ns[i];

		fprintf(f, "%s\"%s\":{\"caller\":{\"dev\":\"%u:%u\",\"ino\":%lu},"
			"\"target\":{\"dev\":\"%u:%u\",\"ino\":%lu},"
			"\"action\":\"%s\",\"enter\":%s}",
			i ? "," : "", hijack_ns_name(i),
			major(s->self_dev), minor(s->self_dev),
			(unsigned long)s->self_ino, major(s->dev), minor(s->dev),
			(unsigned long)s->ino, ns_action(s),
			s->enter ? "true" : "false");
	}
	fprintf(f, "},\"root\":{\"mode\":\"%s\",\"path\":",
		dir_mode_name(p->root_mode));
	json_string(f, p->root);
	fprintf(f, "},\"cwd\":{\"mode\":\"%s\",\"path\":",
		dir_mode_name(p->wd_mode));
	json_string(f, p->wd);
	fputs("}}\n", f);
}

HIJACK_EXPORT int hijack_plan_print(const struct hijack_plan *p, bool json,
				    FILE *f)
{
	if (json)
		print_json(p, f);
	else
		print_text(p, f);
	return ferror(f) ? -EIO : 0;
}
