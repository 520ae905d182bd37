// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-lxc.c - LXC's containers.  Each running container has a monitor
 * process listening on the abstract socket "@LXCPATH/NAME/command", which
 * answers liblxc's questions (its init's pid, its state): that is what
 * lxc-ls and lxc-info ask, without their exec.  The proof is the
 * container's cgroup, "lxc.payload.NAME": LXC puts the container's tasks,
 * and only them, below it.
 *
 * An abstract socket has no owner and no permissions: any local user, or
 * a container sharing the host's network namespace, can bind the name of
 * a container that does not run (or of one that runs under another
 * engine) and answer for it; liblxc believes whoever answers.  So the
 * monitors are found here, in /proc/net/unix, and only one whose listener
 * was root or the owner of the LXC path (SO_PEERCRED: the credentials of
 * the process that listened, which no process can choose) is asked
 * anything through liblxc.  Any other is refused, and said so.
 *
 * liblxc is opened here, when LXC's containers are listed, not linked:
 * linked, it and what it pulls in (libselinux, libapparmor, libpcre2,
 * libgcc_s) were mapped and relocated by every entry, --pid included,
 * about a fifth of an entry's time (tests/bench/README.md, "Entry speed
 * against nsenter -a").
 * Without liblxc at run time LXC is an engine that is not present.
 */
#include <stdio.h>
#include <string.h>

#include "engines.h"

#ifdef HAVE_LIBLXC
#include <dlfcn.h>
#include <lxc/lxccontainer.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

struct lxc_api {
	__typeof__(lxc_get_global_config_item) *config_item;
	__typeof__(lxc_container_new) *container_new;
	__typeof__(lxc_container_put) *put;
};

/* Never closed: liblxc keeps state (its log, its config) for the process. */
static bool lxc_api_open(struct lxc_api *api)
{
	void *h = dlopen(LIBLXC_SONAME, RTLD_LAZY | RTLD_LOCAL);

	if (!h)
		return false;
	api->config_item = (__typeof__(api->config_item))dlsym(h, "lxc_get_global_config_item");
	api->container_new = (__typeof__(api->container_new))dlsym(h, "lxc_container_new");
	api->put = (__typeof__(api->put))dlsym(h, "lxc_container_put");
	return api->config_item && api->container_new && api->put;
}

#define MONITOR_SUFFIX "/command"

/*
 * The credentials of whoever listens on @name's monitor address, as liblxc
 * computes it: "\0LXCPATH/NAME/command", its length counted exactly (an
 * abstract name is not NUL-terminated; "@x" and "@x\0" differ).  LXC
 * hashes names too long for an address; those are never found here.  Not
 * blocking: a listener whose backlog is full is not waited for.
 */
static int monitor_peer(const char *lxcpath, const char *name,
			struct ucred *ret)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -EBADF;
	socklen_t len = sizeof(*ret);
	int n;

	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
		     "%s/%s" MONITOR_SUFFIX, lxcpath, name);
	if (n < 0 || (size_t)n >= sizeof(sa.sun_path) - 1)
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n)) < 0)
		return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, ret, &len) < 0)
		return -errno;
	return 0;
}

static bool same_peer(const struct ucred *a, const struct ucred *b)
{
	return a->pid == b->pid && a->uid == b->uid && a->gid == b->gid;
}

/*
 * Ask liblxc about @name only once its monitor is shown to be root's or
 * @owner's, and believe the answer only when that same listener still
 * holds the address afterwards: liblxc connects on its own, and in between
 * the monitor may have exited and someone else bound its name.
 */
static void add_container(const struct lxc_api *api, struct hj_ctlist *l,
			  const char *lxcpath, uid_t owner, const char *name)
{
	struct ucred before, after;
	struct hijack_container *c;
	struct lxc_container *ct;
	const char *state;
	pid_t pid;

	/* Nobody listens (any more): the container does not run. */
	if (monitor_peer(lxcpath, name, &before) < 0)
		return;
	if (before.uid != 0 && before.uid != owner) {
		hj_ctlist_refuse(l, "lxc", name,
				 "its monitor socket @%s/%s" MONITOR_SUFFIX " is held by uid %u (pid %d), not by root or the owner of %s",
				 lxcpath, name, (unsigned int)before.uid,
				 (int)before.pid, lxcpath);
		return;
	}
	ct = api->container_new(name, lxcpath);
	if (!ct)
		return;
	state = ct->state(ct);
	pid = ct->init_pid(ct);
	api->put(ct);
	if (monitor_peer(lxcpath, name, &after) < 0 ||
	    !same_peer(&before, &after)) {
		hj_ctlist_refuse(l, "lxc", name,
				 "its monitor socket changed hands while it was asked");
		return;
	}
	if (pid <= 0 || !state || strcmp(state, "STOPPED") == 0)
		return;
	c = hj_ctlist_add(l, "lxc", name, name);
	if (!c)
		return;
	c->pid = pid;
	(void)snprintf(c->state, sizeof(c->state), "%s", state);
	for (char *s = c->state; *s; s++)
		*s = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
	(void)snprintf(c->cgroup_mark, sizeof(c->cgroup_mark), "lxc.payload.%s",
		       name);
}

/*
 * The container name in a line of /proc/net/unix whose address is
 * "@LXCPATH/NAME/command", cut in place, or NULL.  Whoever binds a name
 * with a newline in it writes lines of their own here: a line is only a
 * candidate, each is checked by connecting to the address it names.
 */
static char *monitor_name(char *line, const char *lxcpath)
{
	size_t plen = strlen(lxcpath), slen = strlen(MONITOR_SUFFIX), n;
	char *path, *name;
	int off = 0;

	/* Num RefCount Protocol Flags Type St Inode Path */
	if (sscanf(line, "%*s %*s %*s %*s %*s %*s %*s %n", &off) < 0 || !off)
		return NULL;
	path = line + off;
	path[strcspn(path, "\n")] = '\0';
	if (path[0] != '@' || strncmp(path + 1, lxcpath, plen) != 0 ||
	    path[1 + plen] != '/')
		return NULL;
	name = path + plen + 2;
	n = strlen(name);
	if (n <= slen || strcmp(name + n - slen, MONITOR_SUFFIX) != 0)
		return NULL;
	name[n - slen] = '\0';
	if (strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return NULL;
	return name;
}

/* Whether @name was already added, or refused, since entry @first. */
static bool seen(const struct hj_ctlist *l, size_t first, size_t first_refused,
		 const char *name)
{
	size_t i;

	for (i = first; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return true;
	for (i = first_refused; i < l->n_refused; i++)
		if (strcmp(l->refused[i].name, name) == 0)
			return true;
	return false;
}

static int lxc_list(struct hj_ctlist *l)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	size_t size = 0, first = l->n, first_refused = l->n_refused;
	struct lxc_api api;
	const char *path;
	struct stat st;
	uid_t owner;
	char *name;

	if (!lxc_api_open(&api))
		return 0;
	path = api.config_item("lxc.lxcpath");
	if (!path || stat(path, &st) < 0)
		return 0;
	owner = st.st_uid;
	f = fopen("/proc/net/unix", "re");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		name = monitor_name(line, path);
		if (!name || !hj_hint_allows(l, name) ||
		    seen(l, first, first_refused, name))
			continue;
		add_container(&api, l, path, owner, name);
	}
	return 1;
}
#else
/* Built without liblxc: LXC's containers are reached by pid only. */
static int lxc_list(struct hj_ctlist *l)
{
	(void)l;
	return 0;
}
#endif

const struct hj_engine hj_engine_lxc = {
	.name = "lxc",
	.list = lxc_list,
};
