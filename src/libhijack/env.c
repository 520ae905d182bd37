// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * env.c - the command's environment: the target's (/proc/PID/environ,
 * plus TERM when there is a terminal to describe), the caller's, or none,
 * then the --setenv assignments.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

extern char **environ;

void hj_env_free(char **envp)
{
	char **e;

	if (!envp)
		return;
	for (e = envp; *e; e++)
		free(*e);
	free(envp);
}

/* Append or replace "NAME=..." in a NULL-terminated array. */
static int env_put(char ***envp, size_t *n, const char *kv)
{
	size_t nlen = strcspn(kv, "=");
	char *copy, **ne;
	size_t i;

	copy = strdup(kv);
	if (!copy)
		return -ENOMEM;
	for (i = 0; i < *n; i++)
		if (strncmp((*envp)[i], kv, nlen + 1) == 0) {
			free((*envp)[i]);
			(*envp)[i] = copy;
			return 0;
		}
	ne = realloc(*envp, (*n + 2) * sizeof(*ne));
	if (!ne) {
		free(copy);
		return -ENOMEM;
	}
	*envp = ne;
	ne[(*n)++] = copy;
	ne[*n] = NULL;
	return 0;
}

/*
 * HIJACK_RESET keeps, of the caller's variables, those that describe the
 * terminal and the locale, as sudo's env_reset does: nothing that a
 * loader, a shell or an interpreter runs or loads code from.
 */
static const char *const reset_keep[] = {
	"TERM", "COLORTERM", "COLORFGBG", "COLORS", "LS_COLORS", "NO_COLOR",
	"COLUMNS", "LINES", "LANG", "LANGUAGE", "TZ",
};

static bool reset_kept(const char *kv)
{
	size_t i, n = strcspn(kv, "=");

	/* LC_ALL, LC_CTYPE, ...: not LC_ followed by nothing. */
	if (n > 3 && strncmp(kv, "LC_", 3) == 0)
		return true;
	for (i = 0; i < ARRAY_SIZE(reset_keep); i++)
		if (strlen(reset_keep[i]) == n && strncmp(kv, reset_keep[i], n) == 0)
			return true;
	return false;
}

/* "VAR=VALUE" with a non-empty name: what --setenv accepts. */
HIJACK_EXPORT bool hijack_env_valid(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq && eq != kv;
}

int hj_env_plan(const struct hijack_target *t, const struct hijack_opts *o,
		struct hijack_plan *p, struct hijack_diag *d)
{
	_cleanup_free_ char *raw = NULL;
	char **envp = calloc(1, sizeof(char *));
	char *const *s;
	size_t n = 0, len, off;
	const char *term;
	int r = 0;

	if (!envp)
		return hj_diag_set(d, HIJACK_STEP_ENV, ENOMEM, "environment");
	switch (o->env) {
	case HIJACK_FROM_TARGET:
		r = hj_proc_read(t, "environ", &raw, &len);
		if (r < 0) {
			hj_env_free(envp);
			return hj_diag_set(d, HIJACK_STEP_ENV, r,
					   "/proc/%d/environ", (int)t->pid);
		}
		for (off = 0; off < len && r == 0; off += strlen(raw + off) + 1)
			if (hijack_env_valid(raw + off))
				r = env_put(&envp, &n, raw + off);
		/* The target's TERM, if any, describes another terminal. */
		term = getenv("TERM");
		if (r == 0 && term && isatty(STDIN_FILENO)) {
			_cleanup_free_ char *kv = NULL;

			if (asprintf(&kv, "TERM=%s", term) < 0)
				r = -ENOMEM;
			else
				r = env_put(&envp, &n, kv);
		}
		break;
	case HIJACK_KEEP:
	case HIJACK_RESET:
		for (s = environ; s && *s && r == 0; s++)
			if (o->env == HIJACK_KEEP || reset_kept(*s))
				r = env_put(&envp, &n, *s);
		break;
	default:
		break;
	}
	for (s = o->setenv; s && *s && r == 0; s++) {
		if (!hijack_env_valid(*s)) {
			hj_env_free(envp);
			return hj_diag_set(d, HIJACK_STEP_ENV, EINVAL,
					   "malformed assignment '%s': VAR=VALUE expected", *s);
		}
		r = env_put(&envp, &n, *s);
	}
	if (r < 0) {
		hj_env_free(envp);
		return hj_diag_set(d, HIJACK_STEP_ENV, r, "environment");
	}
	p->envp = envp;
	return 0;
}
