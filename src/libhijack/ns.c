// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ns.c - namespace types, their names, and the two ways of entering them.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

/*
 * The table order is the order of entry by the nsfd method.  The user
 * namespace heads it because entering it first is what gives a caller
 * privilege over the others when the target's user namespace is a child of
 * the caller's (an unprivileged container); when it takes privilege away
 * (a root caller entering a container with a mapped-down root), it has to
 * come last instead, and hj_ns_enter_fds() handles both.  The mount
 * namespace comes late so that path-based work before it still sees the
 * caller's mounts; the time namespace last, as it only affects children.
 */
const struct hj_ns_info hj_ns_info[_HIJACK_NS_MAX] = {
	[HIJACK_NS_USER]   = { "user",   CLONE_NEWUSER },
	[HIJACK_NS_CGROUP] = { "cgroup", CLONE_NEWCGROUP },
	[HIJACK_NS_IPC]    = { "ipc",    CLONE_NEWIPC },
	[HIJACK_NS_UTS]    = { "uts",    CLONE_NEWUTS },
	[HIJACK_NS_NET]    = { "net",    CLONE_NEWNET },
	[HIJACK_NS_PID]    = { "pid",    CLONE_NEWPID },
	[HIJACK_NS_MNT]    = { "mnt",    CLONE_NEWNS },
	[HIJACK_NS_TIME]   = { "time",   CLONE_NEWTIME },
};

/* Never NULL: callers put the name straight into a message. */
HIJACK_EXPORT const char *hijack_ns_name(enum hijack_ns ns)
{
	if ((unsigned int)ns >= _HIJACK_NS_MAX)
		return "unknown";
	return hj_ns_info[ns].name;
}

static int ns_from_name_len(const char *name, size_t len)
{
	size_t i;

	/* "mount" is nsenter's long option name for the mnt type. */
	if (len == 5 && strncmp(name, "mount", 5) == 0)
		return HIJACK_NS_MNT;
	for (i = 0; i < ARRAY_SIZE(hj_ns_info); i++)
		if (strlen(hj_ns_info[i].name) == len &&
		    strncmp(hj_ns_info[i].name, name, len) == 0)
			return (int)i;
	return -EINVAL;
}

int hj_ns_from_name(const char *name)
{
	return ns_from_name_len(name, strlen(name));
}

HIJACK_EXPORT int hijack_ns_parse_list(const char *list,
				       unsigned int *ret_mask,
				       const char **reterr_bad,
				       size_t *reterr_len)
{
	unsigned int mask = 0;
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");
		int t;

		if (len == 3 && strncmp(p, "all", 3) == 0) {
			mask |= HIJACK_NS_ALL;
		} else {
			t = ns_from_name_len(p, len);
			if (t < 0) {
				if (reterr_bad)
					*reterr_bad = p;
				if (reterr_len)
					*reterr_len = len;
				return -EINVAL;
			}
			mask |= HIJACK_NS_BIT(t);
		}
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	*ret_mask = mask;
	return 0;
}

int hj_ns_stat(int dirfd, enum hijack_ns ns, struct stat *ret)
{
	char path[16];

	(void)snprintf(path, sizeof(path), "ns/%s", hj_ns_info[ns].name);
	if (fstatat(dirfd, path, ret, 0) < 0)
		return -errno;
	return 0;
}

/*
 * The inode of a namespace, from the "type:[inode]" its link reads as
 * (namespaces(7)).  readlink() is the cheaper look: stat() of an nsfs file
 * goes through a dentry lookup the link text does not need, and the plan
 * looks at sixteen of them.  All namespaces live on the one nsfs, so the
 * device is taken once, by the caller, with stat().
 */
int hj_ns_ino(int dirfd, enum hijack_ns ns, ino_t *ret)
{
	char path[16], link[64], *end;
	const char *name = hj_ns_info[ns].name;
	unsigned long long ino;
	size_t nlen = strlen(name);
	ssize_t n;

	(void)snprintf(path, sizeof(path), "ns/%s", name);
	n = readlinkat(dirfd, path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	if (strncmp(link, name, nlen) != 0 || strncmp(link + nlen, ":[", 2) != 0)
		return -EBADMSG;
	errno = 0;
	ino = strtoull(link + nlen + 2, &end, 10);
	if (errno || *end != ']')
		return -EBADMSG;
	*ret = (ino_t)ino;
	return 0;
}

int hj_ns_mask_to_clone(unsigned int mask)
{
	int flags = 0;
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++)
		if (mask & HIJACK_NS_BIT(i))
			flags |= hj_ns_info[i].clone_flag;
	return flags;
}

/* The first type in @mask, for naming it in a message. */
static const char *first_name(unsigned int mask)
{
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++)
		if (mask & HIJACK_NS_BIT(i))
			return hj_ns_info[i].name;
	return "none";
}

/*
 * One setns() on the pidfd enters every type of @mask at once, and the
 * kernel orders the user namespace itself: it either all happens or none
 * of it, so a failure leaves the caller where it was.
 */
int hj_ns_enter_pidfd(int pidfd, unsigned int mask, pid_t pid,
		      struct hijack_diag *d)
{
	if (!mask)
		return 0;
	if (setns(pidfd, hj_ns_mask_to_clone(mask)) < 0)
		return hj_diag_set(d, HIJACK_STEP_SETNS, errno,
				   "setns pidfd of pid %d (%s%s)", (int)pid,
				   first_name(mask),
				   (mask & (mask - 1)) ? ",..." : "");
	return 0;
}

int hj_ns_open_fds(const struct hijack_target *t, unsigned int mask,
		   int fds[_HIJACK_NS_MAX], struct hijack_diag *d)
{
	char path[16];
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		if (!(mask & HIJACK_NS_BIT(i)) || fds[i] >= 0)
			continue;
		(void)snprintf(path, sizeof(path), "ns/%s", hj_ns_info[i].name);
		fds[i] = openat(t->procfd, path, O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, errno,
					   "/proc/%d/%s", (int)t->pid, path);
	}
	return hj_target_check(t, d);
}

/*
 * One setns() per namespace file.  A root caller entering a user namespace
 * that maps its root down must enter every other type while it still has
 * its privilege, and the user namespace last; an unprivileged caller
 * entering its own user-namespace container has no privilege over the other
 * types until it has entered the user namespace, so that must come first.
 * Which case applies is learned by trying: first every type but user,
 * tolerating EPERM; then user; then whatever was refused, now fatally.
 */
int hj_ns_enter_fds(const int fds[_HIJACK_NS_MAX], unsigned int mask,
		    pid_t pid, struct hijack_diag *d)
{
	unsigned int todo = mask & ~HIJACK_NS_BIT(HIJACK_NS_USER);
	unsigned int refused = 0;
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		if (!(todo & HIJACK_NS_BIT(i)))
			continue;
		if (setns(fds[i], hj_ns_info[i].clone_flag) == 0)
			continue;
		if (errno != EPERM || !(mask & HIJACK_NS_BIT(HIJACK_NS_USER)))
			goto fail;
		refused |= HIJACK_NS_BIT(i);
	}

	if (mask & HIJACK_NS_BIT(HIJACK_NS_USER)) {
		i = HIJACK_NS_USER;
		if (setns(fds[i], CLONE_NEWUSER) < 0)
			goto fail;
	}

	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		if (!(refused & HIJACK_NS_BIT(i)))
			continue;
		if (setns(fds[i], hj_ns_info[i].clone_flag) < 0)
			goto fail;
	}
	return 0;
fail:
	return hj_diag_set(d, HIJACK_STEP_SETNS, errno,
			   "setns %s of pid %d", hj_ns_info[i].name, (int)pid);
}
