/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * spawn-internal.h - what the parts of starting a command share, private
 * to them: spawn.c (the process shapes and hj_spawn()), spawn-prepare.c
 * (what is opened on the host before the fork), spawn-child.c (what the
 * command's process does between the fork and the exec), spawn-wait.c
 * (the status pipe, reaping, and waiting with signals forwarded) and
 * pty.c (the command's terminal).  The shapes and the status pipe are
 * explained at the top of spawn.c, the payloads that the command's
 * process is handed to in spawn.h (struct hj_payload), which is what the
 * rest of the library sees of this folder.
 */
#ifndef HIJACK_SPAWN_INTERNAL_H
#define HIJACK_SPAWN_INTERNAL_H

#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>

#include "spawn.h"

/* pty.c: the command's own terminal, and the relay to the caller's */
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

void hj_pty_init(struct hj_pty *pty);
int hj_pty_prepare(struct hj_pty *pty, const struct hijack_plan *p,
		   struct hijack_diag *d);
int hj_pty_child(struct hj_pty *pty, struct hijack_diag *d);
int hj_pty_start(struct hj_pty *pty, struct hijack_diag *d);
int hj_pty_pollfds(struct hj_pty *pty, struct pollfd *pfd);
void hj_pty_handle(struct hj_pty *pty, const struct pollfd *pfd, int n);
void hj_pty_resize(struct hj_pty *pty);
void hj_pty_finish(struct hj_pty *pty);

enum msg_kind {
	MSG_DIAG = 1,
	MSG_PID,
	MSG_EXEC,	/* the command's process is about to exec */
	MSG_STARTED,	/* HJ_PAYLOAD_NOEXEC begins: as good as an exec */
};

/* One status pipe message: one write() below PIPE_BUF, so it arrives whole. */
struct msg {
	enum msg_kind kind;
	pid_t pid;			/* MSG_PID: the command's */
	enum hijack_method method;	/* MSG_PID: how it entered */
	struct hijack_diag diag;
};

struct spawn {
	const struct hijack_target *t;
	const struct hijack_plan *p;
	const struct hj_payload *pl;	/* what the command's process runs */
	void *arg;			/* handed to each of its hooks */
	enum hijack_method method;	/* pidfd or nsfd once decided */
	unsigned int child_mask;	/* namespaces the child enters */
	int nsfds[_HIJACK_NS_MAX];
	int rootfd;
	int cwdfd;
	int status_w;
	int status_r;		/* hijack's end: the command closes its copy */
	int go_w;		/* forked shape: hijack's, to let the command on */
	int go_r;		/* ... once it knows the command's pid */
	int ack_w;		/* HJ_PAYLOAD_NOEXEC: hijack's, to let it on */
	int ack_r;		/* ... past its start once hijack took it so */
	struct hj_args args;	/* hijack's own argv, hidden once seen */
	int procdir;		/* hijack's /proc, for the exec label */
	int *cgfds;		/* cgroup.procs per hierarchy, or -EBADF */
	int cg2fd;		/* v2 directory for CLONE_INTO_CGROUP */
	bool cg_joined_v2;	/* born there by clone3() or hijack(2) */
	unsigned int kernel_took;	/* HIJACK_* done by hijack(2) */
	struct hj_pty *pty;
	sigset_t oldmask;
};

/*
 * How a child ends when it cannot go on (hj_child_fail()): a shell's
 * codes, so that a status which is all a caller sees still tells whose
 * failure it was.  The diagnostic on the status pipe says the rest.
 */
enum child_exit {
	CHILD_EXIT_RUN_FAILED = 1,	/* HJ_PAYLOAD_NOEXEC's own work, as cat(1) */
	CHILD_EXIT_FAILED = 125,	/* a step of hijack's own */
	CHILD_EXIT_CANNOT_EXEC = 126,	/* the command is there, exec failed */
	CHILD_EXIT_NOT_FOUND = 127,	/* no such command */
};

static inline void hj_send_msg(int fd, const struct msg *m)
{
	/* Nobody to tell if this fails: the exit status still says 125. */
	(void)!write(fd, m, sizeof(*m));
}

/*
 * The one-byte "go on" that hijack hands a child it forked.  A socket,
 * not a pipe: the child may be killed before it reads (the container's
 * pid 1 died, taking its pid namespace along), and a pipe with no reader
 * left would end hijack itself with SIGPIPE instead of letting it say
 * what happened.  send() with MSG_NOSIGNAL answers EPIPE instead, and the
 * process-wide disposition of SIGPIPE stays the caller's.
 */
static inline int hj_go_channel(int fds[2])
{
	return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
}

static inline int hj_send_go(int fd)
{
	return send(fd, "", 1, MSG_NOSIGNAL) == 1 ? 0 : -errno;
}

/* spawn-prepare.c: on the host, before the fork */
int hj_spawn_prepare(struct spawn *s, struct hijack_diag *d);
void hj_spawn_close(struct spawn *s);
pid_t hj_fork_child(struct spawn *s);
pid_t hj_fork_command(void);

/* spawn-child.c: in the command's process (and the intermediate) */
_Noreturn void hj_child_fail(struct spawn *s, const struct hijack_diag *d,
			     enum child_exit code);
int hj_child_enter_ns(struct spawn *s, struct hijack_diag *d);
void hj_child_cgroups(struct spawn *s);
_Noreturn void hj_child_exec(struct spawn *s);

/* spawn-wait.c: hijack's side once the command's process exists */
int hj_read_status(int fd, pid_t *ret_pid, enum hijack_method *ret_method,
		   pid_t child, bool running, const char *name, int *go,
		   struct hijack_diag *d);
/* How long a process sent SIGKILL is given to show as dead. */
#define KILL_WAIT_MS 1000
int hj_reap(pid_t pid, int *ret_status);
int hj_reap_within(pid_t pid, int *ret_status);
int hj_reap_by(pid_t pid, int *ret_status, long long deadline);
bool hj_execd_once_dead(pid_t pid, long long deadline);
void hj_kill_reap(pid_t pid);
int hj_died_before_exec(struct spawn *s, pid_t pid, struct hijack_diag *d);
int hj_wait_forwarding(const struct hijack_plan *p, pid_t pid,
		       const sigset_t *set, struct hj_pty *pty,
		       struct hijack_diag *d);
int hj_reap_command(struct spawn *s, pid_t pid, int *ret_status,
		    struct hijack_diag *d);

#endif /* HIJACK_SPAWN_INTERNAL_H */
