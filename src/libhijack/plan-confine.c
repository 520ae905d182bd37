// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * plan-confine.c - the part of hijack_plan_build() that decides what
 * confines the command, read from the target through the modules that
 * later apply it (creds.c, caps.c, cgroup.c, lsm.c, env.c, limits.c,
 * seccomp.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
 * Why a command is not confined as the target is, or NULL when it is: it
 * runs with the target's ids, every part of its confinement is the
 * target's, and it is in every namespace and the root directory of the
 * target.  Only then is the target's environment its default: otherwise
 * the container's LD_PRELOAD, PYTHONPATH or BASH_ENV would run the
 * container's code with what the command has beyond the target (another
 * user, the caller's capabilities, no filter), or, outside the target's
 * mount namespace, load a file of the container's by a host path.
 */
static const char *not_as_target(const struct hijack_plan *p)
{
	int i;

	if (p->creds_mode != HIJACK_FROM_TARGET ||
	    !hj_creds_same(&p->creds, &p->target_creds))
		return "ids other than the target's";
	if (p->caps_mode != HIJACK_FROM_TARGET)
		return "the caller's capabilities";
	if (p->seccomp_mode != HIJACK_FROM_TARGET || p->nnp != p->target_nnp)
		return "a seccomp filter other than the target's";
	if (p->lsm_mode != HIJACK_FROM_TARGET)
		return "the caller's LSM label";
	if (p->cgroup_mode != HIJACK_FROM_TARGET)
		return "the caller's cgroups";
	if (p->limits_mode != HIJACK_FROM_TARGET)
		return "the caller's resource limits";
	if (p->root_mode != HIJACK_DIR_TARGET)
		return "a root directory other than the target's";
	for (i = 0; i < _HIJACK_NS_MAX; i++)
		if (p->ns[i].ino && !p->ns[i].enter &&
		    (p->ns[i].ino != p->ns[i].self_ino ||
		     p->ns[i].dev != p->ns[i].self_dev))
			return "a namespace other than the target's";
	return NULL;
}

static bool opts_env_anyway(const struct hijack_opts *o)
{
	return OPTS_HAVE(o, env_target_anyway) && o->env_target_anyway;
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
	if (p->env_mode == HIJACK_FROM_TARGET && !opts_env_anyway(o)) {
		p->env_why = not_as_target(p);
		if (p->env_why)
			p->env_mode = HIJACK_RESET;
	}
	r = hj_env_plan(t, o, p, d);
	if (r < 0)
		return r;
	r = plan_limits(t, p, d);
	if (r < 0)
		return r;
	/* Last: copying filters stops the target for a moment. */
	return plan_seccomp(t, o, status, p, d);
}
