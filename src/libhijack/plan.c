// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * plan.c - decide everything an entry will do before doing any of it.
 *
 * Reading happens here, from the host's /proc, while it is still visible:
 * once inside the target's mount namespace, the host's /proc may be gone.
 */
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

static const char *const method_names[_HIJACK_METHOD_MAX] = {
	[HIJACK_METHOD_AUTO] = "auto",
	[HIJACK_METHOD_PIDFD] = "pidfd",
	[HIJACK_METHOD_NSFD] = "nsfd",
	[HIJACK_METHOD_SYSCALL] = "syscall",
};

/* Never NULL: callers put the name straight into a message. */
HIJACK_EXPORT const char *hijack_method_name(enum hijack_method m)
{
	if ((unsigned int)m >= _HIJACK_METHOD_MAX)
		return "unknown";
	return method_names[m];
}

HIJACK_EXPORT int hijack_method_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(method_names); i++)
		if (strcmp(name, method_names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

static int plan_namespaces(const struct hijack_target *t,
			   const struct hijack_opts *o, struct hijack_plan *p,
			   struct hijack_diag *d)
{
	_cleanup_close_ int self = -EBADF;
	unsigned int want;
	dev_t nsfs = 0;
	int i, r;

	self = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (self < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno, "/proc/self");

	want = (o->ns_select ? o->ns_select : HIJACK_NS_ALL) & ~o->ns_exclude;
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		struct hijack_ns_state *s = &p->ns[i];
		struct stat st;

		r = hj_ns_ino(t->procfd, i, &s->ino);
		/*
		 * Absent for the target but not for hijack: the kernel has
		 * the type, and the target's cannot be read (check_target()
		 * refuses the usual cause, an exited main thread, already).
		 * Never taken for "this kernel lacks it", which would leave
		 * the namespace out unasked.
		 */
		if (r == -ENOENT && hj_ns_ino(self, i, &s->self_ino) == 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, ESRCH,
					   "/proc/%d/ns/%s", (int)t->pid,
					   hijack_ns_name(i));
		if (r == -ENOENT) {
			/* This kernel lacks the type: fine unless asked for. */
			if (o->ns_select & HIJACK_NS_BIT(i) & ~o->ns_exclude)
				return hj_diag_set(d, HIJACK_STEP_PLAN, EOPNOTSUPP,
						   "%s namespace of pid %d",
						   hijack_ns_name(i), (int)t->pid);
			continue;
		}
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, r,
					   "/proc/%d/ns/%s", (int)t->pid,
					   hijack_ns_name(i));
		r = hj_ns_ino(self, i, &s->self_ino);
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, r,
					   "/proc/self/ns/%s", hijack_ns_name(i));
		if (!nsfs) {
			r = hj_ns_stat(self, i, &st);
			if (r < 0)
				return hj_diag_set(d, HIJACK_STEP_OPEN, r,
						   "/proc/self/ns/%s",
						   hijack_ns_name(i));
			nsfs = st.st_dev;
		}
		s->dev = s->self_dev = nsfs;

		/*
		 * A namespace the caller is already in is never entered:
		 * for most types it would change nothing, and setns() into
		 * one's own user namespace fails with EINVAL.
		 */
		s->enter = (want & HIJACK_NS_BIT(i)) && s->ino != s->self_ino;
		if (s->enter)
			p->ns_mask |= HIJACK_NS_BIT(i);
	}
	return 0;
}

/*
 * A link of /proc/PID in full.  The kernel writes it into a page at most
 * (-ENAMETOOLONG beyond), so the buffer grows a few times at worst.
 */
static int read_link(int dirfd, const char *name, char **ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t size = PATH_MAX;
	ssize_t n;

	for (;;) {
		char *b = realloc(buf, size);

		if (!b)
			return -ENOMEM;
		buf = b;
		n = readlinkat(dirfd, name, buf, size);
		if (n < 0)
			return -errno;
		if ((size_t)n < size)
			break;
		size *= 2;
	}
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	return 0;
}

static int plan_dir(const struct hijack_target *t, const char *link,
		    enum hijack_dir_mode mode, const char *path, char **ret,
		    struct hijack_diag *d)
{
	int r;

	switch (mode) {
	case HIJACK_DIR_TARGET:
		r = read_link(t->procfd, link, ret);
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, r,
					   "/proc/%d/%s", (int)t->pid, link);
		return 0;
	case HIJACK_DIR_PATH:
		if (!path || !*path)
			return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
					   "empty %s path", link);
		*ret = strdup(path);
		break;
	case HIJACK_DIR_KEEP:
		if (strcmp(link, "cwd") == 0) {
			*ret = getcwd(NULL, 0);
			if (!*ret)
				return hj_diag_set(d, HIJACK_STEP_CWD, errno,
						   "current directory");
		} else {
			*ret = strdup("/");
		}
		break;
	default:
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL, "%s mode",
				   link);
	}
	if (!*ret)
		return hj_diag_set(d, HIJACK_STEP_PLAN, ENOMEM, "%s path", link);
	return 0;
}

/*
 * The method, and with hijack(2) the flags it is called with: decided here
 * once, from the finished plan, and read from the plan by everyone after.
 */
static int plan_method(const struct hijack_opts *o, struct hijack_plan *p,
		       struct hijack_diag *d)
{
	long nr = hj_syscall_nr();
	int flags = hj_syscall_flags(p);

	p->syscall_nr = nr > 0 ? nr : -1;
	p->method_fallback = HIJACK_METHOD_AUTO;
	p->method = o->method;

	if (o->method == HIJACK_METHOD_AUTO) {
		if (nr > 0 && flags > 0) {
			p->method = HIJACK_METHOD_SYSCALL;
		} else {
			/* setns() on a pidfd needs Linux 5.8: fall back. */
			p->method = HIJACK_METHOD_PIDFD;
			p->method_fallback = HIJACK_METHOD_NSFD;
		}
	} else if (o->method == HIJACK_METHOD_SYSCALL) {
		if (nr < 0)
			return hj_diag_set(d, HIJACK_STEP_PLAN, nr,
					   "method syscall: the running kernel has no hijack system call");
		if (flags < 0)
			return hj_diag_set(d, HIJACK_STEP_PLAN, EOPNOTSUPP,
					   "method syscall: it takes the target's root only with its mount namespace, and that namespace only with the target's root");
	}
	p->syscall_flags = p->method == HIJACK_METHOD_SYSCALL ? (unsigned int)flags : 0;
	return 0;
}

static enum hijack_pty opts_pty(const struct hijack_opts *o)
{
	return OPTS_HAVE(o, pty) ? o->pty : HIJACK_PTY_AUTO;
}

static enum hijack_part_mode opts_limits(const struct hijack_opts *o)
{
	return OPTS_HAVE(o, limits) ? o->limits : HIJACK_FROM_TARGET;
}

/*
 * Everything wrong with the request alone, before anything is read.  The
 * CLI refuses --preserve-credentials with --user itself, for a message in
 * its own terms; this is the library's word on it, for every caller.
 */
static int check_opts(const struct hijack_opts *o, struct hijack_diag *d)
{
	if (!o || !OPTS_HAVE(o, preserve_fds))
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "struct hijack_opts too small");
	if (o->ns_select & ~HIJACK_NS_ALL || o->ns_exclude & ~HIJACK_NS_ALL)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "unknown namespace bits");
	if ((unsigned int)o->method >= _HIJACK_METHOD_MAX)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "method %d", (int)o->method);
	if ((unsigned int)opts_pty(o) > HIJACK_PTY_NEVER)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "unknown terminal mode %d", (int)opts_pty(o));
	if (opts_limits(o) != HIJACK_FROM_TARGET && opts_limits(o) != HIJACK_KEEP)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "limits: target or keep");
	if (o->creds != HIJACK_FROM_TARGET && (o->user || o->group))
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "--user and --group cannot be combined with kept credentials");
	if (o->seccomp == HIJACK_FROM_FILE && !o->seccomp_file)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "seccomp policy file name");
	return 0;
}

/*
 * The target as a whole: still the task that was pinned, and not a kernel
 * thread, which has no namespaces, root or credentials of its own.  Its
 * status is kept for the credentials and seccomp.
 */
static int check_target(const struct hijack_target *t, char **ret_status,
			struct hijack_diag *d)
{
	_cleanup_free_ char *status = NULL;
	char buf[64];
	int r;

	r = hj_proc_read(t, "status", &status, NULL);
	if (r < 0)
		return hj_proc_fail(d, HIJACK_STEP_OPEN, t->pid, "status", r);
	r = hj_target_check_status(t, status, d);
	if (r < 0)
		return r;
	if (hj_status_field(status, "Kthread", buf, sizeof(buf)) == 0 &&
	    atoi(buf) == 1)
		return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
				   "pid %d is a kernel thread", (int)t->pid);
	/*
	 * A zombie, or a process whose main thread has exited while others
	 * run on: its /proc/PID/ns, root and cwd are gone, so what it is in
	 * cannot be read, nor entered as a whole.
	 */
	if (hj_status_field(status, "State", buf, sizeof(buf)) == 0 &&
	    (buf[0] == 'Z' || buf[0] == 'X'))
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d is a zombie (its main thread has exited): nothing of it to enter",
				   (int)t->pid);
	*ret_status = TAKE_PTR(status);
	return 0;
}

/*
 * Which of fds 0-2 the command gets a new terminal on (the plan's
 * pty_fds, spawn/pty.c makes it): all of them, those that are
 * terminals now, or none.
 */
static unsigned int pty_fds(enum hijack_pty mode)
{
	unsigned int fds = 0;
	int fd;

	if (mode == HIJACK_PTY_ALWAYS)
		return BIT(0) | BIT(1) | BIT(2);
	if (mode != HIJACK_PTY_AUTO)
		return 0;
	for (fd = 0; fd <= 2; fd++)
		if (isatty(fd))
			fds |= BIT(fd);
	return fds;
}

/* The request, as the plan records it. */
static void plan_modes(const struct hijack_opts *o, const char *status,
		       struct hijack_plan *p)
{
	char buf[64];

	p->creds_mode = o->creds;
	p->caps_mode = o->caps;
	p->cgroup_mode = o->cgroup;
	p->seccomp_mode = o->seccomp;
	p->lsm_mode = o->lsm;
	p->env_mode = o->env;
	p->limits_mode = opts_limits(o);
	p->preserve_fds = o->preserve_fds;
	p->pty_mode = opts_pty(o);
	p->pty_fds = pty_fds(p->pty_mode);
	/* Kept unless seccomp is dropped; the capabilities depend on it. */
	p->target_nnp = hj_status_field(status, "NoNewPrivs", buf, sizeof(buf)) == 0 &&
			atoi(buf) == 1;
	p->nnp = p->target_nnp && o->seccomp != HIJACK_NONE;
}

/*
 * The caller's side of what --explain compares with, read now rather than
 * when the plan is printed: the plan then shows one moment, and printing
 * reads nothing but the plan.  Best effort, as it only feeds the
 * comparison: what cannot be read is left zero, and the plan is still
 * made.  The limits are read only when the command gets the target's:
 * otherwise nothing compares with them.
 */
static void plan_caller(struct hijack_plan *p)
{
	struct hj_caller *c = &p->caller;
	uid_t u[3];
	gid_t g[3];

	(void)getresuid(&u[0], &u[1], &u[2]);
	(void)getresgid(&g[0], &g[1], &g[2]);
	c->creds.uid = u[0], c->creds.euid = u[1], c->creds.suid = u[2];
	c->creds.gid = g[0], c->creds.egid = g[1], c->creds.sgid = g[2];
	c->creds.fsuid = u[1], c->creds.fsgid = g[1];
	c->have_caps = hj_caps_read_self(&c->caps) == 0;
	if (p->limits_mode == HIJACK_FROM_TARGET &&
	    hj_limits_read(NULL, &c->limits, NULL) < 0)
		c->limits = (struct hijack_limits){ 0 };
}

HIJACK_EXPORT void hijack_plan_free(struct hijack_plan *p)
{
	if (!p)
		return;
	hj_creds_free(&p->creds);
	hj_creds_free(&p->target_creds);
	hj_creds_free(&p->caller.creds);
	hj_cgroups_free(p->cgroups, p->ncgroups);
	hj_filters_free(p->filters, p->nfilters);
	hj_env_free(p->envp);
	free(p->root);
	free(p->wd);
	free(p->seccomp_file);
	free(p->container);
	free(p);
}

static void hijack_plan_freep(struct hijack_plan **p)
{
	hijack_plan_free(*p);
}

/* The container the target was opened from, if any: the plan shows it. */
static int plan_container(const struct hijack_target *t, struct hijack_plan *p,
			  struct hijack_diag *d)
{
	if (!t->container)
		return 0;
	p->container = malloc(sizeof(*p->container));
	if (!p->container)
		return hj_diag_set(d, HIJACK_STEP_PLAN, ENOMEM, "%s:%s",
				   t->container->engine, t->container->name);
	*p->container = *t->container;
	return 0;
}

/*
 * In order: the request, the target, then what entering it means (its
 * namespaces, root and working directory), what confines the command, and
 * the method, which depends on all of it.
 */
HIJACK_EXPORT int hijack_plan_build(const struct hijack_target *t,
				    const struct hijack_opts *o,
				    struct hijack_plan **ret,
				    struct hijack_diag *d)
{
	_cleanup_(hijack_plan_freep) struct hijack_plan *p = NULL;
	_cleanup_free_ char *status = NULL;
	int r;

	r = check_opts(o, d);
	if (r < 0)
		return r;
	r = check_target(t, &status, d);
	if (r < 0)
		return r;

	p = calloc(1, sizeof(*p));
	if (!p)
		return hj_diag_set(d, HIJACK_STEP_PLAN, ENOMEM, "plan of pid %d",
				   (int)t->pid);
	p->pid = t->pid;
	p->mark = -1;	/* none until plan_mark() says otherwise */
	r = plan_container(t, p, d);
	if (r < 0)
		return r;
	r = plan_namespaces(t, o, p, d);
	if (r < 0)
		return r;
	p->root_mode = o->root_mode;
	r = plan_dir(t, "root", o->root_mode, o->root_path, &p->root, d);
	if (r < 0)
		return r;
	p->wd_mode = o->wd_mode;
	r = plan_dir(t, "cwd", o->wd_mode, o->wd_path, &p->wd, d);
	if (r < 0)
		return r;

	plan_modes(o, status, p);
	plan_caller(p);
	r = hj_plan_confinement(t, o, status, p, d);
	if (r < 0)
		return r;
	r = plan_method(o, p, d);
	if (r < 0)
		return r;

	/* Everything above was read from a live task, not a recycled pid. */
	r = hj_target_check(t, d);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(p);
	return 0;
}

/*
 * The accessors: what a program outside the library needs of a plan,
 * one value each, so that the layout above stays the library's own.
 */
HIJACK_EXPORT pid_t hijack_plan_pid(const struct hijack_plan *p)
{
	return p->pid;
}

HIJACK_EXPORT unsigned int hijack_plan_ns_mask(const struct hijack_plan *p)
{
	return p->ns_mask;
}

HIJACK_EXPORT int hijack_plan_ns_inode(const struct hijack_plan *p,
				       enum hijack_ns ns, dev_t *ret_dev,
				       ino_t *ret_ino)
{
	if ((unsigned int)ns >= _HIJACK_NS_MAX)
		return -EINVAL;
	/* plan_namespaces() leaves a type this kernel lacks at inode 0. */
	if (!p->ns[ns].ino)
		return -ENOENT;
	if (ret_dev)
		*ret_dev = p->ns[ns].dev;
	if (ret_ino)
		*ret_ino = p->ns[ns].ino;
	return 0;
}

HIJACK_EXPORT uid_t hijack_plan_uid(const struct hijack_plan *p)
{
	return p->creds.uid;
}

HIJACK_EXPORT int hijack_plan_mode(const struct hijack_plan *p,
				   enum hijack_part part)
{
	switch (part) {
	case HIJACK_PART_ROOT:
		return p->root_mode;
	case HIJACK_PART_WD:
		return p->wd_mode;
	case HIJACK_PART_CREDS:
		return p->creds_mode;
	case HIJACK_PART_CAPS:
		return p->caps_mode;
	case HIJACK_PART_CGROUP:
		return p->cgroup_mode;
	case HIJACK_PART_SECCOMP:
		return p->seccomp_mode;
	case HIJACK_PART_LSM:
		return p->lsm_mode;
	case HIJACK_PART_ENV:
		return p->env_mode;
	case HIJACK_PART_LIMITS:
		return p->limits_mode;
	case _HIJACK_PART_MAX:
		break;
	}
	return -EINVAL;
}

HIJACK_EXPORT unsigned int hijack_plan_pty_fds(const struct hijack_plan *p)
{
	return p->pty_fds;
}
