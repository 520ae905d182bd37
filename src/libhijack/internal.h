/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - the library's core, not exported: the target, the plan and
 * the modules that read and apply each part of it (the .c files beside
 * this header).  The folders beside it build on the core and each keep
 * their own header: engines/engines.h (containers by name),
 * spawn/spawn.h (the executor and its payload interface),
 * payloads/payloads.h (what the executor runs), render/explain.h
 * (--explain) and render/jsonw.h (the JSON string writer).  The core
 * includes none of them.
 */
#ifndef HIJACK_INTERNAL_H
#define HIJACK_INTERNAL_H

#include <dirent.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <time.h>

#include "hijack.h"
#include "hijack-abi.h"
#include "macro.h"
#include "plan.h"

/* Callers built before a field of struct hijack_opts existed get its default. */
#define OPTS_HAVE(o, field) \
	((o)->struct_size >= offsetof(struct hijack_opts, field) + sizeof((o)->field))

struct hijack_target {
	pid_t pid;
	int pidfd;	/* pins the task */
	int procfd;	/* /proc/PID, opened after pidfd and checked against it */
	char nspid[128];	/* the pidfd's fdinfo "NSpid:", or "" */
	/*
	 * What hijack_container_open() pinned, copied, so that a plan built
	 * on the target can say which container it enters; NULL for a
	 * target of hijack_target_open().
	 */
	struct hijack_container *container;
};

/* diag.c */
int hj_diag_set(struct hijack_diag *d, enum hijack_step step, int err,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ns.c: the enum hijack_ns of "mnt" (or "mount"), "uts", ..., or -EINVAL. */
int hj_ns_from_name(const char *name);
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

/*
 * target.c.  hj_target_alive(): 0 while the target runs, -ESRCH once it
 * has exited.
 */
int hj_target_alive(const struct hijack_target *t);
int hj_target_check(const struct hijack_target *t, struct hijack_diag *diag);
int hj_target_check_status(const struct hijack_target *t, const char *status,
			   struct hijack_diag *diag);

/* Milliseconds of the monotonic clock, for deadlines. */
static inline long long hj_now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* proc.c */
/*
 * One read() of @fd into *@buf, grown (to at most @max + 2 bytes: @max,
 * one more to tell a larger input, the NUL) as it fills; *@size is its
 * size, *@len what it holds, NUL-terminated after each read that worked.
 * 1 when bytes came, 0 at the end, -EAGAIN when to try again (EINTR,
 * EAGAIN), -EFBIG once more than @max came, or a negative errno.
 */
int hj_read_some(int fd, char **buf, size_t *size, size_t *len, size_t max);
int hj_read_at_max(int dirfd, const char *name, size_t max, char **ret,
		   size_t *ret_len);
int hj_read_at(int dirfd, const char *name, char **ret, size_t *ret_len);
size_t hj_proc_max(const char *name, const char **ret_why);
int hj_proc_fail(struct hijack_diag *d, enum hijack_step step, pid_t pid,
		 const char *name, int err);
int hj_read_line(const char *path, char *buf, size_t size);
int hj_proc_read(const struct hijack_target *t, const char *name,
		 char **ret, size_t *ret_len);
int hj_root_open(int rootfd, const char *rel, int flags);
int hj_open_nomagic(const char *path, int flags);
int hj_root_read(int rootfd, const char *rel, size_t max, char **ret,
		 size_t *ret_len);
int hj_status_field(const char *status, const char *key, char *buf,
		    size_t size);
int hj_opendir(const char *path, DIR **ret);

/* This process's own arguments in its memory (proc.c). */
struct hj_args {
	char *start;
	size_t len;
};
#define HJ_ARGS_MAX (64UL << 20)	/* far above what an exec passes */
int hj_args_read(struct hj_args *ret);
void hj_args_hide(const struct hj_args *a);
int hj_proc_map_id(const struct hijack_target *t, const char *map,
		   unsigned long id, unsigned long *ret);

/* plan-confine.c, for plan.c */
int hj_plan_confinement(const struct hijack_target *t,
			const struct hijack_opts *o, const char *status,
			struct hijack_plan *p, struct hijack_diag *d);

/* creds.c */
void hj_creds_free(struct hijack_creds *c);
bool hj_creds_same(const struct hijack_creds *a, const struct hijack_creds *b);
int hj_creds_read(const struct hijack_target *t, const char *status,
		  bool userns, struct hijack_creds *ret, struct hijack_diag *d);
int hj_creds_override(const struct hijack_target *t, const char *user,
		      const char *group, struct hijack_creds *c,
		      struct hijack_diag *d);
int hj_creds_apply(const struct hijack_creds *c, struct hijack_diag *d);

/* caps.c */
int hj_caps_read(pid_t pid, struct hijack_caps *ret, struct hijack_diag *d);
int hj_caps_read_self(struct hijack_caps *ret);
void hj_caps_plan(const struct hijack_caps *target, bool root, bool nnp,
		  struct hijack_caps *ret, char *note, size_t size);
int hj_caps_apply_iab(const struct hijack_caps *want, struct hijack_diag *d);
int hj_caps_apply_final(const struct hijack_caps *want, struct hijack_diag *d);
int hj_caps_as_after_exec(struct hijack_diag *d);

/* cgroup.c */
void hj_cgroups_free(struct hijack_cgroup *cg, size_t n);
int hj_cgroup_plan(const struct hijack_target *t, struct hijack_plan *p,
		   struct hijack_diag *d);
int hj_cgroup_open(const struct hijack_plan *p, int *fds, int *ret_v2dir,
		   struct hijack_diag *d);
char *hj_cgroup_path_of(const char *text, const char *controllers);
int hj_cgroup_mount_hierarchy(const char *controllers);
int hj_cgroup_join(const struct hijack_plan *p, const int *fds,
		   struct hijack_diag *d);

/* freezer.c */
int hj_cgroup_frozen(const struct hijack_plan *p, pid_t pid);

/* seccomp.c, seccomp-copy.c, seccomp-policy.c */
struct sock_filter;
void hj_filters_free(void *filters, size_t n);
int hj_filters_add(struct hijack_plan *p, struct sock_filter *insns,
		   unsigned short len);
int hj_seccomp_plan_target(const struct hijack_target *t, const char *status,
			   struct hijack_plan *p, struct hijack_diag *d);
int hj_seccomp_plan_file(const char *path, struct hijack_plan *p,
			 struct hijack_diag *d);
int hj_seccomp_plan_stream(FILE *f, const char *name, struct hijack_plan *p,
			   struct hijack_diag *d);
int hj_seccomp_install(const struct hijack_plan *p, struct hijack_diag *d);

/* lsm.c */
int hj_lsm_plan(const struct hijack_target *t, struct hijack_plan *p,
		struct hijack_diag *d);
bool hj_lsm_wanted(const struct hijack_plan *p);
int hj_lsm_apply(const struct hijack_plan *p, int procdir,
		 struct hijack_diag *d);

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

/*
 * syscall.c.  HIJACK_* are hijack(2)'s (hijack-abi.h); HJ_SYSCALL_NS
 * is ours: the plan takes namespaces, whose CLONE_NEW* mask
 * hj_syscall_ns_mask() gives.  hj_syscall_flags() decides the flags for
 * hijack_plan_build(), which keeps them in the plan's syscall_flags: every
 * later user reads them there.
 */
#define HJ_SYSCALL_NS 0x100u

/*
 * The hijack(2) number, once probed (syscall.c says how), or -ENOSYS when
 * the kernel has none.
 */
long hj_syscall_nr(void);
int hj_syscall_flags(const struct hijack_plan *plan);
unsigned long hj_syscall_ns_mask(const struct hijack_plan *plan);
long hj_syscall_hijack(const struct hijack_plan *plan, int pidfd, int cgroupfd);

#endif /* HIJACK_INTERNAL_H */
