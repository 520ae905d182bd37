// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-machine.c - systemd-machined's machines (systemd-nspawn, and the
 * containers other managers register with machined).
 *
 * machined answers on D-Bus (org.freedesktop.machine1), and machinectl is
 * its client: "machinectl show --property=... NAME..." prints each
 * machine's properties as KEY=VALUE lines, a format systemd keeps stable
 * for scripts (Leader is the init's pid, Unit the scope machined puts the
 * machine's tasks in, which is the proof).  The names to ask for are those
 * machined keeps a record for under /run/systemd/machines: an empty or
 * missing directory means no machine, and no exec.  Virtual machines are
 * skipped: their leader is the hypervisor on the host, nothing to enter.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engines.h"

#define MACHINES_MAX 256

/* One KEY=VALUE line of a block (up to an empty line or the end). */
static bool get(const char *block, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key), n;
	const char *line, *end;

	for (line = block; line && *line && *line != '\n';
	     line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (strncmp(line, key, klen) != 0 || line[klen] != '=')
			continue;
		line += klen + 1;
		n = end ? (size_t)(end - line) : strlen(line);
		if (n >= size)
			return false;
		memcpy(buf, line, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}

int hj_machine_parse(const char *block, struct hijack_container *ret)
{
	char name[256], leader[16], class[32], unit[256], id[64] = "";
	char *end;
	long pid;

	if (!get(block, "Name", name, sizeof(name)) ||
	    !get(block, "Leader", leader, sizeof(leader)) ||
	    !get(block, "Unit", unit, sizeof(unit)) || !*unit || !*name)
		return -EBADMSG;
	if (get(block, "Class", class, sizeof(class)) &&
	    strcmp(class, "container") != 0)
		return -EMEDIUMTYPE;
	errno = 0;
	pid = strtol(leader, &end, 10);
	if (errno || end == leader || *end || pid <= 0 || pid > INT32_MAX)
		return -EBADMSG;
	(void)get(block, "Id", id, sizeof(id));
	memset(ret, 0, sizeof(*ret));
	(void)hj_copy(ret->engine, sizeof(ret->engine), "machine");
	if (hj_copy(ret->name, sizeof(ret->name), name) < 0 ||
	    hj_copy(ret->id, sizeof(ret->id), *id ? id : name) < 0 ||
	    hj_copy(ret->cgroup_mark, sizeof(ret->cgroup_mark), unit) < 0)
		return -ENAMETOOLONG;
	ret->pid = (pid_t)pid;
	(void)hj_copy(ret->state, sizeof(ret->state), "running");
	return 0;
}

/* Every block of "machinectl show" output, blocks apart by empty lines. */
int hj_machine_parse_show(const char *text, struct hj_ctlist *l)
{
	const char *block = text;

	while (block && *block) {
		struct hijack_container c, *n;

		if (hj_machine_parse(block, &c) == 0) {
			n = hj_ctlist_add(l, "machine", c.name, c.id);
			if (n)
				*n = c;
		}
		block = strstr(block, "\n\n");
		if (block)
			block += 2;
	}
	return 0;
}

static int machine_list(struct hj_ctlist *l)
{
	char *argv[MACHINES_MAX + 4] = { "machinectl", "show",
					 "--property=Name,Leader,Class,Unit,Id" };
	_cleanup_free_ char *out = NULL;
	size_t n = 3, len, i;
	struct dirent *de;
	DIR *dir;
	int r;

	r = hj_opendir("/run/systemd/machines", &dir);
	if (r <= 0)
		return r;
	/* "unit:NAME.scope" entries are machined's reverse index. */
	while ((de = readdir(dir)) && n < MACHINES_MAX + 3)
		if (de->d_name[0] != '.' && !strchr(de->d_name, ':') &&
		    (argv[n] = strdup(de->d_name)))
			n++;
	closedir(dir);
	r = 1;
	if (n > 3) {
		r = hj_run_tool(argv, &out, &len);
		if (r > 0)
			(void)hj_machine_parse_show(out, l);
	}
	for (i = 3; i < n; i++)
		free(argv[i]);
	return r < 0 ? r : 1;
}

const struct hj_engine hj_engine_machine = {
	.name = "machine",
	.list = machine_list,
};
