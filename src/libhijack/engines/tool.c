// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tool.c - run an engine's own CLI for its machine-readable output, where
 * the engine offers nothing cheaper (engine-podman.c, engine-machine.c).
 */
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/wait.h>

#include "engines.h"

extern char **environ;

/*
 * Run an engine's CLI, @argv[0] searched in PATH, with its stdout into
 * @ret; no stdin, no stderr.  Return 1, 0 when the tool is not installed,
 * or a negative errno (-EPROTO: it failed).
 */
int hj_run_tool(char *const argv[], char **ret, size_t *ret_len)
{
	_cleanup_close_ int rd = -EBADF, wr = -EBADF;
	_cleanup_free_ char *out = NULL;
	posix_spawn_file_actions_t fa;
	int p[2], status, r;
	size_t len;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	rd = p[0];
	wr = p[1];
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -ENOMEM;
	(void)posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	(void)posix_spawn_file_actions_adddup2(&fa, wr, 1);
	(void)posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	r = -posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	close_fdp(&wr);
	r = hj_read_fd_all(rd, 16u << 20, 30000, &out, &len);
	/*
	 * A tool that said too much or took too long is still running, and
	 * one that writes on would block on the full pipe while we wait for
	 * it: it is our unreaped child, so its pid is still its own to kill.
	 */
	close_fdp(&rd);
	if (r < 0)
		(void)kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r < 0)
		return r;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -EPROTO;
	*ret = TAKE_PTR(out);
	*ret_len = len;
	return 1;
}
