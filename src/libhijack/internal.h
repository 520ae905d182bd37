/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - declarations shared by the libhijack modules, not exported.
 */
#ifndef HIJACK_INTERNAL_H
#define HIJACK_INTERNAL_H

#include <stdarg.h>
#include <sys/stat.h>

#include "hijack.h"
#include "macro.h"

struct hijack_target {
	pid_t pid;
	int pidfd;	/* pins the task */
	int procfd;	/* /proc/PID, opened after pidfd and checked against it */
};

/* diag.c */
int hj_diag_set(struct hijack_diag *d, enum hijack_step step, int err,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ns.c */
struct hj_ns_info {
	const char *name;	/* file under /proc/PID/ns/ */
	int clone_flag;		/* CLONE_NEW* */
};
extern const struct hj_ns_info hj_ns_info[_HIJACK_NS_MAX];

int hj_ns_stat(int dirfd, enum hijack_ns ns, struct stat *ret);
int hj_ns_enter_pidfd(int pidfd, unsigned int mask, pid_t pid,
		      struct hijack_diag *diag);
int hj_ns_enter_fds(const int fds[_HIJACK_NS_MAX], unsigned int mask,
		    pid_t pid, struct hijack_diag *diag);
int hj_ns_open_fds(const struct hijack_target *t, unsigned int mask,
		   int fds[_HIJACK_NS_MAX], struct hijack_diag *diag);
int hj_ns_mask_to_clone(unsigned int mask);

/* target.c */
int hj_target_check(const struct hijack_target *t, struct hijack_diag *diag);

/* syscall.c */
int hj_syscall_flags(const struct hijack_plan *plan);

#endif /* HIJACK_INTERNAL_H */
