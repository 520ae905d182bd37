// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-podman.c - Podman's containers.
 *
 * Podman has no daemon: its state is a database only libpod reads.  Two
 * ways are meant for others.  When "podman system service" runs, its
 * Docker-compatible API answers on /run/podman/podman.sock (or
 * $XDG_RUNTIME_DIR/podman/podman.sock for a user), and the Docker code is
 * used as is.  Otherwise "podman ps --format json" prints the same facts,
 * pid included; one exec of podman costs tens of milliseconds, so it is
 * only made when containers/storage lists at least one container of the
 * caller's (its containers.json), which an open and a read tell.  Podman
 * run as a user lists that user's rootless containers: hijack run by the
 * same user then enters its own user namespace's containers.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "engines.h"

static int podman_socket(char *buf, size_t size)
{
	return hj_runtime_path("podman/podman.sock", buf, size);
}

/* Whether an entry of containers.json ({"id":..,"names":[..]}) may match. */
static bool storage_entry_allows(const struct hj_ctlist *l, json_t *e)
{
	const char *id = json_string_value(json_object_get(e, "id"));
	json_t *names = json_object_get(e, "names"), *n;
	size_t i;

	if (!l->hint || (id && hj_hint_allows(l, id)))
		return true;
	json_array_foreach(names, i, n)
		if (json_is_string(n) && hj_hint_allows(l, json_string_value(n)))
			return true;
	return false;
}

/*
 * 1 when containers/storage of the caller records a container that may
 * be the one asked for (any, without a hint), 0 when it records none that
 * may, -ENOENT when it does not exist (podman never ran for this user):
 * only for 1 is "podman ps" worth its exec.  Only a filter: what podman
 * says is what counts.
 */
static int storage_has_containers(const struct hj_ctlist *l)
{
	static const char *const drivers[] = { "overlay", "vfs", "btrfs" };
	const char *home = getenv("HOME"), *data = getenv("XDG_DATA_HOME");
	char base[PATH_MAX], path[PATH_MAX];
	size_t i, j;
	int found = -ENOENT;

	if (geteuid() == 0)
		(void)hj_copy(base, sizeof(base), "/var/lib/containers/storage");
	else if (data && *data == '/')
		(void)snprintf(base, sizeof(base), "%s/containers/storage", data);
	else if (home && *home == '/')
		(void)snprintf(base, sizeof(base),
			       "%s/.local/share/containers/storage", home);
	else
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(drivers) && found <= 0; i++) {
		_cleanup_free_ char *text = NULL;
		json_t *all, *e;

		if (snprintf(path, sizeof(path), "%s/%s-containers/containers.json",
			     base, drivers[i]) >= (int)sizeof(path) ||
		    hj_state_read(AT_FDCWD, path, &text, NULL) < 0)
			continue;
		all = json_loads(text, 0, NULL);
		found = 0;
		json_array_foreach(all, j, e)
			if (storage_entry_allows(l, e)) {
				found = 1;
				break;
			}
		json_decref(all);
	}
	return found;
}

/* "podman ps --format json": the docker list's fields plus "Pid". */
int hj_podman_parse_ps(const char *text, size_t len, struct hj_ctlist *l)
{
	json_t *root = json_loadb(text, len, 0, NULL), *e;
	size_t i, first = l->n;
	int r;

	r = hj_docker_parse_list(text, len, "podman", l);
	if (r < 0 || !json_is_array(root))
		goto out;
	json_array_foreach(root, i, e) {
		const char *id = json_string_value(json_object_get(e, "Id"));
		json_int_t pid = json_integer_value(json_object_get(e, "Pid"));
		size_t j;

		for (j = first; id && j < l->n; j++)
			if (strcmp(l->v[j].id, id) == 0 && pid > 0 &&
			    pid <= INT32_MAX)
				l->v[j].pid = (pid_t)pid;
	}
out:
	json_decref(root);
	return r;
}

/*
 * Podman runs its containers with runc or crun, whose record of the init
 * has the init's start time: an exact proof, and the only one for a
 * rootless container on cgroup v1, which stays in its user's cgroup and
 * so has no cgroup of its own to tell it by.  A user's runtime root is
 * under $XDG_RUNTIME_DIR, or /tmp/podman-run-UID without one.
 */
static void runtime_proof(struct hijack_container *c)
{
	static const char *const runtimes[] = { "runc", "crun" };
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	size_t i;

	for (i = 0; i < 2 * ARRAY_SIZE(runtimes); i++) {
		const char *rt = runtimes[i / 2];
		_cleanup_free_ char *text = NULL;
		struct hijack_container r;
		char path[PATH_MAX];
		size_t len;
		int n;

		if (i % 2 == 0) {
			if (hj_runtime_path(rt, path, sizeof(path)) < 0)
				continue;
		} else if (geteuid() != 0 && !(xdg && *xdg == '/')) {
			(void)snprintf(path, sizeof(path), "/tmp/podman-run-%u/%s",
				       (unsigned int)geteuid(), rt);
		} else {
			continue;
		}
		n = strlen(path);
		if (snprintf(path + n, sizeof(path) - n, "/%s/%s", c->id,
			     i / 2 ? "status" : "state.json") >=
		    (int)(sizeof(path) - n) ||
		    hj_state_read(AT_FDCWD, path, &text, &len) < 0)
			continue;
		if ((i / 2 ? hj_crun_parse_status(text, len, c->id, &r) :
			     hj_runc_parse_state(text, len, "runc", NULL, &r)) < 0 ||
		    r.pid != c->pid)
			continue;
		c->start_ticks = r.start_ticks;
		c->cgroup_mark[0] = '\0';
		return;
	}
}

static int podman_list(struct hj_ctlist *l)
{
	static char *const argv[] = { "podman", "ps", "--no-trunc",
				      "--format", "json", NULL };
	_cleanup_free_ char *out = NULL;
	char sock[PATH_MAX];
	size_t len, first;
	int r;

	if (podman_socket(sock, sizeof(sock)) == 0) {
		r = hj_docker_api_list(l, "podman", sock);
		if (r != 0)
			return r;
	}
	r = storage_has_containers(l);
	if (r <= 0)
		return r == 0 ? 1 : 0;
	first = l->n;
	r = hj_run_tool(argv, &out, &len);
	if (r <= 0)
		return r;
	r = hj_podman_parse_ps(out, len, l);
	if (r < 0)
		return r;
	for (; first < l->n; first++)
		if (l->v[first].pid > 0)
			runtime_proof(&l->v[first]);
	return 1;
}

static int podman_inspect(struct hijack_container *c)
{
	char sock[PATH_MAX];
	int r;

	if (podman_socket(sock, sizeof(sock)) < 0)
		return -ENAMETOOLONG;
	r = hj_docker_api_inspect(c, sock);
	if (r == 0)
		runtime_proof(c);
	return r;
}

const struct hj_engine hj_engine_podman = {
	.name = "podman",
	.list = podman_list,
	.inspect = podman_inspect,
};
