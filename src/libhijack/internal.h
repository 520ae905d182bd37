/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - declarations shared by the libhijack modules, not exported.
 */
#ifndef HIJACK_INTERNAL_H
#define HIJACK_INTERNAL_H

#include <poll.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>

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
int hj_ns_ino(int dirfd, enum hijack_ns ns, ino_t *ret);
int hj_ns_enter_pidfd(int pidfd, unsigned int mask, pid_t pid,
		      struct hijack_diag *diag);
int hj_ns_enter_fds(const int fds[_HIJACK_NS_MAX], unsigned int mask,
		    pid_t pid, struct hijack_diag *diag);
int hj_ns_open_fds(const struct hijack_target *t, unsigned int mask,
		   int fds[_HIJACK_NS_MAX], struct hijack_diag *diag);
int hj_ns_mask_to_clone(unsigned int mask);

/* target.c */
int hj_target_check(const struct hijack_target *t, struct hijack_diag *diag);

/* proc.c */
int hj_read_at(int dirfd, const char *name, char **ret, size_t *ret_len);
int hj_proc_read(const struct hijack_target *t, const char *name,
		 char **ret, size_t *ret_len);
int hj_status_field(const char *status, const char *key, char *buf,
		    size_t size);
int hj_proc_map_id(const struct hijack_target *t, const char *map,
		   unsigned long id, unsigned long *ret);

/* creds.c */
void hj_creds_free(struct hijack_creds *c);
int hj_creds_read(const struct hijack_target *t, const char *status,
		  bool userns, struct hijack_creds *ret, struct hijack_diag *d);
int hj_creds_override(const struct hijack_target *t, const char *user,
		      const char *group, struct hijack_creds *c,
		      struct hijack_diag *d);
int hj_creds_apply(const struct hijack_creds *c, struct hijack_diag *d);

/* caps.c */
int hj_caps_read(pid_t pid, struct hijack_caps *ret, struct hijack_diag *d);
void hj_caps_plan(const struct hijack_caps *target, bool root, bool nnp,
		  struct hijack_caps *ret, char *note, size_t size);
int hj_caps_apply_iab(const struct hijack_caps *want, struct hijack_diag *d);
int hj_caps_apply_final(const struct hijack_caps *want, struct hijack_diag *d);

/* cgroup.c */
void hj_cgroups_free(struct hijack_cgroup *cg, size_t n);
int hj_cgroup_plan(const struct hijack_target *t, struct hijack_plan *p,
		   struct hijack_diag *d);
int hj_cgroup_open(const struct hijack_plan *p, int *fds,
		   struct hijack_diag *d);
int hj_cgroup_join(const struct hijack_plan *p, const int *fds,
		   struct hijack_diag *d);

/* seccomp.c */
void hj_filters_free(void *filters, size_t n);
int hj_seccomp_plan_target(const struct hijack_target *t, const char *status,
			   struct hijack_plan *p, struct hijack_diag *d);
int hj_seccomp_plan_file(const char *path, struct hijack_plan *p,
			 struct hijack_diag *d);
int hj_seccomp_install(const struct hijack_plan *p, struct hijack_diag *d);

/* lsm.c */
int hj_lsm_plan(const struct hijack_target *t, struct hijack_plan *p,
		struct hijack_diag *d);
int hj_lsm_open(const struct hijack_plan *p, struct hijack_diag *d);
int hj_lsm_apply(const struct hijack_plan *p, int fd, struct hijack_diag *d);

/* env.c */
void hj_env_free(char **envp);
int hj_env_plan(const struct hijack_target *t, const struct hijack_opts *o,
		struct hijack_plan *p, struct hijack_diag *d);

/* limits.c */
const char *hj_rlimit_name(int resource);
int hj_limits_read(const struct hijack_target *t, struct hijack_limits *ret,
		   struct hijack_diag *d);
int hj_oom_swap(int adj, int *ret_old, struct hijack_diag *d);
int hj_limits_apply(const struct hijack_limits *want, struct hijack_diag *d);

/* pty.c: the command's own terminal, and the relay to the caller's */
struct hj_pty {
	unsigned int fds;	/* plan's pty_fds */
	int sock[2];		/* the master travels from [1] to [0] */
	int master;		/* hijack's end, once the command exec'd */
	int in, out;		/* the caller's ends of the relay, or -EBADF */
	int tty;		/* a caller's fd that is a terminal, or -EBADF */
	bool have_tio, have_ws, raw;
	struct termios tio;	/* the caller's terminal settings, for the new one */
	struct termios saved;	/* to restore after raw mode */
	struct winsize ws;
	char buf[4096];		/* input not yet written to the master */
	size_t len, off;
};

#define HJ_PTY_POLLFDS 2

unsigned int hj_pty_fds(enum hijack_pty mode);
void hj_pty_init(struct hj_pty *pty);
int hj_pty_prepare(struct hj_pty *pty, const struct hijack_plan *p,
		   struct hijack_diag *d);
int hj_pty_child(struct hj_pty *pty, struct hijack_diag *d);
int hj_pty_start(struct hj_pty *pty, struct hijack_diag *d);
int hj_pty_pollfds(struct hj_pty *pty, struct pollfd *pfd);
void hj_pty_handle(struct hj_pty *pty, const struct pollfd *pfd, int n);
void hj_pty_resize(struct hj_pty *pty);
void hj_pty_finish(struct hj_pty *pty);

/*
 * syscall.c.  HIJACK_TAKE_* mirror include/uapi/linux/hijack.h of
 * kernel-patch/; HJ_SYSCALL_NS is ours: the plan takes namespaces, whose
 * CLONE_NEW* mask hj_syscall_ns_mask() gives.
 */
#define HIJACK_TAKE_FS 0x01u
#define HIJACK_TAKE_CGROUP 0x02u
#define HIJACK_TAKE_CRED 0x04u
#define HJ_SYSCALL_NS 0x100u

int hj_syscall_flags(const struct hijack_plan *plan);
unsigned long hj_syscall_ns_mask(const struct hijack_plan *plan);
long hj_syscall_hijack(const struct hijack_plan *plan, int pidfd);

#endif /* HIJACK_INTERNAL_H */
