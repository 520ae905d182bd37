// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * http.c - one HTTP GET over a unix socket, for the engines whose record
 * is an API (Docker, Podman's compatible API, Incus).
 *
 * A request in HTTP/1.0 gets a response without chunked encoding, ended by
 * the server closing the connection: so reading is "read to EOF", and the
 * body is everything after the first empty line.  That is all the HTTP
 * these APIs need; a client library would bring TLS, proxies and
 * redirects, none of which a local socket has.  The daemon is trusted no
 * more than a container: the answer is bounded in size and time.
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include "engines.h"

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Read @fd to EOF within @timeout_ms, at most @max bytes: also the output
 * of an engine's CLI (engine-podman.c).
 */
int hj_read_fd_all(int fd, size_t max, int timeout_ms, char **ret,
		   size_t *ret_len)
{
	long long deadline = hj_now_ms() + timeout_ms;
	size_t len = 0, size = 0;
	_cleanup_free_ char *buf = NULL;
	int r;

	do {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - hj_now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)left);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0) {
			r = -EAGAIN;
			continue;
		}
		r = hj_read_some(fd, &buf, &size, &len, max);
	} while (r > 0 || r == -EAGAIN);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

int hj_http_get(const char *socket_path, const char *path, char **ret_body,
		size_t *ret_len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = HJ_STATE_TIMEOUT_MS / 1000 };
	_cleanup_close_ int fd = -EBADF;
	_cleanup_free_ char *resp = NULL;
	char req[1024];
	const char *body;
	size_t len;
	int status, n, r;
	char after;

	if (hj_copy(sa.sun_path, sizeof(sa.sun_path), socket_path) < 0)
		return -ENAMETOOLONG;
	n = snprintf(req, sizeof(req),
		     "GET %s HTTP/1.0\r\nHost: localhost\r\nUser-Agent: hijack\r\n\r\n",
		     path);
	if (n < 0 || n >= (int)sizeof(req))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/*
	 * A daemon that accepts nobody (hung, or its backlog filled by any
	 * client of its socket, a container it is mounted in included)
	 * would hold connect() for ever: on a unix socket the send timeout
	 * bounds connect() too, which then fails with EAGAIN.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	r = send_all(fd, req, (size_t)n);
	if (r < 0)
		return r;
	r = hj_read_fd_all(fd, HJ_STATE_MAX, HJ_STATE_TIMEOUT_MS, &resp, &len);
	if (r < 0)
		return r;
	/* Three digits and then the end of the code: "2000" is not 200. */
	if (sscanf(resp, "HTTP/1.%*1[01] %3d%c", &status, &after) != 2 ||
	    (after != ' ' && after != '\r'))
		return -EPROTO;
	body = strstr(resp, "\r\n\r\n");
	if (!body)
		return -EPROTO;
	body += 4;
	if (status == 404)
		return -ENOENT;
	if (status == 401 || status == 403)
		return -EACCES;
	if (status != 200)
		return -EPROTO;
	len -= (size_t)(body - resp);
	memmove(resp, body, len + 1);
	*ret_body = TAKE_PTR(resp);
	*ret_len = len;
	return 0;
}

/*
 * GET from a daemon that may not run: 0 when there is no socket or nobody
 * answers on it (a socket left behind by a stopped daemon), 1 with the
 * body, or -errno.
 */
int hj_api_get(const char *socket_path, const char *path, char **ret_body,
	       size_t *ret_len)
{
	struct stat st;
	int r;

	if (stat(socket_path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return 0;
	r = hj_http_get(socket_path, path, ret_body, ret_len);
	if (r == -ECONNREFUSED)
		return 0;
	return r < 0 ? r : 1;
}
