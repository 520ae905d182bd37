// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syscall.c - find and call the hijack(2) system call of kernel-patch/,
 * safely.
 *
 * The patch is not upstream, so its number is reserved nowhere but in the
 * patch.  It is 500: past every number mainline had given out when it was
 * chosen (they were in the 460s), with room for the calls still to come,
 * so that no kernel we know of runs another system call for it.  No
 * kernel promised that: mainline may get there one day, another patched
 * kernel may have taken it, and other kernels answer ENOSYS.  So the
 * number (__NR_hijack from the kernel headers when they have it, else the
 * patch's) is still used only after probing it with calls that cannot do
 * anything on any kernel (see hj_syscall_nr()).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/sched.h>

#include "internal.h"

/* Every argument register set: syscall() would pass stale ones otherwise. */
static long raw_hijack(int pidfd, unsigned int ns_mask, unsigned int flags,
		       const void *args, size_t size)
{
	return syscall(__NR_hijack, (long)pidfd, (unsigned long)ns_mask,
		       (unsigned long)flags, args, size, 0L);
}

/*
 * The probe.  No call names a process or a file (the pidfd is -1, no
 * descriptor), and the only memory passed is our own scratch buffer:
 * whatever system call a kernel gives the number to, it can only fail or
 * act on that buffer.
 * hijack(2) checks its arguments in a fixed order, so three invalid calls
 * each get an answer of their own, and the next call is made only if the
 * previous one answered as hijack(2) does:
 *   (-1, 0, 0, NULL, 0)          EBADF:  nothing wrong but the pidfd
 *   (-1, 0, 1 << 31, NULL, 0)    EINVAL: an unknown flag, checked before
 *                                        the pidfd is looked at
 *   (-1, 0, 0, buf, 32), byte 24 E2BIG:  a field this kernel does not
 *                                        know, checked first of all
 * ENOSYS, or any other answer, is a kernel without hijack(2).
 */
long hj_syscall_nr(void)
{
	struct {
		struct hj_hijack_args args;
		uint64_t tail;
	} buf;

	/* An architecture the patch does not wire up. */
	if (__NR_hijack < 0)
		return -ENOSYS;

	errno = 0;
	if (raw_hijack(-1, 0, 0, NULL, 0) != -1 || errno != EBADF)
		return -ENOSYS;

	errno = 0;
	if (raw_hijack(-1, 0, 0x80000000u, NULL, 0) != -1 || errno != EINVAL)
		return -ENOSYS;

	memset(&buf, 0, sizeof(buf));
	buf.tail = 1;
	errno = 0;
	if (raw_hijack(-1, 0, 0, &buf, sizeof(buf)) != -1 || errno != E2BIG)
		return -ENOSYS;
	return __NR_hijack;
}

static bool same_ns(const struct hijack_plan *plan, enum hijack_ns t)
{
	return plan->ns[t].ino == plan->ns[t].self_ino &&
	       plan->ns[t].dev == plan->ns[t].self_dev;
}

/*
 * The CLONE_NEW* mask of the namespaces @plan enters.  The plan's mask
 * never holds a namespace the caller is in already (plan_namespaces()):
 * hijack(2), as setns(2), refuses the caller's own user namespace with
 * EINVAL.  The one exception is made here, and is one the kernel accepts:
 * it gives the target's root only with its mount namespace, and when that
 * is ours, entering it changes nothing but the root and cwd, which the
 * target's then replace.
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
 * A v2 cgroup of the target's to join, which hijack(2) can start the
 * child in (HIJACK_INTO_CGROUP).  The version 1 hierarchies the kernel
 * leaves alone: the child joins those itself, as with the other methods.
 */
static bool joins_v2(const struct hijack_plan *plan)
{
	size_t i;

	if (plan->cgroup_mode != HIJACK_FROM_TARGET)
		return false;
	for (i = 0; i < plan->ncgroups; i++)
		if (plan->cgroups[i].join && !*plan->cgroups[i].controllers)
			return true;
	return false;
}

/*
 * The flags that carry out @plan's kernel part with one call, or
 * -EOPNOTSUPP when the call cannot: the kernel gives the target's root and
 * cwd only with its mount namespace, and the mount namespace only with the
 * root of that namespace or the target's.  Credentials are taken whole
 * (ids, capabilities, securebits, LSM label) only when the plan wants
 * exactly the target's; otherwise the child sets them itself, as with the
 * other methods.  The cgroup v2 is the one hj_cgroup_open() opens, passed
 * as clone3()'s CLONE_INTO_CGROUP would pass it.
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
	if (joins_v2(plan))
		flags |= HIJACK_INTO_CGROUP;
	if (plan->creds_mode == HIJACK_FROM_TARGET &&
	    plan->caps_mode == HIJACK_FROM_TARGET &&
	    plan->lsm_mode == HIJACK_FROM_TARGET &&
	    memcmp(&plan->caps, &plan->target_caps, sizeof(plan->caps)) == 0 &&
	    hj_creds_same(&plan->creds, &plan->target_creds))
		flags |= HIJACK_TAKE_CRED;
	if (!flags)
		return -EOPNOTSUPP;
	return (int)flags;
}

/*
 * hijack(2) for @plan on the target @pidfd: like fork(), the child's pid in
 * the caller, 0 in the child, -1 with errno on failure.  The flags are the
 * plan's (hijack_plan_build() decided them with hj_syscall_flags());
 * @cgroupfd is the target's cgroup v2 directory for HIJACK_INTO_CGROUP.
 */
long hj_syscall_hijack(const struct hijack_plan *plan, int pidfd, int cgroupfd)
{
	unsigned int flags = plan->syscall_flags & ~HJ_SYSCALL_NS;
	struct hj_hijack_args args = {
		.exit_signal = SIGCHLD,
	};

	if (!plan->syscall_flags) {
		errno = EOPNOTSUPP;
		return -1;
	}
	/* Only the number hj_syscall_nr() probed. */
	if (plan->syscall_nr <= 0 || plan->syscall_nr != __NR_hijack) {
		errno = ENOSYS;
		return -1;
	}
	if (flags & HIJACK_INTO_CGROUP) {
		if (cgroupfd < 0) {
			errno = EBADF;
			return -1;
		}
		args.cgroup = (uint64_t)cgroupfd;
	}
	return syscall(__NR_hijack, (long)pidfd,
		       (unsigned long)hj_syscall_ns_mask(plan),
		       (unsigned long)flags, &args, sizeof(args), 0L);
}
