// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy.c - /etc/hijack/hijack.conf: whether entries are recorded,
 * whether each needs a --reason, and what happens when no destination
 * takes a record.
 *
 *   # comment
 *   audit = on | off
 *   require-reason = yes | no
 *   on-audit-failure = warn | refuse
 *   record = never | always | PATTERN...   (ENGINE:GLOB or GLOB, a name)
 *   record-input = no | yes
 *   record-dir = /var/log/hijack/sessions
 *
 * Whoever can write this file can switch auditing off, so it is believed
 * only when root owns it and its directory and neither is writable by
 * group or others; otherwise it is ignored as a whole (the defaults, which
 * record everything, stay).  There is no way to name another file at run
 * time: an environment variable would let a caller choose its own policy.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "macro.h"

/* A policy is a few lines: anything larger is not one. */
#define POLICY_MAX 65536

void audit_warnf(audit_warn_fn warn, void *userdata, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!warn)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn(userdata, msg);
}

/* What the file says, fit to quote in a one-line warning. */
static const char *quote(const char *s, char *buf, size_t len)
{
	(void)audit_escape(s, true, buf, len);
	return buf;
}

/* Root's, and writable by root alone. */
static bool trusted(const struct stat *st)
{
	return st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

static int parse_bool(const char *v, const char *yes, const char *no, bool *ret)
{
	if (strcmp(v, yes) == 0) {
		*ret = true;
		return 0;
	}
	if (strcmp(v, no) == 0) {
		*ret = false;
		return 0;
	}
	return -EINVAL;
}

static int parse_record(const char *v, struct audit_policy *p)
{
	if (!*v || strlen(v) >= sizeof(p->record_patterns))
		return -EINVAL;
	if (strcmp(v, "never") == 0) {
		p->record = AUDIT_RECORD_NEVER;
	} else if (strcmp(v, "always") == 0) {
		p->record = AUDIT_RECORD_ALWAYS;
	} else {
		p->record = AUDIT_RECORD_MATCHING;
		(void)snprintf(p->record_patterns, sizeof(p->record_patterns),
			       "%s", v);
	}
	return 0;
}

/*
 * Absolute, and no ".." that could climb out of a checked parent: the
 * directory itself is checked when a recording is made (recording.c).
 */
static int parse_dir(const char *v, struct audit_policy *p)
{
	if (v[0] != '/' || strstr(v, "/..") || strlen(v) >= sizeof(p->record_dir))
		return -EINVAL;
	(void)snprintf(p->record_dir, sizeof(p->record_dir), "%s", v);
	return 0;
}

bool audit_policy_records(const struct audit_policy *p, const char *engine,
			  const char *name)
{
	char words[AUDIT_PATTERNS_MAX], *save = NULL, *w, *colon;

	if (p->record != AUDIT_RECORD_MATCHING)
		return p->record == AUDIT_RECORD_ALWAYS;
	(void)snprintf(words, sizeof(words), "%s", p->record_patterns);
	for (w = strtok_r(words, " \t,", &save); w;
	     w = strtok_r(NULL, " \t,", &save)) {
		colon = strchr(w, ':');
		if (colon) {
			*colon = '\0';
			if (fnmatch(w, engine, 0) == 0 &&
			    fnmatch(colon + 1, name, 0) == 0)
				return true;
		} else if (fnmatch(w, name, 0) == 0) {
			return true;
		}
	}
	return false;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static void parse_line(char *line, unsigned int n, const char *path,
		       struct audit_policy *p, audit_warn_fn warn, void *ud)
{
	char *eq, *key, *val, q[128];
	int r;

	line = trim(line);
	if (!*line || *line == '#')
		return;
	eq = strchr(line, '=');
	if (!eq) {
		audit_warnf(warn, ud, "%s:%u: not KEY = VALUE, ignored: %s", path, n,
		      quote(line, q, sizeof(q)));
		return;
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (strcmp(key, "audit") == 0)
		r = parse_bool(val, "on", "off", &p->audit);
	else if (strcmp(key, "require-reason") == 0)
		r = parse_bool(val, "yes", "no", &p->require_reason);
	else if (strcmp(key, "on-audit-failure") == 0)
		r = parse_bool(val, "refuse", "warn", &p->fail_closed);
	else if (strcmp(key, "record") == 0)
		r = parse_record(val, p);
	else if (strcmp(key, "record-input") == 0)
		r = parse_bool(val, "yes", "no", &p->record_input);
	else if (strcmp(key, "record-dir") == 0)
		r = parse_dir(val, p);
	else {
		audit_warnf(warn, ud, "%s:%u: unknown key, ignored: %s", path, n,
		      quote(key, q, sizeof(q)));
		return;
	}
	if (r < 0)
		audit_warnf(warn, ud, "%s:%u: bad value, default kept: %s", path, n,
		      quote(val, q, sizeof(q)));
}

int audit_policy_load(const char *path, struct audit_policy *ret,
		      audit_warn_fn warn, void *userdata)
{
	_cleanup_close_ int fd = -EBADF, dfd = -EBADF;
	char buf[POLICY_MAX + 1], dir[4096];
	unsigned int n = 0;
	struct stat st, dst;
	char *line, *next;
	ssize_t len;
	char *slash;
	int r;

	/* O_NOFOLLOW: a symlink would point the check at another file. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		r = -errno;
		audit_warnf(warn, userdata, "%s: ignored: %s", path,
		      r == -ELOOP ? "a symlink" : strerror(-r));
		return r;
	}
	(void)snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		(void)snprintf(dir, sizeof(dir), ".");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fstat(fd, &st) < 0 || dfd < 0 || fstat(dfd, &dst) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || !trusted(&st) || !trusted(&dst)) {
		audit_warnf(warn, userdata,
		      "%s: ignored: it and its directory must be root's and writable by root alone",
		      path);
		return -EPERM;
	}
	len = read(fd, buf, sizeof(buf));
	if (len < 0)
		return -errno;
	if (len > POLICY_MAX) {
		audit_warnf(warn, userdata, "%s: ignored: larger than 64 KiB", path);
		return -EFBIG;
	}
	buf[len] = '\0';
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		parse_line(line, ++n, path, ret, warn, userdata);
	}
	return 0;
}
