// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * copy-hash.c - the size and SHA-256 of what a --read-file or
 * --write-file moved, for its end record (hijack(1), AUDIT).
 *
 * The copy itself runs in libhijack's child, inside the container's
 * confinement, which would write the caller's fd directly: hashing there
 * would let the container's side say what moved.  So the child gets a
 * pipe instead, and a process of hijack's, outside the container, passes
 * the bytes between that pipe and the caller's fd, counting and hashing
 * them on the way (libcrypto's SHA-256):
 *
 *   --read-file:  copy -> pipe -> hasher -> caller's stdout
 *   --write-file: caller's stdin -> hasher -> pipe -> copy
 *
 * libcrypto is opened in the hasher, not linked: its relocations at
 * load time cost every entry about a millisecond of CPU (on the
 * instruction clock, `make bench-entry-vm`, nearly half of what the CLI
 * took), for the few entries that copy a file.
 *
 * A process and not a thread: libhijack forks the copy after this starts,
 * and glibc's setgroups() in a child forked from a process with another
 * thread waited for that thread for ever (seen in 15-files.t).  When the
 * copy is over hijack closes the stop pipe; the hasher passes on what the
 * data pipe still holds, then sends "BYTES HEX\n" on the result pipe.
 * Should hijack die first, the stop pipe hangs up all the same.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "copy-hash.h"

/* As the copy's own buffer (files.c): one read and one write per 128 KiB. */
#define HASHER_BUF (128 * 1024)

/* How long a write's hasher waits for a copy that lost hijack to die. */
#define COPY_GONE_MS 30000

/* The hasher's fds, moved here before everything else is closed. */
enum { FD_SRC = 3, FD_DST, FD_STOP, FD_RESULT, FD_FIRST_FREE };

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* libcrypto's SHA-256, as the hasher calls it. */
struct sha256_fns {
	__typeof__(EVP_MD_CTX_new) *ctx_new;
	__typeof__(EVP_sha256) *sha256;
	__typeof__(EVP_DigestInit_ex) *init;
	__typeof__(EVP_DigestUpdate) *update;
	__typeof__(EVP_DigestFinal_ex) *final;
};

static int load_sha256(struct sha256_fns *f)
{
	void *h = dlopen(LIBCRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return -ENOENT;
	f->ctx_new = (__typeof__(f->ctx_new))dlsym(h, "EVP_MD_CTX_new");
	f->sha256 = (__typeof__(f->sha256))dlsym(h, "EVP_sha256");
	f->init = (__typeof__(f->init))dlsym(h, "EVP_DigestInit_ex");
	f->update = (__typeof__(f->update))dlsym(h, "EVP_DigestUpdate");
	f->final = (__typeof__(f->final))dlsym(h, "EVP_DigestFinal_ex");
	if (!f->ctx_new || !f->sha256 || !f->init || !f->update || !f->final)
		return -ENOENT;
	return 0;
}

/* In the hasher process: copy until the end, then report. */
static _Noreturn void hasher(bool reading)
{
	static char buf[HASHER_BUF];
	struct pollfd p[2] = {
		{ .fd = FD_SRC, .events = POLLIN },
		{ .fd = FD_STOP, .events = POLLIN },
	};
	unsigned char sum[EVP_MAX_MD_SIZE];
	unsigned long long bytes = 0;
	unsigned int len = 0, i;
	bool stopping = false, eof = false;
	char line[160];
	struct sha256_fns f;
	EVP_MD_CTX *md;
	int err = 0, n;
	ssize_t got;

	if (load_sha256(&f) < 0)
		_exit(1);
	md = f.ctx_new();
	if (!md || f.init(md, f.sha256(), NULL) != 1)
		_exit(1);
	for (;;) {
		/*
		 * Once the copy is over (the stop pipe hangs up), what the
		 * data pipe still holds is passed on; the caller's input is
		 * not waited for any more.
		 */
		if (poll(p, 2, stopping ? 0 : -1) < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		if (p[1].revents) {
			stopping = true;
			p[1].fd = -1;
			if (!reading)
				break;
		}
		if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			if (stopping)
				break;
			continue;
		}
		got = read(FD_SRC, buf, sizeof(buf));
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0) {
			err = got < 0 ? errno : 0;
			eof = got == 0;
			break;
		}
		if (f.update(md, buf, (size_t)got) != 1) {
			err = EIO;
			break;
		}
		bytes += (unsigned long long)got;
		err = -write_all(FD_DST, buf, (size_t)got);
		if (err)
			break;
	}
	/*
	 * A write's copy takes the end of its input as the whole file and
	 * puts it in place.  When the caller's input did not end (hijack
	 * was killed, or the copy failed), the pipe is closed only once the
	 * copy is gone (its end hangs up: POLLERR), so that a copy still
	 * running, which hijack's death sends SIGHUP, never sees an EOF
	 * that would commit half a file.
	 */
	if (!reading && !eof) {
		struct pollfd gone = { .fd = FD_DST, .events = 0 };

		while (poll(&gone, 1, COPY_GONE_MS) < 0 && errno == EINTR)
			;
	}
	/* The copy's end sees EOF or EPIPE now, as from the caller's fd. */
	(void)close(reading ? FD_SRC : FD_DST);
	if (!err && f.final(md, sum, &len) != 1)
		err = EIO;
	if (err) {
		n = snprintf(line, sizeof(line), "error %d\n", err);
	} else {
		n = snprintf(line, sizeof(line), "%llu ", bytes);
		for (i = 0; i < len && i < 32; i++)
			n += snprintf(line + n, sizeof(line) - (size_t)n, "%02x", sum[i]);
		n += snprintf(line + n, sizeof(line) - (size_t)n, "\n");
	}
	(void)write_all(FD_RESULT, line, (size_t)n);
	_exit(0);
}

/* Move @fds (4 of them) to FD_SRC.. in order, and close every other fd. */
static int settle_fds(const int fds[4])
{
	int high[4], i;

	for (i = 0; i < 4; i++) {
		high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 100);
		if (high[i] < 0)
			return -errno;
	}
	for (i = 0; i < 4; i++)
		if (dup3(high[i], FD_SRC + i, O_CLOEXEC) < 0)
			return -errno;
	return close_range(FD_FIRST_FREE, ~0U, 0) < 0 ? -errno : 0;
}

int copy_hash_start(struct copy_hash *h, struct hijack_file *f)
{
	static const int quiet[] = { SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGTSTP,
				     SIGPIPE, SIGUSR1, SIGUSR2, SIGWINCH };
	int data[2], stop[2] = { -1, -1 }, result[2] = { -1, -1 }, fds[4];
	bool reading = f->op == HIJACK_FILE_READ;
	size_t i;
	int r;

	*h = (struct copy_hash){ .child_end = -EBADF, .stop = -EBADF,
				 .result = -EBADF };
	if (pipe2(data, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(stop, O_CLOEXEC) < 0 || pipe2(result, O_CLOEXEC) < 0) {
		r = -errno;
		goto fail;
	}
	h->pid = fork();
	if (h->pid < 0) {
		r = -errno;
		goto fail;
	}
	/*
	 * Twice: the hasher is no child of hijack's, whose only child stays
	 * the copy (what a caller watching hijack's children expects, as
	 * 15-files.t does); it ends by itself when its pipes do.
	 */
	if (h->pid == 0 && fork() != 0)
		_exit(0);
	if (h->pid == 0) {
		/*
		 * The caller's Ctrl-C is hijack's to forward to the copy; the
		 * hasher ends with its input, and a reader of stdout that
		 * went away is an EPIPE here, not a death.
		 */
		for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
			(void)signal(quiet[i], SIG_IGN);
		fds[0] = reading ? data[0] : f->fd;
		fds[1] = reading ? f->fd : data[1];
		fds[2] = stop[0];
		fds[3] = result[1];
		if (settle_fds(fds) < 0)
			_exit(1);
		hasher(reading);
	}
	while (waitpid(h->pid, NULL, 0) < 0 && errno == EINTR)
		;
	(void)close(stop[0]);
	(void)close(result[1]);
	h->stop = stop[1];
	h->result = result[0];
	h->child_end = reading ? data[1] : data[0];
	(void)close(reading ? data[0] : data[1]);
	f->fd = h->child_end;
	return 0;
fail:
	(void)close(data[0]);
	(void)close(data[1]);
	for (i = 0; i < 2; i++) {
		if (stop[i] >= 0)
			(void)close(stop[i]);
		if (result[i] >= 0)
			(void)close(result[i]);
	}
	return r;
}

int copy_hash_finish(struct copy_hash *h, unsigned long long *ret_bytes,
		     char ret_hex[65])
{
	char line[160] = "", hex[65];
	unsigned long long bytes;
	size_t n = 0;
	ssize_t got;

	/* The copy has ended: ours was the last other end of the data pipe. */
	(void)close(h->child_end);
	(void)close(h->stop);
	while (n < sizeof(line) - 1) {
		got = read(h->result, line + n, sizeof(line) - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	line[n] = '\0';
	(void)close(h->result);
	if (sscanf(line, "%llu %64[0-9a-f]", &bytes, hex) != 2 ||
	    strlen(hex) != 64)
		return -EIO;
	*ret_bytes = bytes;
	memcpy(ret_hex, hex, sizeof(hex));
	return 0;
}

void copy_hash_abandon(struct copy_hash *h)
{
	unsigned long long bytes;
	char hex[65];

	(void)copy_hash_finish(h, &bytes, hex);
}
