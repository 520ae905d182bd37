// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_audit - the escaping and bounds of the audit records, the policy
 * file's checks, and the recording's ring (src/audit/escape.c, record.c,
 * policy.c, recording.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "audit.h"
#include "testlib.h"

START_TEST(escape_everything_but_printable)
{
	char buf[64];

	ck_assert(audit_escape("a b\n\"]\\\x1b\xc3\xa9", false, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "a\\x20b\\x0a\\x22\\x5d\\\\\\x1b\\xc3\\xa9");
	ck_assert(audit_escape("a b", true, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "a b");
}
END_TEST

START_TEST(escape_never_cuts_an_escape)
{
	char buf[6];

	/* "ab" fits; "\x0a" needs 4 more bytes and a NUL, with 4 left: stop. */
	ck_assert(!audit_escape("ab\ncd", false, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "ab");
	ck_assert(!audit_escape("abcde\\", false, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "abcde");
	ck_assert(!audit_escape("x", false, buf, 0));
}
END_TEST

START_TEST(argv_bounded_and_counted)
{
	static char big[200000];
	char *argv[] = { "sh", big, "x y", NULL };
	struct audit_entry *e = calloc(1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	memset(big, 'z', sizeof(big) - 1);
	audit_entry_set_argv(e, argv);
	ck_assert_uint_eq(e->argc, 3);
	ck_assert_uint_eq(e->argv_bytes, 2 + 1 + (sizeof(big) - 1) + 1 + 3);
	ck_assert(e->argv_truncated);
	ck_assert_uint_lt(strlen(e->argv), AUDIT_ARGV_MAX);
	argv[1] = "a\nb";
	audit_entry_set_argv(e, argv);
	ck_assert(!e->argv_truncated);
	ck_assert_str_eq(e->argv, "sh a\\x0ab x\\x20y");
	free(e);
}
END_TEST

START_TEST(setenv_names_only)
{
	char *setenv[] = { "TOKEN=s3cr3t", "B=", NULL };
	struct audit_entry *e = calloc(1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	audit_entry_set_setenv(e, setenv);
	ck_assert_str_eq(e->setenv_names, "TOKEN,B");
	free(e);
}
END_TEST

static int warnings;

static void count_warning(void *userdata, const char *msg)
{
	(void)userdata;
	(void)msg;
	warnings++;
}

START_TEST(policy_checks)
{
	struct audit_policy p = AUDIT_POLICY_DEFAULT;
	char *dir = tl_mkdtemp(), path[4096];

	(void)snprintf(path, sizeof(path), "%s/hijack.conf", dir);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	tl_write(dir, "hijack.conf",
		 "# comment\n audit = off \nrequire-reason=yes\non-audit-failure = refuse\n"
		 "record = docker:web* db\nrecord-input = yes\nrecord-dir = /srv/rec\nrecord-dir = rel\nbogus = 1\naudit = maybe\nno equals sign\n");
	ck_assert_int_eq(chmod(path, 0644), 0);
	warnings = 0;
	if (getuid() == 0) {
		ck_assert_int_eq(audit_policy_load(path, &p, count_warning, NULL), 0);
		ck_assert(!p.audit && p.require_reason && p.fail_closed);
		ck_assert(p.record == AUDIT_RECORD_MATCHING && p.record_input);
		ck_assert_str_eq(p.record_dir, "/srv/rec");
		ck_assert(audit_policy_records(&p, "docker", "web1"));
		ck_assert(audit_policy_records(&p, "lxc", "db"));
		ck_assert(!audit_policy_records(&p, "lxc", "web1"));
		ck_assert(!audit_policy_records(&p, "pid", ""));
		/* The relative record-dir, the unknown key, the bad value,
		 * the line without "=". */
		ck_assert_int_eq(warnings, 4);
	}
	/* Writable by the group: ignored as a whole, one warning. */
	p = (struct audit_policy)AUDIT_POLICY_DEFAULT;
	warnings = 0;
	ck_assert_int_eq(chmod(path, 0664), 0);
	ck_assert_int_eq(audit_policy_load(path, &p, count_warning, NULL), -EPERM);
	ck_assert(p.audit && !p.require_reason && !p.fail_closed);
	ck_assert_int_eq(warnings, 1);
	/* A directory others may write in: the same. */
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(audit_policy_load(path, &p, count_warning, NULL), -EPERM);
	/* No file: the defaults, silently. */
	warnings = 0;
	ck_assert_int_eq(audit_policy_load("/nonexistent/hijack.conf", &p,
					   count_warning, NULL), -ENOENT);
	ck_assert_int_eq(warnings, 0);
	tl_rmtree(dir);
}
END_TEST

/*
 * The recordings' own JSON string encoder, held to jansson's parser: every
 * code point that matters (each C0 and C1 control, DEL, quote, backslash,
 * U+2028, multi-byte letters, the largest) comes back as it went in, and
 * no byte of the encoding can act on a terminal.
 */
START_TEST(recording_json_escape_round_trips)
{
	static const unsigned int cps[] = {
		'a', '"', '\\', '/', 0x7f, 0x80, 0x85, 0x9b, 0x9f, 0xa0, 0xe9,
		0x2028, 0x20ac, 0xfffd, 0x1f600, 0x10ffff,
	};
	char in[512], out[6 * sizeof(in) + 3];
	size_t n = 0, len, i;
	json_error_t jerr;
	json_t *j;

	for (i = 0; i < 0x20; i++)
		in[n++] = (char)i;
	for (i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		unsigned int c = cps[i];

		if (c < 0x80) {
			in[n++] = (char)c;
		} else if (c < 0x800) {
			in[n++] = (char)(0xc0 | c >> 6);
			in[n++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			in[n++] = (char)(0xe0 | c >> 12);
			in[n++] = (char)(0x80 | (c >> 6 & 0x3f));
			in[n++] = (char)(0x80 | (c & 0x3f));
		} else {
			in[n++] = (char)(0xf0 | c >> 18);
			in[n++] = (char)(0x80 | (c >> 12 & 0x3f));
			in[n++] = (char)(0x80 | (c >> 6 & 0x3f));
			in[n++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[0] = '"';
	len = recording_json_escape(in, n, out + 1) + 1;
	out[len++] = '"';
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)out[i];

		ck_assert_msg(c >= 0x20 && c != 0x7f, "control byte 0x%02x at %zu", c, i);
		ck_assert_msg(!(c == 0xc2 && (unsigned char)out[i + 1] < 0xa0),
			      "a C1 control unescaped at %zu", i);
	}
	j = json_loadb(out, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	ck_assert_msg(j != NULL, "jansson: %s", jerr.text);
	ck_assert_uint_eq(json_string_length(j), n);
	ck_assert_mem_eq(json_string_value(j), in, n);
	json_decref(j);
}
END_TEST

/*
 * The encoder takes plain text eight bytes at a time: a byte that needs an
 * escape is found at whatever place of the word it falls, and a C1
 * control's two bytes are found across two words.
 */
START_TEST(recording_json_escape_every_place)
{
	static const char *const specials[] = {
		"\x01", "\x1f", "\n", "\"", "\\", "\x7f", "\xc2\x85",
		"\xc2\x9b", "\xc3\xa9", "\xe2\x80\xa8",
	};
	char in[40], out[6 * sizeof(in) + 3];
	size_t i, at, k, len, slen;
	json_error_t jerr;
	json_t *j;

	for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++) {
		slen = strlen(specials[i]);
		for (at = 0; at + slen <= 24; at++) {
			memset(in, 'a', 24);
			memcpy(in + at, specials[i], slen);
			out[0] = '"';
			len = recording_json_escape(in, 24, out + 1) + 1;
			out[len++] = '"';
			for (k = 0; k < len; k++)
				ck_assert_msg((unsigned char)out[k] >= 0x20 &&
					      out[k] != 0x7f &&
					      !((unsigned char)out[k] == 0xc2 &&
						(unsigned char)out[k + 1] < 0xa0),
					      "special %zu at %zu: byte %zu unescaped",
					      i, at, k);
			j = json_loadb(out, len, JSON_DECODE_ANY, &jerr);
			ck_assert_msg(j != NULL, "special %zu at %zu: %s", i, at,
				      jerr.text);
			ck_assert_uint_eq(json_string_length(j), 24);
			ck_assert_mem_eq(json_string_value(j), in, 24);
			json_decref(j);
		}
	}
}
END_TEST

/*
 * The journal's datagram: a field per line, and a value holding a newline
 * (none should, all are escaped, but one that did must not become a
 * second field) framed by its length instead.
 */
START_TEST(journal_fields_framed)
{
	char dir[] = "/tmp/check_audit.XXXXXX", path[64], buf[65536];
	static const char want[] = "HIJACK_TARGET\n\x03\0\0\0\0\0\0\0a\nb\n";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct audit_entry e;
	ssize_t n;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/socket", dir);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	audit_journal_socket = path;
	ck_assert_int_eq(audit_entry_init(&e), 0);
	strcpy(e.target, "a\nb");
	strcpy(e.engine, "pid");
	ck_assert_int_eq(audit_journal_send(&e, AUDIT_START), 0);
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	ck_assert_ptr_nonnull(memmem(buf, (size_t)n, want, sizeof(want) - 1));
	ck_assert_ptr_nonnull(memmem(buf, (size_t)n, "\nMESSAGE_ID=2eb84e2ca95444e3b97bf7ef5fc2c499\n", 45));
	ck_assert_ptr_nonnull(memmem(buf, (size_t)n, "\nHIJACK_ENGINE=pid\n", 19));
	ck_assert_int_eq(buf[n - 1], '\n');
	/* No journal there: -ENOENT, for syslog to take over. */
	(void)close(fd);
	(void)unlink(path);
	ck_assert_int_eq(audit_journal_send(&e, AUDIT_START), -ENOENT);
	(void)rmdir(dir);
	audit_journal_socket = "/run/systemd/journal/socket";
}
END_TEST

/*
 * The ring between the relay and the writer thread holds no lock on its
 * way: every byte put in by recording_tap() must come out in the file,
 * in order, and nothing else.  Chunks of every size up to a relay read,
 * with pauses now and then so that the writer goes to sleep (both kinds
 * of sleep) and must be woken, and bursts that fill the 4 MiB ring so
 * that the relay must wait for room.  Output and input alternate.
 */
START_TEST(recording_ring_loses_nothing)
{
	char dir[] = "/tmp/check_audit.XXXXXX", path[4200], why[256];
	const size_t total = 32u << 20;
	struct recording_info info = {
		.session = "ringtest", .target = "pid:1", .term = "xterm",
		.width = 80, .height = 24, .timestamp = 1, .input = true,
		.relayed = true,
	};
	struct recording_result res;
	static unsigned char pattern[1 << 16];
	struct recording *r = NULL;
	unsigned char *want[2], *got[2];
	size_t wantlen[2] = { 0, 0 }, gotlen[2] = { 0, 0 }, sent = 0, n;
	unsigned int seed = 7;
	json_error_t jerr;
	char *line = NULL;
	size_t cap = 0;
	int fd, way, i;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	info.dir = dir;
	/* Not recording_dir_check(): it wants root's, and this runs as anyone. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(recording_open(&r, fd, &info, why, sizeof(why)), 0);
	(void)close(fd);
	for (way = 0; way < 2; way++) {
		want[way] = malloc(total);
		got[way] = malloc(total);
		ck_assert(want[way] && got[way]);
	}
	/*
	 * Printable ASCII, so that what goes in is what a line holds; cut
	 * from one block made beforehand, so that the relay's side is as
	 * fast as a memcpy() and outruns the writer.
	 */
	for (i = 0; i < (int)sizeof(pattern); i++)
		pattern[i] = (unsigned char)(' ' + rand_r(&seed) % 95);
	while (sent < total) {
		const unsigned char *buf;

		n = (size_t)rand_r(&seed) % 4096 + 1;
		if (n > total - sent)
			n = total - sent;
		buf = pattern + rand_r(&seed) % (sizeof(pattern) - 4096);
		way = rand_r(&seed) % 4 == 0;
		recording_tap(r, way ? HIJACK_RELAY_INPUT : HIJACK_RELAY_OUTPUT,
			      buf, n);
		memcpy(want[way] + wantlen[way], buf, n);
		wantlen[way] += n;
		sent += n;
		/* Now and then a pause: the writer sleeps and is woken. */
		if (rand_r(&seed) % 4096 == 0) {
			struct timespec t = { 0, (rand_r(&seed) % 30) * 1000000L };

			(void)nanosleep(&t, NULL);
		}
	}
	ck_assert_int_eq(recording_close(r, &res), RECORDING_END_COMPLETE);
	ck_assert_uint_eq(res.dropped, 0);

	(void)snprintf(path, sizeof(path), "%s/ringtest.cast", dir);
	f = fopen(path, "re");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_gt(getline(&line, &cap, f), 0);	/* the header */
	while (getline(&line, &cap, f) > 0) {
		json_t *ev = json_loads(line, 0, &jerr);
		const char *kind, *text;
		size_t len;

		ck_assert_msg(ev && json_is_array(ev), "not an event: %s", line);
		kind = json_string_value(json_array_get(ev, 1));
		text = json_string_value(json_array_get(ev, 2));
		len = json_string_length(json_array_get(ev, 2));
		ck_assert(kind && text);
		ck_assert_msg(!strcmp(kind, "o") || !strcmp(kind, "i"),
			      "unexpected event %s", kind);
		way = !strcmp(kind, "i");
		ck_assert_uint_le(gotlen[way] + len, total);
		memcpy(got[way] + gotlen[way], text, len);
		gotlen[way] += len;
		json_decref(ev);
	}
	free(line);
	(void)fclose(f);
	for (way = 0; way < 2; way++) {
		ck_assert_uint_eq(gotlen[way], wantlen[way]);
		ck_assert(!memcmp(got[way], want[way], wantlen[way]));
		free(want[way]);
		free(got[way]);
	}
	(void)unlink(path);
	(void)rmdir(dir);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		escape_everything_but_printable, escape_never_cuts_an_escape,
		argv_bounded_and_counted, setenv_names_only, policy_checks,
		recording_json_escape_round_trips, recording_json_escape_every_place,
		journal_fields_framed, recording_ring_loses_nothing,
	};
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("audit");
	size_t i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
