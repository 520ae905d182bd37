// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * explain-text.c - the plan for people (--explain): a line or a few per
 * part, in the order an entry goes through them.
 *
 * Strings are written as they are: making them safe for a terminal is
 * the printing program's part, as the CLI does with put_escaped()
 * (src/cli/main.c).  hijack(1) shows an example under --explain;
 * tests/integration/18-explain.t holds the exact bytes.
 */
#include <sys/capability.h>
#include <sys/resource.h>

#include "explain.h"

/* A string the plan may lack: "-" for none. */
static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

static void print_target(const struct hj_explain *v, FILE *f)
{
	const struct hijack_container *c = v->container;
	int i;

	if (c)
		fprintf(f, "container: %s:%s\nid:      %s\nstate:   %s\ninit:    pid %d\n",
			c->engine, c->name, c->id, c->state, (int)c->pid);
	fprintf(f, "target:  pid %d\n", (int)v->pid);
	fprintf(f, "method:  %s", hijack_method_name(v->method));
	if (v->fallback != HIJACK_METHOD_AUTO)
		fprintf(f, " (falls back to %s)", hijack_method_name(v->fallback));
	if (v->syscall_nr > 0)
		fprintf(f, "; kernel has hijack(2) as syscall %ld\n", v->syscall_nr);
	else
		fputs("; kernel has no hijack(2)\n", f);

	/* Only the inodes: the devices are all nsfs's. */
	fputs("ns       caller         target         action\n", f);
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		const struct hijack_ns_state *s = &v->ns[i];

		fprintf(f, "%-8s %-14llu %-14llu %s\n", hijack_ns_name(i),
			(unsigned long long)s->self_ino,
			(unsigned long long)s->ino, hj_explain_ns_action(s));
	}
}

static void print_dirs(const struct hj_explain *v, FILE *f)
{
	fprintf(f, "root:    %s (%s)\n", v->root, hj_explain_dir_name(v->root_mode));
	fprintf(f, "cwd:     %s (%s)\n", v->wd, hj_explain_dir_name(v->wd_mode));
	if (v->wd_why)
		fprintf(f, "  note:   not the target's, as %s (--wd=target gives it anyway)\n",
			v->wd_why);
}

/* Real/effective/saved ids, then the groups ("-" for none). */
static void print_ids(const struct hijack_creds *c, FILE *f)
{
	size_t i;

	fprintf(f, "uid %u/%u/%u gid %u/%u/%u groups ", c->uid, c->euid,
		c->suid, c->gid, c->egid, c->sgid);
	for (i = 0; i < c->ngroups; i++)
		fprintf(f, "%s%u", i ? "," : "", c->groups[i]);
	if (!c->ngroups)
		fputc('-', f);
}

static void print_caps(const char *who, const struct hijack_caps *c, FILE *f)
{
	fprintf(f, "  %-7s inh %016llx prm %016llx eff %016llx bnd %016llx amb %016llx\n",
		who, c->inh, c->prm, c->eff, c->bnd, c->amb);
}

/* The target's credentials go unsaid: the command's are what counts. */
static void print_creds_caps(const struct hj_explain *v, FILE *f)
{
	fprintf(f, "creds:   %s: ", hj_explain_part_name(v->creds_mode));
	print_ids(v->creds, f);
	fputs(" (caller ", f);
	print_ids(v->caller_creds, f);
	fputs(")\n", f);

	fprintf(f, "caps:    %s\n", hj_explain_part_name(v->caps_mode));
	print_caps("command", v->caps, f);
	print_caps("target", v->target_caps, f);
	if (v->have_caller_caps)
		print_caps("caller", v->caller_caps, f);
	if (v->caps_note[0])
		fprintf(f, "  note:   %s\n", v->caps_note);
	if (v->mark >= 0) {
		char *name = cap_to_name(v->mark);

		fprintf(f, "  mark:   %s, which the container lacks: its processes cannot ptrace this command, freer than the target\n",
			name ? name : "?");
		cap_free(name);
	} else if (v->mark_note) {
		fprintf(f, "  mark:   %s\n", v->mark_note);
	}
	fprintf(f, "  securebits: %s\n", v->securebits_copied ?
		"the target's, copied by hijack(2)" :
		"left at the kernel default: no interface reads another task's");
}

static void print_cgroups(const struct hj_explain *v, FILE *f)
{
	size_t i;

	fprintf(f, "cgroups: %s\n", hj_explain_part_name(v->cgroup_mode));
	for (i = 0; i < v->ncgroups; i++) {
		const struct hijack_cgroup *g = &v->cgroups[i];

		fprintf(f, "  %-20s %s (caller %s) ",
			*g->controllers ? g->controllers : "(v2)",
			or_dash(g->path), or_dash(g->self_path));
		if (g->join)
			fprintf(f, "join %s\n", g->dir ? g->dir :
				"(not mounted here: mounted for hijack alone)");
		else
			fputs(g->dir ? "same\n" : "not mounted here\n", f);
	}
}

static void print_seccomp_lsm(const struct hj_explain *v, FILE *f)
{
	fprintf(f, "seccomp: %s; target mode %d, no_new_privs %s; command gets %zu filter(s)%s, no_new_privs %s\n",
		hj_explain_part_name(v->seccomp_mode), v->target_seccomp,
		v->target_nnp ? "yes" : "no", v->nfilters,
		v->seccomp_mode == HIJACK_FROM_FILE ? " from the policy file" : "",
		v->nnp ? "yes" : "no");

	if (!v->lsm) {
		fputs("lsm:     no AppArmor or SELinux active: nothing to apply\n", f);
		return;
	}
	fprintf(f, "lsm:     %s, %s: %s\n", v->lsm,
		hj_explain_part_name(v->lsm_mode),
		v->lsm_label[0] ? v->lsm_label : "(caller's)");
}

static void print_env_fds(const struct hj_explain *v, FILE *f)
{
	unsigned int fds = v->pty_fds;
	int fd;

	fprintf(f, "env:     %s: %zu variable%s\n",
		hj_explain_part_name(v->env_mode), v->nenv,
		v->nenv == 1 ? "" : "s");
	if (v->env_why)
		fprintf(f, "  note:   not the target's, as %s (--env=target gives it anyway)\n",
			v->env_why);

	fputs("fds:     0-2", f);
	if (v->preserve_fds)
		fprintf(f, " and 3-%u", 2 + v->preserve_fds);
	fputc('\n', f);

	fputs("tty:     ", f);
	if (!fds) {
		/* No new terminal: refused (never), or none needed. */
		fputs(v->pty_mode == HIJACK_PTY_NEVER ?
		      "never: fds 0-2 passed on as they are, a terminal among them too\n" :
		      "auto: fds 0-2 are not terminals, none needed\n", f);
		return;
	}
	fprintf(f, "%s: a new pseudo-terminal from the target's /dev/ptmx on fd%s ",
		hj_explain_pty_name(v->pty_mode), fds & (fds - 1) ? "s" : "");
	for (fd = 0; fd <= 2; fd++)
		if (fds & BIT(fd))
			fprintf(f, "%s%d", fds & (BIT(fd) - 1) ? "," : "", fd);
	fputs(", relayed\n", f);
}

static void print_limit(unsigned long long v, FILE *f)
{
	if (v == (unsigned long long)RLIM_INFINITY)
		fputs("unlimited", f);
	else
		fprintf(f, "%llu", v);
}

/* Only the limits that differ from the caller's. */
static void print_limits(const struct hj_explain *v, FILE *f)
{
	const struct hijack_limits *t = v->limits, *c = v->caller_limits;
	int i, n = 0;

	fprintf(f, "limits:  %s: ", hj_explain_part_name(v->limits_mode));
	if (v->limits_mode != HIJACK_FROM_TARGET) {
		fputs("the caller's resource limits and oom_score_adj\n", f);
		return;
	}
	fprintf(f, "oom_score_adj %d (caller %d)", t->oom_score_adj,
		c->oom_score_adj);
	for (i = 0; i < HIJACK_NRLIMITS; i++) {
		if (!(t->have & BIT(i)))
			continue;
		if ((c->have & BIT(i)) && t->lim[i].cur == c->lim[i].cur &&
		    t->lim[i].max == c->lim[i].max)
			continue;
		fprintf(f, "%s%s ", n++ ? ", " : "; differing: ", hj_rlimit_name(i));
		print_limit(t->lim[i].cur, f);
		fputc('/', f);
		print_limit(t->lim[i].max, f);
	}
	fputs(n ? "\n" : "; every resource limit as the caller's\n", f);
}

int hj_explain_text(const struct hj_explain *v, FILE *f)
{
	print_target(v, f);
	print_dirs(v, f);
	print_creds_caps(v, f);
	print_cgroups(v, f);
	print_seccomp_lsm(v, f);
	print_env_fds(v, f);
	print_limits(v, f);
	return ferror(f) ? -EIO : 0;
}
