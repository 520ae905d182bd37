// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-docker.c - Docker's containers, from the Docker Engine API on its
 * socket (/var/run/docker.sock, or DOCKER_HOST=unix://PATH as the docker
 * client takes it).  The API is how Docker means others to read its
 * state; its files under /var/lib/docker are internal and change between
 * versions.  "GET /containers/json" lists the running containers with ids
 * and names but no pid, so the one or few that match are then inspected
 * ("GET /containers/ID/json": State.Pid).  The proof is the full id, which
 * names the container's cgroup under both cgroup drivers ("/docker/ID",
 * "docker-ID.scope").  Podman's compatible API is the same (engine-podman.c).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engines.h"

/* Ids are hex digits: anything else must not reach a request line. */
static bool valid_id(const char *id)
{
	return *id && strspn(id, "0123456789abcdef") == strlen(id);
}

int hj_docker_parse_list(const char *text, size_t len, const char *engine,
			 struct hj_ctlist *l)
{
	json_t *root = json_loadb(text, len, 0, NULL), *e;
	size_t i;

	if (!json_is_array(root)) {
		json_decref(root);
		return -EBADMSG;
	}
	json_array_foreach(root, i, e) {
		json_t *names = json_object_get(e, "Names");
		const char *id = json_string_value(json_object_get(e, "Id"));
		const char *state = json_string_value(json_object_get(e, "State"));
		const char *name = json_string_value(json_array_get(names, 0));
		struct hijack_container *c;

		if (!id || !valid_id(id) || !name)
			continue;
		/* Docker's names start with "/", Podman's do not. */
		if (*name == '/')
			name++;
		if (state && strcmp(state, "running") != 0)
			continue;
		c = hj_ctlist_add(l, engine, name, id);
		if (c)
			(void)hj_copy(c->cgroup_mark, sizeof(c->cgroup_mark),
				      id);
	}
	json_decref(root);
	return 0;
}

int hj_docker_parse_inspect(const char *text, size_t len,
			    struct hijack_container *c)
{
	json_t *root = json_loadb(text, len, 0, NULL), *st;
	const char *id;
	json_int_t pid;
	int r = -EBADMSG;

	st = json_object_get(root, "State");
	id = json_string_value(json_object_get(root, "Id"));
	if (!json_is_object(st) || !id || strcmp(id, c->id) != 0)
		goto out;
	pid = json_integer_value(json_object_get(st, "Pid"));
	if (!json_is_true(json_object_get(st, "Running")) || pid <= 0 ||
	    pid > INT32_MAX) {
		r = -ESRCH;
		goto out;
	}
	c->pid = (pid_t)pid;
	if (json_is_true(json_object_get(st, "Paused")))
		(void)hj_copy(c->state, sizeof(c->state), "paused");
	r = 0;
out:
	json_decref(root);
	return r;
}

/* Return 1 and list, 0 when there is no socket (no daemon running). */
int hj_docker_api_list(struct hj_ctlist *l, const char *engine,
		       const char *sock)
{
	_cleanup_free_ char *body = NULL;
	size_t len;
	int r;

	r = hj_api_get(sock, "/containers/json", &body, &len);
	if (r <= 0)
		return r;
	r = hj_docker_parse_list(body, len, engine, l);
	return r < 0 ? r : 1;
}

int hj_docker_api_inspect(struct hijack_container *c, const char *sock)
{
	_cleanup_free_ char *body = NULL;
	char path[256];
	size_t len;
	int r;

	if (!valid_id(c->id))
		return -EINVAL;
	(void)snprintf(path, sizeof(path), "/containers/%s/json", c->id);
	r = hj_http_get(sock, path, &body, &len);
	if (r < 0)
		return r;
	return hj_docker_parse_inspect(body, len, c);
}

static const char *docker_socket(void)
{
	const char *h = getenv("DOCKER_HOST");

	if (h && strncmp(h, "unix://", 7) == 0 && h[7] == '/')
		return h + 7;
	return "/var/run/docker.sock";
}

static int docker_list(struct hj_ctlist *l)
{
	return hj_docker_api_list(l, "docker", docker_socket());
}

static int docker_inspect(struct hijack_container *c)
{
	return hj_docker_api_inspect(c, docker_socket());
}

const struct hj_engine hj_engine_docker = {
	.name = "docker",
	.list = docker_list,
	.inspect = docker_inspect,
};
