// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * explain.c - show a plan without carrying it out (--explain).
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"
#include "jsonw.h"

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

/* A limit's value; "unlimited" in quotes for JSON, where it is a string. */
static void print_limit(FILE *f, unsigned long long v, bool json)
{
	if (v == (unsigned long long)RLIM_INFINITY)
		fputs(json ? "\"unlimited\"" : "unlimited", f);
	else
		fprintf(f, "%llu", v);
}

/* Only what differs from the caller's: the list would be long otherwise. */
static void print_limits_text(const struct hijack_plan *p, FILE *f)
{
	const struct hijack_limits *t = &p->limits;
	struct hijack_limits me;
	int i, n = 0;

	if (p->limits_mode != HIJACK_FROM_TARGET) {
		fprintf(f, "limits:  keep: the caller's resource limits and oom_score_adj\n");
		return;
	}
	if (hj_limits_read(NULL, &me, NULL) < 0)
		me = (struct hijack_limits){ 0 };
	fprintf(f, "limits:  target: oom_score_adj %d (caller %d)", t->oom_score_adj,
		me.oom_score_adj);
	for (i = 0; i < HIJACK_NRLIMITS; i++) {
		if (!(t->have & (1u << i)) ||
		    ((me.have & (1u << i)) && t->lim[i].cur == me.lim[i].cur &&
		     t->lim[i].max == me.lim[i].max))
			continue;
		fprintf(f, "%s%s ", n++ ? ", " : "; differing: ", hj_rlimit_name(i));
		print_limit(f, t->lim[i].cur, false);
		fputc('/', f);
		print_limit(f, t->lim[i].max, false);
	}
	fprintf(f, "%s\n", n ? "" : "; every resource limit as the caller's");
}

static void print_limits_json(const struct hijack_plan *p, FILE *f)
{
	const struct hijack_limits *t = &p->limits;
	int i, n = 0;

	fprintf(f, ",\"limits\":{\"mode\":\"%s\"", part_name(p->limits_mode));
	if (p->limits_mode != HIJACK_FROM_TARGET) {
		fputc('}', f);
		return;
	}
	fprintf(f, ",\"oom_score_adj\":%d,\"rlimits\":{", t->oom_score_adj);
	for (i = 0; i < HIJACK_NRLIMITS; i++) {
		if (!(t->have & (1u << i)))
			continue;
		fprintf(f, "%s\"%s\":[", n++ ? "," : "", hj_rlimit_name(i));
		print_limit(f, t->lim[i].cur, true);
		fputc(',', f);
		print_limit(f, t->lim[i].max, true);
		fputc(']', f);
	}
	fputs("}}", f);
}

/* "0,1,2", "0,2", ... in @buf (6 bytes or more). */
static const char *pty_fd_list(unsigned int fds, char buf[static 6])
{
	char *p = buf;
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (!(fds & (1u << fd)))
			continue;
		if (p != buf)
			*p++ = ',';
		*p++ = (char)('0' + fd);
	}
	*p = '\0';
	return buf;
}

static size_t env_count(char **envp)
{
	size_t n = 0;

	while (envp && envp[n])
		n++;
	return n;
}

static void caller_creds(struct hijack_creds *c)
{
	uid_t u[3];
	gid_t g[3];

	(void)getresuid(&u[0], &u[1], &u[2]);
	(void)getresgid(&g[0], &g[1], &g[2]);
	c->uid = u[0], c->euid = u[1], c->suid = u[2], c->fsuid = u[1];
	c->gid = g[0], c->egid = g[1], c->sgid = g[2], c->fsgid = g[1];
	c->ngroups = 0;
	c->groups = NULL;
}

static void text_creds(FILE *f, const struct hijack_creds *c)
{
	size_t i;

	fprintf(f, "uid %u/%u/%u gid %u/%u/%u groups ", (unsigned int)c->uid,
		(unsigned int)c->euid, (unsigned int)c->suid,
		(unsigned int)c->gid, (unsigned int)c->egid,
		(unsigned int)c->sgid);
	for (i = 0; i < c->ngroups; i++)
		fprintf(f, "%s%u", i ? "," : "", (unsigned int)c->groups[i]);
	if (!c->ngroups)
		fputc('-', f);
}

static void json_creds(FILE *f, const struct hijack_creds *c, bool groups)
{
	size_t i;

	fprintf(f, "{\"uid\":[%u,%u,%u],\"gid\":[%u,%u,%u]",
		(unsigned int)c->uid, (unsigned int)c->euid,
		(unsigned int)c->suid, (unsigned int)c->gid,
		(unsigned int)c->egid, (unsigned int)c->sgid);
	if (groups) {
		fputs(",\"groups\":[", f);
		for (i = 0; i < c->ngroups; i++)
			fprintf(f, "%s%u", i ? "," : "", (unsigned int)c->groups[i]);
		fputc(']', f);
	}
	fputc('}', f);
}

static void text_caps(FILE *f, const char *who, const struct hijack_caps *c)
{
	fprintf(f, "  %-7s inh %016llx prm %016llx eff %016llx bnd %016llx amb %016llx\n",
		who, c->inh, c->prm, c->eff, c->bnd, c->amb);
}

static void json_caps(FILE *f, const struct hijack_caps *c)
{
	fprintf(f, "{\"inh\":\"%016llx\",\"prm\":\"%016llx\",\"eff\":\"%016llx\",\"bnd\":\"%016llx\",\"amb\":\"%016llx\"}",
		c->inh, c->prm, c->eff, c->bnd, c->amb);
}

static void print_confinement_text(const struct hijack_plan *p, FILE *f)
{
	struct hijack_creds me;
	char buf[6];
	struct hijack_caps mycaps = { 0 };
	size_t i, n;

	caller_creds(&me);
	fprintf(f, "creds:   %s: ", part_name(p->creds_mode));
	text_creds(f, &p->creds);
	fputs(" (caller ", f);
	text_creds(f, &me);
	fputs(")\n", f);

	fprintf(f, "caps:    %s\n", part_name(p->caps_mode));
	text_caps(f, "command", &p->caps);
	text_caps(f, "target", &p->target_caps);
	if (hj_caps_read(0, &mycaps, NULL) == 0)
		text_caps(f, "caller", &mycaps);
	if (p->caps_note[0])
		fprintf(f, "  note:   %s\n", p->caps_note);
	fputs("  securebits: ", f);
	fputs(p->syscall_flags & HIJACK_TAKE_CRED ?
	      "the target's, copied by hijack(2)\n" :
	      "left at the kernel default: no interface reads another task's\n", f);

	fprintf(f, "cgroups: %s\n", part_name(p->cgroup_mode));
	for (i = 0; i < p->ncgroups; i++) {
		const struct hijack_cgroup *g = &p->cgroups[i];

		fprintf(f, "  %-20s %s (caller %s) %s%s\n",
			*g->controllers ? g->controllers : "(v2)", g->path,
			g->self_path ? g->self_path : "-",
			g->join ? "join " : (g->dir ? "same" : "not mounted here"),
			g->join ? (g->dir ? g->dir : "(not mounted here: mounted for hijack alone)") : "");
	}

	fprintf(f, "seccomp: %s; target mode %d, no_new_privs %s; ",
		part_name(p->seccomp_mode), p->target_seccomp,
		p->target_nnp ? "yes" : "no");
	fprintf(f, "command gets %zu filter(s)%s, no_new_privs %s\n",
		p->nfilters, p->seccomp_mode == HIJACK_FROM_FILE ? " from the policy file" : "",
		p->nnp ? "yes" : "no");
	if (!p->lsm[0])
		fprintf(f, "lsm:     no AppArmor or SELinux active: nothing to apply\n");
	else
		fprintf(f, "lsm:     %s, %s: %s\n", p->lsm,
			part_name(p->lsm_mode),
			p->lsm_label[0] ? p->lsm_label : "(caller's)");
	n = env_count(p->envp);
	fprintf(f, "env:     %s: %zu variable%s\n", part_name(p->env_mode), n,
		n == 1 ? "" : "s");
	fprintf(f, "fds:     0-2%s", p->preserve_fds ? " and " : "\n");
	if (p->preserve_fds)
		fprintf(f, "3-%u\n", 2 + p->preserve_fds);
	if (p->pty_fds)
		fprintf(f, "tty:     %s: a new pseudo-terminal from the target's /dev/ptmx on fd%s %s, relayed\n",
			pty_name(p->pty_mode),
			(p->pty_fds & (p->pty_fds - 1)) ? "s" : "",
			pty_fd_list(p->pty_fds, buf));
	else if (p->pty_mode == HIJACK_PTY_NEVER)
		fprintf(f, "tty:     never: fds 0-2 passed on as they are, a terminal among them too\n");
	else
		fprintf(f, "tty:     auto: fds 0-2 are not terminals, none needed\n");
	print_limits_text(p, f);
}

static void print_confinement_json(const struct hijack_plan *p, FILE *f)
{
	struct hijack_creds me;
	char buf[6];
	struct hijack_caps mycaps = { 0 };
	size_t i;

	caller_creds(&me);
	fprintf(f, ",\"creds\":{\"mode\":\"%s\",\"command\":",
		part_name(p->creds_mode));
	json_creds(f, &p->creds, true);
	fputs(",\"target\":", f);
	json_creds(f, &p->target_creds, true);
	fputs(",\"caller\":", f);
	json_creds(f, &me, false);
	fprintf(f, "},\"caps\":{\"mode\":\"%s\",\"command\":",
		part_name(p->caps_mode));
	json_caps(f, &p->caps);
	fputs(",\"target\":", f);
	json_caps(f, &p->target_caps);
	(void)hj_caps_read(0, &mycaps, NULL);
	fputs(",\"caller\":", f);
	json_caps(f, &mycaps);
	fputs(",\"note\":", f);
	hj_json_string(f, p->caps_note);
	fprintf(f, "},\"cgroups\":{\"mode\":\"%s\",\"hierarchies\":[",
		part_name(p->cgroup_mode));
	for (i = 0; i < p->ncgroups; i++) {
		const struct hijack_cgroup *g = &p->cgroups[i];

		fprintf(f, "%s{\"controllers\":", i ? "," : "");
		hj_json_string(f, g->controllers);
		fputs(",\"target\":", f);
		hj_json_string(f, g->path);
		fputs(",\"caller\":", f);
		if (g->self_path)
			hj_json_string(f, g->self_path);
		else
			fputs("null", f);
		fputs(",\"dir\":", f);
		if (g->dir)
			hj_json_string(f, g->dir);
		else
			fputs("null", f);
		fprintf(f, ",\"join\":%s}", g->join ? "true" : "false");
	}
	fprintf(f, "]},\"seccomp\":{\"mode\":\"%s\",\"target_mode\":%d,\"target_no_new_privs\":%s,\"filters\":%zu,\"no_new_privs\":%s}",
		part_name(p->seccomp_mode), p->target_seccomp,
		p->target_nnp ? "true" : "false", p->nfilters,
		p->nnp ? "true" : "false");
	fputs(",\"lsm\":{\"active\":", f);
	if (p->lsm[0])
		hj_json_string(f, p->lsm);
	else
		fputs("null", f);
	fprintf(f, ",\"mode\":\"%s\",\"label\":", part_name(p->lsm_mode));
	hj_json_string(f, p->lsm_label);
	fprintf(f, "},\"env\":{\"mode\":\"%s\",\"count\":%zu},\"preserve_fds\":%u",
		part_name(p->env_mode), env_count(p->envp), p->preserve_fds);
	fprintf(f, ",\"pty\":{\"mode\":\"%s\",\"fds\":[%s]}",
		pty_name(p->pty_mode), pty_fd_list(p->pty_fds, buf));
	print_limits_json(p, f);
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

static void print_text(const struct hijack_plan *p, FILE *f)
{
	int i;

	if (p->container)
		(void)hijack_container_print(p->container, false, f);
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
	print_confinement_text(p, f);
}

static void print_json(const struct hijack_plan *p, FILE *f)
{
	int i;

	fputc('{', f);
	if (p->container) {
		fputs("\"container\":", f);
		(void)hijack_container_print(p->container, true, f);
		fputc(',', f);
	}
	fprintf(f, "\"pid\":%d,\"method\":\"%s\",\"fallback\":", (int)p->pid,
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
	hj_json_string(f, p->root);
	fprintf(f, "},\"cwd\":{\"mode\":\"%s\",\"path\":",
		dir_mode_name(p->wd_mode));
	hj_json_string(f, p->wd);
	fputc('}', f);
	print_confinement_json(p, f);
	fputs("}\n", f);
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
