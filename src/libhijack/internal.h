/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - declarations shared by the libhijack modules, not exported.
 */
#ifndef HIJACK_INTERNAL_H
#define HIJACK_INTERNAL_H

#include <dirent.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>

#include "hijack.h"
#include "hijack-abi.h"
#include "macro.h"
#include "plan.h"

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

/* pty.c: the command's own terminal, and the relay to the caller's */
#define HJ_STDIO_FDS (BIT(0) | BIT(1) | BIT(2))	/* a pty_fds mask: all */
#define HJ_PTY_BUF 4096		/* bytes relayed at a time, each way */
struct hj_pty {
	unsigned int fds;	/* plan's pty_fds */
	int sock[2];		/* the master travels from [1] to [0] */
	int master;		/* hijack's end, once the command exec'd */
	int in, out;		/* the caller's ends of the relay, or -EBADF */
	int tty;		/* a caller's fd that is a terminal, or -EBADF */
	int ptsdir;		/* --tools: the view's devpts, its ptmx used */
	bool have_tio, have_ws, raw;
	bool typed_intr;	/* the caller typed the interrupt or quit key */
	struct termios tio;	/* the caller's terminal settings, for the new one */
	struct termios saved;	/* to restore after raw mode */
	struct winsize ws;
	char buf[HJ_PTY_BUF];	/* input not yet written to the master */
	size_t len, off;
	const struct hijack_relay_tap *tap;	/* shown what is relayed, or NULL */
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

/*
 * spawn*.c: the executor.  hj_spawn() starts a process in the target,
 * confines it as the plan says, and hands it over to a payload: what the
 * process is there for.  A payload is a table of hooks and flags, and a
 * pointer that the executor passes to every hook untouched, in the manner
 * of LXC's lxc_attach(exec_function, exec_payload).  Each hook is called
 * at one fixed point of the executor's sequence, whose order spawn.c and
 * spawn-child.c explain; any but @run may be NULL.
 *
 * The payloads: command.c execs the caller's argv (hijack_run()),
 * tools.c execs it in a view of the host's programs (hijack_run_tools()),
 * files.c copies a file in place of the exec (hijack_file_copy_max()).
 */

/*
 * Never execs: hijack's own code runs in the child to its end.  It gets
 * no terminal of its own (its bytes go to the caller's fds as they are),
 * says MSG_STARTED where an exec would have closed the status pipe, and
 * does nothing before hijack has taken it as started: killed before
 * that, it has made nothing to leave behind (a copy, no temporary file).
 * From then to its end it is guarded as a command is until its exec: the
 * caller's SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to it, and
 * a stop by the container gets it SIGTERM, so it is to clean up after
 * itself on those; SIGKILL comes only to one that has not ended a second
 * later.  It stays non-dumpable to its end: its memory is hijack's, the
 * host's.
 */
#define HJ_PAYLOAD_NOEXEC BIT(0)
/*
 * A mount view of its own, built by @host_view: the target's mount
 * namespace is not entered, nor its root and working directory taken.
 */
#define HJ_PAYLOAD_OWN_MOUNTS BIT(1)

struct hj_payload {
	const char *name;	/* what messages call it: "command", "copy" */
	enum hijack_step step;	/* HJ_PAYLOAD_NOEXEC: of a failure to start it */
	unsigned int flags;	/* HJ_PAYLOAD_* */
	/*
	 * In the caller, before anything is opened for the child: refuse
	 * what the payload cannot keep safe, and copy to the heap whatever
	 * the child reads after it hid hijack's own arguments
	 * (hj_args_hide()), since the caller's may be those very bytes.
	 */
	int (*prepare)(void *arg, const struct hijack_plan *p,
		       struct hijack_diag *d);
	/*
	 * In the forked shape's intermediate, in the target's cgroups and in
	 * none of its namespaces yet: the host is still in view.
	 * *ret_ptsdir may name a devpts that the command's new terminal is to
	 * come from.  The syscall shape has no intermediate: a payload with
	 * this hook refuses that method in @prepare.
	 */
	int (*host_view)(void *arg, const struct hijack_target *t,
			 const struct hijack_plan *p, int *ret_ptsdir,
			 struct hijack_diag *d);
	/* In the child: change the capabilities it is to end with. */
	void (*caps)(void *arg, struct hijack_caps *c);
	/*
	 * In the child, after the resource limits and before the fd barrier
	 * and seccomp, with CAP_SETPCAP still effective.
	 */
	int (*confine)(void *arg, struct hijack_diag *d);
	/* HJ_PAYLOAD_NOEXEC: an fd of the caller's to keep open, or -1. */
	int (*keep_fd)(void *arg);
	/*
	 * In the child, confined, last: exec, and return only on failure
	 * (-ENOENT when there is no such command); or, HJ_PAYLOAD_NOEXEC,
	 * do the work and return 0 or a negative errno.  @d says why.
	 */
	int (*run)(void *arg, const struct hijack_plan *p,
		   struct hijack_diag *d);
};

int hj_spawn(const struct hijack_target *t, const struct hijack_plan *p,
	     const struct hj_payload *pl, void *arg,
	     const struct hijack_relay_tap *tap, struct hijack_result *ret,
	     struct hijack_diag *d);

/* command.c: the default payload's command, which tools.c execs too */
struct hj_command {
	char *const *argv;	/* the caller's */
	char **own;		/* hijack's copy of it, what the child execs */
};

int hj_command_prepare(struct hj_command *c, struct hijack_diag *d);
void hj_command_done(struct hj_command *c);
int hj_command_exec(const struct hj_command *c, char **envp,
		    struct hijack_diag *d);

/* tools-view.c: the --tools view (tools.c) */
int hj_tools_view(const struct hijack_target *t, const char *dir,
		  int *ret_pts, struct hijack_diag *d);

/*
 * container.c and engine-*.c: naming containers.  Each engine is one file
 * with one struct hj_engine, on the helpers of engine-common.c;
 * container.c does the matching and the de-duplication, container-proof.c
 * the pinning, so an engine only reads its own records.
 */
struct hj_ctlist {
	struct hijack_container *v;
	size_t n, cap;
	/*
	 * When set, only containers whose name or id starts with it can
	 * match: an engine whose every entry costs a parse or a round trip
	 * may skip the others (hj_hint_allows()).  NULL lists everything.
	 */
	const char *hint;
	/*
	 * What an engine found but does not believe (hj_ctlist_refuse()):
	 * never a candidate, but said when its name is asked for or listed.
	 */
	struct hj_refusal *refused;
	size_t n_refused;
};

struct hj_refusal {
	char engine[16];
	char name[256];
	char why[320];
};

struct hj_engine {
	const char *name;
	/*
	 * Append the engine's running containers to @l.  Return 1 when the
	 * engine is present (even with no containers), 0 when it is not
	 * (not installed, daemon not running), or a negative errno.  An
	 * entry may leave pid 0 when the engine's list does not tell it;
	 * inspect() then completes the entries that matter.
	 */
	int (*list)(struct hj_ctlist *l);
	/* Fill in pid, state and proof of one entry; NULL when list() does. */
	int (*inspect)(struct hijack_container *c);
};

extern const struct hj_engine hj_engine_lxc, hj_engine_docker,
	hj_engine_podman, hj_engine_runc, hj_engine_crun,
	hj_engine_containerd, hj_engine_incus, hj_engine_machine;

struct hijack_container *hj_ctlist_add(struct hj_ctlist *l,
				       const char *engine, const char *name,
				       const char *id);
void hj_ctlist_refuse(struct hj_ctlist *l, const char *engine,
		      const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void hj_ctlist_free(struct hj_ctlist *l);
bool hj_hint_allows(const struct hj_ctlist *l, const char *s);
int hj_opendir(const char *path, DIR **ret);
/* An engine's record or API answer: at most this, within this time. */
#define HJ_STATE_MAX (16u << 20)
#define HJ_STATE_TIMEOUT_MS 5000
int hj_state_read(int dirfd, const char *name, char **ret, size_t *ret_len);
int hj_state_dirs(struct hj_ctlist *l, const char *engine, const char *root,
		  int (*add)(struct hj_ctlist *l, const char *engine, int cfd,
			     const char *id));
int hj_runtime_path(const char *rel, char *buf, size_t size);
int hj_copy(char *dst, size_t size, const char *src);
bool hj_printable(const char *s);
/* The engines in the order they are searched, "pid" last, NULL-terminated. */
const char *const *hj_engine_names(void);
int hj_proc_start_ticks(int procfd, unsigned long long *ret);
bool hj_init_alive(const struct hijack_container *c);
bool hj_cgroup_has_mark(const char *cgroup_file, const char *engine,
			const char *mark);

/* engine-runc.c: a runc/libcontainer state.json, also used by containerd */
int hj_runc_parse_state(const char *json, size_t len, const char *engine,
			const char *name, struct hijack_container *ret);
int hj_runc_add(struct hj_ctlist *l, const char *engine, int cfd,
		const char *id, const char *name);
int hj_runc_list_root(struct hj_ctlist *l, const char *engine,
		      const char *root);
/* engine-crun.c */
int hj_crun_parse_status(const char *json, size_t len, const char *id,
			 struct hijack_container *ret);
int hj_crun_list_root(struct hj_ctlist *l, const char *root);
/* engine-containerd.c */
int hj_containerd_list_root(struct hj_ctlist *l, const char *tasks,
			    const char *runc_root);
/* engine-machine.c */
int hj_machine_parse(const char *block, struct hijack_container *ret);
int hj_machine_parse_show(const char *text, struct hj_ctlist *l);

/* http.c: one GET over a unix socket (Docker/Podman/Incus APIs) */
int hj_read_fd_all(int fd, size_t max, int timeout_ms, char **ret,
		   size_t *ret_len);
int hj_http_get(const char *socket_path, const char *path, char **ret_body,
		size_t *ret_len);
int hj_api_get(const char *socket_path, const char *path, char **ret_body,
	       size_t *ret_len);
/* engine-docker.c: the Docker Engine API, also spoken by Podman */
int hj_docker_parse_list(const char *json, size_t len, const char *engine,
			 struct hj_ctlist *l);
int hj_docker_parse_inspect(const char *json, size_t len,
			    struct hijack_container *c);
int hj_docker_api_list(struct hj_ctlist *l, const char *engine,
		       const char *sock);
int hj_docker_api_inspect(struct hijack_container *c, const char *sock);
/* engine-podman.c */
int hj_podman_parse_ps(const char *json, size_t len, struct hj_ctlist *l);
/* tool.c */
int hj_run_tool(char *const argv[], char **ret, size_t *ret_len);
/* engine-incus.c */
int hj_incus_parse(const char *json, size_t len, struct hj_ctlist *l);

#endif /* HIJACK_INTERNAL_H */
