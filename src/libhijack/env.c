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

#define HJ_RESET_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

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

/* One variable of the target's environ, for env_from_target(). */
struct env_entry {
	const char *kv;
	size_t nlen;	/* of the name */
	size_t pos;	/* among the valid entries, in the file's order */
};

/* By name, then by place: equal names end up together, oldest first. */
static int entry_cmp(const void *a, const void *b)
{
	const struct env_entry *x = a, *y = b;
	int c = memcmp(x->kv, y->kv, x->nlen < y->nlen ? x->nlen : y->nlen);

	if (c == 0 && x->nlen != y->nlen)
		c = x->nlen < y->nlen ? -1 : 1;
	if (c == 0)
		c = x->pos < y->pos ? -1 : x->pos > y->pos;
	return c;
}

/*
 * The target's /proc/PID/environ as an environment: malformed entries
 * dropped, each name once, with its last value in the place of its first
 * (what env_put() of each in turn would give).  By sorting, not by
 * env_put(), whose search of the list per variable is quadratic: 6 MiB of
 * short names would keep hijack busy for hours.  An environ that exec
 * could not have passed (its strings and a pointer each over 6 MiB, as
 * fs/exec.c counts) is refused: the command could not be given it either.
 */
static int env_from_target(const struct hijack_target *t, char ***ret,
			   size_t *ret_n, struct hijack_diag *d)
{
	_cleanup_free_ char *raw = NULL;
	_cleanup_free_ struct env_entry *v = NULL;
	_cleanup_free_ const char **keep = NULL;
	size_t len, off, m = 0, i, j, n = 0;
	char **envp;
	int r;

	r = hj_proc_read(t, "environ", &raw, &len);
	if (r < 0)
		return hj_proc_fail(d, HIJACK_STEP_ENV, t->pid, "environ", r);
	for (off = 0; off < len; off += strlen(raw + off) + 1)
		m++;
	if (len + m * sizeof(char *) > hj_proc_max("environ", NULL))
		return hj_diag_set(d, HIJACK_STEP_ENV, E2BIG,
				   "/proc/%d/environ holds %zu variables in %zu bytes, more than an exec passes: refused",
				   (int)t->pid, m, len);
	v = calloc(m + 1, sizeof(*v));
	keep = calloc(m + 1, sizeof(*keep));
	if (!v || !keep)
		return hj_diag_set(d, HIJACK_STEP_ENV, ENOMEM, "environment");
	for (m = 0, off = 0; off < len; off += strlen(raw + off) + 1)
		if (hijack_env_valid(raw + off)) {
			v[m] = (struct env_entry){ raw + off,
						   strcspn(raw + off, "="), m };
			m++;
		}
	qsort(v, m, sizeof(*v), entry_cmp);
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && v[j].nlen == v[i].nlen &&
		     memcmp(v[j].kv, v[i].kv, v[i].nlen) == 0; j++)
			;
		keep[v[i].pos] = v[j - 1].kv;
	}
	envp = calloc(m + 1, sizeof(*envp));
	if (!envp)
		return hj_diag_set(d, HIJACK_STEP_ENV, ENOMEM, "environment");
	for (i = 0; i < m; i++) {
		if (!keep[i])
			continue;
		envp[n] = strdup(keep[i]);
		if (!envp[n++]) {
			hj_env_free(envp);
			return hj_diag_set(d, HIJACK_STEP_ENV, ENOMEM,
					   "environment");
		}
	}
	*ret = envp;
	*ret_n = n;
	return 0;
}

int hj_env_plan(const struct hijack_target *t, const struct hijack_opts *o,
		struct hijack_plan *p, struct hijack_diag *d)
{
	char **envp = calloc(1, sizeof(char *));
	char *const *s;
	size_t n = 0;
	const char *term;
	int r = 0;

	if (!envp)
		return hj_diag_set(d, HIJACK_STEP_ENV, ENOMEM, "environment");
	switch (p->env_mode) {
	case HIJACK_FROM_TARGET:
		hj_env_free(envp);
		r = env_from_target(t, &envp, &n, d);
		if (r < 0)
			return r;
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
			if (p->env_mode == HIJACK_KEEP || reset_kept(*s))
				r = env_put(&envp, &n, *s);
		/*
		 * Neither the caller's PATH (the host's directories) nor the
		 * target's (the container's to choose); a shell without one
		 * may search its working directory, which may be the
		 * container's too.  sudo's secure_path, as Debian sets it.
		 */
		if (r == 0 && p->env_mode == HIJACK_RESET) {
			r = env_put(&envp, &n, "PATH=" HJ_RESET_PATH);
			/*
			 * Nor a HOME of the container's choosing, nor one
			 * looked up by the shell: bash -i and Python's user
			 * site read files there, which the account's own
			 * user may write.
			 */
			if (r == 0)
				r = env_put(&envp, &n, "HOME=/");
		}
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
