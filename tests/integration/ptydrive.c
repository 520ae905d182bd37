// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ptydrive - run a command on a terminal of its own and play a user at it,
 * for hijack's terminal tests.
 *
 *   ptydrive [-w ROWS:COLS] [STEP...] -- COMMAND [ARG...]
 *
 * COMMAND starts as a session leader on a new pseudo-terminal (its 0, 1
 * and 2), so that hijack sees a terminal as it would under a shell.  The
 * steps then run in order:
 *
 *   -e TEXT	wait (up to 20 s) until the output holds TEXT
 *   -s TEXT	type TEXT; \n, \r, \\, \e and \ooo (octal, e.g. \003 for
 *		Ctrl-C) are escapes
 *   -k SIG	send signal number SIG to COMMAND
 *   -f PATH	wait (up to 20 s) until PATH exists, reading the output
 *		meanwhile: the test sets a scene, then creates PATH
 *   -r R:C	resize the terminal, as a terminal emulator does
 *
 * Then it reads until COMMAND exits and prints, after everything COMMAND
 * wrote:
 *
 *   ptydrive: tty DEV:INO		the terminal COMMAND was given
 *   ptydrive: termios restored|changed	whether COMMAND left the terminal's
 *					settings as they were at the start
 *   ptydrive: exit N | signal N
 *
 * and exits with COMMAND's status (128+N for a signal), 124 on a timeout,
 * 2 on a usage error.  Static, so it runs in the QEMU initramfs as well.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT_MS 20000

static char out[1 << 20];
static size_t outlen, seen;	/* -e searches from @seen on */

static void die(const char *what)
{
	fprintf(stderr, "ptydrive: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read what is there within @ms; false at end of output. */
static int pump(int master, int ms)
{
	struct pollfd pfd = { .fd = master, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return 1;
	n = read(master, out + outlen, sizeof(out) - 1 - outlen);
	if (n <= 0)
		return 0;	/* EIO: every slave is closed */
	outlen += (size_t)n;
	out[outlen] = '\0';
	return 1;
}

static size_t unescape(const char *s, char *buf)
{
	size_t n = 0;

	while (*s) {
		if (*s != '\\' || !s[1]) {
			buf[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': buf[n++] = '\n'; s++; break;
		case 'r': buf[n++] = '\r'; s++; break;
		case 'e': buf[n++] = '\033'; s++; break;
		case '\\': buf[n++] = '\\'; s++; break;
		default:
			if (*s >= '0' && *s <= '7') {
				int v = 0, i;

				for (i = 0; i < 3 && *s >= '0' && *s <= '7'; i++)
					v = v * 8 + (*s++ - '0');
				buf[n++] = (char)v;
			} else {
				buf[n++] = *s++;
			}
		}
	}
	return n;
}

static int parse_size(const char *arg, struct winsize *ws)
{
	unsigned int r, c;

	if (sscanf(arg, "%u:%u", &r, &c) != 2)
		return -1;
	*ws = (struct winsize){ .ws_row = (unsigned short)r,
				.ws_col = (unsigned short)c };
	return 0;
}

static void usage(void)
{
	fputs("usage: ptydrive [-w ROWS:COLS] [-e TEXT|-s TEXT|-k SIG|-r R:C|-f PATH]... -- COMMAND [ARG...]\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	struct termios before, after;
	int master, slave, status, i, first;
	struct stat st;
	long deadline;
	pid_t pid;

	/*
	 * Compared with memcmp() at the end: zero the padding tcgetattr()
	 * leaves alone (after c_cc), or stack garbage decides the verdict
	 * (it did in an -O1 build).
	 */
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));

	/* The command starts after the steps are known: find "--" first. */
	for (first = 1; first < argc && strcmp(argv[first], "--"); first++)
		if (!strcmp(argv[first], "-w") && first + 1 < argc &&
		    parse_size(argv[first + 1], &ws) < 0)
			usage();
	if (first >= argc - 1)
		usage();

	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
		die("posix_openpt");
	slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave < 0)
		die("open the slave");
	if (ioctl(slave, TIOCSWINSZ, &ws) < 0 || tcgetattr(slave, &before) < 0 ||
	    fstat(slave, &st) < 0)
		die("set up the terminal");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) < 0 ||
		    dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
			_exit(125);
		execvp(argv[first + 1], argv + first + 1);
		_exit(127);
	}

	for (i = 1; i < first; i += 2) {
		char buf[1024];

		if (i + 1 >= first || strlen(argv[i + 1]) >= sizeof(buf))
			usage();
		if (!strcmp(argv[i], "-e")) {
			deadline = now_ms() + TIMEOUT_MS;
			while (!strstr(out + seen, argv[i + 1])) {
				if (now_ms() > deadline || !pump(master, 100)) {
					fprintf(stdout, "%s\nptydrive: no '%s' in the output\n",
						out, argv[i + 1]);
					kill(pid, SIGKILL);
					return 124;
				}
			}
			seen = (size_t)(strstr(out + seen, argv[i + 1]) - out) +
			       strlen(argv[i + 1]);
		} else if (!strcmp(argv[i], "-s")) {
			size_t n = unescape(argv[i + 1], buf);

			if (write(master, buf, n) != (ssize_t)n)
				die("type");
		} else if (!strcmp(argv[i], "-k")) {
			kill(pid, atoi(argv[i + 1]));
		} else if (!strcmp(argv[i], "-f")) {
			deadline = now_ms() + TIMEOUT_MS;
			while (access(argv[i + 1], F_OK) != 0) {
				if (now_ms() > deadline) {
					fprintf(stdout, "%s\nptydrive: no %s\n",
						out, argv[i + 1]);
					kill(pid, SIGKILL);
					return 124;
				}
				if (!pump(master, 50))
					usleep(10000);
			}
		} else if (!strcmp(argv[i], "-r")) {
			struct winsize w;

			if (parse_size(argv[i + 1], &w) < 0)
				usage();
			if (ioctl(master, TIOCSWINSZ, &w) < 0)
				die("resize");
		} else if (strcmp(argv[i], "-w")) {
			usage();
		}
	}

	/* Read to the end: the command's output must not wait on us. */
	deadline = now_ms() + TIMEOUT_MS;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (now_ms() > deadline) {
			kill(pid, SIGKILL);
			fprintf(stdout, "%s\nptydrive: timeout\n", out);
			return 124;
		}
		if (!pump(master, 50))
			usleep(10000);
	}
	/* A read flushes the terminal's buffers first; poll() would not. */
	if (fcntl(master, F_SETFL, O_NONBLOCK) < 0)
		die("O_NONBLOCK");
	while (outlen < sizeof(out) - 1) {
		ssize_t n = read(master, out + outlen, sizeof(out) - 1 - outlen);

		if (n <= 0)
			break;
		outlen += (size_t)n;
		out[outlen] = '\0';
	}
	if (tcgetattr(slave, &after) < 0)
		die("tcgetattr");

	fputs(out, stdout);
	printf("\nptydrive: tty %lu:%lu\n", (unsigned long)st.st_dev,
	       (unsigned long)st.st_ino);
	printf("ptydrive: termios %s\n",
	       memcmp(&before, &after, sizeof(before)) ? "changed" : "restored");
	if (WIFSIGNALED(status)) {
		printf("ptydrive: signal %d\n", WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	printf("ptydrive: exit %d\n", WEXITSTATUS(status));
	return WEXITSTATUS(status);
}
