// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * seccomp-policy.c - a seccomp policy file (--seccomp=FILE), compiled with
 * libseccomp into one filter for the command; its format is in hijack(1).
 */
#include <linux/filter.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

struct action_name {
	const char *name;
	uint32_t action;
	bool takes_arg;
};

static const struct action_name actions[] = {
	{ "allow", SCMP_ACT_ALLOW, false },
	{ "kill", SCMP_ACT_KILL_THREAD, false },
	{ "kill_thread", SCMP_ACT_KILL_THREAD, false },
	{ "kill_process", SCMP_ACT_KILL_PROCESS, false },
	{ "trap", SCMP_ACT_TRAP, false },
	{ "log", SCMP_ACT_LOG, false },
	{ "errno", SCMP_ACT_ERRNO(0), true },
	{ "trace", SCMP_ACT_TRACE(0), true },
};

/*
 * The kernel's bounds: an errno action's value is an errno, below
 * MAX_ERRNO + 1; a trace action passes 16 bits of data to the tracer.
 */
#define ERRNO_LIMIT 4096
#define TRACE_DATA_MAX 0xffff

/* "EPERM", "1": an errno for the errno action, by name or number. */
static int parse_errno(const char *s)
{
	char *end;
	long v;
	int e;

	v = strtol(s, &end, 10);
	if (*s && !*end)
		return v > 0 && v < ERRNO_LIMIT ? (int)v : -EINVAL;
	for (e = 1; e < ERRNO_LIMIT; e++) {
		const char *n = strerrorname_np(e);

		if (n && strcmp(n, s) == 0)
			return e;
	}
	return -EINVAL;
}

/* "42": the value a tracer is told by the trace action, 0..65535. */
static int parse_trace(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > TRACE_DATA_MAX)
		return -EINVAL;
	return (int)v;
}

#define POLICY_SEPARATORS " \t\r\n"

/*
 * One action word, and its argument where it takes one (read from the
 * same line through @save).
 */
static int parse_action(const char *word, char **save, uint32_t *ret)
{
	const char *arg;
	size_t i;
	int v;

	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		if (strcmp(word, actions[i].name) != 0)
			continue;
		*ret = actions[i].action;
		if (!actions[i].takes_arg)
			return 0;
		arg = strtok_r(NULL, POLICY_SEPARATORS, save);
		if (!arg)
			return -EINVAL;
		v = actions[i].action == SCMP_ACT_ERRNO(0) ? parse_errno(arg) :
							       parse_trace(arg);
		if (v < 0 || v > 0xffff)
			return -EINVAL;
		*ret |= (uint32_t)v;
		return 0;
	}
	return -EINVAL;
}

static void ctx_release(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}

/*
 * One line, comment already cut off.  The names after the action are
 * taken one by one as they are split off, with no table of tokens: an
 * earlier version kept 64 and silently ignored the rest of the line, so
 * the 65th name of a "kill ..." line stayed allowed.
 */
static int parse_policy_line(char *line, const char *name, unsigned int lineno,
			     scmp_filter_ctx *ctx, struct hijack_diag *d)
{
	char *save = NULL, *w;
	uint32_t action;
	unsigned int nnames = 0;
	int r;

	w = strtok_r(line, POLICY_SEPARATORS, &save);
	if (!w)
		return 0;
	if (strcmp(w, "default") == 0) {
		w = strtok_r(NULL, POLICY_SEPARATORS, &save);
		if (*ctx || !w || parse_action(w, &save, &action) < 0 ||
		    strtok_r(NULL, POLICY_SEPARATORS, &save))
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, EINVAL,
					   "%s:%u: expected one 'default ACTION' line first",
					   name, lineno);
		*ctx = seccomp_init(action);
		if (!*ctx)
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, ENOMEM,
					   "seccomp_init");
		return 0;
	}
	if (!*ctx || parse_action(w, &save, &action) < 0)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EINVAL,
				   "%s:%u: expected 'ACTION SYSCALL...' after a 'default' line",
				   name, lineno);
	while ((w = strtok_r(NULL, POLICY_SEPARATORS, &save))) {
		int nr = seccomp_syscall_resolve_name(w);

		if (nr == __NR_SCMP_ERROR)
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, EINVAL,
					   "%s:%u: unknown system call '%s'",
					   name, lineno, w);
		r = seccomp_rule_add(*ctx, action, nr, 0);
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, r,
					   "%s:%u: rule for '%s'", name, lineno,
					   w);
		nnames++;
	}
	if (!nnames)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EINVAL,
				   "%s:%u: expected 'ACTION SYSCALL...' after a 'default' line",
				   name, lineno);
	return 0;
}

/*
 * The policy file format (hijack(1), "SECCOMP POLICY FILES"):
 *   # comment
 *   default ACTION
 *   ACTION SYSCALL...
 * ACTION: allow, kill, kill_process, trap, log, errno ERRNO, trace N.
 * "default" must come first.  A line may be of any length and name any
 * number of system calls.  libseccomp resolves the names and compiles
 * the rules for this architecture.
 * Split from hj_seccomp_plan_file() so that the fuzzer (tests/fuzz/) can
 * feed it from memory.
 */
int hj_seccomp_plan_stream(FILE *f, const char *name, struct hijack_plan *p,
			   struct hijack_diag *d)
{
	_cleanup_(ctx_release) scmp_filter_ctx ctx = NULL;
	_cleanup_close_ int mfd = -EBADF;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned int lineno = 0;
	struct sock_filter *insns;
	off_t size;
	int r;

	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		/* A NUL would hide the rest of the line from the parser. */
		if (memchr(line, '\0', (size_t)len))
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, EINVAL,
					   "%s:%u: NUL byte in a line", name,
					   lineno);
		*strchrnul(line, '#') = '\0';
		r = parse_policy_line(line, name, lineno, &ctx, d);
		if (r < 0)
			return r;
	}
	if (ferror(f))
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EIO, "read %s", name);
	if (!ctx)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EINVAL,
				   "%s: no 'default ACTION' line", name);

	/* Compile to BPF now, so the child installs it like a copied one. */
	mfd = memfd_create("hijack-seccomp", MFD_CLOEXEC);
	if (mfd < 0)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, errno, "memfd_create");
	r = seccomp_export_bpf(ctx, mfd);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, r, "compile %s", name);
	size = lseek(mfd, 0, SEEK_END);
	if (size <= 0 || size % sizeof(*insns) ||
	    size / sizeof(*insns) > BPF_MAXINSNS)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EBADMSG, "compile %s",
				   name);
	insns = malloc((size_t)size);
	if (!insns)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, ENOMEM, "compile");
	if (pread(mfd, insns, (size_t)size, 0) != size) {
		free(insns);
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EIO, "compile %s", name);
	}
	r = hj_filters_add(p, insns, (unsigned short)(size / sizeof(*insns)));
	if (r < 0) {
		free(insns);
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, r, "compile");
	}
	return 0;
}

int hj_seccomp_plan_file(const char *path, struct hijack_plan *p,
			 struct hijack_diag *d)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");

	if (!f)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, errno, "policy %s", path);
	return hj_seccomp_plan_stream(f, path, p, d);
}

