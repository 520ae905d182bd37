// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * freezedecoy - the container's two ways of hiding a freezer from the look
 * hijack makes when the command does not end as asked (19-exec-death.t).
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
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
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

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fuse"))
		return fuse(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "threads"))
		return threads(argv[2]);
	fprintf(stderr, "usage: freezedecoy fuse DIR | threads FILE\n");
	return 2;
}
