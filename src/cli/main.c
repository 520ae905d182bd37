// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hijack - run a program inside everything that makes up a running task's
 * container.
 *
 * This file is the only place that prints and exits, with audit-cli.c for
 * the records of each entry: it turns the command line into a struct
 * hijack_opts, asks libhijack to plan and run, and maps the result to an
 * exit status (see hijack(1)).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit-cli.h"
#include "copy-hash.h"
#include "hijack.h"
#include "options.h"
#include "scols.h"
#include "sessions-cli.h"

/* As env(1), chroot(1) and podman: hijack(1), EXIT STATUS. */
#define EXIT_HIJACK_FAILED 125
#define EXIT_CANNOT_EXEC 126
#define EXIT_NOT_FOUND 127
/* A file copy that failed on the file itself, as cat(1) says it. */
#define EXIT_FILE_FAILED 1

static void usage(void)
{
	fputs("Usage:\n"
	      " hijack [options] [--] TARGET [command [arg...]]\n"
	      " hijack [options] --pid PID [--] [command [arg...]]\n"
	      " hijack --list [--json]\n"
	      " hijack --sessions [--json] [--prune]\n"
	      " hijack --end-session ID [--grace SECONDS] [--reason TEXT]\n"
	      "\n"
	      "Run a program inside a running container: its namespaces, root and\n"
	      "working directory, cgroups, credentials, capabilities, seccomp filters,\n"
	      "LSM label and environment.  The default command is /bin/sh.\n"
	      "TARGET is [ENGINE:]NAME: a container's name, id or unique id prefix;\n"
	      "ENGINE is lxc, docker, podman, runc, crun, containerd (NAME is\n"
	      "NAMESPACE/ID), incus, machine or pid (pid:PID).  Without ENGINE every\n"
	      "engine present is searched.\n"
	      "\n"
	      "Options:\n"
	      " -t, --pid PID          the target task, instead of TARGET\n"
	      "     --list             list the running containers (engine, name, id,\n"
	      "                        pid, state); --json for JSON\n"
	      "     --ns LIST          enter only these namespace types\n"
	      "     --no-ns LIST       never enter these namespace types\n"
	      "                        (types: mnt uts ipc net pid user cgroup time, or all)\n"
	      " -m, --mount            like --ns=mnt; -u uts, -i ipc, -n net, -p pid,\n"
	      " -u, -i, -n, -p,        -U user, -C cgroup, -T time (as nsenter)\n"
	      " -U, -C, -T\n"
	      " -a, --all              every namespace type that differs (the default)\n"
	      "     --pidns, --userns  long forms of -p and -U\n"
	      "     --method METHOD    auto, pidfd, nsfd or syscall (default auto)\n"
	      "     --root WHERE       target, keep or an absolute path (default target)\n"
	      "     --wd WHERE         target, keep or a path (default target)\n"
	      "     --explain[=FORMAT] print what would be done (text or json); run nothing\n"
	      "     --tools[=DIR]      run the host's programs in the container's\n"
	      "                        confinement: / is the host's, the container's\n"
	      "                        root is on DIR (default /run/hijack/root), /proc\n"
	      "                        is the container's (see hijack(1), SECURITY)\n"
	      "     --reason TEXT      why: goes into the entry's audit records\n"
	      "                        (see hijack(1), AUDIT)\n"
	      "     --record           record the session's terminal (asciicast v2,\n"
	      "                        root's; see hijack(1), AUDIT)\n"
	      "     --sessions         list the entries running now (root only);\n"
	      "                        --json for JSON, --prune to remove the files\n"
	      "                        of those that ended without an end record\n"
	      "     --end-session ID   end a running entry (root only): SIGHUP, then\n"
	      "                        SIGKILL after --grace SECONDS (default 5);\n"
	      "                        ID: its session id or 8+ hex digits of it\n"
	      "\n"
	      "Files, with no program of the container's (no command then):\n"
	      "     --read-file PATH   copy PATH inside the container to standard output\n"
	      "     --write-file PATH  replace PATH inside the container, atomically, with\n"
	      "                        standard input\n"
	      "     --mode MODE        octal mode of the written file (default: the old\n"
	      "                        file's, 0644 for a new one)\n"
	      "     --max-size SIZE    read at most SIZE bytes (K, M, G, T: KiB, ...),\n"
	      "                        refuse a larger file (default 1G)\n"
	      "\n"
	      "Confinement (default: everything as the target has it):\n"
	      "     --user USER        run as this user (name or uid, looked up in the target)\n"
	      "     --group GROUP      run with this group (name or gid)\n"
	      "     --preserve-credentials  keep the caller's uid, gid and groups\n"
	      "     --caps WHICH       capability sets: target or keep\n"
	      "     --cgroups WHICH    cgroup membership: target or keep\n"
	      "     --seccomp WHICH    target, none, or a policy FILE (see hijack(1))\n"
	      "     --lsm WHICH        AppArmor/SELinux label: target or keep\n"
	      "     --limits WHICH     resource limits and oom_score_adj: target or keep\n"
	      "     --env WHICH        environment: target (plus TERM), keep, reset or clear\n"
	      "     --setenv VAR=VALUE set a variable (repeatable)\n"
	      "     --preserve-fds N   pass fds 3 to 3+N-1 on as well\n"
	      "     --pty              give fds 0-2 a new terminal even if they are none\n"
	      "     --no-pty           pass the caller's terminal in (default: a new one\n"
	      "                        from the container replaces it, relayed)\n"
	      "\n"
	      " -h, --help             display this help\n"
	      " -V, --version          display version and features\n"
	      "\n"
	      "Exit status: the command's; 128+N if it was killed by signal N;\n"
	      "125 if hijack failed, 126 if the command cannot run, 127 if not found;\n"
	      "a file copy: 0, or 1 when the file could not be read or written\n"
	      "(or was refused: not a regular file, in /proc, over --max-size);\n"
	      "--end-session: 0 when the session ended, 1 when no such session runs.\n"
	      "For more details see hijack(1).\n",
	      stdout);
}

static void version(void)
{
	printf("hijack %s (features: pidfd-setns, nsfd, hijack-syscall-probe",
	       PACKAGE_VERSION);
#ifdef HAVE_LIBCAP
	fputs(", libcap", stdout);
#endif
#ifdef HAVE_LIBSECCOMP
	fputs(", libseccomp", stdout);
#endif
#ifdef HAVE_LIBMOUNT
	fputs(", libmount", stdout);
#endif
	fputs(")\n", stdout);
}

/* Never lose a write error on stdout: --explain output may feed a script. */
static void close_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (errno != EPIPE)
			fprintf(stderr, "hijack: write error: %s\n",
				strerror(errno ? errno : EIO));
		_exit(EXIT_HIJACK_FAILED);
	}
}

/*
 * Write @s to @f so that nothing in it can act on a terminal: messages
 * carry what the user typed and what was read from the container, either
 * of which may hold an ESC sequence (recolour, retitle, or on some
 * terminals answer back into the caller's input) or a newline that forges
 * a second message.  C0 and C1 controls, DEL, bytes that are not valid
 * UTF-8, and the backslash itself come out as \xHH (\\ for the
 * backslash), so the output is unambiguous; printable UTF-8 passes as it
 * is.  With @lines, newlines and tabs pass too (multi-line output).  The
 * one place the CLI writes any text it did not write itself.
 */
static void put_escaped(FILE *f, const char *s, bool lines)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp, need, i;

	while (*p) {
		if (*p == '\\') {
			fputs("\\\\", f);
			p++;
			continue;
		}
		if (*p >= 0x20 && *p < 0x7f) {
			fputc(*p++, f);
			continue;
		}
		if (lines && (*p == '\n' || *p == '\t')) {
			fputc(*p++, f);
			continue;
		}
		/* A UTF-8 sequence: its length from the lead byte. */
		need = *p >= 0xf0 && *p < 0xf5 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc2 ? 1 : 0;
		if (*p >= 0xf5)
			need = 0;
		cp = need == 3 ? *p & 0x07u : need == 2 ? *p & 0x0fu : *p & 0x1fu;
		for (i = 1; need && i <= need; i++) {
			if ((p[i] & 0xc0) != 0x80)
				break;
			cp = (cp << 6) | (p[i] & 0x3fu);
		}
		/* Valid, shortest form, no surrogate, and not a C1 control. */
		if (need && i > need && cp >= 0xa0 &&
		    !(need == 2 && cp < 0x800) && !(need == 3 && cp < 0x10000) &&
		    !(cp >= 0xd800 && cp <= 0xdfff) && cp <= 0x10ffff) {
			fwrite(p, 1, need + 1, f);
			p += need + 1;
			continue;
		}
		fprintf(f, "\\x%02x", *p++);
	}
}

static _Noreturn void fail(const struct hijack_diag *d, int code)
{
	fprintf(stderr, "hijack: %s: ", hijack_step_name(d->step));
	put_escaped(stderr, d->detail, false);
	/* The list of candidates is the message; ENOTUNIQ's text is not. */
	if (d->err == ENOTUNIQ)
		fputc('\n', stderr);
	else
		fprintf(stderr, ": %s\n", strerror(d->err));
	exit(code);
}

/* An entry that failed: recorded, then reported. */
static _Noreturn void fail_entry(struct cli_audit *au,
				 const struct hijack_diag *d, int code)
{
	cli_audit_end(au, code, d);
	fail(d, code);
}

/*
 * --list: a table like lsns(8)'s, or JSON, through libsmartcols, which
 * also escapes whatever an engine calls its containers (scols.h says why
 * it is opened, not linked).
 */

/*
 * A container an engine found but did not believe (an LXC monitor socket
 * someone else holds) is left out of the list, with a note on stderr that
 * says why: the question hijack ENGINE:NAME would ask.  The first few
 * only: anyone can bind thousands of such sockets.
 */
#define REFUSED_NOTES_MAX 8
static void note_refused(const struct hijack_container *c, size_t seen)
{
	struct hijack_container found;
	struct hijack_diag d = { 0 };
	char target[sizeof(c->engine) + sizeof(c->name) + 1];

	if (seen > REFUSED_NOTES_MAX)
		return;
	if (seen == REFUSED_NOTES_MAX) {
		fputs("hijack: list: more containers left out, not believed\n", stderr);
		return;
	}
	(void)snprintf(target, sizeof(target), "%s:%s", c->engine, c->name);
	fputs("hijack: list: left out ", stderr);
	if (hijack_container_find(target, &found, &d) < 0 && d.err == EPERM) {
		put_escaped(stderr, d.detail, false);
	} else {
		put_escaped(stderr, target, false);
		fputs(" not believed", stderr);
	}
	fputc('\n', stderr);
}

static int list_containers(bool json)
{
	static const char *const cols[] = { "ENGINE", "NAME", "ID", "PID",
					    "STATE" };
	struct libscols_table *tb;
	struct hijack_container *v = NULL;
	struct hijack_diag d;
	struct scols_api sc;
	size_t i, n = 0, refused = 0;
	int r;

	scols_open(&sc, "list");
	if (hijack_containers_list(NULL, &v, &n, &d) < 0)
		fail(&d, EXIT_HIJACK_FAILED);
	tb = sc.scols_new_table();
	if (!tb)
		goto oom;
	sc.scols_table_enable_json(tb, json);
	sc.scols_table_set_name(tb, "containers");
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		struct libscols_column *cl;

		cl = sc.scols_table_new_column(tb, cols[i], 0,
					    i == 2 ? SCOLS_FL_TRUNC : 0);
		if (!cl)
			goto oom;
		if (i == 3)
			sc.scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
	}
	for (i = 0; i < n; i++) {
		struct libscols_line *ln;
		char pid[16];

		if (strcmp(v[i].state, "refused") == 0) {
			note_refused(&v[i], refused++);
			continue;
		}
		ln = sc.scols_table_new_line(tb, NULL);
		if (!ln)
			goto oom;
		(void)snprintf(pid, sizeof(pid), "%d", (int)v[i].pid);
		if (sc.scols_line_set_data(ln, 0, v[i].engine) ||
		    sc.scols_line_set_data(ln, 1, v[i].name) ||
		    sc.scols_line_set_data(ln, 2, v[i].id) ||
		    sc.scols_line_set_data(ln, 3, pid) ||
		    sc.scols_line_set_data(ln, 4, v[i].state))
			goto oom;
	}
	r = sc.scols_print_table(tb);
	sc.scols_unref_table(tb);
	free(v);
	return r < 0 ? EXIT_HIJACK_FAILED : EXIT_SUCCESS;
oom:
	fprintf(stderr, "hijack: list: %s\n", strerror(ENOMEM));
	exit(EXIT_HIJACK_FAILED);
}

/*
 * The text plan quotes the container's cgroup paths, LSM label and more:
 * it goes through put_escaped() too.  JSON escapes by itself (explain-json.c).
 */
static int print_plan(const struct hijack_plan *plan, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int r;

	if (json)
		return hijack_plan_print(plan, true, stdout);
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	r = hijack_plan_print(plan, false, mem);
	if (fclose(mem) != 0 && r >= 0)
		r = -errno;
	if (r >= 0)
		put_escaped(stdout, buf, true);
	free(buf);
	return r;
}

/*
 * A file copy, with its size and SHA-256 counted on the way for the end
 * record (copy-hash.c); known when the copy succeeded.
 */
static int copy_file(struct cli_audit *au, const struct hijack_target *t,
		     const struct hijack_plan *plan, struct cli_args *a,
		     struct hijack_result *res, struct hijack_diag *d)
{
	struct audit_entry *e = &au->entry;
	unsigned long long bytes;
	struct copy_hash h;
	int r;

	r = copy_hash_start(&h, &a->file);
	if (r < 0) {
		*d = (struct hijack_diag){ .step = HIJACK_STEP_FILE, .err = -r };
		(void)snprintf(d->detail, sizeof(d->detail),
			       "a pipe to hash the copy");
		fail_entry(au, d, EXIT_HIJACK_FAILED);
	}
	r = hijack_file_copy(t, plan, &a->file, a->max_size, res, d);
	if (r < 0) {
		copy_hash_abandon(&h);
		return r;
	}
	if (copy_hash_finish(&h, &bytes, e->file_sha256) == 0 &&
	    WIFEXITED(res->status) && WEXITSTATUS(res->status) == 0)
		e->file_bytes = (long long)bytes;
	else
		e->file_sha256[0] = '\0';
	return r;
}

int main(int argc, char **argv)
{
	struct cli_args a = { .opts = HIJACK_OPTS_INIT };
	struct hijack_target *t = NULL;
	struct cli_audit au = { .on = false };
	struct hijack_container ct;
	struct hijack_plan *plan = NULL;
	struct hijack_result res;
	struct hijack_diag d;
	int r;

	char err[512];

	(void)atexit(close_stdout);
	if (cli_parse(argc, argv, &a, err, sizeof(err)) < 0) {
		fputs("hijack: ", stderr);
		put_escaped(stderr, err, false);
		fputs("\nTry 'hijack --help' for more information.\n", stderr);
		return EXIT_HIJACK_FAILED;
	}
	if (cli_hide_setenv_values(&a, argc, argv) < 0) {
		fprintf(stderr, "hijack: %s\n", strerror(ENOMEM));
		return EXIT_HIJACK_FAILED;
	}
	if (a.action == CLI_HELP) {
		usage();
		return EXIT_SUCCESS;
	}
	if (a.action == CLI_VERSION) {
		version();
		return EXIT_SUCCESS;
	}

	if (a.action == CLI_LIST)
		return list_containers(a.json);
	if (a.action == CLI_SESSIONS)
		return cli_sessions(&a);
	if (a.action == CLI_END_SESSION)
		return cli_end_session(&a);

	if (a.action == CLI_RUN)
		cli_audit_begin(&au, &a);
	if (a.target) {
		/* Found, then pinned and proved still the container's. */
		if (hijack_container_find(a.target, &ct, &d) < 0 ||
		    hijack_container_open(&ct, &t, &d) < 0)
			fail_entry(&au, &d, EXIT_HIJACK_FAILED);
	} else if (hijack_target_open(a.opts.pid, &t, &d) < 0) {
		fail_entry(&au, &d, EXIT_HIJACK_FAILED);
	}
	if (hijack_plan_build(t, &a.opts, &plan, &d) < 0)
		fail_entry(&au, &d, EXIT_HIJACK_FAILED);

	if (a.action == CLI_EXPLAIN_TEXT || a.action == CLI_EXPLAIN_JSON) {
		r = print_plan(plan, a.action == CLI_EXPLAIN_JSON);
		hijack_plan_free(plan);
		hijack_target_free(t);
		cli_free(&a);
		return r < 0 ? EXIT_HIJACK_FAILED : EXIT_SUCCESS;
	}

	cli_audit_start(&au, &a, plan, t, a.target ? &ct : NULL);
	if (a.copy)
		r = copy_file(&au, t, plan, &a, &res, &d);
	else if (a.tools)
		r = hijack_run_tools(t, plan, a.tools_dir, a.argv,
				     cli_audit_tap(&au), &res, &d);
	else
		r = hijack_run(t, plan, a.argv, cli_audit_tap(&au), &res, &d);
	hijack_plan_free(plan);
	hijack_target_free(t);
	cli_free(&a);
	if (r < 0) {
		if (d.step == HIJACK_STEP_FILE)
			fail_entry(&au, &d, EXIT_FILE_FAILED);
		if (d.step == HIJACK_STEP_EXEC)
			fail_entry(&au, &d, d.err == ENOENT ? EXIT_NOT_FOUND :
							      EXIT_CANNOT_EXEC);
		fail_entry(&au, &d, EXIT_HIJACK_FAILED);
	}
	r = WIFSIGNALED(res.status) ? 128 + WTERMSIG(res.status) :
				      WEXITSTATUS(res.status);
	cli_audit_end(&au, r, NULL);
	return r;
}
