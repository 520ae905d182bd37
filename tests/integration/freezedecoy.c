// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * freezedecoy - the container's ways of playing with a freezer of its own
 * against hijack (19-exec-death.t): two that hide it from the look hijack
 * makes when the command does not end as asked, and one that freezes
 * hijack's process at its birth.
 *
 *   freezedecoy fuse DIR
 *	Mounts a FUSE filesystem on DIR and never answers it: a process that
 *	looks up a name below DIR sleeps in an uninterruptible wait that no
 *	freezer can freeze, so a v2 cgroup holding it never reports "frozen
 *	1", however frozen the rest is.  Prints "ready", holds the mount until
 *	its stdin ends, then detaches it (which wakes the sleepers).
 *
 *   freezedecoy threads FILE
 *	The command of the entry: SIGINT blocked in the main thread, handled
 *	by a second thread alone (it prints "int"), whose thread id is
 *	written to FILE.  Frozen in a cgroup of its own, that thread holds
 *	every SIGINT sent to the process while the main thread runs free.
 *
 *   freezedecoy birth DIR VALUE PID
 *	Watches cgroup.procs of the v1 freezer cgroup DIR for a process of
 *	PID's pid namespace other than PID, and the moment one joins (the
 *	command's process, born there before its exec), writes VALUE to
 *	DIR/freezer.state; prints "froze N".  Gives up after 20 s (exit 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

static int fuse(const char *dir)
{
	char opts[128], buf[64];
	int fd;

	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("freezedecoy: /dev/fuse");
		return 77;
	}
	(void)snprintf(opts, sizeof(opts),
		       "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	if (mount("freezedecoy", dir, "fuse", MS_NOSUID | MS_NODEV, opts) < 0) {
		perror("freezedecoy: mount");
		return 77;
	}
	printf("ready\n");
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	(void)umount2(dir, MNT_DETACH);
	close(fd);
	return 0;
}

static void on_int(int sig)
{
	(void)sig;
	(void)write(1, "int\n", 4);
}

static void *handler(void *arg)
{
	const char *file = arg;
	sigset_t set;
	FILE *f;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	f = fopen(file, "we");
	if (!f || fprintf(f, "%d\n", gettid()) < 0 || fclose(f) != 0)
		exit(1);
	for (;;)
		pause();
	return NULL;
}

static int threads(const char *file)
{
	struct sigaction sa = { .sa_handler = on_int };
	pthread_t t;
	sigset_t set;

	sigaction(SIGINT, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	errno = pthread_create(&t, NULL, handler, (void *)file);
	if (errno) {
		perror("freezedecoy: pthread_create");
		return 1;
	}
	for (;;)
		pause();
}

/* The pid namespace of @pid, as its link reads; "" when it is gone. */
static void pidns_of(long pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;

	(void)snprintf(path, sizeof(path), "/proc/%ld/ns/pid", pid);
	n = readlink(path, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}

static int birth(const char *dir, const char *value, long target)
{
	char procs[4096], state[4096], want[64], ns[64];
	time_t end = time(NULL) + 20;
	long pid;
	FILE *f;
	int fd;

	(void)snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	(void)snprintf(state, sizeof(state), "%s/freezer.state", dir);
	pidns_of(target, want, sizeof(want));
	while (*want && time(NULL) < end) {
		f = fopen(procs, "re");
		if (!f)
			return 1;
		while (fscanf(f, "%ld", &pid) == 1) {
			if (pid == target)
				continue;
			pidns_of(pid, ns, sizeof(ns));
			if (strcmp(ns, want) != 0)
				continue;
			fd = open(state, O_WRONLY | O_CLOEXEC);
			if (fd < 0 || write(fd, value, strlen(value)) < 0)
				return 1;
			(void)close(fd);
			printf("froze %ld\n", pid);
			return 0;
		}
		(void)fclose(f);
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fuse"))
		return fuse(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "threads"))
		return threads(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "birth"))
		return birth(argv[2], argv[3], strtol(argv[4], NULL, 10));
	fprintf(stderr, "usage: freezedecoy fuse DIR | threads FILE | birth DIR VALUE PID\n");
	return 2;
}
