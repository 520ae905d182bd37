// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syscall.c - find and call the hijack(2) system call of kernel-patch/,
 * safely.
 *
 * The patch is not upstream, so its number is reserved nowhere but in the
 * patch: other kernels may answer ENOSYS for it, or give it to another
 * system call (Linux 6.13 gave 463 to setxattrat()).  The number is
 * __NR_hijack from the kernel headers when they have it, else the one the
 * patch's tables give this architecture; and it is used only after probing
 * it with calls that cannot do anything on any kernel (see
 * hijack_syscall_nr()).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/sched.h>

#include "internal.h"

/* Every argument register set: syscall() would pass stale ones otherwise. */
static long raw_hijack(const void *args, size_t size)
{
	return syscall(__NR_hijack, args, size, 0L, 0L, 0L, 0L);
}

/*
 * The probe.  Each call passes a pointer to our own scratch buffer (or NULL)
 * and a size, every other register zero, and none names a file, a process or
 * a resource of ours: whatever system call owns the number, it can only fail
 * or act on that buffer.  hijack(2) answers three invalid calls in its own
 * way, and the next call is made only if the previous one answered as
 * hijack(2) does:
 *   (NULL, 0)                 EINVAL: shorter than the first version
 *   (args, 40) target INT_MAX EBADF:  no such pidfd (nothing else wrong)
 *   (args, 48) tail byte set  E2BIG:  a field this kernel does not know
 * setxattrat(), 463 since Linux 6.13, answers EINVAL to the second call
 * (its size argument, the third register, is 0), so the probe stops there.
 */
HIJACK_EXPORT long hijack_syscall_nr(void)
{
	struct {
		struct hj_hijack_args args;
		uint64_t tail;
	} buf;

	errno = 0;
	if (raw_hijack(NULL, 0) != -1 || errno != EINVAL)
		return -ENOSYS;

	memset(&buf, 0, sizeof(buf));
	buf.args.target = INT_MAX;
	if (raw_hijack(&buf.args, sizeof(buf.args)) != -1 || errno != EBADF)
		return -ENOSYS;

	memset(&buf, 0, sizeof(buf));
	buf.tail = 1;
	if (raw_hijack(&buf, sizeof(buf)) != -1 || errno != E2BIG)
		return -ENOSYS;
	return __NR_hijack;
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

static bool same_ns(const struct hijack_plan *plan, enum hijack_ns t)
{
	return plan->ns[t].ino == plan->ns[t].self_ino &&
	       plan->ns[t].dev == plan->ns[t].self_dev;
}

/*
 * The CLONE_NEW* mask of the namespaces @plan enters.  The kernel gives
 * the target's root only with its mount namespace: when that is ours,
 * entering it changes nothing but the root and cwd, which the target's
 * then replace.
 */
unsigned long hj_syscall_ns_mask(const struct hijack_plan *plan)
{
	unsigned long mask = (unsigned int)hj_ns_mask_to_clone(plan->ns_mask);

	if (plan->root_mode == HIJACK_DIR_TARGET && plan->ns[HIJACK_NS_MNT].ino &&
	    same_ns(plan, HIJACK_NS_MNT))
		mask |= CLONE_NEWNS;
	return mask;
}

/*
 * The flags that carry out @plan's kernel part with one call, or
 * -EOPNOTSUPP when the call cannot: the kernel gives the target's root and
 * cwd only with its mount namespace, and the mount namespace only with the
 * root of that namespace or the target's.  Credentials are taken whole
 * (ids, capabilities, securebits, LSM label) only when the plan wants
 * exactly the target's; otherwise the child sets them itself, as with the
 * other methods.
 */
int hj_syscall_flags(const struct hijack_plan *plan)
{
	unsigned long ns = hj_syscall_ns_mask(plan);
	unsigned int flags = 0;

	if (ns)
		flags |= HJ_SYSCALL_NS;
	if (plan->root_mode == HIJACK_DIR_TARGET) {
		if (!(ns & CLONE_NEWNS))
			return -EOPNOTSUPP;
		flags |= HIJACK_TAKE_FS;
	} else if (ns & CLONE_NEWNS) {
		/* The caller's root would point into another mount table. */
		return -EOPNOTSUPP;
	}
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

/*
 * hijack(2) for @plan on the target @pidfd: like fork(), the child's pid in
 * the caller, 0 in the child, -1 with errno on failure.  The flags are the
 * plan's (hijack_plan_build() decided them with hj_syscall_flags()).
 */
long hj_syscall_hijack(const struct hijack_plan *plan, int pidfd)
{
	struct hj_hijack_args args = {
		.target = (uint64_t)pidfd,
		.ns_mask = hj_syscall_ns_mask(plan),
		.flags = plan->syscall_flags & ~HJ_SYSCALL_NS,
		.exit_signal = SIGCHLD,
	};

	if (!plan->syscall_flags) {
		errno = EOPNOTSUPP;
		return -1;
	}
	/* Only the number hijack_syscall_nr() probed. */
	if (plan->syscall_nr != __NR_hijack) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_hijack, &args, sizeof(args), 0L, 0L, 0L, 0L);
}
