// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * distroless - the one program of a distroless test container: static, no
 * shell or libc beside it.  It listens on 127.0.0.1:PORT (so that ss(8)
 * run by hijack --tools in its network namespace has something to show)
 * and then waits for signals; SIGTERM ends it with status 0.
 *
 *   distroless [PORT]     (default 8080)
 *
 *   distroless ptrace PID
 *	Try to attach to PID with ptrace(2), as a process of a container
 *	would to reach another's memory: print "attached" or the error, exit
 *	0 or 1 (16-tools.t: the debugging command must refuse it).
 *
 *   distroless asuid UID PROGRAM [ARG...]
 *	Become UID (and gid UID, no supplementary groups) and exec PROGRAM,
 *	as a container process of that user would run it (21-tools-attack.t:
 *	a user of the container against a debugging command of that uid).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static void on_term(int sig)
{
	(void)sig;
	_exit(0);
}

static int try_ptrace(const char *arg)
{
	pid_t pid = (pid_t)atoi(arg);

	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) < 0) {
		printf("ptrace %d: %s\n", (int)pid, strerror(errno));
		return 1;
	}
	printf("attached\n");
	(void)ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 0;
}

static int as_uid(char **argv)
{
	unsigned int id = (unsigned int)atoi(argv[0]);

	if (setgroups(0, NULL) < 0 || setresgid(id, id, id) < 0 ||
	    setresuid(id, id, id) < 0) {
		printf("asuid %u: %s\n", id, strerror(errno));
		return 1;
	}
	execv(argv[1], argv + 1);
	printf("exec %s: %s\n", argv[1], strerror(errno));
	return 127;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int one = 1, fd;

	if (argc > 2 && strcmp(argv[1], "ptrace") == 0)
		return try_ptrace(argv[2]);
	if (argc > 3 && strcmp(argv[1], "asuid") == 0)
		return as_uid(argv + 2);

	a.sin_port = htons(argc > 1 ? (unsigned short)atoi(argv[1]) : 8080);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	(void)signal(SIGTERM, on_term);
	(void)signal(SIGINT, on_term);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* No loopback up, no socket: the container still runs, for entering. */
	if (fd >= 0 &&
	    (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	     bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	     listen(fd, 8) < 0)) {
		(void)close(fd);
		fd = -1;
	}
	for (;;)
		(void)pause();
}
