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
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
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

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int one = 1, fd;

	if (argc > 2 && strcmp(argv[1], "ptrace") == 0)
		return try_ptrace(argv[2]);

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
