// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lsm.c - the target's LSM label (AppArmor profile or SELinux context),
 * applied to the command at exec through /proc/self/attr/exec.
 *
 * The label is written to attr/exec, not attr/current: it takes effect at
 * the exec itself, so nothing of hijack's own code runs confined by a
 * profile that might forbid what it still has to do.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Which LSM labels tasks here: "apparmor", "selinux", or "" for none. */
static void active_lsm(char *buf, size_t size)
{
	char list[256] = "", enabled[2] = "";

	buf[0] = '\0';
	(void)hj_read_line("/sys/kernel/security/lsm", list, sizeof(list));
	if (strstr(list, "selinux") || access("/sys/fs/selinux/enforce", F_OK) == 0)
		(void)snprintf(buf, size, "selinux");
	else if (strstr(list, "apparmor"))
		(void)snprintf(buf, size, "apparmor");
	else if (hj_read_line("/sys/module/apparmor/parameters/enabled",
			      enabled, sizeof(enabled)) == 0 &&
		 enabled[0] == 'Y')
		(void)snprintf(buf, size, "apparmor");
}

int hj_lsm_plan(const struct hijack_target *t, struct hijack_plan *p,
		struct hijack_diag *d)
{
	_cleanup_free_ char *label = NULL;
	size_t len;
	int r;

	active_lsm(p->lsm, sizeof(p->lsm));
	if (!p->lsm[0] || p->lsm_mode != HIJACK_FROM_TARGET)
		return 0;
	r = hj_proc_read(t, "attr/current", &label, &len);
	if (r < 0)
		return hj_proc_fail(d, HIJACK_STEP_LSM, t->pid, "attr/current",
				    r);
	label[strcspn(label, "\n")] = '\0';
	/* AppArmor shows the mode after the profile: "name (enforce)". */
	if (strcmp(p->lsm, "apparmor") == 0) {
		char *mode = strstr(label, " (");

		if (mode)
			*mode = '\0';
	}
	if (strlen(label) >= sizeof(p->lsm_label))
		return hj_diag_set(d, HIJACK_STEP_LSM, ENAMETOOLONG,
				   "label of pid %d", (int)t->pid);
	(void)strcpy(p->lsm_label, label);
	return 0;
}

/*
 * Whether the command gets a label at its exec: not when labels are kept,
 * when no LSM labels tasks, or when the target's label is none at all.
 */
bool hj_lsm_wanted(const struct hijack_plan *p)
{
	return p->lsm_mode == HIJACK_FROM_TARGET && p->lsm[0] &&
	       p->lsm_label[0] && strcmp(p->lsm_label, "unconfined") != 0;
}

/*
 * Set the label for the exec, in the command's process itself (a task
 * writes only its own attr/exec), through @procdir: the /proc of hijack's
 * pid namespace, opened on the host (spawn-prepare.c), as the target's
 * mount namespace may have no /proc, or one the container mounted.
 */
int hj_lsm_apply(const struct hijack_plan *p, int procdir,
		 struct hijack_diag *d)
{
	char buf[sizeof("exec ") + sizeof(p->lsm_label)];
	_cleanup_close_ int fd = -EBADF;
	int n;

	fd = openat(procdir, "thread-self/attr/exec", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return hj_diag_set(d, HIJACK_STEP_LSM, errno, "/proc/thread-self/attr/exec");
	if (strcmp(p->lsm, "apparmor") == 0)
		n = snprintf(buf, sizeof(buf), "exec %s", p->lsm_label);
	else
		n = snprintf(buf, sizeof(buf), "%s", p->lsm_label);
	if (write(fd, buf, (size_t)n) != n)
		return hj_diag_set(d, HIJACK_STEP_LSM, errno, "exec label '%s'",
				   p->lsm_label);
	return 0;
}
