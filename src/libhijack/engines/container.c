// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * container.c - name a container instead of a pid.
 *
 * Each engine (engine-*.c) only reads its own record of its containers and
 * says, for each, its name, id, init pid and a proof of identity.  This file
 * does what is common: matching "[ENGINE:]NAME" against every engine
 * present and folding the same container seen by two engines into one.
 * The pid an engine gives is stale the moment it is read; only the check
 * after pinning (container-proof.c) makes it safe to use.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engines.h"

/*
 * The search order, which is also the order of preference when one
 * container shows up in several engines: the engine that made it comes
 * before the lower layers it uses (docker's containers are containerd's
 * "moby/ID" and runc's too; podman's are runc's or crun's).
 */
static const struct hj_engine *const engines[] = {
	&hj_engine_lxc,	       &hj_engine_incus,  &hj_engine_docker,
	&hj_engine_podman,     &hj_engine_machine, &hj_engine_containerd,
	&hj_engine_runc,       &hj_engine_crun,
};

/* The engines' names in search order, then "pid", then NULL. */
static const char *engine_names[ARRAY_SIZE(engines) + 2];
static pthread_once_t engine_names_once = PTHREAD_ONCE_INIT;

static void fill_engine_names(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++)
		engine_names[i] = engines[i]->name;
	engine_names[i] = "pid";
}

const char *const *hj_engine_names(void)
{
	(void)pthread_once(&engine_names_once, fill_engine_names);
	return engine_names;
}

static const struct hj_engine *engine_by_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++)
		if (strlen(engines[i]->name) == len &&
		    strncmp(engines[i]->name, name, len) == 0)
			return engines[i];
	return NULL;
}

static int engine_rank(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return (int)i;
	return (int)ARRAY_SIZE(engines);
}

/* Complete one entry whose engine's list did not tell everything. */
static int inspect(struct hijack_container *c)
{
	const struct hj_engine *e = engine_by_name(c->engine,
						   strlen(c->engine));

	if (c->pid > 0 || !e || !e->inspect)
		return 0;
	return e->inspect(c);
}

/*
 * Keep the first of the entries with the same pid, in engine order: the
 * same container seen through a lower layer is not a second candidate.
 * Entries without a pid (not running after all) are dropped.
 */
static void fold(struct hj_ctlist *l)
{
	size_t i, j, n = 0;

	for (i = 0; i < l->n; i++) {
		struct hijack_container *c = &l->v[i];
		bool dup = c->pid <= 0;

		for (j = 0; j < n && !dup; j++) {
			if (l->v[j].pid != c->pid)
				continue;
			dup = true;
			if (engine_rank(c->engine) < engine_rank(l->v[j].engine))
				l->v[j] = *c;
		}
		if (!dup)
			l->v[n++] = *c;
	}
	l->n = n;
}

/*
 * Ask one engine, or all; @searched gets the names of the engines present.
 * Without an engine named, one that cannot be read (a daemon's socket we
 * may not open) is passed over: the container may be elsewhere.
 */
static int collect(const struct hj_engine *only, struct hj_ctlist *l,
		   char *searched, size_t size, struct hijack_diag *d)
{
	size_t i, len = 0;
	int r;

	if (searched)
		searched[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(engines); i++) {
		const struct hj_engine *e = engines[i];

		if (only && e != only)
			continue;
		r = e->list(l);
		if (r < 0 && only)
			return hj_diag_set(d, HIJACK_STEP_TARGET, -r,
					   "reading %s's containers", e->name);
		if (r <= 0 || !searched)
			continue;
		r = snprintf(searched + len, size - len, "%s%s",
			     len ? ", " : "", e->name);
		if (r > 0 && (size_t)r < size - len)
			len += (size_t)r;
	}
	if (searched && !len)
		(void)hj_copy(searched, size, "none present");
	return 0;
}

static int by_engine(const struct hijack_container *a,
		     const struct hijack_container *b)
{
	int r = engine_rank(a->engine) - engine_rank(b->engine);

	return r ? r : strcmp(a->name, b->name);
}

static int cmp_containers(const void *a, const void *b)
{
	return by_engine(a, b);
}

/*
 * After the running containers, what an engine refused to believe: state
 * "refused" and no pid, so that a caller can say why a name is missing.
 */
static int add_refused(struct hj_ctlist *l)
{
	size_t i;

	for (i = 0; i < l->n_refused; i++) {
		const struct hj_refusal *f = &l->refused[i];
		struct hijack_container *c;

		c = hj_ctlist_add(l, f->engine, f->name, f->name);
		if (!c)
			return -ENOMEM;
		(void)hj_copy(c->state, sizeof(c->state), "refused");
	}
	return 0;
}

HIJACK_EXPORT int hijack_containers_list(const char *engine,
					 struct hijack_container **ret,
					 size_t *ret_n, struct hijack_diag *d)
{
	const struct hj_engine *only = NULL;
	struct hj_ctlist l = { 0 };
	size_t i;
	int r;

	if (engine) {
		only = engine_by_name(engine, strlen(engine));
		if (!only)
			return hj_diag_set(d, HIJACK_STEP_TARGET, ENOENT,
					   "unknown engine '%s'", engine);
	}
	r = collect(only, &l, NULL, 0, d);
	if (r < 0)
		goto fail;
	for (i = 0; i < l.n; i++)
		if (inspect(&l.v[i]) < 0)
			l.v[i].pid = 0;
	fold(&l);
	qsort(l.v, l.n, sizeof(*l.v), cmp_containers);
	r = add_refused(&l);
	if (r < 0)
		goto fail;
	*ret = l.v;
	*ret_n = l.n;
	free(l.refused);
	return 0;
fail:
	hj_ctlist_free(&l);
	return r;
}

/*
 * Only an id an engine made up may be abbreviated: Docker's, Podman's (and
 * so containerd's "moby/ID") are 64 hex digits.  LXC, Incus, machined,
 * runc, crun and containerd take whatever id or name they are given, so
 * there a prefix of one container's name may be the whole name of another,
 * stopped one: it is not a name.
 */
#define HJ_GENERATED_ID_LEN 64
/* What "docker ps" and "podman ps" print: every id a user sees is as long. */
#define HJ_ID_PREFIX_MIN 12

static bool all_hex(const char *s, size_t n)
{
	return strspn(s, "0123456789abcdef") >= n;
}

static bool is_id_prefix(const char *id, const char *prefix)
{
	size_t n = strlen(prefix);

	return strlen(id) == HJ_GENERATED_ID_LEN &&
	       all_hex(id, HJ_GENERATED_ID_LEN) && n >= HJ_ID_PREFIX_MIN &&
	       n < HJ_GENERATED_ID_LEN && strncmp(id, prefix, n) == 0;
}

/* 2: the name or the full id; 1: a prefix of a generated id; 0: no match. */
static int match(const struct hijack_container *c, const char *name)
{
	bool containerd = strcmp(c->engine, "containerd") == 0;
	const char *slash = strchr(name, '/');

	if (strcmp(c->name, name) == 0 || strcmp(c->id, name) == 0)
		return 2;
	/* containerd: "ID" means "default/ID". */
	if (containerd && strncmp(c->name, "default/", 8) == 0 &&
	    strcmp(c->name + 8, name) == 0)
		return 2;
	if (is_id_prefix(c->id, name))
		return 1;
	/* containerd: "NAMESPACE/ID-PREFIX", the namespace whole. */
	if (containerd && slash &&
	    strncmp(c->name, name, (size_t)(slash - name) + 1) == 0 &&
	    is_id_prefix(c->name + (slash - name) + 1, slash + 1))
		return 1;
	return 0;
}

static int find_pid(const char *s, struct hijack_container *ret,
		    struct hijack_diag *d)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT32_MAX || !isdigit(*s))
		return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
				   "invalid pid '%s' in pid:PID", s);
	memset(ret, 0, sizeof(*ret));
	(void)hj_copy(ret->engine, sizeof(ret->engine), "pid");
	(void)hj_copy(ret->name, sizeof(ret->name), s);
	(void)hj_copy(ret->id, sizeof(ret->id), s);
	(void)hj_copy(ret->state, sizeof(ret->state), "running");
	ret->pid = (pid_t)v;
	return 0;
}

/*
 * Keep the entries of @l that match @name best (exact names and ids win
 * over prefixes, as in docker), completed by their engine, one per
 * container.
 */
static void keep_best(struct hj_ctlist *l, const char *name)
{
	size_t i, n = 0;
	int best = 0;

	for (i = 0; i < l->n; i++) {
		int m = match(&l->v[i], name);

		if (m > best) {
			best = m;
			n = 0;
		}
		if (m && m == best)
			l->v[n++] = l->v[i];
	}
	l->n = n;
	for (i = 0; i < l->n; i++)
		if (inspect(&l->v[i]) < 0)
			l->v[i].pid = 0;
	fold(l);
}

/* Several containers answer to @name: say which, as ENGINE:NAME. */
static int ambiguous(struct hj_ctlist *l, const char *name,
		     struct hijack_diag *d)
{
	char names[200] = "";
	size_t i, len = 0;
	int r;

	qsort(l->v, l->n, sizeof(*l->v), cmp_containers);
	for (i = 0; i < l->n; i++) {
		r = snprintf(names + len, sizeof(names) - len, "%s%s:%s",
			     i ? " " : "", l->v[i].engine, l->v[i].name);
		if (r < 0 || (size_t)r >= sizeof(names) - len)
			break;
		len += (size_t)r;
	}
	return hj_diag_set(d, HIJACK_STEP_TARGET, ENOTUNIQ,
			   "'%s' matches several containers: %s", name, names);
}

/*
 * "ENGINE:NAME" of a running container whose name or id starts with
 * @name, in @buf, or "": said when @name alone matches nothing.
 */
static void starting_with(const struct hj_ctlist *l, const char *name,
			  char *buf, size_t size)
{
	size_t i, n = strlen(name);

	buf[0] = '\0';
	for (i = 0; i < l->n; i++)
		if (strncmp(l->v[i].name, name, n) == 0 ||
		    strncmp(l->v[i].id, name, n) == 0) {
			(void)snprintf(buf, size, "%s:%s", l->v[i].engine,
				       l->v[i].name);
			return;
		}
}

/* What an engine refused under @name exactly: said, never entered. */
static const struct hj_refusal *refused(const struct hj_ctlist *l,
					const char *name)
{
	size_t i;

	for (i = 0; i < l->n_refused; i++)
		if (strcmp(l->refused[i].name, name) == 0)
			return &l->refused[i];
	return NULL;
}

/*
 * Nothing answers to @name: say what came closest, a container an engine
 * refused to believe under that name, or one whose name only starts so.
 */
static int none_found(const struct hj_ctlist *l, const struct hj_engine *only,
		      const char *name, const char *searched, const char *near,
		      struct hijack_diag *d)
{
	const struct hj_refusal *refusal = refused(l, name);

	if (refusal)
		return hj_diag_set(d, HIJACK_STEP_TARGET, EPERM,
				   "%s:%s not believed: %s", refusal->engine,
				   refusal->name, refusal->why);
	if (*near)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ENOENT,
				   "no running container '%s' (searched: %s): %s only starts with it; names match whole, ids by %d hex digits or more",
				   name, searched, near, HJ_ID_PREFIX_MIN);
	if (only && strcmp(searched, "none present") == 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ENOENT,
				   "no running container '%s': %s is not installed or not running here",
				   name, only->name);
	return hj_diag_set(d, HIJACK_STEP_TARGET, ENOENT,
			   "no running container '%s' (searched: %s)", name,
			   searched);
}

HIJACK_EXPORT int hijack_container_find(const char *target,
					struct hijack_container *ret,
					struct hijack_diag *d)
{
	const struct hj_engine *only = NULL;
	char near[300];
	struct hj_ctlist l = { 0 };
	const char *name = target, *colon;
	char searched[160];
	int r;

	colon = strchr(target, ':');
	if (colon) {
		if (colon - target == 3 && strncmp(target, "pid", 3) == 0)
			return find_pid(colon + 1, ret, d);
		only = engine_by_name(target, (size_t)(colon - target));
		if (!only)
			return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
					   "unknown engine '%.*s' in '%s' (known: lxc incus docker podman machine containerd runc crun pid)",
					   (int)(colon - target), target, target);
		name = colon + 1;
	}
	if (!*name || !hj_printable(name))
		return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
				   "empty or unprintable container name");

	/* Entries that cannot match need not be read whole. */
	l.hint = name;
	r = collect(only, &l, searched, sizeof(searched), d);
	if (r < 0)
		goto out;
	starting_with(&l, name, near, sizeof(near));
	keep_best(&l, name);
	if (l.n == 1)
		*ret = l.v[0];
	else if (l.n > 1)
		r = ambiguous(&l, name, d);
	else
		r = none_found(&l, only, name, searched, near, d);
out:
	hj_ctlist_free(&l);
	return r;
}
