// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-crun.c - crun's containers, from the "status" file crun keeps for
 * each under its state root (/run/crun for root, $XDG_RUNTIME_DIR/crun
 * otherwise): a JSON object with the init's "pid", its "process-start-time"
 * in clock ticks (crun compares it with /proc/PID/stat as runc does) and
 * its "cgroup-path".  It is what "crun state" and "crun list" read.
 */
#include <limits.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "engines.h"

int hj_crun_parse_status(const char *text, size_t len, const char *id,
			 struct hijack_container *ret)
{
	json_t *root = json_loadb(text, len, 0, NULL);
	json_t *pid, *start;
	int r = -EBADMSG;

	if (!json_is_object(root))
		goto out;
	pid = json_object_get(root, "pid");
	start = json_object_get(root, "process-start-time");
	if (!json_is_integer(pid) || json_integer_value(pid) <= 0 ||
	    json_integer_value(pid) > INT32_MAX || !json_is_integer(start) ||
	    json_integer_value(start) <= 0)
		goto out;
	memset(ret, 0, sizeof(*ret));
	(void)hj_copy(ret->engine, sizeof(ret->engine), "crun");
	if (hj_copy(ret->name, sizeof(ret->name), id) < 0 ||
	    hj_copy(ret->id, sizeof(ret->id), id) < 0) {
		r = -ENAMETOOLONG;
		goto out;
	}
	ret->pid = (pid_t)json_integer_value(pid);
	ret->start_ticks = (unsigned long long)json_integer_value(start);
	(void)hj_copy(ret->state, sizeof(ret->state), "running");
	r = 0;
out:
	json_decref(root);
	return r;
}

/* The container whose crun state directory is @cfd, if its init runs. */
static int add_dir(struct hj_ctlist *l, const char *engine, int cfd,
		   const char *id)
{
	_cleanup_free_ char *text = NULL;
	struct hijack_container c, *n;
	size_t len;

	if (hj_state_read(cfd, "status", &text, &len) < 0 ||
	    hj_crun_parse_status(text, len, id, &c) < 0 || !hj_init_alive(&c))
		return 0;
	n = hj_ctlist_add(l, engine, c.name, c.id);
	if (!n)
		return -ENOMEM;
	*n = c;
	return 1;
}

int hj_crun_list_root(struct hj_ctlist *l, const char *root)
{
	return hj_state_dirs(l, "crun", root, add_dir);
}

static int crun_list(struct hj_ctlist *l)
{
	char root[PATH_MAX];

	if (hj_runtime_path("crun", root, sizeof(root)) < 0)
		return 0;
	return hj_crun_list_root(l, root);
}

const struct hj_engine hj_engine_crun = {
	.name = "crun",
	.list = crun_list,
};
