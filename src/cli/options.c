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

#include "option-values.h"
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
	OPT_MAX_SIZE,
	OPT_TOOLS,
	OPT_REASON,
	OPT_RECORD,
	OPT_SESSIONS,
	OPT_PRUNE,
	OPT_END_SESSION,
	OPT_GRACE,
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
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "tools",   optional_argument, NULL, OPT_TOOLS },
	{ "reason",  required_argument, NULL, OPT_REASON },
	{ "record",  no_argument,       NULL, OPT_RECORD },
	{ "sessions", no_argument,      NULL, OPT_SESSIONS },
	{ "prune",   no_argument,       NULL, OPT_PRUNE },
	{ "end-session", required_argument, NULL, OPT_END_SESSION },
	{ "grace",   required_argument, NULL, OPT_GRACE },
	{ "help",    no_argument,       NULL, 'h' },
	{ "version", no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static char *default_argv[] = { "/bin/sh", NULL };







int cli_hide_setenv_values(struct cli_args *a, int argc, char **argv)
{
	size_t i;
	int j;

	for (i = 0; i < a->nsetenv && !a->setenv_copied; i++) {
		char *kv = a->setenv[i], *copy;

		for (j = 1; j < argc && argv + j != a->argv; j++)
			if (kv >= argv[j] && kv <= argv[j] + strlen(argv[j]))
				break;
		copy = strdup(kv);
		if (!copy) {
			/* The copies so far are kept, and freed by cli_free(). */
			a->nsetenv = i;
			a->setenv[i] = NULL;
			a->setenv_copied = true;
			return -ENOMEM;
		}
		a->setenv[i] = copy;
		if (j < argc && argv + j != a->argv) {
			char *v = strchr(kv, '=') + 1;

			memset(v, '*', strlen(v));
		}
	}
	a->setenv_copied = true;
	return 0;
}

void cli_free(struct cli_args *a)
{
	size_t i;

	for (i = 0; a->setenv_copied && i < a->nsetenv; i++)
		free(a->setenv[i]);
	a->setenv_copied = false;
	free(a->setenv);
	a->setenv = NULL;
	a->nsetenv = 0;
	a->opts.setenv = NULL;
}




/* What parsing has seen so far, beyond what cli_args holds. */
struct parse_state {
	bool have_pid;
	bool have_grace;
	bool have_mode;
	bool have_max_size;
	int mode;		/* --mode, or -1 */
};

/* What an option handler made of an option. */
enum {
	OPTION_TAKEN,		/* consumed: parse on */
	OPTION_STOP,		/* --help, --version: nothing more to parse */
	OPTION_NOT_MINE,	/* for the next handler */
};

/* Where to go: the target, its namespaces, root and working directory. */
static int option_where(int c, const char *arg, struct cli_args *a,
			struct parse_state *st, char *err, size_t errlen)
{
	struct hijack_opts *o = &a->opts;
	int r;

	switch (c) {
	case 't':
		st->have_pid = true;
		return optval_pid(arg, &o->pid, err, errlen);
	case 'a':
		o->ns_select |= HIJACK_NS_ALL;
		return OPTION_TAKEN;
	case OPT_NS:
		return optval_ns(arg, "--ns", &o->ns_select, err, errlen);
	case OPT_NO_NS:
		return optval_ns(arg, "--no-ns", &o->ns_exclude, err, errlen);
	case OPT_METHOD:
		r = hijack_method_from_name(arg);
		if (r < 0)
			return fail("unknown method '%s' (known: auto pidfd nsfd syscall)",
				    arg);
		o->method = r;
		return OPTION_TAKEN;
	case OPT_ROOT:
		return optval_dir(arg, "--root", true, &o->root_mode,
				  &o->root_path, err, errlen);
	case OPT_WD:
		r = optval_dir(arg, "--wd", false, &o->wd_mode, &o->wd_path,
			       err, errlen);
		if (r < 0)
			return r;
		/* Asked for by name: even for a command freer than the target. */
		if (o->wd_mode == HIJACK_DIR_TARGET)
			o->target_anyway |= HIJACK_PART_BIT(HIJACK_PART_WD);
		else
			o->target_anyway &= ~HIJACK_PART_BIT(HIJACK_PART_WD);
		return OPTION_TAKEN;
	default:
		return optval_short_ns(c, &o->ns_select) < 0 ? OPTION_NOT_MINE :
								OPTION_TAKEN;
	}
}

/* How the command is confined, and what it is handed. */
static int option_confine(int c, const char *arg, struct cli_args *a,
			  char *err, size_t errlen)
{
	struct hijack_opts *o = &a->opts;

	switch (c) {
	case OPT_USER:
		if (!*arg)
			return fail("empty --user");
		o->user = arg;
		return OPTION_TAKEN;
	case OPT_GROUP:
		if (!*arg)
			return fail("empty --group");
		o->group = arg;
		return OPTION_TAKEN;
	case OPT_PRESERVE_CREDS:
		o->creds = HIJACK_KEEP;
		return OPTION_TAKEN;
	case OPT_SECCOMP:
		return optval_seccomp(arg, o, err, errlen);
	case OPT_SETENV:
		return cli_add_setenv(a, arg, err, errlen);
	case OPT_PRESERVE_FDS:
		return optval_preserve_fds(arg, &o->preserve_fds, err, errlen);
	case OPT_PTY:
		o->pty = HIJACK_PTY_ALWAYS;
		return OPTION_TAKEN;
	case OPT_NO_PTY:
		o->pty = HIJACK_PTY_NEVER;
		return OPTION_TAKEN;
	case OPT_CAPS:
		return optval_part(arg, "--caps", NULL, &o->caps, err, errlen);
	case OPT_CGROUPS:
		return optval_part(arg, "--cgroups", NULL, &o->cgroup, err,
				   errlen);
	case OPT_LSM:
		return optval_part(arg, "--lsm", NULL, &o->lsm, err, errlen);
	case OPT_LIMITS:
		return optval_part(arg, "--limits", NULL, &o->limits, err,
				   errlen);
	case OPT_ENV:
		a->env_given = true;
		if (strcmp(arg, "reset") == 0) {
			o->env = HIJACK_RESET;
			return OPTION_TAKEN;
		}
		if (optval_part(arg, "--env", "clear", &o->env, err, errlen) < 0)
			return fail("invalid --env '%s': target, keep, reset or clear",
				    arg);
		/* Asked for by name: even for a command freer than the target. */
		if (o->env == HIJACK_FROM_TARGET)
			o->target_anyway |= HIJACK_PART_BIT(HIJACK_PART_ENV);
		else
			o->target_anyway &= ~HIJACK_PART_BIT(HIJACK_PART_ENV);
		return OPTION_TAKEN;
	default:
		return OPTION_NOT_MINE;
	}
}

/* What to do instead of running a command, and getopt's own complaints. */
static int option_action(int c, const char *arg, char **argv,
			 struct cli_args *a, struct parse_state *st, char *err,
			 size_t errlen)
{
	/* --list or --explain after --sessions or --end-session. */
	if ((c == OPT_EXPLAIN || c == OPT_LIST) &&
	    (a->action == CLI_SESSIONS || a->action == CLI_END_SESSION))
		return fail("%s cannot be combined with another action",
			    a->action == CLI_SESSIONS ? "--sessions" : "--end-session");
	switch (c) {
	case OPT_EXPLAIN:
		if (!arg || strcmp(arg, "text") == 0)
			a->action = CLI_EXPLAIN_TEXT;
		else if (strcmp(arg, "json") == 0)
			a->action = CLI_EXPLAIN_JSON;
		else
			return fail("unknown --explain format '%s' (known: text json)",
				    arg);
		return OPTION_TAKEN;
	case OPT_LIST:
		a->action = CLI_LIST;
		return OPTION_TAKEN;
	case OPT_JSON:
		a->json = true;
		return OPTION_TAKEN;
	case OPT_READ_FILE:
		return cli_set_file(a, HIJACK_FILE_READ, arg, err, errlen);
	case OPT_WRITE_FILE:
		return cli_set_file(a, HIJACK_FILE_WRITE, arg, err, errlen);
	case OPT_MODE:
		st->have_mode = true;
		return optval_mode(arg, &st->mode, err, errlen);
	case OPT_MAX_SIZE:
		st->have_max_size = true;
		return optval_size(arg, "--max-size", &a->max_size, err, errlen);
	case OPT_TOOLS:
		if (arg && arg[0] != '/')
			return fail("invalid --tools '%s': an absolute directory",
				    arg);
		a->tools = true;
		a->tools_dir = arg;
		return OPTION_TAKEN;
	case OPT_REASON:
		/* Kept whole: the records escape and bound it. */
		if (!*arg)
			return fail("empty --reason");
		a->reason = arg;
		return OPTION_TAKEN;
	case OPT_RECORD:
		a->record = true;
		return OPTION_TAKEN;
	case OPT_SESSIONS:
	case OPT_END_SESSION:
		/* One thing to do at a time: which would win is not obvious. */
		if (a->action != CLI_RUN)
			return fail("%s cannot be combined with another action",
				    c == OPT_SESSIONS ? "--sessions" : "--end-session");
		a->action = c == OPT_SESSIONS ? CLI_SESSIONS : CLI_END_SESSION;
		/* Checked when used: a bad id is the action's one-line error. */
		if (c == OPT_END_SESSION)
			a->end_session = arg;
		return OPTION_TAKEN;
	case OPT_PRUNE:
		a->prune = true;
		return OPTION_TAKEN;
	case OPT_GRACE:
		st->have_grace = true;
		return optval_grace(arg, &a->grace, err, errlen);
	case 'h':
		a->action = CLI_HELP;
		return OPTION_STOP;
	case 'V':
		a->action = CLI_VERSION;
		return OPTION_STOP;
	case ':':
		return fail("option '%s' needs an argument", argv[optind - 1]);
	case '?':
		if (optopt)
			return fail("unknown option '-%c'", optopt);
		return fail("unknown option '%s'", argv[optind - 1]);
	default:
		return fail("unhandled option %d", c);
	}
}

/*
 * getopt_long() up to the first word that is not an option.  Return
 * OPTION_TAKEN, OPTION_STOP, or a negative errno with @err set.
 */
static int parse_options(int argc, char **argv, struct cli_args *a,
			 struct parse_state *st, char *err, size_t errlen)
{
	int c, r;

	/* "+": stop at the command, whose options are its own. */
	while ((c = getopt_long(argc, argv, "+:t:amuinpUCThV", longopts,
				NULL)) != -1) {
		r = option_where(c, optarg, a, st, err, errlen);
		if (r == OPTION_NOT_MINE)
			r = option_confine(c, optarg, a, err, errlen);
		if (r == OPTION_NOT_MINE)
			r = option_action(c, optarg, argv, a, st, err, errlen);
		if (r != OPTION_TAKEN)
			return r;
	}
	return OPTION_TAKEN;
}

/*
 * Without --pid, the first word after the options names the target;
 * options may follow it too ("hijack web --read-file=/etc/hosts"), up to
 * "--" or the command.  Return 1 when options may follow the target, 0
 * when the command does, or a negative errno.
 */
static int take_target(int argc, char **argv, struct cli_args *a,
		       const struct parse_state *st, char *err, size_t errlen)
{
	bool ended;

	if (st->have_pid || a->target || a->action == CLI_LIST ||
	    a->action == CLI_SESSIONS || a->action == CLI_END_SESSION ||
	    optind >= argc)
		return 0;
	/*
	 * "hijack --read-file=F -- web": a "--" before the target ended
	 * hijack's options, so the command follows the target at once.
	 * (glibc's getopt, called again after it has seen a "--", also backs
	 * optind up to the word after it.)
	 */
	ended = optind > 1 && strcmp(argv[optind - 1], "--") == 0;
	a->target = argv[optind++];
	if (!*a->target)
		return fail("empty container name");
	/* "hijack web -- ls -l": the "--" ends hijack's words. */
	if (optind < argc && strcmp(argv[optind], "--") == 0) {
		optind++;
		return 0;
	}
	return !ended;
}

/*
 * --sessions [--json] [--prune] and --end-session ID [--grace S]
 * [--reason TEXT]: nothing of an entry goes with them.
 */
static int check_session_action(int argc, const struct cli_args *a,
				const struct parse_state *st, char *err,
				size_t errlen)
{
	const char *what = a->action == CLI_SESSIONS ? "--sessions" :
						       "--end-session";

	if (st->have_pid || a->target || optind < argc)
		return fail("%s takes no target and no command", what);
	if (a->record || a->copy || a->tools)
		return fail("%s does not enter: no --record, --tools or file copy",
			    what);
	if (a->action == CLI_SESSIONS) {
		if (a->reason)
			return fail("--reason goes with an entry or --end-session, not --sessions");
		if (st->have_grace)
			return fail("--grace goes with --end-session");
		return 0;
	}
	if (a->json || a->prune)
		return fail("--json and --prune go with --sessions, not --end-session");
	return 0;
}

/* Options that make no sense together, once all are known. */
static int check_combinations(const struct cli_args *a,
			      const struct parse_state *st, char *err,
			      size_t errlen)
{
	const struct hijack_opts *o = &a->opts;

	if (a->json)
		return fail("--json goes with --list or --sessions (for --explain: --explain=json)");
	if (a->prune)
		return fail("--prune goes with --sessions");
	if (st->have_grace)
		return fail("--grace goes with --end-session");
	if (st->have_mode && (!a->copy || a->file.op != HIJACK_FILE_WRITE))
		return fail("--mode goes with --write-file");
	if (st->have_max_size && (!a->copy || a->file.op != HIJACK_FILE_READ))
		return fail("--max-size goes with --read-file");
	if (st->have_pid && a->target)
		return fail("a container '%s' and --pid: one target only",
			    a->target);
	if (!st->have_pid && !a->target)
		return fail("no target: give a container [ENGINE:]NAME or --pid PID");
	if (o->ns_select && o->ns_select != HIJACK_NS_ALL &&
	    !(o->ns_select & ~o->ns_exclude))
		return fail("--ns and --no-ns leave no namespace to enter");
	/*
	 * hijack_plan_build() refuses this too, for every caller of the
	 * library; here it is a usage error, said before any target is
	 * touched and in the words of the command line.
	 */
	if (o->creds == HIJACK_KEEP && (o->user || o->group))
		return fail("--preserve-credentials cannot be combined with --user or --group");
	if (a->tools && a->copy)
		return fail("--tools runs a command; --read-file and --write-file need none");
	if (a->record && a->copy)
		return fail("--record records a terminal, which a file copy has not (its end record has the size and SHA-256 of what moved)");
	if (a->tools && o->root_mode != HIJACK_DIR_TARGET)
		return fail("--tools makes its own root: no --root");
	return 0;
}

/*
 * --tools: the host's programs get the caller's environment reset to the
 * terminal and locale (--env=reset), never the container's, a PATH of the
 * system's program directories (the only ones in the view, and never a
 * relative entry, which would search the container's tree), and the
 * view's /tmp as HOME; an explicit --setenv wins.
 */
static int tools_env(struct cli_args *a, char *err, size_t errlen)
{
	static char path[] = "PATH=" HIJACK_TOOLS_PATH;
	static char home[] = "HOME=/tmp";
	int r = 0;

	if (!a->tools)
		return 0;
	if (!a->env_given)
		a->opts.env = HIJACK_RESET;
	else if (a->opts.env == HIJACK_FROM_TARGET)
		return fail("--tools never gives the container's environment to the host's programs (--env reset, keep or clear; --setenv for a variable)");
	if (!cli_has_setenv(a, "PATH"))
		r = cli_add_setenv(a, path, err, errlen);
	if (r == 0 && !cli_has_setenv(a, "HOME"))
		r = cli_add_setenv(a, home, err, errlen);
	return r;
}

int cli_parse(int argc, char **argv, struct cli_args *a, char *err,
	      size_t errlen)
{
	struct parse_state st = { .mode = -1 };
	int r;

	/* Tests parse many command lines in one process. */
	optind = 0;
	opterr = 0;
	a->action = CLI_RUN;
	a->target = NULL;
	a->copy = false;
	a->tools = false;
	a->tools_dir = NULL;
	a->env_given = false;
	a->reason = NULL;
	a->record = false;
	a->prune = false;
	a->end_session = NULL;
	a->grace = CLI_GRACE_DEFAULT;
	a->file = (struct hijack_file){ .fd = -EBADF, .mode = -1 };
	a->max_size = HIJACK_FILE_MAX_DEFAULT;
	do {
		r = parse_options(argc, argv, a, &st, err, errlen);
		if (r != OPTION_TAKEN)
			return r == OPTION_STOP ? 0 : r;
		r = take_target(argc, argv, a, &st, err, errlen);
		if (r < 0)
			return r;
	} while (r);

	if (a->action == CLI_LIST) {
		if (st.have_pid || a->target || optind < argc)
			return fail("--list takes no target and no command");
		if (a->reason)
			return fail("--reason goes with an entry, not --list");
		if (a->record)
			return fail("--record goes with an entry, not --list");
		if (a->prune || st.have_grace)
			return fail("--list takes no --prune or --grace");
		return 0;
	}
	if (a->action == CLI_SESSIONS || a->action == CLI_END_SESSION)
		return check_session_action(argc, a, &st, err, errlen);
	r = check_combinations(a, &st, err, errlen);
	if (r < 0)
		return r;
	a->file.mode = st.mode;
	/* Selecting every type is the default: enter each that differs. */
	if (a->opts.ns_select == HIJACK_NS_ALL)
		a->opts.ns_select = 0;
	r = tools_env(a, err, errlen);
	if (r < 0)
		return r;
	if (a->copy && optind < argc)
		return fail("--%s-file takes no command",
			    a->file.op == HIJACK_FILE_READ ? "read" : "write");
	/* The bytes, not a terminal: no pseudo-terminal for a copy. */
	if (a->copy)
		a->opts.pty = HIJACK_PTY_NEVER;
	a->argv = optind < argc ? argv + optind : default_argv;
	return 0;
}
