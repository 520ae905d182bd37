// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * plan-confine.c - the part of hijack_plan_build() that decides what
 * confines the command, read from the target through the modules that
 * later apply it (creds.c, caps.c, cgroup.c, lsm.c, env.c, limits.c,
 * seccomp.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <linux/capability.h>

#include "internal.h"

static int copy_creds(const struct hijack_creds *from, struct hijack_creds *to)
{
	*to = *from;
	to->groups = NULL;
	if (from->ngroups) {
		to->groups = malloc(from->ngroups * sizeof(gid_t));
		if (!to->groups)
			return -ENOMEM;
		memcpy(to->groups, from->groups, from->ngroups * sizeof(gid_t));
	}
	return 0;
}

static int plan_creds(const struct hijack_target *t,
		      const struct hijack_opts *o, const char *status,
		      struct hijack_plan *p, struct hijack_diag *d)
{
	int r;

	r = hj_creds_read(t, status, p->ns[HIJACK_NS_USER].enter,
			  &p->target_creds, d);
	if (r < 0)
		return r;
	if (o->creds != HIJACK_FROM_TARGET) {
		p->creds.uid = p->creds.suid = p->creds.fsuid = getuid();
		p->creds.euid = geteuid();
		p->creds.gid = p->creds.sgid = p->creds.fsgid = getgid();
		p->creds.egid = getegid();
		return 0;
	}
	if (copy_creds(&p->target_creds, &p->creds) < 0)
		return hj_diag_set(d, HIJACK_STEP_CREDS, ENOMEM, "groups");
	return hj_creds_override(t, o->user, o->group, &p->creds, d);
}

static int plan_caps(const struct hijack_target *t, struct hijack_plan *p,
		     struct hijack_diag *d)
{
	bool root;
	int r;

	r = hj_caps_read(t->pid, &p->target_caps, d);
	if (r < 0)
		return r;
	if (p->caps_mode != HIJACK_FROM_TARGET)
		return hj_caps_read(0, &p->caps, d);
	/* Root in the namespace the command will run in: see caps.c. */
	root = p->creds.uid == 0 || p->creds.euid == 0;
	/* Entering a user namespace gives full capabilities. */
	if (p->creds_mode == HIJACK_KEEP && p->ns[HIJACK_NS_USER].enter)
		root = true;
	hj_caps_plan(&p->target_caps, root, p->nnp, &p->caps, p->caps_note,
		     sizeof(p->caps_note));
	return 0;
}

static int plan_limits(const struct hijack_target *t, struct hijack_plan *p,
		       struct hijack_diag *d)
{
	if (p->limits_mode != HIJACK_FROM_TARGET)
		return 0;
	return hj_limits_read(t, &p->limits, d);
}

static int plan_seccomp(const struct hijack_target *t,
			const struct hijack_opts *o, const char *status,
			struct hijack_plan *p, struct hijack_diag *d)
{
	int r;

	if (o->seccomp == HIJACK_FROM_FILE) {
		p->seccomp_file = strdup(o->seccomp_file);
		if (!p->seccomp_file)
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, ENOMEM, "%s",
					   o->seccomp_file);
		r = hj_seccomp_plan_file(o->seccomp_file, p, d);
		if (r < 0)
			return r;
		/* The target's status is still wanted for --explain. */
	}
	return hj_seccomp_plan_target(t, status, p, d);
}

/*
 * The value of @type in the auxiliary vector @raw of @len bytes, made of
 * pairs of @word-byte words (a 32-bit task's are 4 bytes), or -1.
 */
static long long auxv_value(const char *raw, size_t len, size_t word,
			    unsigned long type)
{
	unsigned long long k, v;
	uint32_t k32, v32;
	size_t i;

	for (i = 0; i + 2 * word <= len; i += 2 * word) {
		if (word == 4) {
			memcpy(&k32, raw + i, 4);
			memcpy(&v32, raw + i + 4, 4);
			k = k32, v = v32;
		} else {
			memcpy(&k, raw + i, 8);
			memcpy(&v, raw + i + 8, 8);
		}
		if (k == AT_NULL)
			break;
		if (k == type)
			return (long long)v;
	}
	return -1;
}

/*
 * Whether the target's environment is its own: false when its exec was a
 * secure one (a setuid or setgid program, or one with file capabilities:
 * AT_SECURE), or its real, effective and saved ids differ.  Such a program
 * keeps what its caller chose out of its own way (the loader drops LD_*
 * for it), but PYTHONPATH, BASH_ENV or PATH would still be its caller's
 * for a command given them.  What cannot be read counts as not its own.
 */
static bool env_own(const struct hijack_target *t, const struct hijack_plan *p)
{
	const struct hijack_creds *c = &p->target_creds;
	_cleanup_free_ char *raw = NULL;
	size_t len = 0, word = sizeof(unsigned long);
	long long secure;

	if (c->uid != c->euid || c->uid != c->suid || c->uid != c->fsuid ||
	    c->gid != c->egid || c->gid != c->sgid || c->gid != c->fsgid)
		return false;
	if (hj_proc_read(t, "auxv", &raw, &len) < 0)
		return false;
	/* A page size where the native words have none: a 32-bit task. */
	if (auxv_value(raw, len, word, AT_PAGESZ) <= 0)
		word = 4;
	if (auxv_value(raw, len, word, AT_PAGESZ) <= 0)
		return false;
	secure = auxv_value(raw, len, word, AT_SECURE);
	return secure == 0;
}

/*
 * Why the command is freer than the target in what the kernel's ptrace
 * check does not look at (it compares ids, capabilities, dumpability and
 * the LSM label): another filter, the caller's LSM label, cgroups, limits
 * or fds, another root, a namespace of the target left out.  NULL: none.
 */
static const char *freer_in_confinement(const struct hijack_plan *p)
{
	int i;

	if (p->seccomp_mode != HIJACK_FROM_TARGET || p->nnp != p->target_nnp)
		return "the command has a seccomp filter other than the target's";
	if (p->lsm_mode != HIJACK_FROM_TARGET)
		return "the command keeps the caller's LSM label";
	if (p->cgroup_mode != HIJACK_FROM_TARGET)
		return "the command stays in the caller's cgroups";
	if (p->limits_mode != HIJACK_FROM_TARGET)
		return "the command keeps the caller's resource limits";
	if (p->preserve_fds)
		return "the command gets file descriptors of the caller's";
	if (p->root_mode != HIJACK_DIR_TARGET)
		return "the command has a root directory other than the target's";
	for (i = 0; i < _HIJACK_NS_MAX; i++)
		if (p->ns[i].ino && !p->ns[i].enter &&
		    (p->ns[i].ino != p->ns[i].self_ino ||
		     p->ns[i].dev != p->ns[i].self_dev))
			return "the command stays outside a namespace of the target";
	return NULL;
}

/*
 * Why the command is freer than the target, or NULL when it is not: it
 * runs with the target's ids and capabilities, the rest of its
 * confinement is the target's (freer_in_confinement()), and the target's
 * environment is its own.  Only then are the target's environment and
 * working directory its defaults: otherwise the container's LD_PRELOAD,
 * PYTHONPATH or BASH_ENV, or the modules and configuration files a
 * program finds in its working directory (Python's sys.path starts
 * there), would run the container's code with what the command has beyond
 * the target, or, outside the target's mount namespace, load a file of the
 * container's by a host path.
 */
static const char *freer_than_target(const struct hijack_target *t,
				     const struct hijack_plan *p)
{
	const char *why;

	if (p->creds_mode != HIJACK_FROM_TARGET ||
	    !hj_creds_same(&p->creds, &p->target_creds))
		return "the command runs with ids other than the target's";
	if (p->caps_mode != HIJACK_FROM_TARGET)
		return "the command keeps the caller's capabilities";
	why = freer_in_confinement(p);
	if (why)
		return why;
	if (!env_own(t, p))
		return "the target runs a setuid or setgid program, whose environment and working directory its caller chose";
	return NULL;
}

/*
 * Whether the container sees the command, in its PID namespace, while the
 * command is freer than the target where the ptrace check does not look.
 * Once executed, such a command is as dumpable as the container's own
 * processes: one with its uid could ptrace it and run code outside the
 * target's filter, namespaces or cgroups.
 */
static bool reachable_and_freer(const struct hijack_plan *p)
{
	const struct hijack_ns_state *pid = &p->ns[HIJACK_NS_PID];

	if (!pid->enter && pid->ino && pid->ino != pid->self_ino)
		return false;
	return freer_in_confinement(p) != NULL;
}

/*
 * The mark: beside the target's capabilities, one the container does not
 * hold (CAP_WAKE_ALARM, or CAP_BLOCK_SUSPEND when it holds that one), in
 * every set, ambient too, so that it survives the command's exec.  The
 * ptrace check lets a process without CAP_SYS_PTRACE reach another only
 * if the other's permitted set is a subset of its own: no process of the
 * container passes it.  The price is that capability, which wakes the
 * machine from suspend; --tools marks its command the same way (tools.c).
 * A container that holds CAP_SYS_PTRACE, or both marks, passes anyway:
 * nothing is marked, and --explain says so.
 */
static void plan_mark(struct hijack_plan *p)
{
	unsigned long long bnd = p->target_caps.bnd, bit;

	p->mark = -1;
	if (p->caps_mode != HIJACK_FROM_TARGET || !reachable_and_freer(p))
		return;
	if (bnd & (1ULL << CAP_SYS_PTRACE)) {
		p->mark_note = "none: the container holds CAP_SYS_PTRACE, and may ptrace the command whatever it holds";
		return;
	}
	if (!(bnd & (1ULL << CAP_WAKE_ALARM)))
		p->mark = CAP_WAKE_ALARM;
	else if (!(bnd & (1ULL << CAP_BLOCK_SUSPEND)))
		p->mark = CAP_BLOCK_SUSPEND;
	if (p->mark < 0) {
		p->mark_note = "none: the container holds CAP_WAKE_ALARM and CAP_BLOCK_SUSPEND";
		return;
	}
	bit = 1ULL << p->mark;
	p->caps.bnd |= bit;
	p->caps.inh |= bit;
	p->caps.prm |= bit;
	p->caps.eff |= bit;
	p->caps.amb |= bit;
}

static bool opts_anyway(const struct hijack_opts *o, enum hijack_part part)
{
	return OPTS_HAVE(o, target_anyway) &&
	       (o->target_anyway & HIJACK_PART_BIT(part));
}

/*
 * For a command freer than the target: the reset environment and "/"
 * (in the new root) as the working directory, unless the caller asked for
 * the target's by name.  Before the environment is read, and before the
 * method is chosen, which depends on the working directory.
 */
static int plan_freer(const struct hijack_target *t,
		      const struct hijack_opts *o, struct hijack_plan *p,
		      struct hijack_diag *d)
{
	bool env = p->env_mode == HIJACK_FROM_TARGET &&
		   !opts_anyway(o, HIJACK_PART_ENV);
	bool wd = p->wd_mode == HIJACK_DIR_TARGET &&
		  !opts_anyway(o, HIJACK_PART_WD);
	const char *why;
	char *root;

	if (!env && !wd)
		return 0;
	why = freer_than_target(t, p);
	if (!why)
		return 0;
	if (env) {
		p->env_mode = HIJACK_RESET;
		p->env_why = why;
	}
	if (wd) {
		root = strdup("/");
		if (!root)
			return hj_diag_set(d, HIJACK_STEP_CWD, ENOMEM, "/");
		free(p->wd);
		p->wd = root;
		p->wd_mode = HIJACK_DIR_PATH;
		p->wd_why = why;
	}
	return 0;
}

/*
 * Everything that confines the command: credentials, capabilities,
 * cgroups, LSM label, environment, resource limits, no_new_privs and
 * seccomp, one function each, in this order.  Read now, from the host,
 * and applied in the child in the order spawn-child.c explains.  The
 * modes of the request are in @p already (plan_modes() in plan.c).
 */
int hj_plan_confinement(const struct hijack_target *t,
			const struct hijack_opts *o, const char *status,
			struct hijack_plan *p, struct hijack_diag *d)
{
	int r;

	r = plan_creds(t, o, status, p, d);
	if (r < 0)
		return r;
	r = plan_caps(t, p, d);
	if (r < 0)
		return r;
	r = hj_cgroup_plan(t, p, d);
	if (r < 0)
		return r;
	r = hj_lsm_plan(t, p, d);
	if (r < 0)
		return r;
	r = plan_freer(t, o, p, d);
	if (r < 0)
		return r;
	plan_mark(p);
	r = hj_env_plan(t, o, p, d);
	if (r < 0)
		return r;
	r = plan_limits(t, p, d);
	if (r < 0)
		return r;
	/* Last: copying filters stops the target for a moment. */
	return plan_seccomp(t, o, status, p, d);
}
