// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recording.c - a session's terminal, recorded as asciicast v2: a JSON
 * header line, then one JSON array per relayed chunk,
 *
 *   {"version": 2, "width": 80, "height": 24, "timestamp": ..., ...}
 *   [0.104212, "o", "$ "]
 *   [1.021950, "i", "ls\r"]
 *   [3.500001, "m", "hijack: recording ended: disk full"]
 *
 * which "asciinema play FILE" replays and grep or jq read (hijack(1),
 * AUDIT, says why this format and not sudo's I/O log).
 *
 * What the container controls is which bytes go through the relay, how
 * many and when; nothing of where they go.  The relay must not slow down
 * because a recording is made, nor stop because the disk does, so it
 * only copies each chunk into a bounded ring (RECORDING_RING bytes) and
 * a writer thread of hijack's turns the ring into JSON and writes it.  A
 * relay that finds the ring full waits at most RECORDING_STALL_MS for
 * the writer to empty half of it; a writer slower than that (2 MiB in
 * half a second) ends the recording ("stalled"), not the session, so a
 * slow disk or output that is costly to escape slows the relay by half
 * a second per 2 MiB at most, and only while the writer keeps up.  A
 * disk that fills ends the recording too: the file keeps a few KiB
 * allocated past its data (fallocate) for the line that says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "audit.h"
#include "macro.h"

/* What the writer sleeps for. */
enum writer_sleep {
	WRITER_AWAKE,
	WRITER_EMPTY,		/* any byte in the ring, or the end */
	WRITER_BATCH,		/* WAKE_BATCH bytes, or WAKE_DELAY_MS */
};

/* The writer's batches, and the room kept for the closing marker. */
#define OUT_BATCH (64 * 1024)
#define WAKE_BATCH (64 * 1024)
#define WAKE_DELAY_MS 20
#define ALLOC_STEP (64 * 1024)
#define MARKER_ROOM 4096
#define OUT_ROOM (OUT_BATCH * 4)

/* One chunk in the ring: this header, then @len bytes. */
struct chunk {
	unsigned long long usec;	/* since the recording started */
	unsigned int len;
	unsigned int dir;		/* enum hijack_relay_dir */
};

struct recording {
	int fd;
	char path[4096];
	bool input;			/* "i" events are written too */
	unsigned long long t0;		/* CLOCK_MONOTONIC µs at the header */

	/*
	 * The ring has one producer (the relay) and one consumer (the
	 * writer), so it needs no lock: each side owns one counter, and
	 * reads the other's with acquire.  The lock and the two conditions
	 * are only for sleeping: a side that is about to sleep says so in
	 * @writer_sleep or @relay_waits, and the other side takes the lock
	 * to wake it only then.  Both store their own word before they load
	 * the other's (sequentially consistent), so one of them always
	 * sees the other and no wakeup is lost.
	 */
	unsigned char *ring;
	_Atomic unsigned long long head;	/* bytes put: the relay's */
	_Atomic unsigned long long tail;	/* bytes taken: the writer's */
	_Atomic int writer_sleep;	/* enum writer_sleep */
	_Atomic bool relay_waits;	/* for room in a full ring */
	_Atomic bool closing;		/* the session is over: drain and stop */
	_Atomic bool stopped;		/* ended early: later chunks dropped */
	unsigned long long dropped;	/* bytes relayed but not recorded: the relay's */
	unsigned long long put_bytes;	/* bytes put into the ring: the relay's */
	_Atomic unsigned long long taken_bytes;	/* of those, taken out */
	_Atomic unsigned long long writer_dropped;	/* taken, never written */

	pthread_mutex_t lock;
	pthread_cond_t more, room;
	pthread_t writer;
	bool writer_started;		/* the relay's */
	bool writer_done;		/* under @lock */
	enum recording_end end;		/* under @lock, set once with @stopped */
	int end_err;

	/* The writer's alone. */
	char carry[2][4];		/* an unfinished UTF-8 sequence per way */
	size_t carry_len[2];
	char *out;			/* JSON lines not yet written */
	size_t outlen;
	unsigned long long out_bytes;	/* the relayed bytes those lines hold */
	off_t written;			/* bytes of whole lines in the file */
	off_t allocated;		/* fallocate()d up to here */
	bool no_fallocate;
	bool failed;			/* a write failed: nothing more is tried */
	bool marker_written;
	bool marking;			/* the marker may use MARKER_ROOM */
};

static const char *const end_names[] = {
	[RECORDING_END_COMPLETE] = "complete",
	[RECORDING_END_DISK_FULL] = "disk-full",
	[RECORDING_END_WRITE_ERROR] = "write-error",
	[RECORDING_END_STALLED] = "stalled",
	[RECORDING_END_NO_TERMINAL] = "no-terminal",
};

const char *recording_end_name(enum recording_end end)
{
	return (size_t)end < ARRAY_SIZE(end_names) ? end_names[end] : "unknown";
}

/* --------------------------------------------------------- the directory */

int recording_dir_check(const char *dir, char *reterr_why, size_t whylen)
{
	_cleanup_close_ int fd = -EBADF;
	struct stat st;
	char parent[4096], *slash;

	if (dir[0] != '/') {
		(void)snprintf(reterr_why, whylen, "%s: not an absolute path", dir);
		return -EINVAL;
	}
	/*
	 * Made 0700 when missing, its parents 0755 as a log directory's
	 * are; a directory that exists is taken only as it is checked below.
	 */
	if (mkdir(dir, 0700) < 0 && errno == ENOENT) {
		(void)snprintf(parent, sizeof(parent), "%s", dir);
		for (slash = strchr(parent + 1, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			(void)mkdir(parent, 0755);
			*slash = '/';
		}
		(void)mkdir(dir, 0700);
	}
	/*
	 * O_NOFOLLOW on the last component: a symlink put there would send
	 * root's recordings wherever its owner likes.  The checks are made on
	 * the fd that the recording is then created through, not by name
	 * again.
	 */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		(void)snprintf(reterr_why, whylen, "%s: %s", dir,
			       err == ELOOP || err == ENOTDIR ?
				       "a symlink or not a directory" :
				       strerror(err));
		return -err;
	}
	if (fstat(fd, &st) < 0) {
		int err = errno;

		(void)snprintf(reterr_why, whylen, "%s: %s", dir, strerror(err));
		return -err;
	}
	if (st.st_uid != 0) {
		(void)snprintf(reterr_why, whylen, "%s: not owned by root", dir);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		(void)snprintf(reterr_why, whylen,
			       "%s: writable by group or others", dir);
		return -EPERM;
	}
	return TAKE_FD(fd);
}

/* ------------------------------------------------------------ the writer */

/* At most two copies each: up to the ring's end, then from its start. */
static void ring_put(struct recording *r, unsigned long long at,
		     const void *buf, size_t len)
{
	size_t off = at % RECORDING_RING, first = RECORDING_RING - off;

	if (first > len)
		first = len;
	memcpy(r->ring + off, buf, first);
	memcpy(r->ring, (const char *)buf + first, len - first);
}

static void ring_get(const struct recording *r, unsigned long long at,
		     void *buf, size_t len)
{
	size_t off = at % RECORDING_RING, first = RECORDING_RING - off;

	if (first > len)
		first = len;
	memcpy(buf, r->ring + off, first);
	memcpy((char *)buf + first, r->ring, len - first);
}

/* Allocate ahead, so that MARKER_ROOM bytes past the data are always ours. */
static int reserve(struct recording *r, size_t len)
{
	off_t keep = r->marking ? 0 : MARKER_ROOM, want;

	if (r->no_fallocate || r->written + (off_t)len + keep <= r->allocated)
		return 0;
	want = (r->written + (off_t)len + MARKER_ROOM + ALLOC_STEP - 1) /
	       ALLOC_STEP * ALLOC_STEP;
	if (fallocate(r->fd, FALLOC_FL_KEEP_SIZE, r->allocated,
		      want - r->allocated) == 0) {
		r->allocated = want;
		return 0;
	}
	if (errno == EOPNOTSUPP || errno == ENOSYS) {
		/* Then a full disk may cost the marker; the end record says it. */
		r->no_fallocate = true;
		return 0;
	}
	return -errno;
}

static int write_out(struct recording *r, const char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;
	int err;

	err = reserve(r, len);
	if (err < 0)
		return err;
	while (done < len) {
		n = write(r->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : ENOSPC;
			/* No half line: a reader would stop at it. */
			(void)ftruncate(r->fd, r->written);
			(void)lseek(r->fd, r->written, SEEK_SET);
			return -err;
		}
		done += (size_t)n;
	}
	r->written += (off_t)len;
	return 0;
}

static void stop(struct recording *r, int err);

/* Write @len bytes of whole lines; a failure ends the recording. */
static void put(struct recording *r, const char *buf, size_t len)
{
	int err;

	if (r->failed)
		return;
	err = write_out(r, buf, len);
	if (err < 0)
		stop(r, err);
}

/* Lines that will never be written: what they held counts as dropped. */
static void lose_out(struct recording *r)
{
	atomic_fetch_add(&r->writer_dropped, r->out_bytes);
	r->outlen = 0;
	r->out_bytes = 0;
}

static void flush_out(struct recording *r)
{
	size_t len = r->outlen;

	if (!len)
		return;
	if (!r->failed)
		put(r, r->out, len);
	if (r->failed) {
		lose_out(r);
		return;
	}
	r->outlen = 0;
	r->out_bytes = 0;
}

/*
 * Whether the eight bytes at @p are all printable ASCII other than " and
 * \, which a JSON string holds as they are: the writer's time goes into
 * these two loops, and the relay waits for it when the ring fills, so a
 * recorded session is as fast as an unrecorded one only if they keep up
 * with a stream.  The tests are the usual word-at-a-time ones: each
 * answers exactly whether some byte of the word matches.
 */
#define BYTES(b) (0x0101010101010101ULL * (b))
#define HAS_ZERO(w) (((w) - BYTES(1)) & ~(w) & BYTES(0x80))
#define HAS_LESS(w, b) (((w) - BYTES(b)) & ~(w) & BYTES(0x80))

static inline uint64_t word_at(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static inline bool plain8(const unsigned char *p)
{
	uint64_t w = word_at(p);

	return !((w & BYTES(0x80)) | HAS_LESS(w, 0x20) |
		 HAS_ZERO(w ^ BYTES(0x7f)) | HAS_ZERO(w ^ BYTES('"')) |
		 HAS_ZERO(w ^ BYTES('\\')));
}

/*
 * @len bytes of valid UTF-8 (to_utf8()) as the inside of a JSON string,
 * into @out (room for 6 * @len bytes).  Written here rather than by
 * jansson's encoder, which decodes each code point again: on 50 MB of
 * output it cost a second of CPU, more than the relay itself, and the
 * relay waits for the ring when the writer falls behind.  The unit test
 * holds this to jansson's parser (check_audit.c).  Besides what JSON
 * requires (", \ and C0 controls), DEL and the C1 controls (U+0080 to
 * U+009F, which some terminals obey as 8-bit escapes) are escaped too:
 * nothing in the file acts on a terminal that cats or greps it.
 */
size_t recording_json_escape(const char *in, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)in;
	size_t n = 0, i;

	for (i = 0; i < len; i++) {
		unsigned char c;

		/* Runs of plain text, as most output is, eight bytes a step. */
		while (i + 8 <= len && plain8(p + i)) {
			memcpy(out + n, p + i, 8);
			n += 8;
			i += 8;
		}
		if (i == len)
			break;
		c = p[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) {
			out[n++] = (char)c;
			continue;
		}
		if (c == 0xc2 && i + 1 < len && p[i + 1] < 0xa0) {
			/* A C1 control: U+0080 to U+009F. */
			memcpy(out + n, "\\u00", 4);
			out[n + 4] = hex[p[i + 1] >> 4];
			out[n + 5] = hex[p[i + 1] & 0xf];
			n += 6;
			i++;
			continue;
		}
		if (c >= 0x80) {
			out[n++] = (char)c;
			continue;
		}
		out[n++] = '\\';
		switch (c) {
		case '"':
		case '\\':
			out[n++] = (char)c;
			break;
		case '\n':
			out[n++] = 'n';
			break;
		case '\r':
			out[n++] = 'r';
			break;
		case '\t':
			out[n++] = 't';
			break;
		default:
			memcpy(out + n, "u00", 3);
			out[n + 3] = hex[c >> 4];
			out[n + 4] = hex[c & 0xf];
			n += 5;
			break;
		}
	}
	return n;
}

/* Room for one line: its text escaped, and the rest. */
#define LINE_MAX_FOR(len) (6 * (len) + 64)

static void add_line(struct recording *r, unsigned long long usec,
		     const char *type, const char *text, size_t len)
{
	char *o;
	int n;

	if (r->outlen + LINE_MAX_FOR(len) > OUT_ROOM)
		flush_out(r);
	if (LINE_MAX_FOR(len) > OUT_ROOM)
		return;	/* never: a chunk is 4 KiB at most */
	o = r->out + r->outlen;
	n = snprintf(o, 64, "[%llu.%06llu, \"%s\", \"", usec / 1000000,
		     usec % 1000000, type);
	if (n <= 0 || n >= 64)
		return;
	n += (int)recording_json_escape(text, len, o + n);
	memcpy(o + n, "\"]\n", 3);
	r->outlen += (size_t)n + 3;
}

/*
 * The range a continuation byte may take at position @k (1-3) of a
 * sequence led by @lead: the second byte is narrower for some leads, which
 * is how overlong forms, surrogates and code points past U+10FFFF are
 * kept out.
 */
static bool continues(unsigned char lead, size_t k, unsigned char c)
{
	unsigned char lo = 0x80, hi = 0xbf;

	if (k == 1) {
		if (lead == 0xe0)
			lo = 0xa0;
		else if (lead == 0xed)
			hi = 0x9f;
		else if (lead == 0xf0)
			lo = 0x90;
		else if (lead == 0xf4)
			hi = 0x8f;
	}
	return c >= lo && c <= hi;
}

/*
 * The bytes of one chunk as valid UTF-8: a sequence cut by the end of a
 * read is finished with the next chunk of the same way (as a terminal
 * would see it), and each maximal part of an invalid sequence becomes one
 * U+FFFD (as Unicode recommends, and as Python's decoder, which the
 * asciinema recorder uses, does), so that the event is a JSON string
 * whatever the container printed.  Control characters stay, escaped by
 * jansson (\u001b): a replay needs them.
 */
static size_t to_utf8(struct recording *r, unsigned int way,
		      const unsigned char *in, size_t len, char *out)
{
	static const char repl[] = "\xef\xbf\xbd";
	unsigned char buf[4 + 4096];
	size_t n = 0, i = 0, total, need, k;

	memcpy(buf, r->carry[way], r->carry_len[way]);
	memcpy(buf + r->carry_len[way], in, len);
	total = r->carry_len[way] + len;
	r->carry_len[way] = 0;
	while (i < total) {
		unsigned char c;

		/* ASCII, eight bytes a step (plain8()). */
		while (i + 8 <= total && !(word_at(buf + i) & BYTES(0x80))) {
			memcpy(out + n, buf + i, 8);
			n += 8;
			i += 8;
		}
		if (i == total)
			break;
		c = buf[i];
		if (c < 0x80) {
			out[n++] = (char)c;
			i++;
			continue;
		}
		need = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 && c < 0xf0 ? 2 :
		       c >= 0xc2 && c < 0xe0 ? 1 : 0;
		for (k = 1; k <= need && i + k < total; k++)
			if (!continues(c, k, buf[i + k]))
				break;
		if (need && k <= need && i + k == total) {
			/* Cut short by the read: wait for the rest. */
			memcpy(r->carry[way], buf + i, total - i);
			r->carry_len[way] = total - i;
			break;
		}
		if (!need || k <= need) {
			/* The lead and the continuations that fitted. */
			memcpy(out + n, repl, 3);
			n += 3;
			i += need ? k : 1;
			continue;
		}
		memcpy(out + n, buf + i, need + 1);
		n += need + 1;
		i += need + 1;
	}
	return n;
}

/* The last line: why the recording ends here.  Into the room kept for it. */
static void add_marker(struct recording *r, const char *why)
{
	unsigned long long usec = audit_now_mono() - r->t0;

	bool failed = r->failed;

	/*
	 * Into the room reserve() kept, which the failed write left alone.
	 * Lines made after the failure wait in r->out and were never to be
	 * written: with them the marker would not fit.
	 */
	if (failed)
		lose_out(r);
	r->failed = false;
	r->marking = true;
	add_line(r, usec, "m", why, strlen(why));
	flush_out(r);
	r->marking = false;
	r->marker_written = !r->failed;
	r->failed = failed || r->failed;
}

static void stop_locked(struct recording *r, enum recording_end end, int err)
{
	if (atomic_load(&r->stopped))
		return;
	r->end = end;
	r->end_err = err;
	atomic_store(&r->stopped, true);
}

/* A write failed: the recording ends, with a marker if it still fits. */
static void stop(struct recording *r, int err)
{
	r->failed = true;
	(void)pthread_mutex_lock(&r->lock);
	stop_locked(r, err == -ENOSPC || err == -EDQUOT ?
			       RECORDING_END_DISK_FULL :
			       RECORDING_END_WRITE_ERROR,
		    -err);
	(void)pthread_mutex_unlock(&r->lock);
}

/*
 * Up to TAKE_MAX bytes of whole chunks, of those the relay had put by
 * @head, from the ring into @buf; their room goes back to the relay at
 * once, before they are turned into JSON.
 */
#define TAKE_MAX (64 * 1024)

static size_t take_chunks(struct recording *r, unsigned long long head,
			  unsigned char *buf, unsigned long long *ret_bytes)
{
	unsigned long long tail = atomic_load_explicit(&r->tail,
						       memory_order_relaxed);
	size_t taken = 0;
	struct chunk c;

	*ret_bytes = 0;
	while (head != tail) {
		ring_get(r, tail, &c, sizeof(c));
		if (taken + sizeof(c) + c.len > TAKE_MAX)
			break;
		ring_get(r, tail, buf + taken, sizeof(c) + c.len);
		taken += sizeof(c) + c.len;
		tail += sizeof(c) + c.len;
		*ret_bytes += c.len;
	}
	atomic_fetch_add(&r->taken_bytes, *ret_bytes);
	atomic_store(&r->tail, tail);
	if (atomic_load(&r->relay_waits)) {
		(void)pthread_mutex_lock(&r->lock);
		(void)pthread_cond_signal(&r->room);
		(void)pthread_mutex_unlock(&r->lock);
	}
	return taken;
}

/* Each chunk of @buf as a line of the recording. */
static void write_chunks(struct recording *r, const unsigned char *buf,
			 size_t len)
{
	/* Every byte may become U+FFFD: 3 bytes (JSON escapes come later). */
	char text[3 * (4 + 4096)];
	struct chunk c;
	size_t off = 0, n;

	while (off < len) {
		memcpy(&c, buf + off, sizeof(c));
		off += sizeof(c);
		n = to_utf8(r, c.dir, buf + off, c.len, text);
		off += c.len;
		if (n)
			add_line(r, c.usec,
				 c.dir == HIJACK_RELAY_INPUT ? "i" : "o", text, n);
		r->out_bytes += c.len;
		if (r->outlen >= OUT_BATCH)
			flush_out(r);
	}
}

/* CLOCK_MONOTONIC @ms from now: the conditions' clock (recording_open()). */
static struct timespec deadline_in(unsigned int ms)
{
	struct timespec t;

	(void)clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

static bool writer_may_go(struct recording *r, enum writer_sleep why)
{
	unsigned long long n = atomic_load(&r->head) -
			       atomic_load_explicit(&r->tail, memory_order_relaxed);

	/*
	 * Not for @stopped: a recording that ended early still takes what
	 * the ring holds (and drops it), then sleeps like any other.
	 */
	return atomic_load(&r->closing) ||
	       (why == WRITER_EMPTY ? n > 0 : n >= WAKE_BATCH);
}

/*
 * Sleep until writer_may_go(); for a batch, WAKE_DELAY_MS at most.  The
 * relay, closing and stopping wake it; the relay only when it sees the
 * word set here.
 */
static void writer_wait(struct recording *r, enum writer_sleep why)
{
	struct timespec t = deadline_in(WAKE_DELAY_MS);

	(void)pthread_mutex_lock(&r->lock);
	atomic_store(&r->writer_sleep, why);
	while (atomic_load(&r->writer_sleep) == (int)why &&
	       !writer_may_go(r, why)) {
		if (why == WRITER_EMPTY)
			(void)pthread_cond_wait(&r->more, &r->lock);
		else if (pthread_cond_timedwait(&r->more, &r->lock, &t) ==
			 ETIMEDOUT)
			break;
	}
	atomic_store(&r->writer_sleep, WRITER_AWAKE);
	(void)pthread_mutex_unlock(&r->lock);
}

/*
 * The session is over: a sequence that its last bytes left unfinished
 * will never be finished, and is recorded as the replacement character
 * that every other invalid byte becomes.
 */
static void finish_carries(struct recording *r)
{
	unsigned int way;

	for (way = 0; way < ARRAY_SIZE(r->carry_len); way++) {
		if (!r->carry_len[way])
			continue;
		add_line(r, audit_now_mono() - r->t0,
			 way == HIJACK_RELAY_INPUT ? "i" : "o", "\xef\xbf\xbd", 3);
		r->carry_len[way] = 0;
	}
}

static void *writer_main(void *arg)
{
	struct recording *r = arg;
	unsigned long long head, bytes;
	unsigned char *data;
	bool marked = false;
	size_t n;

	/* Not on the stack: a thread's stack size is the libc's to choose. */
	data = malloc(TAKE_MAX);
	if (!data) {
		(void)pthread_mutex_lock(&r->lock);
		stop_locked(r, RECORDING_END_WRITE_ERROR, ENOMEM);
		goto out;
	}

	for (;;) {
		if (atomic_load(&r->stopped) && !marked) {
			char why[160];

			(void)pthread_mutex_lock(&r->lock);
			(void)snprintf(why, sizeof(why),
				       "hijack: recording ended: %s (%s); the session went on unrecorded",
				       recording_end_name(r->end),
				       strerror(r->end_err));
			(void)pthread_mutex_unlock(&r->lock);
			marked = true;
			add_marker(r, why);
		}
		head = atomic_load(&r->head);
		if (head == atomic_load_explicit(&r->tail, memory_order_relaxed)) {
			/* Idle: what is there goes to disk now, not at the end. */
			if (r->outlen) {
				flush_out(r);
				continue;
			}
			if (atomic_load(&r->closing)) {
				if (!atomic_load(&r->stopped)) {
					finish_carries(r);
					flush_out(r);
				}
				break;
			}
			writer_wait(r, WRITER_EMPTY);
			/*
			 * A little more before the work, rather than a wakeup
			 * for every chunk of a stream: the relay wakes it
			 * again once WAKE_BATCH bytes wait.  The file lags the
			 * screen by WAKE_DELAY_MS at most.
			 */
			writer_wait(r, WRITER_BATCH);
			continue;
		}
		n = take_chunks(r, head, data, &bytes);
		if (atomic_load(&r->stopped)) {
			/* dropped: the marker said so, the end record counts */
			atomic_fetch_add(&r->writer_dropped, bytes);
			continue;
		}
		write_chunks(r, data, n);
	}
	(void)pthread_mutex_lock(&r->lock);
out:
	free(data);
	r->writer_done = true;
	(void)pthread_cond_broadcast(&r->room);
	(void)pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* ------------------------------------------------------------- the relay */

/* Wake the writer if it sleeps for what the ring now holds, @n bytes. */
static void wake_writer(struct recording *r, unsigned long long n)
{
	int why = atomic_load(&r->writer_sleep);

	if (why == WRITER_AWAKE || (why == WRITER_BATCH && n < WAKE_BATCH))
		return;
	if (!atomic_compare_exchange_strong(&r->writer_sleep, &why,
					    WRITER_AWAKE))
		return;		/* it woke by itself */
	(void)pthread_mutex_lock(&r->lock);
	(void)pthread_cond_signal(&r->more);
	(void)pthread_mutex_unlock(&r->lock);
}

/*
 * The ring is full: wait for the writer to empty half of it (or make
 * @need bytes of room, if more), RECORDING_STALL_MS at most.  Not just
 * for @need: a writer that frees a batch at a time just before each
 * deadline would pace the relay for the whole session.
 */
static void wait_room(struct recording *r, unsigned long long head,
		      unsigned long long need)
{
	struct timespec deadline = deadline_in(RECORDING_STALL_MS);

	if (need < RECORDING_RING / 2)
		need = RECORDING_RING / 2;
	(void)pthread_mutex_lock(&r->lock);
	atomic_store(&r->relay_waits, true);
	while (!atomic_load(&r->stopped) && !r->writer_done &&
	       RECORDING_RING - (head - atomic_load(&r->tail)) < need)
		if (pthread_cond_timedwait(&r->room, &r->lock, &deadline) ==
		    ETIMEDOUT) {
			stop_locked(r, RECORDING_END_STALLED, ETIMEDOUT);
			(void)pthread_cond_signal(&r->more);
		}
	atomic_store(&r->relay_waits, false);
	(void)pthread_mutex_unlock(&r->lock);
}

void recording_tap(void *userdata, enum hijack_relay_dir dir, const void *buf,
		   size_t len)
{
	struct recording *r = userdata;
	struct chunk c = { .len = (unsigned int)len, .dir = dir };
	unsigned long long need = sizeof(c) + len, head;

	if (dir == HIJACK_RELAY_INPUT && !r->input)
		return;
	c.usec = audit_now_mono() - r->t0;
	if (!atomic_load_explicit(&r->stopped, memory_order_relaxed) &&
	    !r->writer_started) {
		/*
		 * Started here, in the relay, not before: the command's
		 * process has been forked and has exec'd by now, so no fork
		 * of hijack's copies a thread's locks.
		 */
		sigset_t all, old;

		/* No signal for the writer: they are the relay's to forward. */
		(void)sigfillset(&all);
		(void)pthread_sigmask(SIG_BLOCK, &all, &old);
		if (pthread_create(&r->writer, NULL, writer_main, r) == 0) {
			r->writer_started = true;
		} else {
			(void)pthread_mutex_lock(&r->lock);
			stop_locked(r, RECORDING_END_WRITE_ERROR, EAGAIN);
			(void)pthread_mutex_unlock(&r->lock);
		}
		(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	head = atomic_load_explicit(&r->head, memory_order_relaxed);
	if (!atomic_load_explicit(&r->stopped, memory_order_relaxed) &&
	    RECORDING_RING - (head - atomic_load(&r->tail)) < need)
		wait_room(r, head, need);
	if (atomic_load_explicit(&r->stopped, memory_order_relaxed)) {
		r->dropped += len;
		return;
	}
	ring_put(r, head, &c, sizeof(c));
	ring_put(r, head + sizeof(c), buf, len);
	r->put_bytes += len;
	atomic_store(&r->head, head + need);
	wake_writer(r, head + need - atomic_load(&r->tail));
}

/* ------------------------------------------------------ open and close */

static int write_header(struct recording *r, const struct recording_info *info)
{
	json_t *h = json_object(), *env = json_object();
	char title[512];
	char *json;
	int err = -ENOMEM;

	if (!h || !env)
		goto out;
	(void)snprintf(title, sizeof(title), "hijack session %s: %s",
		       info->session, info->target);
	/* What audit_escape() left of the target is ASCII: valid JSON. */
	if (json_object_set_new(h, "version", json_integer(2)) ||
	    json_object_set_new(h, "width", json_integer(info->width)) ||
	    json_object_set_new(h, "height", json_integer(info->height)) ||
	    json_object_set_new(h, "timestamp",
				json_integer((json_int_t)info->timestamp)) ||
	    json_object_set_new(h, "title", json_string(title)) ||
	    json_object_set_new(env, "TERM", json_string(info->term)) ||
	    json_object_set_new(h, "env", env))
		goto out;
	env = NULL;
	/* Not asciicast's: what the audit records say of the same entry. */
	if (json_object_set_new(h, "hijack_session", json_string(info->session)) ||
	    json_object_set_new(h, "hijack_input_recorded",
				json_boolean(info->input)))
		goto out;
	json = json_dumps(h, JSON_COMPACT);
	if (!json)
		goto out;
	r->outlen = 0;
	(void)snprintf(r->out, OUT_ROOM, "%s\n", json);
	free(json);
	err = write_out(r, r->out, strlen(r->out));
out:
	json_decref(h);
	json_decref(env);
	return err;
}

int recording_open(struct recording **ret, int dirfd,
		   const struct recording_info *info, char *reterr_why,
		   size_t whylen)
{
	pthread_condattr_t attr;
	struct recording *r;
	char name[64];
	int err;

	(void)snprintf(name, sizeof(name), "%s.cast", info->session);
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fd = -EBADF;
	(void)snprintf(r->path, sizeof(r->path), "%s/%s", info->dir, name);
	r->out = malloc(OUT_ROOM);
	/* Pages are touched only as far as a burst fills the ring. */
	r->ring = info->relayed ? malloc(RECORDING_RING) : NULL;
	if (!r->out || (info->relayed && !r->ring)) {
		err = -ENOMEM;
		goto fail;
	}
	(void)pthread_mutex_init(&r->lock, NULL);
	/* Their waits are bounded by CLOCK_MONOTONIC deadlines. */
	(void)pthread_condattr_init(&attr);
	(void)pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	(void)pthread_cond_init(&r->more, &attr);
	(void)pthread_cond_init(&r->room, &attr);
	(void)pthread_condattr_destroy(&attr);
	r->input = info->input;
	/*
	 * O_EXCL|O_NOFOLLOW: a file or link already there (the session id is
	 * new, so nobody's but an attacker's) is never written through.
	 * Root's, 0600, whatever the umask: only root reads what was typed.
	 */
	r->fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC | O_NOCTTY, 0600);
	if (r->fd < 0 || fchmod(r->fd, 0600) < 0) {
		err = -errno;
		(void)snprintf(reterr_why, whylen, "%s: %s", r->path,
			       strerror(-err));
		goto fail;
	}
	r->t0 = audit_now_mono();
	err = write_header(r, info);
	if (err < 0) {
		(void)unlinkat(dirfd, name, 0);
		(void)snprintf(reterr_why, whylen, "%s: %s", r->path,
			       strerror(-err));
		goto fail;
	}
	if (!info->relayed) {
		r->end = RECORDING_END_NO_TERMINAL;
		atomic_store(&r->stopped, true);
		add_marker(r, "hijack: no terminal relayed (--no-pty, or none of fds 0-2 a terminal): the command's input and output went straight between the caller's files and the command, and are not recorded");
	}
	*ret = r;
	return 0;
fail:
	if (r->fd >= 0)
		(void)close(r->fd);
	free(r->out);
	free(r->ring);
	free(r);
	return err;
}

const char *recording_path(const struct recording *r)
{
	return r->path;
}

enum recording_end recording_close(struct recording *r,
				   struct recording_result *ret)
{
	struct timespec deadline;
	bool done = true;

	atomic_store(&r->closing, true);
	(void)pthread_mutex_lock(&r->lock);
	(void)pthread_cond_signal(&r->more);
	if (r->writer_started) {
		/* What the ring holds is written; a stuck disk is not waited for. */
		deadline = deadline_in(RECORDING_CLOSE_MS);
		while (!r->writer_done)
			if (pthread_cond_timedwait(&r->room, &r->lock,
						   &deadline) == ETIMEDOUT)
				break;
		done = r->writer_done;
		if (!done)
			stop_locked(r, RECORDING_END_STALLED, ETIMEDOUT);
	}
	*ret = (struct recording_result){
		.end = atomic_load(&r->stopped) ? r->end : RECORDING_END_COMPLETE,
		.err = r->end_err,
		/*
		 * Dropped by the relay once stopped, by the writer after
		 * that or on a failed write, and left in the ring by a
		 * writer that did not finish.
		 */
		.dropped = r->dropped + atomic_load(&r->writer_dropped) +
			   (r->put_bytes - atomic_load(&r->taken_bytes)),
		.marker_written = r->marker_written,
	};
	(void)pthread_mutex_unlock(&r->lock);
	if (!done)
		return ret->end;	/* the writer still holds it: leave it be */
	if (r->writer_started)
		(void)pthread_join(r->writer, NULL);
	ret->marker_written = r->marker_written;
	ret->bytes = (unsigned long long)r->written;
	/* Give back what reserve() allocated past the end. */
	if (r->allocated > r->written)
		(void)fallocate(r->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				r->written, r->allocated - r->written);
	(void)fsync(r->fd);
	(void)close(r->fd);
	free(r->out);
	free(r->ring);
	free(r);
	return ret->end;
}
