// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-runc.c - runc's containers, from the state.json runc keeps for
 * each under its root directory (/run/runc for root, $XDG_RUNTIME_DIR/runc
 * otherwise).  That file is how runc itself answers "runc state" and "runc
 * list": reading it costs one open per container where running runc would
 * cost an exec.  It records the init's pid and its start time in clock
 * ticks, which is the proof hijack_container_open() checks; runc checks
 * the same pair to tell a stopped container from a running one.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engines.h"

int hj_runc_parse_state(const char *text, size_t len, const char *engine,
			const char *name, struct hijack_container *ret)
{
	json_auto_t *root = NULL;
	json_t *id, *pid, *start;

	root = json_loadb(text, len, 0, NULL);
	if (!json_is_object(root))
		return -EBADMSG;
	id = json_object_get(root, "id");
	pid = json_object_get(root, "init_process_pid");
	start = json_object_get(root, "init_process_start");
	if (!json_is_string(id) || !json_is_integer(pid) ||
	    !json_is_integer(start))
		return -EBADMSG;
	if (json_integer_value(pid) <= 0 ||
	    json_integer_value(pid) > INT32_MAX ||
	    json_integer_value(start) <= 0)
		return -EBADMSG;
	memset(ret, 0, sizeof(*ret));
	if (hj_copy(ret->engine, sizeof(ret->engine), engine) < 0 ||
	    hj_copy(ret->name, sizeof(ret->name),
		    name ? name : json_string_value(id)) < 0 ||
	    hj_copy(ret->id, sizeof(ret->id), json_string_value(id)) < 0)
		return -ENAMETOOLONG;
	ret->pid = (pid_t)json_integer_value(pid);
	ret->start_ticks = (unsigned long long)json_integer_value(start);
	(void)hj_copy(ret->state, sizeof(ret->state), "running");
	return 0;
}

/*
 * Add the container whose runc state directory is @cfd, if its record
 * parses, names @id and its init still runs.  Records that do not parse
 * are skipped: one broken container must not hide the others.
 */
int hj_runc_add(struct hj_ctlist *l, const char *engine, int cfd,
		const char *id, const char *name)
{
	_cleanup_free_ char *text = NULL;
	struct hijack_container c, *n;
	size_t len;

	if (hj_state_read(cfd, "state.json", &text, &len) < 0 ||
	    hj_runc_parse_state(text, len, engine, name, &c) < 0 ||
	    strcmp(c.id, id) != 0 || !hj_init_alive(&c))
		return 0;
	/* runc keeps exec.fifo until "runc start". */
	if (faccessat(cfd, "exec.fifo", F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		(void)hj_copy(c.state, sizeof(c.state), "created");
	n = hj_ctlist_add(l, engine, c.name, c.id);
	if (!n)
		return -ENOMEM;
	*n = c;
	return 1;
}

static int add_dir(struct hj_ctlist *l, const char *engine, int cfd,
		   const char *id)
{
	return hj_runc_add(l, engine, cfd, id, id);
}

/* Every "<root>/<id>/state.json".  Return 1 when the root exists, else 0. */
int hj_runc_list_root(struct hj_ctlist *l, const char *engine,
		      const char *root)
{
	return hj_state_dirs(l, engine, root, add_dir);
}

static int runc_list(struct hj_ctlist *l)
{
	char root[PATH_MAX];

	if (hj_runtime_path("runc", root, sizeof(root)) < 0)
		return 0;
	return hj_runc_list_root(l, "runc", root);
}

const struct hj_engine hj_engine_runc = {
	.name = "runc",
	.list = runc_list,
};
