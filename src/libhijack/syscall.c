// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syscall.c - find the hijack(2) system call of kernel-patch/, safely.
 *
 * The patch is not upstream, so its number is not reserved: an unpatched
 * kernel may return ENOSYS for it today and a newer one may give the same
 * number to an unrelated call tomorrow.  Calling a guessed number could do
 * anything, so the number is taken only from the file the patched kernel
 * publishes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define HIJACK_SYSCALL_FILE "/sys/kernel/hijack/syscall_nr"


HIJACK_EXPORT long hijack_syscall_nr(void)
{
	_cleanup_close_ int fd = -EBADF;
	char buf[32], *end;
	ssize_t n;
	long nr;

	fd = open(HIJACK_SYSCALL_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENOSYS : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	errno = 0;
	nr = strtol(buf, &end, 10);
	if (errno || end == buf || (*end != '\n' && *end != '\0') || nr <= 0)
		return -EBADMSG;
	return nr;
}

static bool same_creds(const struct hijack_creds *a,
		       const struct hijack_creds *b)
{
	return a->uid == b->uid && a->euid == b->euid && a->suid == b->suid &&
	       a->fsuid == b->fsuid && a->gid == b->gid && a->egid == b->egid &&
	       a->sgid == b->sgid && a->fsgid == b->fsgid &&
	       a->ngroups == b->ngroups &&
	       (!a->ngroups ||
		memcmp(a->groups, b->groups, a->ngroups * sizeof(gid_t)) == 0);
}

/*
 * The flags that carry out @plan's kernel part with one call, or
 * -EOPNOTSUPP when the call cannot: it takes every namespace of the target
 * or none, and the root and working directory together.  Credentials are
 * taken whole (ids, capabilities, securebits, LSM label) only when the plan
 * wants exactly the target's; otherwise the child sets them itself, as with
 * the other methods.
 */
int hj_syscall_flags(const struct hijack_plan *plan)
{
	unsigned int differing = 0, flags = 0;
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++)
		if (plan->ns[i].ino && (plan->ns[i].ino != plan->ns[i].self_ino ||
					plan->ns[i].dev != plan->ns[i].self_dev))
			differing |= HIJACK_NS_BIT(i);
	if (plan->ns_mask) {
		if (plan->ns_mask != differing)
			return -EOPNOTSUPP;
		flags |= HIJACK_TAKE_NS;
	}
	if (plan->root_mode == HIJACK_DIR_TARGET)
		flags |= HIJACK_TAKE_FS;
	else if (plan->ns_mask & HIJACK_NS_BIT(HIJACK_NS_MNT))
		/* The caller's root would point into another mount table. */
		return -EOPNOTSUPP;
	if (plan->cgroup_mode == HIJACK_FROM_TARGET)
		flags |= HIJACK_TAKE_CGROUP;
	if (plan->creds_mode == HIJACK_FROM_TARGET &&
	    plan->caps_mode == HIJACK_FROM_TARGET &&
	    plan->lsm_mode == HIJACK_FROM_TARGET &&
	    memcmp(&plan->caps, &plan->target_caps, sizeof(plan->caps)) == 0 &&
	    same_creds(&plan->creds, &plan->target_creds))
		flags |= HIJACK_TAKE_CRED;
	if (!flags)
		return -EOPNOTSUPP;
	return (int)flags;
}
