// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-incus.c - Incus's instances, from its REST API on
 * /var/lib/incus/unix.socket: "GET /1.0/instances?recursion=2" gives each
 * instance with its state, the init's pid included, in one answer.
 * Incus runs its containers with liblxc, so the proof is LXC's cgroup,
 * "lxc.payload.NAME" (instances of the default project; another project's
 * are "PROJECT_NAME").  Virtual machines are skipped: there is nothing of
 * theirs to enter from the host.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engines.h"

#define INCUS_SOCKET "/var/lib/incus/unix.socket"

int hj_incus_parse(const char *text, size_t len, struct hj_ctlist *l)
{
	json_t *root = json_loadb(text, len, 0, NULL), *meta, *e;
	size_t i;

	meta = json_object_get(root, "metadata");
	if (!json_is_array(meta)) {
		json_decref(root);
		return -EBADMSG;
	}
	json_array_foreach(meta, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		const char *type = json_string_value(json_object_get(e, "type"));
		const char *status = json_string_value(json_object_get(e, "status"));
		const char *project = json_string_value(json_object_get(e, "project"));
		json_int_t pid = json_integer_value(
			json_object_get(json_object_get(e, "state"), "pid"));
		struct hijack_container *c;
		char mark[sizeof(c->cgroup_mark)];
		int m;

		if (!name || !status || strcmp(status, "Running") != 0 ||
		    (type && strcmp(type, "container") != 0) || pid <= 0 ||
		    pid > INT32_MAX)
			continue;
		if (project && *project && strcmp(project, "default") != 0)
			m = snprintf(mark, sizeof(mark), "lxc.payload.%s_%s",
				     project, name);
		else
			m = snprintf(mark, sizeof(mark), "lxc.payload.%s", name);
		/* Cut short, the mark could be another instance's whole one. */
		if (m < 0 || (size_t)m >= sizeof(mark))
			continue;
		c = hj_ctlist_add(l, "incus", name, name);
		if (!c)
			continue;
		c->pid = (pid_t)pid;
		(void)hj_copy(c->cgroup_mark, sizeof(c->cgroup_mark), mark);
	}
	json_decref(root);
	return 0;
}

static int incus_list(struct hj_ctlist *l)
{
	_cleanup_free_ char *body = NULL;
	size_t len;
	int r;

	r = hj_api_get(INCUS_SOCKET, "/1.0/instances?recursion=2", &body, &len);
	if (r <= 0)
		return r;
	r = hj_incus_parse(body, len, l);
	return r < 0 ? r : 1;
}

const struct hj_engine hj_engine_incus = {
	.name = "incus",
	.list = incus_list,
};
