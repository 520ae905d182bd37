// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-machine.c - systemd-machined's machines (systemd-nspawn and the
 * VMs and containers registered with it).
 *
 * machined keeps one file per machine under /run/systemd/machines/, in
 * the environment-file format systemd uses for its state (KEY=VALUE lines:
 * LEADER is the init's pid, SCOPE the machine's cgroup unit).  machinectl
 * and sd-bus clients ask machined over D-Bus, which needs a running bus and
 * machined; the file answers the same question without either, and is
 * what machined itself reloads on restart.  The proof is the scope, the
 * cgroup machined puts the machine in.  Only containers are listed: a VM's
 * leader is its hypervisor on the host, which there is nothing to enter.
 */
#include <dirent.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* One KEY=VALUE of the file; values with spaces are double-quoted. */
static bool get(const char *text, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key), n;
	const char *line, *end;

	for (line = text; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (strncmp(line, key, klen) != 0 || line[klen] != '=')
			continue;
		line += klen + 1;
		n = end ? (size_t)(end - line) : strlen(line);
		if (n >= 2 && line[0] == '"' && line[n - 1] == '"') {
			line++;
			n -= 2;
		}
		if (n >= size)
			return false;
		memcpy(buf, line, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}

int hj_machine_parse(const char *text, const char *name,
		     struct hijack_container *ret)
{
	char leader[16], class[32], scope[256], id[64] = "";
	char *end;
	long pid;

	if (!get(text, "LEADER", leader, sizeof(leader)) ||
	    !get(text, "SCOPE", scope, sizeof(scope)) || !*scope)
		return -EBADMSG;
	if (get(text, "CLASS", class, sizeof(class)) &&
	    strcmp(class, "container") != 0)
		return -EMEDIUMTYPE;
	errno = 0;
	pid = strtol(leader, &end, 10);
	if (errno || *end || pid <= 0 || pid > INT32_MAX)
		return -EBADMSG;
	(void)get(text, "ID", id, sizeof(id));
	memset(ret, 0, sizeof(*ret));
	(void)hj_copy(ret->engine, sizeof(ret->engine), "machine");
	if (hj_copy(ret->name, sizeof(ret->name), name) < 0 ||
	    hj_copy(ret->id, sizeof(ret->id), *id ? id : name) < 0 ||
	    hj_copy(ret->cgroup_mark, sizeof(ret->cgroup_mark), scope) < 0)
		return -ENAMETOOLONG;
	ret->pid = (pid_t)pid;
	(void)hj_copy(ret->state, sizeof(ret->state), "running");
	return 0;
}

int hj_machine_list_root(struct hj_ctlist *l, const char *root)
{
	_cleanup_close_ int fd = -EBADF;
	struct dirent *de;
	DIR *dir;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	dir = fdopendir(fd);
	if (!dir)
		return -errno;
	fd = -EBADF;
	while ((de = readdir(dir))) {
		_cleanup_free_ char *text = NULL;
		struct hijack_container c, *n;

		/* "unit:NAME.scope" files are machined's reverse index. */
		if (de->d_name[0] == '.' || strchr(de->d_name, ':') ||
		    hj_read_at(dirfd(dir), de->d_name, &text, NULL) < 0 ||
		    hj_machine_parse(text, de->d_name, &c) < 0)
			continue;
		n = hj_ctlist_add(l, "machine", c.name, c.id);
		if (n)
			*n = c;
	}
	closedir(dir);
	return 1;
}

static int machine_list(struct hj_ctlist *l)
{
	return hj_machine_list_root(l, "/run/systemd/machines");
}

const struct hj_engine hj_engine_machine = {
	.name = "machine",
	.list = machine_list,
};
