// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-lxc.c - LXC's containers, through liblxc: list_active_containers()
 * finds the running ones under the lxcpath (/var/lib/lxc, or the user's),
 * and each container's init_pid() asks the container's monitor over LXC's
 * command socket.  That is what lxc-ls and lxc-info do, without their
 * exec.  The proof is the container's cgroup, "lxc.payload.NAME": LXC puts
 * the container's tasks, and only them, below it.
 *
 * liblxc is opened here, when LXC's containers are listed, not linked:
 * linked, it and what it pulls in (libselinux, libapparmor, libpcre2,
 * libgcc_s) were mapped and relocated by every entry, --pid included,
 * about a fifth of an entry's time (issue 14, tests/bench/README.md).
 * Without liblxc at run time LXC is an engine that is not present.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#ifdef HAVE_LIBLXC
#include <dlfcn.h>
#include <lxc/lxccontainer.h>

struct lxc_api {
	__typeof__(lxc_get_global_config_item) *config_item;
	__typeof__(list_active_containers) *list_active;
	__typeof__(lxc_container_put) *put;
};

/* Never closed: liblxc keeps state (its log, its config) for the process. */
static bool lxc_api_open(struct lxc_api *api)
{
	void *h = dlopen(LIBLXC_SONAME, RTLD_LAZY | RTLD_LOCAL);

	if (!h)
		return false;
	api->config_item = (__typeof__(api->config_item))dlsym(h, "lxc_get_global_config_item");
	api->list_active = (__typeof__(api->list_active))dlsym(h, "list_active_containers");
	api->put = (__typeof__(api->put))dlsym(h, "lxc_container_put");
	return api->config_item && api->list_active && api->put;
}

static int lxc_list(struct hj_ctlist *l)
{
	struct lxc_container **cts = NULL;
	char **names = NULL;
	struct lxc_api api;
	const char *path;
	int i, n;

	if (!lxc_api_open(&api))
		return 0;
	path = api.config_item("lxc.lxcpath");
	if (!path)
		return 0;
	if (access(path, F_OK) < 0)
		return 0;
	n = api.list_active(path, &names, &cts);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		struct lxc_container *ct = cts[i];
		struct hijack_container *c;
		/* Each question is a round trip to the container's monitor. */
		bool want = hj_hint_allows(l, names[i]);
		pid_t pid = want ? ct->init_pid(ct) : -1;
		const char *state = want ? ct->state(ct) : NULL;

		if (pid > 0 && state && strcmp(state, "STOPPED") != 0 &&
		    (c = hj_ctlist_add(l, "lxc", names[i], names[i]))) {
			c->pid = pid;
			(void)snprintf(c->state, sizeof(c->state), "%s", state);
			for (char *s = c->state; *s; s++)
				*s = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
			(void)snprintf(c->cgroup_mark, sizeof(c->cgroup_mark),
				       "lxc.payload.%s", names[i]);
		}
		api.put(ct);
		free(names[i]);
	}
	free(names);
	free(cts);
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
