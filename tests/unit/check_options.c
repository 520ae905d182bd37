// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_options - the command line (src/cli/options.c).
 */
#include <errno.h>
#include <string.h>

#include "options.h"
#include "testlib.h"

static struct cli_args a;
static char err[512];

/*
 * Parse a list of words as a command line after "hijack".  The words are
 * copied to a file-scope argv, as a.argv points into it after parsing
 * (ASan found the tests reading a block-scoped one after its scope).
 */
static char *parse_argv[64];
#define PARSE(...)                                                        \
	({                                                                \
		char *_argv[] = { "hijack", __VA_ARGS__, NULL };          \
		struct cli_args _init = { .opts = HIJACK_OPTS_INIT };     \
		_Static_assert(sizeof(_argv) <= sizeof(parse_argv),       \
			       "too many words");                         \
		memcpy(parse_argv, _argv, sizeof(_argv));                 \
		a = _init;                                                \
		err[0] = '\0';                                            \
		cli_parse((int)(sizeof(_argv) / sizeof(_argv[0])) - 1,    \
			  parse_argv, &a, err, sizeof(err));              \
	})

START_TEST(defaults)
{
	ck_assert_int_eq(PARSE("--pid", "42"), 0);
	ck_assert_int_eq(a.opts.pid, 42);
	ck_assert_uint_eq(a.opts.ns_select, 0);
	ck_assert_uint_eq(a.opts.ns_exclude, 0);
	ck_assert_int_eq(a.opts.method, HIJACK_METHOD_AUTO);
	ck_assert_int_eq(a.opts.root_mode, HIJACK_DIR_TARGET);
	ck_assert_int_eq(a.opts.wd_mode, HIJACK_DIR_TARGET);
	ck_assert_int_eq(a.action, CLI_RUN);
	ck_assert_str_eq(a.argv[0], "/bin/sh");
	ck_assert_ptr_null(a.argv[1]);
}
END_TEST

START_TEST(command_and_its_options)
{
	/* Options after the command belong to it, even without "--". */
	ck_assert_int_eq(PARSE("-t", "7", "ls", "-l", "--pid", "9"), 0);
	ck_assert_int_eq(a.opts.pid, 7);
	ck_assert_str_eq(a.argv[0], "ls");
	ck_assert_str_eq(a.argv[1], "-l");
	ck_assert_str_eq(a.argv[3], "9");
	ck_assert_int_eq(PARSE("--pid=7", "--", "-weird-name"), 0);
	ck_assert_str_eq(a.argv[0], "-weird-name");
}
END_TEST

START_TEST(namespace_selection)
{
	ck_assert_int_eq(PARSE("--pid", "1", "-m", "-n", "-p"), 0);
	ck_assert_uint_eq(a.opts.ns_select, HIJACK_NS_BIT(HIJACK_NS_MNT) |
					    HIJACK_NS_BIT(HIJACK_NS_NET) |
					    HIJACK_NS_BIT(HIJACK_NS_PID));
	ck_assert_int_eq(PARSE("--pid", "1", "-uiUCT"), 0);
	ck_assert_uint_eq(a.opts.ns_select, HIJACK_NS_BIT(HIJACK_NS_UTS) |
					    HIJACK_NS_BIT(HIJACK_NS_IPC) |
					    HIJACK_NS_BIT(HIJACK_NS_USER) |
					    HIJACK_NS_BIT(HIJACK_NS_CGROUP) |
					    HIJACK_NS_BIT(HIJACK_NS_TIME));
	ck_assert_int_eq(PARSE("--pid", "1", "--ns=mnt,uts", "--ns", "net"), 0);
	ck_assert_uint_eq(a.opts.ns_select, HIJACK_NS_BIT(HIJACK_NS_MNT) |
					    HIJACK_NS_BIT(HIJACK_NS_UTS) |
					    HIJACK_NS_BIT(HIJACK_NS_NET));
	ck_assert_int_eq(PARSE("--pid", "1", "--no-ns=user,net"), 0);
	ck_assert_uint_eq(a.opts.ns_select, 0);
	ck_assert_uint_eq(a.opts.ns_exclude, HIJACK_NS_BIT(HIJACK_NS_USER) |
					     HIJACK_NS_BIT(HIJACK_NS_NET));
	/* Selecting everything is the same as the default. */
	ck_assert_int_eq(PARSE("--pid", "1", "-a"), 0);
	ck_assert_uint_eq(a.opts.ns_select, 0);
	ck_assert_int_eq(PARSE("--pid", "1", "--ns=net", "--no-ns=net"), -EINVAL);
	ck_assert_str_eq(err, "--ns and --no-ns leave no namespace to enter");
}
END_TEST

START_TEST(methods_and_dirs)
{
	ck_assert_int_eq(PARSE("--pid", "1", "--method=nsfd"), 0);
	ck_assert_int_eq(a.opts.method, HIJACK_METHOD_NSFD);
	ck_assert_int_eq(PARSE("--pid", "1", "--method", "syscall"), 0);
	ck_assert_int_eq(a.opts.method, HIJACK_METHOD_SYSCALL);
	ck_assert_int_eq(PARSE("--pid", "1", "--root=keep", "--wd=srv/www"), 0);
	ck_assert_int_eq(a.opts.root_mode, HIJACK_DIR_KEEP);
	ck_assert_int_eq(a.opts.wd_mode, HIJACK_DIR_PATH);
	ck_assert_str_eq(a.opts.wd_path, "srv/www");
	ck_assert_int_eq(PARSE("--pid", "1", "--root=/srv", "--wd=keep"), 0);
	ck_assert_int_eq(a.opts.root_mode, HIJACK_DIR_PATH);
	ck_assert_str_eq(a.opts.root_path, "/srv");
	ck_assert_int_eq(a.opts.wd_mode, HIJACK_DIR_KEEP);
	ck_assert_int_eq(PARSE("--pid", "1", "--explain"), 0);
	ck_assert_int_eq(a.action, CLI_EXPLAIN_TEXT);
	ck_assert_int_eq(PARSE("--pid", "1", "--explain=json"), 0);
	ck_assert_int_eq(a.action, CLI_EXPLAIN_JSON);
	ck_assert_int_eq(PARSE("-h"), 0);
	ck_assert_int_eq(a.action, CLI_HELP);
	ck_assert_int_eq(PARSE("--version"), 0);
	ck_assert_int_eq(a.action, CLI_VERSION);
}
END_TEST

START_TEST(confinement)
{
	ck_assert_int_eq(PARSE("--pid", "1"), 0);
	ck_assert_int_eq(a.opts.creds, HIJACK_FROM_TARGET);
	ck_assert_int_eq(a.opts.caps, HIJACK_FROM_TARGET);
	ck_assert_int_eq(a.opts.cgroup, HIJACK_FROM_TARGET);
	ck_assert_int_eq(a.opts.seccomp, HIJACK_FROM_TARGET);
	ck_assert_int_eq(a.opts.lsm, HIJACK_FROM_TARGET);
	ck_assert_int_eq(a.opts.env, HIJACK_FROM_TARGET);
	ck_assert_ptr_null(a.opts.setenv);
	ck_assert_uint_eq(a.opts.preserve_fds, 0);

	ck_assert_int_eq(PARSE("--pid", "1", "--user", "www", "--group=42",
			       "--caps=keep", "--cgroups", "keep", "--lsm=keep",
			       "--seccomp=none", "--env=clear", "--setenv", "A=1",
			       "--setenv=B=", "--preserve-fds", "3"), 0);
	ck_assert_str_eq(a.opts.user, "www");
	ck_assert_str_eq(a.opts.group, "42");
	ck_assert_int_eq(a.opts.caps, HIJACK_KEEP);
	ck_assert_int_eq(a.opts.cgroup, HIJACK_KEEP);
	ck_assert_int_eq(a.opts.lsm, HIJACK_KEEP);
	ck_assert_int_eq(a.opts.seccomp, HIJACK_NONE);
	ck_assert_int_eq(a.opts.env, HIJACK_NONE);
	ck_assert_str_eq(a.opts.setenv[0], "A=1");
	ck_assert_str_eq(a.opts.setenv[1], "B=");
	ck_assert_ptr_null(a.opts.setenv[2]);
	ck_assert_uint_eq(a.opts.preserve_fds, 3);
	cli_free(&a);

	ck_assert_int_eq(PARSE("--pid", "1", "--seccomp", "/etc/policy",
			       "--preserve-credentials", "--env=keep"), 0);
	ck_assert_int_eq(a.opts.seccomp, HIJACK_FROM_FILE);
	ck_assert_str_eq(a.opts.seccomp_file, "/etc/policy");
	ck_assert_int_eq(a.opts.creds, HIJACK_KEEP);
	ck_assert_int_eq(a.opts.env, HIJACK_KEEP);
	cli_free(&a);

	ck_assert_int_eq(PARSE("--pid", "1"), 0);
	ck_assert_int_eq(a.opts.limits, HIJACK_FROM_TARGET);
	ck_assert_int_eq(PARSE("--pid", "1", "--limits=keep"), 0);
	ck_assert_int_eq(a.opts.limits, HIJACK_KEEP);
	ck_assert_int_eq(PARSE("--pid", "1"), 0);
	ck_assert_int_eq(a.opts.pty, HIJACK_PTY_AUTO);
	ck_assert_int_eq(PARSE("--pid", "1", "--pty"), 0);
	ck_assert_int_eq(a.opts.pty, HIJACK_PTY_ALWAYS);
	/* The last one counts, as for every other option. */
	ck_assert_int_eq(PARSE("--pid", "1", "--pty", "--no-pty"), 0);
	ck_assert_int_eq(a.opts.pty, HIJACK_PTY_NEVER);
	/* -U is the user namespace; --user is the credential. */
	ck_assert_int_eq(PARSE("--pid", "1", "-U", "--userns"), 0);
	ck_assert_uint_eq(a.opts.ns_select, HIJACK_NS_BIT(HIJACK_NS_USER));
	ck_assert_ptr_null(a.opts.user);
}
END_TEST

/* TARGET: the first word after the options, unless --pid was given. */
START_TEST(targets)
{
	struct cli_args a = { .opts = HIJACK_OPTS_INIT };
	char err[256];
	char *v1[] = { "hijack", "-n", "docker:web", "ip", "a", NULL };
	char *v2[] = { "hijack", "--", "web", "--", NULL };
	char *v3[] = { "hijack", "--pid", "7", "web", NULL };
	char *v4[] = { "hijack", "--list", "--json", NULL };

	ck_assert_int_eq(cli_parse(5, v1, &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.target, "docker:web");
	ck_assert_str_eq(a.argv[0], "ip");
	ck_assert_str_eq(a.argv[1], "a");
	ck_assert_int_eq(cli_parse(4, v2, &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.target, "web");
	ck_assert_str_eq(a.argv[0], "/bin/sh");
	a.target = NULL;
	/* With --pid, the words are the command, as before. */
	ck_assert_int_eq(cli_parse(4, v3, &a, err, sizeof(err)), 0);
	ck_assert_ptr_null(a.target);
	ck_assert_str_eq(a.argv[0], "web");
	ck_assert_int_eq(cli_parse(3, v4, &a, err, sizeof(err)), 0);
	ck_assert_int_eq(a.action, CLI_LIST);
	ck_assert(a.json);
	cli_free(&a);
}
END_TEST

/* --sessions and --end-session: actions of their own, no entry. */
START_TEST(sessions)
{
	ck_assert_int_eq(PARSE("--sessions", "--json", "--prune"), 0);
	ck_assert_int_eq(a.action, CLI_SESSIONS);
	ck_assert(a.json && a.prune);
	ck_assert_ptr_null(a.target);
	ck_assert_int_eq(PARSE("--end-session", "0123abcd", "--reason", "ticket 7"), 0);
	ck_assert_int_eq(a.action, CLI_END_SESSION);
	ck_assert_str_eq(a.end_session, "0123abcd");
	ck_assert_uint_eq(a.grace, CLI_GRACE_DEFAULT);
	ck_assert_str_eq(a.reason, "ticket 7");
	/* The id is checked when used, for a one-line error there. */
	ck_assert_int_eq(PARSE("--end-session=not-hex", "--grace=0"), 0);
	ck_assert_str_eq(a.end_session, "not-hex");
	ck_assert_uint_eq(a.grace, 0);
	/* An entry after a listing in the same process: nothing carried over. */
	ck_assert_int_eq(PARSE("--pid", "1"), 0);
	ck_assert_int_eq(a.action, CLI_RUN);
	ck_assert(!a.prune);
	ck_assert_ptr_null(a.end_session);
}
END_TEST

/* --read-file/--write-file, and options after TARGET. */
START_TEST(files)
{
	ck_assert_int_eq(PARSE("web", "--read-file=/etc/hosts"), 0);
	ck_assert_str_eq(a.target, "web");
	ck_assert(a.copy);
	ck_assert_int_eq(a.file.op, HIJACK_FILE_READ);
	ck_assert_str_eq(a.file.path, "/etc/hosts");
	ck_assert_int_eq(a.file.fd, 1);
	ck_assert_int_eq(a.file.mode, -1);
	ck_assert_int_eq(a.opts.pty, HIJACK_PTY_NEVER);
	ck_assert_uint_eq(a.max_size, HIJACK_FILE_MAX_DEFAULT);
	ck_assert_int_eq(PARSE("web", "--read-file=/a", "--max-size=64K"), 0);
	ck_assert_uint_eq(a.max_size, 64 << 10);
	ck_assert_int_eq(PARSE("web", "--read-file=/a", "--max-size", "2GiB"), 0);
	ck_assert_uint_eq(a.max_size, UINT64_C(2) << 30);
	ck_assert_int_eq(PARSE("web", "--read-file=/a", "--max-size=0"), 0);
	ck_assert_uint_eq(a.max_size, 0);
	ck_assert_int_eq(PARSE("--user=0", "web", "--write-file", "/x", "--mode=0600"), 0);
	ck_assert_int_eq(a.file.op, HIJACK_FILE_WRITE);
	ck_assert_int_eq(a.file.fd, 0);
	ck_assert_int_eq(a.file.mode, 0600);
	ck_assert_str_eq(a.opts.user, "0");
	ck_assert_int_eq(PARSE("--pid=3", "--write-file=rel", "--mode=4755"), 0);
	ck_assert_int_eq(a.file.mode, 04755);
	ck_assert_str_eq(a.file.path, "rel");
	/* Options after TARGET are hijack's until "--" or the command. */
	ck_assert_int_eq(PARSE("web", "-n", "ip", "-n", "a"), 0);
	ck_assert_uint_eq(a.opts.ns_select, HIJACK_NS_BIT(HIJACK_NS_NET));
	ck_assert_str_eq(a.argv[0], "ip");
	ck_assert_str_eq(a.argv[1], "-n");
	ck_assert(!a.copy);
	ck_assert_int_eq(PARSE("--tools", "web", "strace", "-p", "1"), 0);
	ck_assert(a.tools);
	ck_assert_ptr_null(a.tools_dir);
	ck_assert_str_eq(a.argv[0], "strace");
	ck_assert_ptr_nonnull(a.opts.setenv);
	ck_assert_str_eq(a.opts.setenv[0], "PATH=" HIJACK_TOOLS_PATH);
	ck_assert_str_eq(a.opts.setenv[1], "HOME=/tmp");
	ck_assert_ptr_null(a.opts.setenv[2]);
	/* Never the container's environment for the host's programs. */
	ck_assert_int_eq(a.opts.env, HIJACK_RESET);
	cli_free(&a);
	ck_assert_int_eq(PARSE("web", "--tools=/mnt", "--setenv=PATH=/x",
			       "--setenv=HOME=/h", "--env=keep"), 0);
	ck_assert_str_eq(a.tools_dir, "/mnt");
	ck_assert_str_eq(a.opts.setenv[0], "PATH=/x");
	ck_assert_str_eq(a.opts.setenv[1], "HOME=/h");
	ck_assert_ptr_null(a.opts.setenv[2]);
	ck_assert_int_eq(a.opts.env, HIJACK_KEEP);
	cli_free(&a);
	ck_assert_int_eq(PARSE("web", "--tools", "--env=target"), -EINVAL);
	cli_free(&a);
	ck_assert_int_eq(PARSE("web", "--", "--read-file=x"), 0);
	ck_assert(!a.copy);
	ck_assert_str_eq(a.argv[0], "--read-file=x");
	/* "--" before TARGET, as hijack(1)'s synopsis allows. */
	ck_assert_int_eq(PARSE("--read-file=/etc/hosts", "--", "web"), 0);
	ck_assert(a.copy);
	ck_assert_str_eq(a.target, "web");
	ck_assert_int_eq(PARSE("--", "web", "-n", "a"), 0);
	ck_assert_str_eq(a.target, "web");
	ck_assert_uint_eq(a.opts.ns_select, 0);
	ck_assert_str_eq(a.argv[0], "-n");
}
END_TEST

START_TEST(bad_input)
{
	static const struct {
		const char *argv[4];
		const char *msg;
	} cases[] = {
		{ { "-m" }, "no target: give a container [ENGINE:]NAME or --pid PID" },
		{ { "--", "" }, "empty container name" },
		{ { "--list", "web" }, "--list takes no target and no command" },
		{ { "--list", "--pid", "1" }, "--list takes no target and no command" },
		{ { "--json", "web" }, "--json goes with --list or --sessions (for --explain: --explain=json)" },
		{ { "--sessions", "web" }, "--sessions takes no target and no command" },
		{ { "--sessions", "--pid", "1" }, "--sessions takes no target and no command" },
		{ { "--sessions", "--reason=x" }, "--reason goes with an entry or --end-session, not --sessions" },
		{ { "--sessions", "--grace=1" }, "--grace goes with --end-session" },
		{ { "--sessions", "--list" }, "--sessions cannot be combined with another action" },
		{ { "--end-session=abcdef01", "--sessions" }, "--sessions cannot be combined with another action" },
		{ { "--end-session=abcdef01", "--json" }, "--json and --prune go with --sessions, not --end-session" },
		{ { "--end-session=abcdef01", "--", "sh" }, "--end-session takes no target and no command" },
		{ { "--end-session=abcdef01", "--record" }, "--end-session does not enter: no --record, --tools or file copy" },
		{ { "--end-session=abcdef01", "--grace=5s" }, "invalid --grace '5s': whole seconds, 0 to 3600" },
		{ { "--end-session=abcdef01", "--grace=3601" }, "invalid --grace '3601': whole seconds, 0 to 3600" },
		{ { "--end-session=abcdef01", "--grace=-1" }, "invalid --grace '-1': whole seconds, 0 to 3600" },
		{ { "--end-session" }, "option '--end-session' needs an argument" },
		{ { "--pid", "1", "--prune" }, "--prune goes with --sessions" },
		{ { "--pid", "1", "--grace=1" }, "--grace goes with --end-session" },
		{ { "--pid", "0" }, "invalid pid '0': a positive process id is needed" },
		{ { "--pid", "-3" }, "invalid pid '-3': a positive process id is needed" },
		{ { "--pid", "4x" }, "invalid pid '4x': a positive process id is needed" },
		{ { "--pid", "" }, "invalid pid '': a positive process id is needed" },
		{ { "--pid", "99999999999" }, "invalid pid '99999999999': a positive process id is needed" },
		{ { "--pid" }, "option '--pid' needs an argument" },
		{ { "--pid", "1", "--ns=mnt,foo" }, "unknown namespace 'foo' in --ns (known: mnt uts ipc net pid user cgroup time all)" },
		{ { "--pid", "1", "--no-ns=" }, "unknown namespace '' in --no-ns (known: mnt uts ipc net pid user cgroup time all)" },
		{ { "--pid", "1", "--method=fast" }, "unknown method 'fast' (known: auto pidfd nsfd syscall)" },
		{ { "--pid", "1", "--root=rel" }, "invalid --root 'rel': target, keep or an absolute path" },
		{ { "--pid", "1", "--wd=" }, "invalid --wd '': target, keep or a path" },
		{ { "--pid", "1", "--explain=xml" }, "unknown --explain format 'xml' (known: text json)" },
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "-Z" }, "unknown option '-Z'" },
		{ { "--pid", "1", "--setenv", "NOVALUE" }, "malformed --setenv 'NOVALUE': VAR=VALUE expected" },
		{ { "--pid", "1", "--setenv", "=x" }, "malformed --setenv '=x': VAR=VALUE expected" },
		{ { "--pid", "1", "--caps=some" }, "invalid --caps 'some': target or keep" },
		{ { "--pid", "1", "--env=none" }, "invalid --env 'none': target, keep, reset or clear" },
		{ { "--pid", "1", "--preserve-fds=-1" }, "invalid --preserve-fds '-1': a count of fds after 2" },
		{ { "--pid", "1", "--limits=none" }, "invalid --limits 'none': target or keep" },
		{ { "--pid", "1", "--user=" }, "empty --user" },
		{ { "--preserve-credentials", "--user=x", "--pid=1" }, "--preserve-credentials cannot be combined with --user or --group" },
		{ { "web", "--read-file=/a", "--write-file=/b" }, "one --read-file or --write-file at a time" },
		{ { "web", "--read-file=" }, "empty --read-file" },
		{ { "web", "--read-file=/a", "--mode=600" }, "--mode goes with --write-file" },
		{ { "web", "--mode=600" }, "--mode goes with --write-file" },
		{ { "web", "--write-file=/a", "--mode=8" }, "invalid --mode '8': octal permission bits, 07777 at most" },
		{ { "web", "--write-file=/a", "--mode=17777" }, "invalid --mode '17777': octal permission bits, 07777 at most" },
		{ { "web", "--read-file=/a", "cat" }, "--read-file takes no command" },
		{ { "web", "--write-file=/a", "--max-size=1M" }, "--max-size goes with --read-file" },
		{ { "web", "--read-file=/a", "--max-size=-1" }, "invalid --max-size '-1': a size in bytes, or with K, M, G or T (KiB, ...)" },
		{ { "web", "--read-file=/a", "--max-size=1X" }, "invalid --max-size '1X': a size in bytes, or with K, M, G or T (KiB, ...)" },
		{ { "web", "--read-file=/a", "--max-size=16777216T" }, "invalid --max-size '16777216T': a size in bytes, or with K, M, G or T (KiB, ...)" },
		{ { "web", "--pid=1" }, "a container 'web' and --pid: one target only" },
		{ { "web", "--tools=rel" }, "invalid --tools 'rel': an absolute directory" },
		{ { "web", "--tools", "--read-file=/a" }, "--tools runs a command; --read-file and --write-file need none" },
		{ { "web", "--tools", "--root=/x" }, "--tools makes its own root: no --root" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6] = { "hijack" };
		struct cli_args init = { .opts = HIJACK_OPTS_INIT };
		int n = 1;

		while (n - 1 < 4 && cases[i].argv[n - 1]) {
			argv[n] = (char *)cases[i].argv[n - 1];
			n++;
		}
		a = init;
		err[0] = '\0';
		ck_assert_int_eq(cli_parse(n, argv, &a, err, sizeof(err)),
				 -EINVAL);
		ck_assert_str_eq(err, cases[i].msg);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, defaults);
	tcase_add_test(tc, command_and_its_options);
	tcase_add_test(tc, namespace_selection);
	tcase_add_test(tc, methods_and_dirs);
	tcase_add_test(tc, confinement);
	tcase_add_test(tc, targets);
	tcase_add_test(tc, files);
	tcase_add_test(tc, sessions);
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
