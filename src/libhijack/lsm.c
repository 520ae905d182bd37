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
	char list[256] = "";
	FILE *f;

	buf[0] = '\0';
	f = fopen("/sys/kernel/security/lsm", "re");
	if (f) {
		(void)!fgets(list, sizeof(list), f);
		fclose(f);
	}
	if (strstr(list, "selinux") || access("/sys/fs/selinux/enforce", F_OK) == 0)
		(void)snprintf(buf, size, "selinux");
	else if (strstr(list, "apparmor"))
		(void)snprintf(buf, size, "apparmor");
	else {
		f = fopen("/sys/module/apparmor/parameters/enabled", "re");
		if (f) {
			if (fgetc(f) == 'Y')
				(void)snprintf(buf, size, "apparmor");
			fclose(f);
		}
	}
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
		return hj_diag_set(d, HIJACK_STEP_LSM, r, "/proc/%d/attr/current",
				   (int)t->pid);
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

/* Opened in the child before the mount namespace changes what /proc is. */
int hj_lsm_open(const struct hijack_plan *p, struct hijack_diag *d)
{
	int fd;

	if (!p->lsm[0] || !p->lsm_label[0] ||
	    strcmp(p->lsm_label, "unconfined") == 0)
		return -EBADF;
	fd = open("/proc/thread-self/attr/exec", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return hj_diag_set(d, HIJACK_STEP_LSM, errno, "/proc/thread-self/attr/exec");
	return fd;
}

int hj_lsm_apply(const struct hijack_plan *p, int fd, struct hijack_diag *d)
{
	char buf[300];
	int n;

	if (fd < 0)
		return 0;
	if (strcmp(p->lsm, "apparmor") == 0)
		n = snprintf(buf, sizeof(buf), "exec %s", p->lsm_label);
	else
		n = snprintf(buf, sizeof(buf), "%s", p->lsm_label);
	if (write(fd, buf, (size_t)n) != n)
		return hj_diag_set(d, HIJACK_STEP_LSM, errno, "exec label '%s'",
				   p->lsm_label);
	return 0;
}
