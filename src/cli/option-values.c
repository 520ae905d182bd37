// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * option-values.c - what each option's value may be, and where it goes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "option-values.h"

/* nsenter's short options for namespace types. */
static const struct {
	int opt;
	enum hijack_ns ns;
} short_ns[] = {
	{ 'm', HIJACK_NS_MNT },    { 'u', HIJACK_NS_UTS },
	{ 'i', HIJACK_NS_IPC },    { 'n', HIJACK_NS_NET },
	{ 'p', HIJACK_NS_PID },    { 'U', HIJACK_NS_USER },
	{ 'C', HIJACK_NS_CGROUP }, { 'T', HIJACK_NS_TIME },
};

int optval_pid(const char *s, pid_t *ret, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX)
		return fail("invalid pid '%s': a positive process id is needed",
			    s);
	*ret = (pid_t)v;
	return 0;
}

int optval_ns(const char *list, const char *opt, unsigned int *mask,
	      char *err, size_t errlen)
{
	const char *bad = list;
	unsigned int m;
	size_t len = 0;

	if (hijack_ns_parse_list(list, &m, &bad, &len) < 0)
		return fail("unknown namespace '%.*s' in %s (known: mnt uts ipc net pid user cgroup time all)",
			    (int)len, bad, opt);
	*mask |= m;
	return 0;
}

int optval_dir(const char *s, const char *opt, bool absolute,
	       enum hijack_dir_mode *mode, const char **path, char *err,
	       size_t errlen)
{
	if (strcmp(s, "target") == 0) {
		*mode = HIJACK_DIR_TARGET;
	} else if (strcmp(s, "keep") == 0) {
		*mode = HIJACK_DIR_KEEP;
	} else if (*s && (!absolute || *s == '/')) {
		*mode = HIJACK_DIR_PATH;
		*path = s;
	} else {
		return fail("invalid %s '%s': target, keep or %s", opt, s,
			    absolute ? "an absolute path" : "a path");
	}
	return 0;
}

/* "target" or "keep" (and, where allowed, "none"/@none_word). */
int optval_part(const char *s, const char *opt, const char *none_word,
		enum hijack_part_mode *ret, char *err, size_t errlen)
{
	if (strcmp(s, "target") == 0)
		*ret = HIJACK_FROM_TARGET;
	else if (strcmp(s, "keep") == 0)
		*ret = HIJACK_KEEP;
	else if (none_word && strcmp(s, none_word) == 0)
		*ret = HIJACK_NONE;
	else
		return fail("invalid %s '%s': target%s keep%s%s", opt, s,
			    none_word ? "," : " or", none_word ? " or " : "",
			    none_word ? none_word : "");
	return 0;
}

int cli_add_setenv(struct cli_args *a, const char *kv, char *err,
		   size_t errlen)
{
	char **n;

	if (!hijack_env_valid(kv))
		return fail("malformed --setenv '%s': VAR=VALUE expected", kv);
	n = realloc(a->setenv, (a->nsetenv + 2) * sizeof(*n));
	if (!n)
		return fail("out of memory");
	a->setenv = n;
	n[a->nsetenv++] = (char *)kv;
	n[a->nsetenv] = NULL;
	a->opts.setenv = n;
	return 0;
}

bool cli_has_setenv(const struct cli_args *a, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < a->nsetenv; i++)
		if (strncmp(a->setenv[i], name, len) == 0 &&
		    a->setenv[i][len] == '=')
			return true;
	return false;
}

int cli_set_file(struct cli_args *a, enum hijack_file_op op,
		 const char *path, char *err, size_t errlen)
{
	if (a->copy)
		return fail("one --read-file or --write-file at a time");
	if (!*path)
		return fail("empty %s", op == HIJACK_FILE_READ ? "--read-file" :
								"--write-file");
	a->copy = true;
	a->file.op = op;
	a->file.path = path;
	/* The caller's side: standard output or standard input. */
	a->file.fd = op == HIJACK_FILE_READ ? 1 : 0;
	return 0;
}

int optval_mode(const char *s, int *ret, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno || end == s || *end || *s == '-' || v > 07777)
		return fail("invalid --mode '%s': octal permission bits, 07777 at most",
			    s);
	*ret = (int)v;
	return 0;
}

/*
 * A size: bytes, or a count of KiB, MiB, GiB or TiB ("64K", "1GiB"; K and
 * k alike, powers of 1024 as dd(1) and head(1) read a lone K).
 */
int optval_size(const char *s, const char *opt, uint64_t *ret, char *err,
		size_t errlen)
{
	static const char units[] = "KMGT";
	const char *u;
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
		shift = 10 * (unsigned int)(u - units + 1);
		end++;
		if (strcmp(end, "iB") == 0)
			end += 2;
	}
	if (errno || end == s || *end || *s < '0' || *s > '9' ||
	    (shift && v > (UINT64_MAX >> shift)))
		return fail("invalid %s '%s': a size in bytes, or with K, M, G or T (KiB, ...)",
			    opt, s);
	*ret = (uint64_t)v << shift;
	return 0;
}

int optval_short_ns(int c, unsigned int *mask)
{
	size_t i;

	for (i = 0; i < sizeof(short_ns) / sizeof(short_ns[0]); i++)
		if (short_ns[i].opt == c) {
			*mask |= HIJACK_NS_BIT(short_ns[i].ns);
			return 0;
		}
	return -EINVAL;
}

int optval_seccomp(const char *s, struct hijack_opts *o, char *err,
		   size_t errlen)
{
	if (strcmp(s, "target") == 0) {
		o->seccomp = HIJACK_FROM_TARGET;
	} else if (strcmp(s, "none") == 0) {
		o->seccomp = HIJACK_NONE;
	} else if (*s) {
		o->seccomp = HIJACK_FROM_FILE;
		o->seccomp_file = s;
	} else {
		return fail("invalid --seccomp '': target, none or a policy file");
	}
	return 0;
}

/* The most fds --preserve-fds hands on after 0-2. */
#define PRESERVE_FDS_MAX 65536

int optval_preserve_fds(const char *s, unsigned int *ret, char *err,
			size_t errlen)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || n > PRESERVE_FDS_MAX)
		return fail("invalid --preserve-fds '%s': a count of fds after 2",
			    s);
	*ret = (unsigned int)n;
	return 0;
}

int optval_grace(const char *s, unsigned int *ret, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || !isdigit((unsigned char)*s) ||
	    v > CLI_GRACE_MAX)
		return fail("invalid --grace '%s': whole seconds, 0 to %d", s,
			    CLI_GRACE_MAX);
	*ret = (unsigned int)v;
	return 0;
}
