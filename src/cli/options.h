/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - the hijack command line, parsed without printing or exiting,
 * so that unit tests can drive it.
 */
#ifndef HIJACK_CLI_OPTIONS_H
#define HIJACK_CLI_OPTIONS_H

#include "hijack.h"

enum cli_action {
	CLI_RUN,
	CLI_EXPLAIN_TEXT,
	CLI_EXPLAIN_JSON,
	CLI_HELP,
	CLI_VERSION,
	CLI_LIST,
	CLI_SESSIONS,		/* --sessions */
	CLI_END_SESSION,	/* --end-session ID */
};

/* --end-session's wait between SIGHUP and SIGKILL, by default and at most. */
#define CLI_GRACE_DEFAULT 5
#define CLI_GRACE_MAX 3600

struct cli_args {
	struct hijack_opts opts;
	enum cli_action action;
	const char *target;	/* "[ENGINE:]NAME", or NULL with --pid */
	bool json;		/* --list --json, --sessions --json */
	bool prune;		/* --sessions --prune */
	const char *end_session;	/* --end-session: the id as given */
	unsigned int grace;	/* --grace: seconds */
	bool copy;		/* --read-file or --write-file: file holds it */
	struct hijack_file file;
	uint64_t max_size;	/* --max-size: the most bytes --read-file reads */
	bool tools;		/* --tools[=DIR] */
	const char *tools_dir;	/* NULL: the default */
	bool env_given;		/* --env said which */
	const char *reason;	/* --reason, for the records; NULL: none */
	bool record;		/* --record: this session's terminal */
	char **argv;		/* the command; never NULL after parsing */
	char **setenv;		/* owned; opts.setenv points here */
	size_t nsetenv;
	bool setenv_copied;	/* the strings of setenv are owned too */
};

/*
 * Copy the --setenv values out of @argv and overwrite them there with
 * '*': /proc/PID/cmdline, which ps(1) shows every user and journald
 * copies into each record as _CMDLINE, then holds no value that may be a
 * secret.  The command's own arguments are left alone.  Return 0 or
 * -ENOMEM.
 */
int cli_hide_setenv_values(struct cli_args *a, int argc, char **argv);

/* Free what cli_parse() allocated. */
void cli_free(struct cli_args *a);

/*
 * Parse argv into @a (which must hold HIJACK_OPTS_INIT).  Return 0, or
 * -EINVAL with a one-line reason in @err; getopt prints nothing itself.
 */
int cli_parse(int argc, char **argv, struct cli_args *a, char *err,
	      size_t errlen);

#endif
