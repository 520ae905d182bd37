// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-containerd.c - containerd's tasks, named "NAMESPACE/ID".
 *
 * containerd keeps a bundle directory per task under
 * /run/containerd/io.containerd.runtime.v2.task/NAMESPACE/ID, and its runc
 * shim keeps runc's state of the task under ROOT/NAMESPACE/ID/state.json,
 * where ROOT is /run/containerd/runc unless the task's options.json names
 * another "root" (Docker's tasks do: /var/run/docker/runtime-runc).  The
 * state file is the one engine-runc.c reads, with the init's start time as
 * proof.  The alternatives cost more: containerd's API is gRPC (a protobuf
 * stack for one question), and "ctr task ls" prints a table, not a
 * machine-readable format, one exec per namespace.  Docker's containers
 * are the namespace "moby": reachable as "containerd:moby/ID", and folded
 * into "docker:NAME" when every engine is searched.
 */
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "engines.h"

/* The runc root the task's shim was given, or @dflt. */
static void task_root(int taskfd, const char *dflt, char *buf, size_t size)
{
	_cleanup_free_ char *text = NULL;
	json_auto_t *opts = NULL;
	const char *root;
	size_t len;

	(void)hj_copy(buf, size, dflt);
	if (hj_state_read(taskfd, "options.json", &text, &len) < 0)
		return;
	opts = json_loadb(text, len, 0, NULL);
	root = json_string_value(json_object_get(opts, "root"));
	if (root && *root == '/')
		(void)hj_copy(buf, size, root);
}

static void list_namespace(struct hj_ctlist *l, int nsfd, const char *ns,
			   const char *runc_root)
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *de;

	dir = fdopendir(nsfd);
	if (!dir) {
		close(nsfd);
		return;
	}
	while ((de = readdir(dir))) {
		_cleanup_close_ int taskfd = -EBADF, cfd = -EBADF;
		char root[PATH_MAX], path[PATH_MAX], name[256];

		if (de->d_name[0] == '.' ||
		    snprintf(name, sizeof(name), "%s/%s", ns, de->d_name) >=
			    (int)sizeof(name) ||
		    !(hj_hint_allows(l, de->d_name) || hj_hint_allows(l, name)))
			continue;
		taskfd = openat(dirfd(dir), de->d_name,
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (taskfd < 0)
			continue;
		task_root(taskfd, runc_root, root, sizeof(root));
		if (snprintf(path, sizeof(path), "%s/%s/%s", root, ns,
			     de->d_name) >= (int)sizeof(path))
			continue;
		cfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cfd >= 0)
			(void)hj_runc_add(l, "containerd", cfd, de->d_name,
					  name);
	}
}

int hj_containerd_list_root(struct hj_ctlist *l, const char *tasks,
			    const char *runc_root)
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *de;
	int r;

	r = hj_opendir(tasks, &dir);
	if (r <= 0)
		return r;
	while ((de = readdir(dir))) {
		int nsfd;

		if (de->d_name[0] == '.')
			continue;
		nsfd = openat(dirfd(dir), de->d_name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nsfd >= 0)
			list_namespace(l, nsfd, de->d_name, runc_root);
	}
	return 1;
}

static int containerd_list(struct hj_ctlist *l)
{
	return hj_containerd_list_root(
		l, "/run/containerd/io.containerd.runtime.v2.task",
		"/run/containerd/runc");
}

const struct hj_engine hj_engine_containerd = {
	.name = "containerd",
	.list = containerd_list,
};
