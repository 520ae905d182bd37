// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pty.c - a terminal of the command's own.
 *
 * Handing the caller's terminal into a container lets anything running in
 * there type into it with TIOCSTI, or keep it open and read it after the
 * command has gone (CVE-2016-7545, CVE-2017-5226).  So when fds 0-2 are
 * terminals the command gets a new pseudo-terminal instead, and hijack
 * copies bytes between the two:
 *
 *   caller's terminal (raw) <-> hijack <-> master | slave = command's 0-2
 *
 * The pair comes from /dev/ptmx as the command sees it, opened by the
 * command's own process once it is in the target's namespaces, root and
 * cgroups and has taken the command's credentials: the slave then belongs
 * to the container's devpts (its /dev/pts/N name is right in there) and to
 * the command's user, as after a login, and the open is subject to the
 * container's device cgroup.  The master travels back to hijack over a
 * socket (SCM_RIGHTS).
 *
 * With the caller's terminal in raw mode, Ctrl-C, Ctrl-Z and the like are
 * just bytes: the new terminal's line discipline turns them into signals
 * for the command's foreground process group, as a login would.
 */
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>

#include "spawn-internal.h"

/* /dev/ptmx and every devpts instance's ptmx node are this device. */
#define PTMX_MAJOR 5
#define PTMX_MINOR 2

/* The caller's terminal, if any of fds 0-2 is one: its settings and size. */
static int host_tty(const struct hj_pty *pty)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if ((pty->fds & BIT(fd)) && isatty(fd))
			return fd;
	return -EBADF;
}

void hj_pty_init(struct hj_pty *pty)
{
	*pty = (struct hj_pty){
		.sock = { -EBADF, -EBADF },
		.master = -EBADF,
		.in = -EBADF,
		.out = -EBADF,
		.tty = -EBADF,
		.ptsdir = -EBADF,
	};
}

int hj_pty_prepare(struct hj_pty *pty, const struct hijack_plan *p,
		   struct hijack_diag *d)
{
	pty->fds = p->pty_fds;
	if (!pty->fds)
		return 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pty->sock) < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, errno, "socketpair");
	pty->tty = host_tty(pty);
	if (pty->tty >= 0) {
		pty->have_tio = tcgetattr(pty->tty, &pty->tio) == 0;
		pty->have_ws = ioctl(pty->tty, TIOCGWINSZ, &pty->ws) == 0;
	}
	return 0;
}

static int send_fd(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u = { 0 };
	char byte = 'm';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, MSG_NOSIGNAL) == 1 ? 0 : -errno;
}

static int recv_fd(int sock)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
		return errno ? -errno : -EPROTO;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * The multiplexer: the ptmx of the --tools view's own devpts, by its fd
 * and checked to be of that instance; or /dev/ptmx as the command sees
 * it, opened as is: the process already lives in the container's cgroups
 * and namespaces, as the command's user, so whatever the container put at
 * that path, opening it can do no more than the command could.
 */
static int open_master(const struct hj_pty *pty, struct hijack_diag *d)
{
	_cleanup_close_ int master = -EBADF;
	struct stat st, pts;

	if (pty->ptsdir >= 0) {
		master = openat(pty->ptsdir, "ptmx", O_RDWR | O_NOCTTY |
				O_NOFOLLOW | O_CLOEXEC);
		if (master < 0 || fstat(master, &st) < 0 ||
		    fstat(pty->ptsdir, &pts) < 0 || st.st_dev != pts.st_dev)
			return hj_diag_set(d, HIJACK_STEP_PTY, master < 0 ? errno : EXDEV,
					   "the ptmx of the view's own devpts");
	} else {
		master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
		/* A /dev without ptmx may still have its devpts' own. */
		if (master < 0 && errno == ENOENT)
			master = open("/dev/pts/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
		/*
		 * Not a hint to pass the caller's terminal in: a container
		 * that removed its ptmx may be waiting for exactly that.
		 */
		if (master < 0)
			return hj_diag_set(d, HIJACK_STEP_PTY, errno,
					   "/dev/ptmx in the target's root (--no-pty would hand it your own terminal, to read and type into)");
		if (fstat(master, &st) < 0)
			return hj_diag_set(d, HIJACK_STEP_PTY, errno, "/dev/ptmx");
	}
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != PTMX_MAJOR ||
	    minor(st.st_rdev) != PTMX_MINOR)
		return hj_diag_set(d, HIJACK_STEP_PTY, ENOTTY,
				   "/dev/ptmx in the target's root is not the pseudo-terminal multiplexer");
	return TAKE_FD(master);
}

/* In the command's process, inside the target, with its credentials. */
int hj_pty_child(struct hj_pty *pty, struct hijack_diag *d)
{
	_cleanup_close_ int master = -EBADF, slave = -EBADF;
	int unlock = 0, fd, r;

	if (!pty->fds)
		return 0;
	master = open_master(pty, d);
	if (master < 0)
		return master;
	if (ioctl(master, TIOCSPTLCK, &unlock) < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, errno, "unlock the pseudo-terminal");
	/* By fd, not by name: the name is the container's to change (Linux 4.13). */
	slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, errno, "TIOCGPTPEER");
	if (pty->have_tio)
		(void)tcsetattr(slave, TCSANOW, &pty->tio);
	if (pty->have_ws)
		(void)ioctl(slave, TIOCSWINSZ, &pty->ws);

	r = send_fd(pty->sock[1], master);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, r, "pass the terminal to hijack");
	close_fdp(&master);
	close_fdp(&pty->sock[1]);

	/* The new terminal controls the session spawn-child.c gave the command. */
	if (ioctl(slave, TIOCSCTTY, 0) < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, errno, "TIOCSCTTY");
	for (fd = 0; fd <= 2; fd++)
		if ((pty->fds & BIT(fd)) && dup2(slave, fd) < 0)
			return hj_diag_set(d, HIJACK_STEP_PTY, errno, "dup2 to fd %d", fd);
	return 0;
}

/*
 * In hijack, once the command has exec'd: take the master and put the
 * caller's terminal into raw mode.  Only a foreground hijack touches the
 * terminal's settings; in the background that would stop it (SIGTTOU).
 */
int hj_pty_start(struct hj_pty *pty, struct hijack_diag *d)
{
	struct termios raw;
	int fl;

	if (!pty->fds)
		return 0;
	close_fdp(&pty->sock[1]);
	pty->master = recv_fd(pty->sock[0]);
	if (pty->master < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, pty->master,
				   "receive the command's terminal");
	close_fdp(&pty->sock[0]);
	fl = fcntl(pty->master, F_GETFL);
	if (fl < 0 || fcntl(pty->master, F_SETFL, fl | O_NONBLOCK) < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, errno, "O_NONBLOCK");

	pty->in = (pty->fds & BIT(STDIN_FILENO)) ? STDIN_FILENO : -EBADF;
	if (pty->fds & BIT(STDOUT_FILENO))
		pty->out = STDOUT_FILENO;
	else if (pty->fds & BIT(STDERR_FILENO))
		pty->out = STDERR_FILENO;

	if (pty->in >= 0 && isatty(pty->in) && tcgetpgrp(pty->in) == getpgrp() &&
	    tcgetattr(pty->in, &pty->saved) == 0) {
		raw = pty->saved;
		cfmakeraw(&raw);
		if (tcsetattr(pty->in, TCSADRAIN, &raw) == 0)
			pty->raw = true;
	}
	return 0;
}

/* False once the caller's reader went away (EPIPE): see pty_output(). */
static bool write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (fd >= 0 && len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			return false;
		if (n <= 0)
			return true;	/* a full non-blocking fd: dropped */
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

int hj_pty_pollfds(struct hj_pty *pty, struct pollfd *pfd)
{
	int n = 0;

	if (pty->master >= 0) {
		pfd[n++] = (struct pollfd){
			.fd = pty->master,
			.events = POLLIN | (pty->len ? POLLOUT : 0),
		};
	}
	if (pty->in >= 0 && !pty->len && pty->master >= 0)
		pfd[n++] = (struct pollfd){ .fd = pty->in, .events = POLLIN };
	return n;
}

/*
 * Copy what the command wrote to the caller.  Return 1 when something was
 * copied, 0 when nothing is there now, -1 once no slave is open any more
 * (EIO) and the master is of no further use, or once the caller's reader
 * went away (a pipe closed, as "| head" does): the master is then closed
 * like a terminal that disconnected, and the command gets its SIGHUP,
 * where without a terminal it would have got SIGPIPE writing to that
 * pipe.  Relaying into nowhere instead would keep a command that prints
 * for ever (yes) running for ever.
 */
static int pty_output(struct hj_pty *pty)
{
	char buf[HJ_PTY_BUF];
	ssize_t n;

	n = read(pty->master, buf, sizeof(buf));
	if (n > 0) {
		if (pty->tap)
			pty->tap->fn(pty->tap->userdata, HIJACK_RELAY_OUTPUT, buf,
				     (size_t)n);
		return write_all(pty->out, buf, (size_t)n) ? 1 : -1;
	}
	return n < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -1;
}

/*
 * Does @buf hold the command's terminal's interrupt or quit character,
 * with signals on there?  The kernel then signals the terminal's
 * foreground group, which a frozen command cannot act on: hijack's wait
 * looks for a freezer as after a SIGINT it forwarded (spawn-wait.c).  A
 * program that took the keys for itself (raw mode) clears ISIG.
 */
static bool has_intr(const struct hj_pty *pty, const char *buf, size_t n)
{
	struct termios t;

	if (pty->master < 0 || tcgetattr(pty->master, &t) < 0 ||
	    !(t.c_lflag & ISIG))
		return false;
	return (t.c_cc[VINTR] != _POSIX_VDISABLE && memchr(buf, t.c_cc[VINTR], n)) ||
	       (t.c_cc[VQUIT] != _POSIX_VDISABLE && memchr(buf, t.c_cc[VQUIT], n));
}

static void pty_input(struct hj_pty *pty)
{
	ssize_t n;

	n = read(pty->in, pty->buf, sizeof(pty->buf));
	if (n > 0) {
		if (pty->tap)
			pty->tap->fn(pty->tap->userdata, HIJACK_RELAY_INPUT,
				     pty->buf, (size_t)n);
		if (has_intr(pty, pty->buf, (size_t)n))
			pty->typed_intr = true;
		pty->len = (size_t)n;
		pty->off = 0;
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	/*
	 * End of the caller's input.  A pipe or file (--pty) ends with an
	 * end-of-file character, so that a reading shell sees it; a terminal
	 * that hung up just stops being read.
	 */
	if (!isatty(pty->in)) {
		pty->buf[0] = pty->have_tio ? (char)pty->tio.c_cc[VEOF] : '\004';
		if (!pty->buf[0])
			pty->buf[0] = '\004';
		pty->len = 1;
		pty->off = 0;
	}
	pty->in = -EBADF;
}

void hj_pty_handle(struct hj_pty *pty, const struct pollfd *pfd, int n)
{
	ssize_t w;
	int i;

	for (i = 0; i < n; i++) {
		if (!pfd[i].revents)
			continue;
		if (pfd[i].fd == pty->master) {
			if ((pfd[i].revents & POLLOUT) && pty->len) {
				w = write(pty->master, pty->buf + pty->off,
					  pty->len - pty->off);
				if (w > 0)
					pty->off += (size_t)w;
				if (pty->off >= pty->len)
					pty->len = pty->off = 0;
			}
			if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    pty_output(pty) < 0)
				close_fdp(&pty->master);
		} else if (pfd[i].fd == pty->in) {
			pty_input(pty);
		}
	}
}

/* The caller's terminal was resized: so is the command's. */
void hj_pty_resize(struct hj_pty *pty)
{
	struct winsize ws;

	if (pty->master >= 0 && pty->tty >= 0 &&
	    ioctl(pty->tty, TIOCGWINSZ, &ws) == 0)
		(void)ioctl(pty->master, TIOCSWINSZ, &ws);
}

/* Reads of HJ_PTY_BUF bytes at most after the end: 1 MiB. */
#define FINISH_READS_MAX 256

/*
 * The command has ended: pass on what it wrote last (a read of the master
 * waits for the terminal's buffers to be flushed into it), give the
 * caller's terminal its settings back, and let go of everything.
 */
void hj_pty_finish(struct hj_pty *pty)
{
	int i;

	/*
	 * Until it would block: what comes after that is from processes the
	 * command left behind, which may write for ever.
	 */
	for (i = 0; pty->master >= 0 && i < FINISH_READS_MAX &&
		    pty_output(pty) > 0; i++)
		;
	if (pty->raw) {
		(void)tcsetattr(STDIN_FILENO, TCSADRAIN, &pty->saved);
		pty->raw = false;
	}
	close_fdp(&pty->master);
	close_fdp(&pty->sock[0]);
	close_fdp(&pty->sock[1]);
}
