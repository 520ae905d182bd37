// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * command.c - the executor's default payload: exec the caller's argv in
 * the target (hijack_run()).  The --tools payload
 * execs its command through hj_command_prepare() and hj_command_exec()
 * too (tools.c).
 */
#include <string.h>

#include "payloads.h"

extern char **environ;

/* @argv and its strings in one block of the heap. */
static char **args_copy(char *const argv[])
{
	size_t n, size = 0, i;
	char **v, *at;

	for (n = 0; argv[n]; n++)
		size += strlen(argv[n]) + 1;
	v = malloc((n + 1) * sizeof(*v) + size);
	if (!v)
		return NULL;
	at = (char *)(v + n + 1);
	for (i = 0; i < n; i++) {
		v[i] = strcpy(at, argv[i]);
		at += strlen(at) + 1;
	}
	v[n] = NULL;
	return v;
}

/*
 * In the caller: a command there must be, and it is copied, because the
 * child hides hijack's own arguments from /proc/PID/cmdline
 * (hj_args_hide()) before its exec, and the caller's argv may be those
 * very bytes.
 */
int hj_command_prepare(struct hj_command *c, struct hijack_diag *d)
{
	if (!c->argv || !c->argv[0])
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "no command");
	c->own = args_copy(c->argv);
	if (!c->own)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, ENOMEM, "arguments");
	return 0;
}

void hj_command_done(struct hj_command *c)
{
	free(c->own);
	c->own = NULL;
}

/*
 * In the confined child, last: exec the copy in @envp.  Return only on
 * failure, its negative errno, with @d naming the command.
 */
int hj_command_exec(const struct hj_command *c, char **envp,
		    struct hijack_diag *d)
{
	/* Set first: execvp() searches the PATH of the new environment. */
	environ = envp;
	execvp(c->own[0], c->own);
	return hj_diag_set(d, HIJACK_STEP_EXEC, errno, "%s", c->own[0]);
}

static int command_prepare(void *arg, _unused_ const struct hijack_plan *p,
			   struct hijack_diag *d)
{
	return hj_command_prepare(arg, d);
}

static int command_run(void *arg, const struct hijack_plan *p,
		       struct hijack_diag *d)
{
	const struct hj_command *c = arg;
	int r = hj_command_exec(c, p->envp, d);

	/* A distroless container: say what can still be done. */
	if (r == -ENOENT && access("/bin/sh", X_OK) < 0)
		return hj_diag_set(d, HIJACK_STEP_EXEC, ENOENT,
				   "%s (the container has no /bin/sh; hijack --tools runs the host's programs in it)",
				   c->own[0]);
	return r;
}

static const struct hj_payload command_payload = {
	.name = "command", .prepare = command_prepare, .run = command_run,
};

HIJACK_EXPORT int hijack_run(const struct hijack_target *t,
			     const struct hijack_plan *p, char *const argv[],
			     const struct hijack_relay_tap *tap,
			     struct hijack_result *ret, struct hijack_diag *d)
{
	_cleanup_(hj_command_done) struct hj_command c = { .argv = argv };

	return hj_spawn(t, p, &command_payload, &c, tap, ret, d);
}
