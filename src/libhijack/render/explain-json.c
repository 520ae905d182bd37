// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * explain-json.c - the plan for scripts (--explain=json): a jansson tree,
 * written as one compact object on one line.
 *
 * The keys, their types and their meaning are documented once, in
 * hijack(1), section JSON OUTPUT; a key added or changed here is added or
 * changed there.  The keys are set in the order that section lists them
 * (jansson keeps an object's keys in the order they were set).
 *
 * The tree is written by write_value() below, not by json_dumpf(): its
 * strings include names the target chose (its cwd, cgroup paths, LSM
 * label), any bytes at all, and hijack(1) promises a document that is
 * valid UTF-8 with no control character in it raw.  jansson's writer
 * refuses a string that is not UTF-8 and passes DEL and the C1 controls
 * through as they are; hj_json_string() (jsonw.c) writes both by the rule
 * hijack(1) gives.  So strings go into the tree as the plan holds them
 * (json_string_nocheck()), and this tree is never handed to json_dumpf().
 */
#include <jansson.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>

#include "explain.h"
#include "jsonw.h"

/*
 * Finish a part: @o, or NULL when building it @failed (jansson ran out of
 * memory).  set() and append() take their value even when they fail, and
 * fail on a NULL one, so a part that could not be built fails the one
 * holding it, up to the top.
 */
static json_t *done(json_t *o, bool failed)
{
	if (!failed)
		return o;
	json_decref(o);
	return NULL;
}

static int set(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new(o, key, v);
}

static int append(json_t *a, json_t *v)
{
	return json_array_append_new(a, v);
}

/* A string of the plan, whatever its bytes; NULL is null. */
static json_t *str(const char *s)
{
	return s ? json_string_nocheck(s) : json_null();
}

/* Where a part comes from: hijack(1), JSON OUTPUT, lists the names. */
static json_t *part_mode(enum hijack_part_mode m)
{
	return json_string(hj_explain_part_name(m));
}

static json_t *ns_side(dev_t dev, ino_t ino)
{
	char buf[32];

	(void)snprintf(buf, sizeof(buf), "%u:%u", major(dev), minor(dev));
	return json_pack("{s:s, s:I}", "dev", buf, "ino", (json_int_t)ino);
}

static json_t *namespaces(const struct hj_explain *v)
{
	json_t *o = json_object(), *ns;
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		const struct hijack_ns_state *s = &v->ns[i];

		ns = json_object();
		ns = done(ns,
			  set(ns, "caller", ns_side(s->self_dev, s->self_ino)) ||
			  set(ns, "target", ns_side(s->dev, s->ino)) ||
			  set(ns, "action", json_string(hj_explain_ns_action(s))) ||
			  set(ns, "enter", json_boolean(s->enter)));
		if (set(o, hijack_ns_name(i), ns))
			return done(o, true);
	}
	return o;
}

static json_t *container(const struct hijack_container *c)
{
	json_t *o = json_object();

	return done(o, set(o, "engine", str(c->engine)) ||
		       set(o, "name", str(c->name)) ||
		       set(o, "id", str(c->id)) ||
		       set(o, "state", str(c->state)) ||
		       set(o, "pid", json_integer(c->pid)));
}

/* The target and its namespaces: the first keys of the top object. */
static bool add_target(json_t *top, const struct hj_explain *v)
{
	bool fallback = v->fallback != HIJACK_METHOD_AUTO;

	if (v->container && set(top, "container", container(v->container)))
		return true;
	return set(top, "pid", json_integer(v->pid)) ||
	       set(top, "method", json_string(hijack_method_name(v->method))) ||
	       set(top, "fallback", fallback ?
		   json_string(hijack_method_name(v->fallback)) : json_null()) ||
	       set(top, "syscall_nr", v->syscall_nr > 0 ?
		   json_integer(v->syscall_nr) : json_null()) ||
	       set(top, "namespaces", namespaces(v));
}

static json_t *dir(enum hijack_dir_mode mode, const char *path)
{
	json_t *o = json_object();

	return done(o, set(o, "mode", json_string(hj_explain_dir_name(mode))) ||
		       set(o, "path", str(path)));
}

/* The working directory: a directory, and why it is not the target's. */
static json_t *cwd_dir(const struct hj_explain *v)
{
	json_t *o = dir(v->wd_mode, v->wd);

	if (o && set(o, "why", str(v->wd_why)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* @groups false: the caller's, whose groups are not read. */
static json_t *creds(const struct hijack_creds *c, bool groups)
{
	json_t *o, *g;
	size_t i;

	o = json_pack("{s:[I, I, I], s:[I, I, I]}", "uid", (json_int_t)c->uid,
		      (json_int_t)c->euid, (json_int_t)c->suid, "gid",
		      (json_int_t)c->gid, (json_int_t)c->egid, (json_int_t)c->sgid);
	if (!o || !groups)
		return o;
	g = json_array();
	for (i = 0; i < c->ngroups; i++)
		if (append(g, json_integer(c->groups[i])))
			break;
	g = done(g, i < c->ngroups);
	return done(o, set(o, "groups", g));
}

static json_t *caps(const struct hijack_caps *c)
{
	const unsigned long long sets[] = { c->inh, c->prm, c->eff, c->bnd, c->amb };
	static const char *const names[] = { "inh", "prm", "eff", "bnd", "amb" };
	json_t *o = json_object();
	char hex[24];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		(void)snprintf(hex, sizeof(hex), "%016llx", sets[i]);
		if (set(o, names[i], json_string(hex)))
			return done(o, true);
	}
	return o;
}

static json_t *creds_part(const struct hj_explain *v)
{
	json_t *o = json_object();

	return done(o, set(o, "mode", part_mode(v->creds_mode)) ||
		       set(o, "command", creds(v->creds, true)) ||
		       set(o, "target", creds(v->target_creds, true)) ||
		       set(o, "caller", creds(v->caller_creds, false)));
}

static json_t *caps_part(const struct hj_explain *v)
{
	json_t *o = json_object();

	return done(o, set(o, "mode", part_mode(v->caps_mode)) ||
		       set(o, "command", caps(v->caps)) ||
		       set(o, "target", caps(v->target_caps)) ||
		       set(o, "caller", caps(v->caller_caps)) ||
		       set(o, "note", str(v->caps_note)) ||
		       set(o, "mark", v->mark >= 0 ? json_integer(v->mark) : json_null()));
}

static json_t *cgroups_part(const struct hj_explain *v)
{
	json_t *o = json_object(), *list = json_array(), *h;
	size_t i;

	for (i = 0; i < v->ncgroups; i++) {
		const struct hijack_cgroup *g = &v->cgroups[i];

		h = json_object();
		h = done(h, set(h, "controllers", str(g->controllers)) ||
			    set(h, "target", str(g->path)) ||
			    set(h, "caller", str(g->self_path)) ||
			    set(h, "dir", str(g->dir)) ||
			    set(h, "join", json_boolean(g->join)));
		if (append(list, h))
			break;
	}
	list = done(list, i < v->ncgroups);
	return done(o, set(o, "mode", part_mode(v->cgroup_mode)) ||
		       set(o, "hierarchies", list));
}

static json_t *seccomp_part(const struct hj_explain *v)
{
	return json_pack("{s:s, s:i, s:b, s:I, s:b}",
			 "mode", hj_explain_part_name(v->seccomp_mode),
			 "target_mode", v->target_seccomp,
			 "target_no_new_privs", v->target_nnp,
			 "filters", (json_int_t)v->nfilters,
			 "no_new_privs", v->nnp);
}

static json_t *lsm_part(const struct hj_explain *v)
{
	json_t *o = json_object();

	return done(o, set(o, "active", str(v->lsm)) ||
		       set(o, "mode", part_mode(v->lsm_mode)) ||
		       set(o, "label", str(v->lsm_label)));
}

static json_t *env_part(const struct hj_explain *v)
{
	json_t *o = json_object();

	return done(o, set(o, "mode", part_mode(v->env_mode)) ||
		       set(o, "count", json_integer(v->nenv)) ||
		       set(o, "why", str(v->env_why)));
}

static json_t *pty_part(const struct hj_explain *v)
{
	json_t *o = json_object(), *fds = json_array();
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if ((v->pty_fds & BIT(fd)) && append(fds, json_integer(fd)))
			break;
	fds = done(fds, fd <= 2);
	return done(o, set(o, "mode", json_string(hj_explain_pty_name(v->pty_mode))) ||
		       set(o, "fds", fds));
}

/*
 * A limit: "unlimited", or a number.  jansson's integers are signed 64-bit
 * like most JSON readers', so a limit past 2^63 - 1 (of no use, but
 * allowed) is given as a real rather than read back negative.
 */
static json_t *limit(unsigned long long v)
{
	if (v == (unsigned long long)RLIM_INFINITY)
		return json_string("unlimited");
	if (v > INT64_MAX)
		return json_real((double)v);
	return json_integer((json_int_t)v);
}

/* Every limit of the target's, each [soft, hard]. */
static json_t *rlimits(const struct hijack_limits *t)
{
	json_t *o = json_object(), *pair;
	int i;

	for (i = 0; i < HIJACK_NRLIMITS; i++) {
		if (!(t->have & BIT(i)))
			continue;
		pair = json_array();
		pair = done(pair, append(pair, limit(t->lim[i].cur)) ||
				  append(pair, limit(t->lim[i].max)));
		if (set(o, hj_rlimit_name(i), pair))
			return done(o, true);
	}
	return o;
}

static json_t *limits_part(const struct hj_explain *v)
{
	json_t *o = json_object();

	if (set(o, "mode", part_mode(v->limits_mode)))
		return done(o, true);
	/* The command keeps the caller's limits: nothing more to say. */
	if (v->limits_mode != HIJACK_FROM_TARGET)
		return o;
	return done(o, set(o, "oom_score_adj", json_integer(v->limits->oom_score_adj)) ||
		       set(o, "rlimits", rlimits(v->limits)));
}

static json_t *tree(const struct hj_explain *v)
{
	json_t *top = json_object();

	return done(top, add_target(top, v) ||
			 set(top, "root", dir(v->root_mode, v->root)) ||
			 set(top, "cwd", cwd_dir(v)) ||
			 set(top, "creds", creds_part(v)) ||
			 set(top, "caps", caps_part(v)) ||
			 set(top, "cgroups", cgroups_part(v)) ||
			 set(top, "seccomp", seccomp_part(v)) ||
			 set(top, "lsm", lsm_part(v)) ||
			 set(top, "env", env_part(v)) ||
			 set(top, "preserve_fds", json_integer(v->preserve_fds)) ||
			 set(top, "pty", pty_part(v)) ||
			 set(top, "limits", limits_part(v)));
}

/*
 * Write @j compactly (no space, as JSON_COMPACT does), the strings through
 * hj_json_string(), numbers and literals as jansson writes them.
 */
static int write_value(json_t *j, FILE *f)
{
	const char *key;
	json_t *item;
	size_t i;
	bool first = true;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		fputc('{', f);
		json_object_foreach(j, key, item) {
			if (!first)
				fputc(',', f);
			first = false;
			hj_json_string(f, key);
			fputc(':', f);
			if (write_value(item, f) < 0)
				return -1;
		}
		fputc('}', f);
		return 0;
	case JSON_ARRAY:
		fputc('[', f);
		json_array_foreach(j, i, item) {
			if (i)
				fputc(',', f);
			if (write_value(item, f) < 0)
				return -1;
		}
		fputc(']', f);
		return 0;
	case JSON_STRING:
		hj_json_string(f, json_string_value(j));
		return 0;
	default:
		return json_dumpf(j, f, JSON_ENCODE_ANY);
	}
}

int hj_explain_json(const struct hj_explain *v, FILE *f)
{
	json_t *j = tree(v);
	int r;

	if (!j)
		return -ENOMEM;
	r = write_value(j, f);
	json_decref(j);
	fputc('\n', f);
	return r < 0 || ferror(f) ? -EIO : 0;
}
