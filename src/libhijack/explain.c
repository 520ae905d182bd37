// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * explain.c - show a plan without carrying it out (--explain).
 *
 * The plan is walked once, part by part, through the emitter of emit.h:
 * each field is named once, with its JSON key and its words in the text.
 * The two forms do not say the same things in the same order (the text is
 * sentences, compares with the caller and leaves out what is usual), so
 * some fields have a text-only or a JSON-only call beside them.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>

#include "emit.h"
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

static const char *part_name(enum hijack_part_mode m)
{
	switch (m) {
	case HIJACK_FROM_TARGET:
		return "target";
	case HIJACK_KEEP:
		return "keep";
	case HIJACK_NONE:
		return "none";
	case HIJACK_FROM_FILE:
		return "file";
	case HIJACK_RESET:
		return "reset";
	}
	return "unknown";
}

static const char *pty_name(enum hijack_pty m)
{
	switch (m) {
	case HIJACK_PTY_AUTO:
		return "auto";
	case HIJACK_PTY_ALWAYS:
		return "always";
	case HIJACK_PTY_NEVER:
		return "never";
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

/* One side of a namespace: the text shows only the inode. */
static void walk_ns_side(struct emitter *e, const char *key, dev_t dev,
			 ino_t ino)
{
	char buf[32];

	(void)snprintf(buf, sizeof(buf), "%u:%u", major(dev), minor(dev));
	e->ops->begin(e, key, "");
	e->ops->str(e, "dev", NULL, buf);
	e->ops->u64(e, "ino", "%-14llu ", (unsigned long long)ino);
	e->ops->end(e, NULL);
}

static void walk_target(struct emitter *e, const struct hijack_plan *p)
{
	bool fallback = p->method_fallback != HIJACK_METHOD_AUTO;
	int i;

	if (p->container)
		e->ops->container(e, "container", p->container);
	e->ops->i64(e, "pid", "target:  pid %lld\n", (long long)p->pid);
	e->ops->str(e, "method", "method:  %s", hijack_method_name(p->method));
	e->ops->str(e, "fallback", fallback ? " (falls back to %s)" : NULL,
		    fallback ? hijack_method_name(p->method_fallback) : NULL);
	if (p->syscall_nr > 0)
		e->ops->i64(e, "syscall_nr", "; kernel has hijack(2) as syscall %lld\n",
			    p->syscall_nr);
	else
		e->ops->str(e, "syscall_nr", "; kernel has no hijack(2)\n", NULL);

	e->ops->begin(e, "namespaces", "ns       caller         target         action\n");
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		const struct hijack_ns_state *s = &p->ns[i];

		e->ops->begin(e, hijack_ns_name(i), "%-8s ");
		walk_ns_side(e, "caller", s->self_dev, s->self_ino);
		walk_ns_side(e, "target", s->dev, s->ino);
		e->ops->str(e, "action", "%s\n", ns_action(s));
		e->ops->boolean(e, "enter", NULL, s->enter);
		e->ops->end(e, NULL);
	}
	e->ops->end(e, NULL);
}

/* The root or working directory: the text gives the mode after the path. */
static void walk_dir(struct emitter *e, const char *key, const char *text,
		     enum hijack_dir_mode mode, const char *path)
{
	e->ops->begin(e, key, text);
	e->ops->str(e, "mode", NULL, dir_mode_name(mode));
	e->ops->str(e, "path", "%s", path);
	e->ops->text(e, " (%s)\n", dir_mode_name(mode));
	e->ops->end(e, NULL);
}

static void walk_ids(struct emitter *e, const char *key, const char *text,
		     unsigned int a, unsigned int b, unsigned int c)
{
	e->ops->list_begin(e, key, text, "/");
	e->ops->u64(e, NULL, "%llu", a);
	e->ops->u64(e, NULL, "%llu", b);
	e->ops->u64(e, NULL, "%llu", c);
	e->ops->list_end(e, NULL);
}

/* @groups: in the JSON too (the text always shows them, "-" for none). */
static void walk_creds(struct emitter *e, const char *key, const char *text,
		       const struct hijack_creds *c, bool groups)
{
	size_t i;

	e->ops->begin(e, key, text);
	walk_ids(e, "uid", "uid ", c->uid, c->euid, c->suid);
	walk_ids(e, "gid", " gid ", c->gid, c->egid, c->sgid);
	e->ops->list_begin(e, groups ? "groups" : NULL, " groups ", ",");
	for (i = 0; i < c->ngroups; i++)
		e->ops->u64(e, NULL, "%llu", c->groups[i]);
	e->ops->list_end(e, "-");
	e->ops->end(e, NULL);
}

static void walk_caps(struct emitter *e, const char *key, const char *text,
		      const struct hijack_caps *c)
{
	const unsigned long long sets[] = { c->inh, c->prm, c->eff, c->bnd, c->amb };
	static const char *const names[] = { "inh", "prm", "eff", "bnd", "amb" };
	static const char *const texts[] = { " inh %s", " prm %s", " eff %s",
					     " bnd %s", " amb %s" };
	char buf[24];
	size_t i;

	e->ops->begin(e, key, text);
	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		(void)snprintf(buf, sizeof(buf), "%016llx", sets[i]);
		e->ops->str(e, names[i], texts[i], buf);
	}
	e->ops->end(e, "\n");
}

static void walk_creds_caps(struct emitter *e, const struct hijack_plan *p,
			    const struct hj_caller *me)
{
	e->ops->begin(e, "creds", "creds:   ");
	e->ops->str(e, "mode", "%s: ", part_name(p->creds_mode));
	walk_creds(e, "command", "", &p->creds, true);
	walk_creds(e, "target", NULL, &p->target_creds, true);
	e->ops->text(e, " (caller ");
	walk_creds(e, "caller", "", &me->creds, false);
	e->ops->text(e, ")\n");
	e->ops->end(e, NULL);

	e->ops->begin(e, "caps", "caps:    ");
	e->ops->str(e, "mode", "%s\n", part_name(p->caps_mode));
	walk_caps(e, "command", "  %-7s", &p->caps);
	walk_caps(e, "target", "  %-7s", &p->target_caps);
	walk_caps(e, "caller", me->have_caps ? "  %-7s" : NULL, &me->caps);
	e->ops->str(e, "note", p->caps_note[0] ? "  note:   %s\n" : NULL,
		    p->caps_note);
	e->ops->str(e, NULL, "  securebits: %s\n",
		    p->syscall_flags & HIJACK_TAKE_CRED ?
		    "the target's, copied by hijack(2)" :
		    "left at the kernel default: no interface reads another task's");
	e->ops->end(e, NULL);
}

static void walk_cgroups(struct emitter *e, const struct hijack_plan *p)
{
	size_t i;

	e->ops->begin(e, "cgroups", "cgroups: ");
	e->ops->str(e, "mode", "%s\n", part_name(p->cgroup_mode));
	e->ops->list_begin(e, "hierarchies", "", "");
	for (i = 0; i < p->ncgroups; i++) {
		const struct hijack_cgroup *g = &p->cgroups[i];

		e->ops->begin(e, NULL, "");
		e->ops->str(e, "controllers", NULL, g->controllers);
		e->ops->text(e, "  %-20s ", *g->controllers ? g->controllers : "(v2)");
		e->ops->str(e, "target", "%s", g->path);
		e->ops->str(e, "caller", " (caller %s) ", g->self_path);
		e->ops->str(e, "dir", NULL, g->dir);
		e->ops->text(e, "%s%s\n",
			     g->join ? "join " : (g->dir ? "same" : "not mounted here"),
			     g->join ? (g->dir ? g->dir : "(not mounted here: mounted for hijack alone)") : "");
		e->ops->boolean(e, "join", NULL, g->join);
		e->ops->end(e, NULL);
	}
	e->ops->list_end(e, NULL);
	e->ops->end(e, NULL);
}

static void walk_seccomp_lsm(struct emitter *e, const struct hijack_plan *p)
{
	bool lsm = p->lsm[0];

	e->ops->begin(e, "seccomp", "seccomp: ");
	e->ops->str(e, "mode", "%s; ", part_name(p->seccomp_mode));
	e->ops->i64(e, "target_mode", "target mode %lld, ", p->target_seccomp);
	e->ops->boolean(e, "target_no_new_privs", "no_new_privs %s; ", p->target_nnp);
	e->ops->u64(e, "filters", "command gets %llu filter(s)", p->nfilters);
	e->ops->text(e, "%s", p->seccomp_mode == HIJACK_FROM_FILE ?
		     " from the policy file" : "");
	e->ops->boolean(e, "no_new_privs", ", no_new_privs %s\n", p->nnp);
	e->ops->end(e, NULL);

	e->ops->begin(e, "lsm", "lsm:     ");
	e->ops->str(e, "active", lsm ? "%s, " :
		    "no AppArmor or SELinux active: nothing to apply\n",
		    lsm ? p->lsm : NULL);
	e->ops->str(e, "mode", lsm ? "%s: " : NULL, part_name(p->lsm_mode));
	e->ops->str(e, "label", NULL, p->lsm_label);
	if (lsm)
		e->ops->text(e, "%s\n", p->lsm_label[0] ? p->lsm_label : "(caller's)");
	e->ops->end(e, NULL);
}

static void walk_env_fds(struct emitter *e, const struct hijack_plan *p)
{
	bool pty = p->pty_fds;
	size_t n = 0;
	int fd;

	while (p->envp && p->envp[n])
		n++;
	e->ops->begin(e, "env", "env:     ");
	e->ops->str(e, "mode", "%s: ", part_name(p->env_mode));
	e->ops->u64(e, "count", "%llu variable", n);
	e->ops->text(e, "%s\n", n == 1 ? "" : "s");
	e->ops->end(e, NULL);

	e->ops->u64(e, "preserve_fds", "fds:     0-2", p->preserve_fds);
	if (p->preserve_fds)
		e->ops->text(e, " and 3-%u", 2 + p->preserve_fds);
	e->ops->text(e, "\n");

	e->ops->begin(e, "pty", "tty:     ");
	e->ops->str(e, "mode", pty ? "%s: " : NULL, pty_name(p->pty_mode));
	if (pty)
		e->ops->text(e, "a new pseudo-terminal from the target's /dev/ptmx on fd%s ",
			     (p->pty_fds & (p->pty_fds - 1)) ? "s" : "");
	e->ops->list_begin(e, "fds", pty ? "" : NULL, ",");
	for (fd = 0; fd <= 2; fd++)
		if (p->pty_fds & BIT(fd))
			e->ops->u64(e, NULL, "%llu", fd);
	e->ops->list_end(e, NULL);
	if (pty)
		e->ops->text(e, ", relayed\n");
	else if (p->pty_mode == HIJACK_PTY_NEVER)
		e->ops->text(e, "never: fds 0-2 passed on as they are, a terminal among them too\n");
	else
		e->ops->text(e, "auto: fds 0-2 are not terminals, none needed\n");
	e->ops->end(e, NULL);
}

/* A limit's value: "unlimited" is a string in the JSON. */
static void walk_limit(struct emitter *e, unsigned long long v)
{
	if (v == (unsigned long long)RLIM_INFINITY)
		e->ops->str(e, NULL, "%s", "unlimited");
	else
		e->ops->u64(e, NULL, "%llu", v);
}

/* The text lists only the limits that differ from the caller's. */
static void walk_limits(struct emitter *e, const struct hijack_plan *p,
			const struct hj_caller *me)
{
	const struct hijack_limits *t = &p->limits, *c = &me->limits;
	bool target = p->limits_mode == HIJACK_FROM_TARGET;
	int i, n = 0;

	e->ops->begin(e, "limits", "limits:  ");
	e->ops->str(e, "mode", "%s: ", part_name(p->limits_mode));
	if (!target) {
		e->ops->text(e, "the caller's resource limits and oom_score_adj\n");
		e->ops->end(e, NULL);
		return;
	}
	e->ops->i64(e, "oom_score_adj", "oom_score_adj %lld", t->oom_score_adj);
	e->ops->text(e, " (caller %d)", c->oom_score_adj);
	e->ops->begin(e, "rlimits", "");
	for (i = 0; i < HIJACK_NRLIMITS; i++) {
		bool same = (c->have & BIT(i)) &&
			    t->lim[i].cur == c->lim[i].cur &&
			    t->lim[i].max == c->lim[i].max;

		if (!(t->have & BIT(i)))
			continue;
		if (!same)
			e->ops->text(e, "%s%s ", n++ ? ", " : "; differing: ",
				     hj_rlimit_name(i));
		e->ops->list_begin(e, hj_rlimit_name(i), same ? NULL : "", "/");
		walk_limit(e, t->lim[i].cur);
		walk_limit(e, t->lim[i].max);
		e->ops->list_end(e, NULL);
	}
	e->ops->end(e, NULL);
	e->ops->text(e, "%s\n", n ? "" : "; every resource limit as the caller's");
	e->ops->end(e, NULL);
}

HIJACK_EXPORT int hijack_plan_print(const struct hijack_plan *p, bool json,
				    FILE *f)
{
	struct emitter e;

	hj_emit_init(&e, json, f);
	e.ops->begin(&e, NULL, "");
	walk_target(&e, p);
	walk_dir(&e, "root", "root:    ", p->root_mode, p->root);
	walk_dir(&e, "cwd", "cwd:     ", p->wd_mode, p->wd);
	walk_creds_caps(&e, p, &p->caller);
	walk_cgroups(&e, p);
	walk_seccomp_lsm(&e, p);
	walk_env_fds(&e, p);
	walk_limits(&e, p, &p->caller);
	e.ops->end(&e, NULL);
	return ferror(f) ? -EIO : 0;
}
