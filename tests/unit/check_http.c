// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_http - reading to EOF within bounds, and one GET over a unix
 * socket (src/libhijack/engines/http.c), against a daemon played by a child
 * process that answers what the case gives it.  The daemon is trusted no
 * more than a container: its answers here are malformed on purpose.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engines/engines.h"
#include "testlib.h"

static char *dir;
static char sock[108];

static void setup(void)
{
	dir = tl_mkdtemp();
	ck_assert_int_lt(snprintf(sock, sizeof(sock), "%s/api.sock", dir),
			 (int)sizeof(sock));
}

static void teardown(void)
{
	tl_rmtree(dir);
	dir = NULL;
}

/* A pipe whose write end got @data (then closed unless @keep_open). */
static int pipe_with(const char *data, size_t len, bool keep_open, int *wfd)
{
	int p[2];

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	ck_assert_int_eq(fcntl(p[1], F_SETPIPE_SZ, 1 << 20) > 0, 1);
	ck_assert_int_eq(write(p[1], data, len), (ssize_t)len);
	if (keep_open)
		*wfd = p[1];
	else
		(void)close(p[1]);
	return p[0];
}

START_TEST(read_all_bounded)
{
	static char big[100000];
	char *buf = NULL;
	size_t len = 0;
	int fd, w;

	memset(big, 'y', sizeof(big));
	fd = pipe_with(big, sizeof(big), false, NULL);
	ck_assert_int_eq(hj_read_fd_all(fd, sizeof(big), 5000, &buf, &len), 0);
	ck_assert_uint_eq(len, sizeof(big));
	ck_assert_int_eq(buf[len], '\0');
	free(buf);
	(void)close(fd);
	/* One byte over the bound, at any bound: refused, not cut. */
	fd = pipe_with(big, sizeof(big), false, NULL);
	ck_assert_int_eq(hj_read_fd_all(fd, sizeof(big) - 1, 5000, &buf, &len),
			 -EFBIG);
	(void)close(fd);
	fd = pipe_with(big, 101, false, NULL);
	ck_assert_int_eq(hj_read_fd_all(fd, 100, 5000, &buf, &len), -EFBIG);
	(void)close(fd);
	fd = pipe_with(big, 100, false, NULL);
	ck_assert_int_eq(hj_read_fd_all(fd, 100, 5000, &buf, &len), 0);
	ck_assert_uint_eq(len, 100);
	free(buf);
	(void)close(fd);
	fd = pipe_with("", 0, false, NULL);
	ck_assert_int_eq(hj_read_fd_all(fd, 100, 5000, &buf, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(buf, "");
	free(buf);
	(void)close(fd);
	/* A writer that never closes: the deadline ends the wait. */
	fd = pipe_with("partial", 7, true, &w);
	ck_assert_int_eq(hj_read_fd_all(fd, 100, 100, &buf, &len), -ETIMEDOUT);
	(void)close(fd);
	(void)close(w);
}
END_TEST

/* Serve one connection on @sock: check the request, send @answer. */
static pid_t serve(const char *answer, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int l, c, sync[2];
	char req[2048], ready;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	(void)unlink(sock);
	(void)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	ck_assert_int_eq(pipe2(sync, O_CLOEXEC), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid > 0) {
		(void)close(sync[1]);
		ck_assert_int_eq(read(sync[0], &ready, 1), 1);
		(void)close(sync[0]);
		return pid;
	}
	l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(l, 1) < 0 || write(sync[1], "r", 1) != 1)
		_exit(2);
	c = accept(l, NULL, NULL);
	if (c < 0)
		_exit(2);
	while (got < sizeof(req) - 1 && !memmem(req, got, "\r\n\r\n", 4)) {
		n = read(c, req + got, sizeof(req) - 1 - got);
		if (n <= 0)
			_exit(2);
		got += (size_t)n;
	}
	req[got] = '\0';
	if (strncmp(req, "GET /v1/x?all=1 HTTP/1.0\r\n", 26) != 0)
		_exit(3);
	if (write(c, answer, len) != (ssize_t)len)
		_exit(2);
	_exit(0);
}

static int get(const char *answer, char **body, size_t *len)
{
	pid_t pid = serve(answer, strlen(answer));
	int st, r;

	r = hj_http_get(sock, "/v1/x?all=1", body, len);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(st, 0);
	return r;
}

START_TEST(http_statuses)
{
	char *body = NULL;
	size_t len = 0;

	ck_assert_int_eq(get("HTTP/1.0 200 OK\r\nContent-Type: x\r\n\r\n[1,2]",
			     &body, &len), 0);
	ck_assert_str_eq(body, "[1,2]");
	ck_assert_uint_eq(len, 5);
	free(body);
	ck_assert_int_eq(get("HTTP/1.1 200 OK\r\n\r\n", &body, &len), 0);
	ck_assert_uint_eq(len, 0);
	free(body);
	ck_assert_int_eq(get("HTTP/1.1 404 Not Found\r\n\r\nno", &body, &len),
			 -ENOENT);
	ck_assert_int_eq(get("HTTP/1.1 403 Forbidden\r\n\r\n", &body, &len),
			 -EACCES);
	ck_assert_int_eq(get("HTTP/1.1 401 Unauthorized\r\n\r\n", &body, &len),
			 -EACCES);
	ck_assert_int_eq(get("HTTP/1.1 500 Oops\r\n\r\n", &body, &len), -EPROTO);
}
END_TEST

START_TEST(http_malformed)
{
	char *body = NULL;
	size_t len = 0;

	ck_assert_int_eq(get("", &body, &len), -EPROTO);
	ck_assert_int_eq(get("SSH-2.0-OpenSSH\r\n\r\n", &body, &len), -EPROTO);
	ck_assert_int_eq(get("HTTP/2.0 200 OK\r\n\r\n", &body, &len), -EPROTO);
	ck_assert_int_eq(get("HTTP/1.0 200 OK\r\nno end of headers\n\n", &body, &len),
			 -EPROTO);
	ck_assert_int_eq(get("HTTP/1.0 2000 OK\r\n\r\n", &body, &len), -EPROTO);
	ck_assert_int_eq(get("HTTP/1.0 20 OK\r\n\r\n", &body, &len), -EPROTO);
	/* The reason phrase may be empty. */
	ck_assert_int_eq(get("HTTP/1.0 200\r\n\r\nx", &body, &len), 0);
	free(body);
}
END_TEST

START_TEST(http_names)
{
	char *body = NULL, path[2048];
	size_t len = 0;

	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	ck_assert_int_eq(hj_http_get(sock, path, &body, &len), -ENAMETOOLONG);
	ck_assert_int_eq(hj_http_get(path, "/", &body, &len), -ENAMETOOLONG);
	ck_assert_int_eq(hj_http_get(sock, "/", &body, &len), -ENOENT);
}
END_TEST

/* A daemon that is not there is not an error: 0, not -errno. */
START_TEST(api_get_absent_daemons)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *body = NULL;
	size_t len = 0;
	pid_t pid;
	int s, st;

	ck_assert_int_eq(hj_api_get(sock, "/v1/x?all=1", &body, &len), 0);
	tl_write(dir, "api.sock", "a regular file");
	ck_assert_int_eq(hj_api_get(sock, "/v1/x?all=1", &body, &len), 0);
	(void)unlink(sock);
	/* A socket left behind by a daemon that stopped. */
	(void)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	(void)close(s);
	ck_assert_int_eq(hj_api_get(sock, "/v1/x?all=1", &body, &len), 0);
	pid = serve("HTTP/1.0 200 OK\r\n\r\n{}", 21);
	ck_assert_int_eq(hj_api_get(sock, "/v1/x?all=1", &body, &len), 1);
	ck_assert_str_eq(body, "{}");
	free(body);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(st, 0);
}
END_TEST

/*
 * A daemon that accepts nobody: its backlog full, connect() would wait for
 * ever.  The search gives up after the answer's timeout.
 */
START_TEST(api_get_hung_daemon)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timespec t0, t1;
	char *body = NULL;
	size_t len = 0;
	int s, c, i;

	(void)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(s, 0), 0);
	/* Clients that are never accepted, until the queue refuses one. */
	for (i = 0; i < 64; i++) {
		c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		ck_assert_int_ge(c, 0);
		if (connect(c, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			break;
	}
	ck_assert_int_eq(errno, EAGAIN);
	(void)clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(hj_api_get(sock, "/v1/x", &body, &len), -ETIMEDOUT);
	(void)clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_ge(t1.tv_sec - t0.tv_sec, HJ_STATE_TIMEOUT_MS / 1000 - 1);
	ck_assert_ptr_null(body);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("http");
	TCase *tc = tcase_create("daemon");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, read_all_bounded);
	tcase_add_test(tc, http_statuses);
	tcase_add_test(tc, http_malformed);
	tcase_add_test(tc, http_names);
	tcase_add_test(tc, api_get_absent_daemons);
	suite_add_tcase(s, tc);
	/* Waits out the whole timeout of an answer. */
	tc = tcase_create("hung");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 4 + 2 * HJ_STATE_TIMEOUT_MS / 1000);
	tcase_add_test(tc, api_get_hung_daemon);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
