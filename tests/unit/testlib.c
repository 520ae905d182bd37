// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

bool tl_have_root(void)
{
	return geteuid() == 0;
}

pid_t tl_spawn_target(int flags)
{
	int sv[2];
	pid_t pid;
	char c = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(sv[0]);
		if (unshare(flags) < 0)
			_exit(1);
		/* Ready: the parent may look at /proc/PID/ns now. */
		if (write(sv[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(sv[1]);
	if (read(sv[0], &c, 1) != 1) {
		close(sv[0]);
		tl_kill_target(pid);
		return -1;
	}
	close(sv[0]);
	return pid;
}

void tl_kill_target(pid_t pid)
{
	if (pid <= 0)
		return;
	(void)kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int tl_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
