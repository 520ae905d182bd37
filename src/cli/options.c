// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - hijack's command line, after nsenter's where they overlap.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum {
	OPT_NS = CHAR_MAX + 1,
	OPT_NO_NS,
	OPT_METHOD,
	OPT_ROOT,
	OPT_WD,
	OPT_EXPLAIN,
	OPT_USER,
	OPT_GROUP,
	OPT_PRESERVE_CREDS,
	OPT_CAPS,
	OPT_CGROUPS,
	OPT_SECCOMP,
	OPT_LSM,
	OPT_ENV,
	OPT_SETENV,
	OPT_PRESERVE_FDS,
	OPT_PTY,
	OPT_NO_PTY,
	OPT_LIMITS,
	OPT_LIST,
	OPT_JSON,
	OPT_READ_FILE,
	OPT_WRITE_FILE,
	OPT_MODE,
	OPT_TOOLS,
};

static const struct option longopts[] = {
	{ "pid",     required_argument, NULL, 't' },
	{ "all",     no_argument,       NULL, 'a' },
	{ "ns",      required_argument, NULL, OPT_NS },
	{ "no-ns",   required_argument, NULL, OPT_NO_NS },
	{ "mount",   no_argument,       NULL, 'm' },
	{ "uts",     no_argument,       NULL, 'u' },
	{ "ipc",     no_argument,       NULL, 'i' },
	{ "net",     no_argument,       NULL, 'n' },
	{ "pidns",   no_argument,       NULL, 'p' },
	{ "userns",  no_argument,       NULL, 'U' },
	{ "cgroup",  no_argument,       NULL, 'C' },
	{ "time",    no_argument,       NULL, 'T' },
	{ "method",  required_argument, NULL, OPT_METHOD },
	{ "root",    required_argument, NULL, OPT_ROOT },
	{ "wd",      required_argument, NULL, OPT_WD },
	{ "explain", optional_argument, NULL, OPT_EXPLAIN },
	{ "user",    required_argument, NULL, OPT_USER },
	{ "group",   required_argument, NULL, OPT_GROUP },
	{ "preserve-credentials", no_argument, NULL, OPT_PRESERVE_CREDS },
	{ "caps",    required_argument, NULL, OPT_CAPS },
	{ "cgroups", required_argument, NULL, OPT_CGROUPS },
	{ "seccomp", required_argument, NULL, OPT_SECCOMP },
	{ "lsm",     required_argument, NULL, OPT_LSM },
	{ "env",     required_argument, NULL, OPT_ENV },
	{ "setenv",  required_argument, NULL, OPT_SETENV },
	{ "preserve-fds", required_argument, NULL, OPT_PRESERVE_FDS },
	{ "pty",     no_argument,       NULL, OPT_PTY },
	{ "no-pty",  no_argument,       NULL, OPT_NO_PTY },
	{ "limits",  required_argument, NULL, OPT_LIMITS },
	{ "list",    no_argument,       NULL, OPT_LIST },
	{ "json",    no_argument,       NULL, OPT_JSON },
	{ "read-file",  required_argument, NULL, OPT_READ_FILE },
	{ "write-file", required_argument, NULL, OPT_WRITE_FILE },
	{ "mode",    required_argument, NULL, OPT_MODE },
	{ "tools",   optional_argument, NULL, OPT_TOOLS },
	{ "help",    no_argument,       NULL, 'h' },
	{ "version", no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* nsenter's short options for namespace types. */
static const struct {
	int opt;
	enum hijack_ns ns;
} short_ns[] = {
	{ 'm', HIJACK_NS_MNT },    { 'u', HIJACK_NS_UTS },
	{ 'i', HIJACK_NS_IPC },    { 'n', HIJACK_NS_NET },
	{ 'p', HIJACK_NS_PID },    { 'U', HIJACK_NS_USER },
	{ 'C', HIJACK_NS_CGROUP }, { 'T', HIJACK_NS_TIME },
};

static char *default_argv[] = { "/bin/sh", NULL };

#define fail(...)                                                   \
	({                                                          \
		(void)snprintf(err, errlen, __VA_ARGS__);           \
		-EINVAL;                                            \
	})

static int parse_pid(const char *s, pid_t *ret, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX)
		return fail("invalid pid '%s': a positive process id is needed",
			    s);
	*ret = (pid_t)v;
	return 0;
}

static int parse_ns(const char *list, const char *opt, unsigned int *mask,
		    char *err, size_t errlen)
{
	const char *bad = list;
	unsigned int m;
	size_t len = 0;

	if (hijack_ns_parse_list(list, &m, &bad, &len) < 0)
		return fail("unknown namespace '%.*s' in %s (known: mnt uts ipc net pid user cgroup time all)",
			    (int)len, bad, opt);
	*mask |= m;
	return 0;
}

static int parse_dir(const char *s, const char *opt, bool absolute,
		     enum hijack_dir_mode *mode, const char **path, char *err,
		     size_t errlen)
{
	if (strcmp(s, "target") == 0) {
		*mode = HIJACK_DIR_TARGET;
	} else if (strcmp(s, "keep") == 0) {
		*mode = HIJACK_DIR_KEEP;
	} else if (*s && (!absolute || *s == '/')) {
		*mode = HIJACK_DIR_PATH;
		*path = s;
	} else {
		return fail("invalid %s '%s': target, keep or %s", opt, s,
			    absolute ? "an absolute path" : "a path");
	}
	return 0;
}

/* "target" or "keep" (and, where allowed, "none"/@none_word). */
static int parse_part(const char *s, const char *opt, const char *none_word,
		      enum hijack_part_mode *ret, char *err, size_t errlen)
{
	if (strcmp(s, "target") == 0)
		*ret = HIJACK_FROM_TARGET;
	else if (strcmp(s, "keep") == 0)
		*ret = HIJACK_KEEP;
	else if (none_word && strcmp(s, none_word) == 0)
		*ret = HIJACK_NONE;
	else
		return fail("invalid %s '%s': target%s keep%s%s", opt, s,
			    none_word ? "," : " or", none_word ? " or " : "",
			    none_word ? none_word : "");
	return 0;
}

static int add_setenv(struct cli_args *a, const char *kv, char *err,
		      size_t errlen)
{
	char **n;

	if (!hijack_env_valid(kv))
		return fail("malformed --setenv '%s': VAR=VALUE expected", kv);
	n = realloc(a->setenv, (a->nsetenv + 2) * sizeof(*n));
	if (!n)
		return fail("out of memory");
	a->setenv = n;
	n[a->nsetenv++] = (char *)kv;
	n[a->nsetenv] = NULL;
	a->opts.setenv = n;
	return 0;
}

static bool has_setenv(const struct cli_args *a, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < a->nsetenv; i++)
		if (strncmp(a->setenv[i], name, len) == 0 &&
		    a->setenv[i][len] == '=')
			return true;
	return false;
}

void cli_free(struct cli_args *a)
{
	free(a->path_env);
	a->path_env = NULL;
	free(a->setenv);
	a->setenv = NULL;
	a->nsetenv = 0;
	a->opts.setenv = NULL;
}

static int set_file(struct cli_args *a, enum hijack_file_op op,
		    const char *path, char *err, size_t errlen)
{
	if (a->copy)
		return fail("one --read-file or --write-file at a time");
	if (!*path)
		return fail("empty %s", op == HIJACK_FILE_READ ? "--read-file" :
								"--write-file");
	a->copy = true;
	a->file.op = op;
	a->file.path = path;
	/* The caller's side: standard output or standard input. */
	a->file.fd = op == HIJACK_FILE_READ ? 1 : 0;
	return 0;
}

static int parse_mode(const char *s, int *ret, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno || end == s || *end || *s == '-' || v > 07777)
		return fail("invalid --mode '%s': octal permission bits, 07777 at most",
			    s);
	*ret = (int)v;
	return 0;
}

static int short_ns_option(int c, unsigned int *mask)
{
	size_t i;

	for (i = 0; i < sizeof(short_ns) / sizeof(short_ns[0]); i++)
		if (short_ns[i].opt == c) {
			*mask |= HIJACK_NS_BIT(short_ns[i].ns);
			return 0;
		}
	return -EINVAL;
}

int cli_parse(int argc, char **argv, struct cli_args *a, char *err,
	      size_t errlen)
{
	struct hijack_opts *o = &a->opts;
	bool have_pid = false, have_mode = false;
	int c, r = 0, mode = -1;

	/* Tests parse many command lines in one process. */
	optind = 0;
	opterr = 0;
	a->action = CLI_RUN;
	a->target = NULL;
	a->copy = false;
	a->tools = false;
	a->tools_dir = NULL;
	a->file = (struct hijack_file){ .fd = -EBADF, .mode = -1 };
parse:
	/* "+": stop at the command, whose options are its own. */
	while (r == 0 && (c = getopt_long(argc, argv, "+:t:amuinpUCThV",
					  longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			r = parse_pid(optarg, &o->pid, err, errlen);
			have_pid = true;
			break;
		case 'a':
			o->ns_select |= HIJACK_NS_ALL;
			break;
		case OPT_NS:
			r = parse_ns(optarg, "--ns", &o->ns_select, err, errlen);
			break;
		case OPT_NO_NS:
			r = parse_ns(optarg, "--no-ns", &o->ns_exclude, err,
				     errlen);
			break;
		case OPT_METHOD:
			r = hijack_method_from_name(optarg);
			if (r < 0)
				return fail("unknown method '%s' (known: auto pidfd nsfd syscall)",
					    optarg);
			o->method = r;
			r = 0;
			break;
		case OPT_ROOT:
			r = parse_dir(optarg, "--root", true, &o->root_mode,
				      &o->root_path, err, errlen);
			break;
		case OPT_WD:
			r = parse_dir(optarg, "--wd", false, &o->wd_mode,
				      &o->wd_path, err, errlen);
			break;
		case OPT_EXPLAIN:
			if (!optarg || strcmp(optarg, "text") == 0)
				a->action = CLI_EXPLAIN_TEXT;
			else if (strcmp(optarg, "json") == 0)
				a->action = CLI_EXPLAIN_JSON;
			else
				return fail("unknown --explain format '%s' (known: text json)",
					    optarg);
			break;
		case OPT_USER:
			if (!*optarg)
				return fail("empty --user");
			o->user = optarg;
			break;
		case OPT_GROUP:
			if (!*optarg)
				return fail("empty --group");
			o->group = optarg;
			break;
		case OPT_PRESERVE_CREDS:
			o->creds = HIJACK_KEEP;
			break;
		case OPT_CAPS:
			r = parse_part(optarg, "--caps", NULL, &o->caps, err, errlen);
			break;
		case OPT_CGROUPS:
			r = parse_part(optarg, "--cgroups", NULL, &o->cgroup, err,
				       errlen);
			break;
		case OPT_LSM:
			r = parse_part(optarg, "--lsm", NULL, &o->lsm, err, errlen);
			break;
		case OPT_LIMITS:
			r = parse_part(optarg, "--limits", NULL, &o->limits, err,
				       errlen);
			break;
		case OPT_ENV:
			r = parse_part(optarg, "--env", "clear", &o->env, err,
				       errlen);
			break;
		case OPT_SECCOMP:
			if (strcmp(optarg, "target") == 0) {
				o->seccomp = HIJACK_FROM_TARGET;
			} else if (strcmp(optarg, "none") == 0) {
				o->seccomp = HIJACK_NONE;
			} else if (*optarg) {
				o->seccomp = HIJACK_FROM_FILE;
				o->seccomp_file = optarg;
			} else {
				return fail("invalid --seccomp '': target, none or a policy file");
			}
			break;
		case OPT_SETENV:
			r = add_setenv(a, optarg, err, errlen);
			break;
		case OPT_PRESERVE_FDS: {
			char *end;
			unsigned long n;

			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' ||
			    n > 65536)
				return fail("invalid --preserve-fds '%s': a count of fds after 2",
					    optarg);
			o->preserve_fds = (unsigned int)n;
			break;
		}
		case OPT_PTY:
			o->pty = HIJACK_PTY_ALWAYS;
			break;
		case OPT_NO_PTY:
			o->pty = HIJACK_PTY_NEVER;
			break;
		case OPT_LIST:
			a->action = CLI_LIST;
			break;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_READ_FILE:
			r = set_file(a, HIJACK_FILE_READ, optarg, err, errlen);
			break;
		case OPT_WRITE_FILE:
			r = set_file(a, HIJACK_FILE_WRITE, optarg, err, errlen);
			break;
		case OPT_TOOLS:
			if (optarg && optarg[0] != '/')
				return fail("invalid --tools '%s': an absolute directory",
					    optarg);
			a->tools = true;
			a->tools_dir = optarg;
			break;
		case OPT_MODE:
			r = parse_mode(optarg, &mode, err, errlen);
			have_mode = true;
			break;
		case 'h':
			a->action = CLI_HELP;
			return 0;
		case 'V':
			a->action = CLI_VERSION;
			return 0;
		case ':':
			return fail("option '%s' needs an argument",
				    argv[optind - 1]);
		case '?':
			if (optopt)
				return fail("unknown option '-%c'", optopt);
			return fail("unknown option '%s'", argv[optind - 1]);
		default:
			if (short_ns_option(c, &o->ns_select) < 0)
				return fail("unhandled option %d", c);
			break;
		}
	}
	if (r < 0)
		return r;
	/*
	 * Without --pid, the first word after the options names the target;
	 * options may follow it too ("hijack web --read-file=/etc/hosts"),
	 * up to "--" or the command.
	 */
	if (!have_pid && !a->target && a->action != CLI_LIST &&
	    optind < argc) {
		/*
		 * "hijack --read-file=F -- web": a "--" before the target
		 * ended hijack's options, so the command follows the target
		 * at once.  (glibc's getopt, called again after it has seen
		 * a "--", also backs optind up to the word after it.)
		 */
		bool ended = optind > 1 && strcmp(argv[optind - 1], "--") == 0;

		a->target = argv[optind++];
		if (!*a->target)
			return fail("empty container name");
		/* "hijack web -- ls -l": the "--" ends hijack's words. */
		if (optind < argc && strcmp(argv[optind], "--") == 0)
			optind++;
		else if (!ended)
			goto parse;
	}
	if (a->action == CLI_LIST) {
		if (have_pid || a->target || optind < argc)
			return fail("--list takes no target and no command");
		return 0;
	}
	if (a->json)
		return fail("--json goes with --list (for --explain: --explain=json)");
	if (have_mode && (!a->copy || a->file.op != HIJACK_FILE_WRITE))
		return fail("--mode goes with --write-file");
	a->file.mode = mode;
	if (have_pid && a->target)
		return fail("a container '%s' and --pid: one target only",
			    a->target);
	if (!have_pid && !a->target)
		return fail("no target: give a container [ENGINE:]NAME or --pid PID");
	/* Selecting every type is the default: enter each that differs. */
	if (o->ns_select == HIJACK_NS_ALL)
		o->ns_select = 0;
	if (o->ns_select && !(o->ns_select & ~o->ns_exclude))
		return fail("--ns and --no-ns leave no namespace to enter");
	if (o->creds == HIJACK_KEEP && (o->user || o->group))
		return fail("--preserve-credentials cannot be combined with --user or --group");
	if (a->tools && a->copy)
		return fail("--tools runs a command; --read-file and --write-file need none");
	if (a->tools && o->root_mode != HIJACK_DIR_TARGET)
		return fail("--tools makes its own root: no --root");
	/*
	 * The host's programs are searched in the caller's PATH; an explicit
	 * --setenv PATH=... still wins, as it comes first.
	 */
	if (a->tools && getenv("PATH") && !has_setenv(a, "PATH")) {
		if (asprintf(&a->path_env, "PATH=%s", getenv("PATH")) < 0) {
			a->path_env = NULL;
			return fail("out of memory");
		}
		r = add_setenv(a, a->path_env, err, errlen);
		if (r < 0)
			return r;
	}
	if (a->copy && optind < argc)
		return fail("--%s-file takes no command",
			    a->file.op == HIJACK_FILE_READ ? "read" : "write");
	/* The bytes, not a terminal: no pseudo-terminal for a copy. */
	if (a->copy)
		o->pty = HIJACK_PTY_NEVER;
	a->argv = optind < argc ? argv + optind : default_argv;
	return 0;
}
