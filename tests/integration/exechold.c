// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exechold - hold every execve() of one file inside the kernel, before the
 * exec's point of no return, for hijack's tests (19-exec-death.t): the
 * last instant at which the command has not started, after everything
 * hijack's child says before its exec.
 *
 *   exechold FILE
 *
 * FILE is marked for fanotify's FAN_OPEN_EXEC_PERM: execve() opens it and
 * then waits, killably, for this program's answer.  exechold prints
 * "ready" once the mark is set, then, for each exec of FILE, the pid of
 * the process held (as exechold's pid namespace numbers it), and answers
 * "allow" to every exec held so far at each line read from stdin; at the
 * end of stdin it allows them all and exits 0.  Exits 77 when the kernel
 * has no fanotify permission events (CONFIG_FANOTIFY_ACCESS_PERMISSIONS),
 * 1 on another error or after 60 s, so that a test cannot hang on it.
 *
 * Static, so that it runs in the QEMU initramfs as on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <unistd.h>

#define MAX_HELD 64
#define TIMEOUT_MS (60 * 1000)

static int held[MAX_HELD];
static int nheld;

static void allow_all(int fan)
{
	struct fanotify_response r = { .response = FAN_ALLOW };

	while (nheld > 0) {
		r.fd = held[--nheld];
		/* A held process that was killed meanwhile has no use for it. */
		(void)!write(fan, &r, sizeof(r));
		close(r.fd);
	}
}

/* Read the events queued on @fan: hold each exec, print its pid. */
static int take_events(int fan)
{
	/* Aligned for the metadata that starts it. */
	union {
		struct fanotify_event_metadata m;
		char b[4096];
	} buf;
	struct fanotify_event_metadata *m;
	ssize_t n;

	n = read(fan, &buf, sizeof(buf));
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	for (m = &buf.m; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n)) {
		if (m->vers != FANOTIFY_METADATA_VERSION)
			return -1;
		if (m->fd < 0)
			continue;
		if (!(m->mask & FAN_OPEN_EXEC_PERM) || nheld == MAX_HELD) {
			struct fanotify_response r = {
				.fd = m->fd, .response = FAN_ALLOW,
			};

			(void)!write(fan, &r, sizeof(r));
			close(m->fd);
			continue;
		}
		held[nheld++] = m->fd;
		printf("%d\n", (int)m->pid);
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct pollfd pfd[2];
	char line[256];
	int fan;

	if (argc != 2) {
		fprintf(stderr, "usage: exechold FILE\n");
		return 2;
	}
	fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK,
			    O_RDONLY | O_CLOEXEC);
	if (fan < 0) {
		perror("exechold: fanotify_init");
		return errno == ENOSYS || errno == EINVAL ? 77 : 1;
	}
	if (fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN_EXEC_PERM, AT_FDCWD,
			  argv[1]) < 0) {
		perror("exechold: fanotify_mark");
		return errno == EINVAL ? 77 : 1;
	}
	printf("ready\n");
	fflush(stdout);

	pfd[0] = (struct pollfd){ .fd = fan, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	for (;;) {
		int n = poll(pfd, 2, TIMEOUT_MS);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "exechold: %s\n",
				n == 0 ? "timed out" : strerror(errno));
			allow_all(fan);
			return 1;
		}
		if ((pfd[0].revents & POLLIN) && take_events(fan) < 0) {
			perror("exechold: read");
			allow_all(fan);
			return 1;
		}
		if (pfd[1].revents & (POLLIN | POLLHUP)) {
			ssize_t r = read(STDIN_FILENO, line, sizeof(line));

			allow_all(fan);
			if (r <= 0)
				return 0;
		}
	}
}
