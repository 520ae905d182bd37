// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * input.c - ministat and forkbench JSON readers for benchcmp, see input.h.
 *
 * forkbench's documents are parsed by jansson, strictly: a duplicate
 * member or anything after the document is an error, since the gate's
 * inputs are machine-written and anything odd in them is a bug to report,
 * not to guess around.  Every number is read as a double, as the
 * statistics use them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <jansson.h>

#include "input.h"
#include "stats.h"

/* The samples of one file, before a side is assembled from files. */
struct file_data {
	bool json;
	struct series *series;
	size_t nr;
	struct side_file info;
};

/* json_object_get() that also takes NULL and non-objects, giving NULL. */
static json_t *member(const json_t *obj, const char *key)
{
	return json_is_object(obj) ? json_object_get(obj, key) : NULL;
}

static char *env_string(const json_t *env, const char *key)
{
	const json_t *v = member(env, key);

	return json_is_string(v) ? strdup(json_string_value(v)) : NULL;
}

static void free_file_info(struct side_file *f)
{
	free(f->path);
	free(f->release);
	free(f->version);
	free(f->build_id);
	free(f->cmdline);
	free(f->accelerator);
	free(f->clock);
}

static int read_whole(const char *path, char **ret_buf, size_t *ret_len,
		      char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 65536;
	char *buf;
	ssize_t n;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(cap + 1);
	while (buf) {
		if (len == cap) {
			char *nbuf = realloc(buf, 2 * cap + 1);

			if (!nbuf)
				break;
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (n == 0) {
			close(fd);
			buf[len] = '\0';
			*ret_buf = buf;
			*ret_len = len;
			return 0;
		}
		len += n;
	}
	free(buf);
	close(fd);
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

static int push_value(struct series *s, double v)
{
	/* capacity 16, doubled whenever n reaches a power of two above it */
	if (!s->v || (s->n >= 16 && !(s->n & (s->n - 1)))) {
		size_t cap = s->v ? 2 * s->n : 16;
		double *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
	}
	s->v[s->n++] = v;
	return 0;
}

static void free_series(struct series *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(s[i].name);
		free(s[i].role);
		free(s[i].v);
	}
	free(s);
}

/*
 * ministat's format: one number per line; blank lines and everything from
 * '#' are ignored; of several whitespace-separated columns the first is
 * used.  A value must be a positive finite number, because the comparison
 * is a ratio.
 */
static int parse_ministat(const char *path, char *buf, struct file_data *fd,
			  char *err, size_t errlen)
{
	struct series *s = calloc(1, sizeof(*s));
	unsigned int line = 0;
	char *next;

	if (!s || !(s->name = strdup("")))
		goto nomem;
	fd->series = s;
	fd->nr = 1;
	for (char *p = buf; p; p = next) {
		char *hash, *tok, *end;
		double v;

		line++;
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		hash = strchr(p, '#');
		if (hash)
			*hash = '\0';
		tok = p + strspn(p, " \t\r");
		if (!*tok)
			continue;
		tok[strcspn(tok, " \t\r")] = '\0';
		errno = 0;
		v = strtod(tok, &end);
		if (*end || errno == ERANGE || !isfinite(v)) {
			snprintf(err, errlen, "%s:%u: not a number: '%.40s'",
				 path, line, tok);
			return -1;
		}
		if (v <= 0) {
			snprintf(err, errlen,
				 "%s:%u: %s is not positive (values are compared as ratios)",
				 path, line, tok);
			return -1;
		}
		if (push_value(s, v))
			goto nomem;
	}
	if (!s->n) {
		snprintf(err, errlen, "%s: no values", path);
		return -1;
	}
	return 0;
nomem:
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

static double sample_value(const json_t *smp, const char *field, bool *ok)
{
	const json_t *v = member(smp, field);
	const json_t *batch;

	*ok = false;
	if (!json_is_number(v))
		return 0;
	if (!strcmp(field, "ns_per_op")) {
		*ok = true;
		return json_number_value(v);
	}
	batch = member(smp, "batch");
	if (!json_is_number(batch) || !(json_number_value(batch) > 0))
		return 0;
	*ok = true;
	return json_number_value(v) / json_number_value(batch);
}

/* What the run recorded of its environment; missing members stay NULL. */
static void read_env(const json_t *doc, struct side_file *info)
{
	const json_t *env = member(doc, "env");

	info->release = env_string(env, "release");
	info->version = env_string(env, "version");
	info->build_id = env_string(env, "build_id");
	info->cmdline = env_string(env, "cmdline");
	info->accelerator = env_string(env, "accelerator");
	info->clock = env_string(member(env, "tags"), "clock");
}

/*
 * @field of every sample of @smps into @s; 0, or -1 with @err set.  jansson
 * keeps no line numbers for values, so a bad sample is named by its place:
 * the workload, and the sample counted from 1.
 */
static int read_samples(const char *path, const json_t *smps,
			const char *field, struct series *s, char *err,
			size_t errlen)
{
	for (size_t j = 0; j < json_array_size(smps); j++) {
		bool ok;
		double v = sample_value(json_array_get(smps, j), field, &ok);

		if (!ok) {
			snprintf(err, errlen, "%s: workload '%s': sample %zu without a number \"%s\"%s",
				 path, s->name, j + 1, field,
				 strcmp(field, "ns_per_op") ? " (or \"batch\")" : "");
			return -1;
		}
		if (!(v > 0)) {
			snprintf(err, errlen, "%s: workload '%s': sample %zu: %s is not positive (values are compared as ratios)",
				 path, s->name, j + 1, field);
			return -1;
		}
		if (push_value(s, v)) {
			snprintf(err, errlen, "%s: out of memory", path);
			return -1;
		}
	}
	return 0;
}

/*
 * One workload of a forkbench document into the next series of @fd,
 * unless it has no samples: skipped and failed workloads have nothing to
 * compare.  Returns 0, or -1 with @err set.
 */
static int parse_workload(const char *path, const json_t *w, size_t index,
			  const char *field, struct file_data *fd, char *err,
			  size_t errlen)
{
	const json_t *name = member(w, "name");
	const json_t *role = member(w, "role");
	const json_t *smps = member(w, "samples");
	struct series *s;

	if (!json_is_string(name) || !json_is_array(smps)) {
		snprintf(err, errlen, "%s: workload %zu: no \"name\" or \"samples\"",
			 path, index + 1);
		return -1;
	}
	for (size_t k = 0; k < fd->nr; k++) {
		if (!strcmp(fd->series[k].name, json_string_value(name))) {
			snprintf(err, errlen, "%s: workload '%s' appears twice",
				 path, json_string_value(name));
			return -1;
		}
	}
	if (!json_array_size(smps))
		return 0;
	s = &fd->series[fd->nr++];
	s->name = strdup(json_string_value(name));
	if (json_is_string(role))
		s->role = strdup(json_string_value(role));
	if (!s->name || (json_is_string(role) && !s->role)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	return read_samples(path, smps, field, s, err, errlen);
}

/* forkbench's document: {"forkbench": 1, ..., "workloads": [...]} */
static int parse_forkbench(const char *path, const char *buf, size_t len,
			   const char *field, struct file_data *fd, char *err,
			   size_t errlen)
{
	json_error_t jerr;
	json_auto_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES |
				      JSON_DECODE_INT_AS_REAL, &jerr);
	const json_t *wls;

	if (!doc) {
		snprintf(err, errlen, "%s: line %d: %s", path, jerr.line, jerr.text);
		return -1;
	}
	wls = member(doc, "workloads");
	if (!member(doc, "forkbench") || !json_is_array(wls)) {
		snprintf(err, errlen, "%s: not a forkbench document (no \"forkbench\" or \"workloads\")",
			 path);
		return -1;
	}
	read_env(doc, &fd->info);
	fd->series = calloc(json_array_size(wls) ? json_array_size(wls) : 1,
			    sizeof(*fd->series));
	if (!fd->series) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	for (size_t i = 0; i < json_array_size(wls); i++)
		if (parse_workload(path, json_array_get(wls, i), i, field, fd,
				   err, errlen))
			return -1;
	return 0;
}

static int load_file(const char *path, const char *field, struct file_data *fd,
		     char *err, size_t errlen)
{
	char *buf;
	size_t len;
	const char *first;
	int ret;

	if (read_whole(path, &buf, &len, err, errlen))
		return -1;
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: contains a NUL byte", path);
		free(buf);
		return -1;
	}
	first = buf + strspn(buf, " \t\r\n");
	fd->json = *first == '{';
	if (fd->json)
		ret = parse_forkbench(path, buf, len, field, fd, err, errlen);
	else
		ret = parse_ministat(path, buf, fd, err, errlen);
	free(buf);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files a side argument names: a directory, a comma list or one file. */
static char **side_files(const char *arg, size_t *ret_nr, char *err, size_t errlen)
{
	struct stat st;
	char **files = NULL;
	size_t nr = 0;

	if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		DIR *d = opendir(arg);
		struct dirent *de;

		if (!d) {
			snprintf(err, errlen, "%s: %s", arg, strerror(errno));
			return NULL;
		}
		while ((de = readdir(d))) {
			char *path;
			char **nf;

			if (de->d_name[0] == '.')
				continue;
			if (asprintf(&path, "%s/%s", arg, de->d_name) < 0)
				break;
			if (stat(path, &st) || !S_ISREG(st.st_mode)) {
				free(path);
				continue;
			}
			nf = realloc(files, (nr + 1) * sizeof(*files));
			if (!nf) {
				free(path);
				break;
			}
			files = nf;
			files[nr++] = path;
		}
		closedir(d);
		qsort(files, nr, sizeof(*files), cmp_str);
		if (!nr) {
			snprintf(err, errlen, "%s: no files in directory", arg);
			free(files);
			return NULL;
		}
	} else {
		for (const char *p = arg;;) {
			size_t l = strcspn(p, ",");
			char **nf = realloc(files, (nr + 1) * sizeof(*files));

			if (!nf || !(nf[nr] = strndup(p, l))) {
				snprintf(err, errlen, "%s: out of memory", arg);
				return NULL;
			}
			files = nf;
			if (!l) {
				snprintf(err, errlen, "'%s': empty file name in list", arg);
				for (size_t i = 0; i <= nr; i++)
					free(files[i]);
				free(files);
				return NULL;
			}
			nr++;
			if (!p[l])
				break;
			p += l + 1;
		}
	}
	*ret_nr = nr;
	return files;
}

static struct series *add_series(struct side *side, const struct series *from)
{
	struct series *ns = realloc(side->series,
				    (side->nr_series + 1) * sizeof(*ns));
	struct series *s;

	if (!ns)
		return NULL;
	side->series = ns;
	s = &ns[side->nr_series];
	memset(s, 0, sizeof(*s));
	s->name = strdup(from->name);
	s->role = from->role ? strdup(from->role) : NULL;
	if (!s->name || (from->role && !s->role)) {
		free(s->name);
		free(s->role);
		return NULL;
	}
	side->nr_series++;
	return s;
}

int side_load(const char *arg, const char *field, bool boot_mean,
	      struct side *side, char *err, size_t errlen)
{
	char **files;
	size_t nr = 0;
	int ret = -1;

	memset(side, 0, sizeof(*side));
	files = side_files(arg, &nr, err, errlen);
	/* A long list of files is named by its ends, as the gate's looks are. */
	if (files && nr > 2 && strchr(arg, ','))
		(void)!asprintf(&side->label, "%s ... %s (%zu files)", files[0],
				files[nr - 1], nr);
	else
		side->label = strdup(arg);
	if (!files || !side->label) {
		if (files && !side->label)
			snprintf(err, errlen, "%s: out of memory", arg);
		goto out;
	}
	side->nr_files = nr;
	side->files = calloc(nr, sizeof(*side->files));
	if (!side->files) {
		snprintf(err, errlen, "%s: out of memory", arg);
		goto out;
	}
	for (size_t f = 0; f < nr; f++) {
		struct file_data fd = { 0 };

		if (load_file(files[f], field, &fd, err, errlen)) {
			free_series(fd.series, fd.nr);
			free_file_info(&fd.info);
			goto out;
		}
		fd.info.path = strdup(files[f]);
		side->files[f] = fd.info;
		if (f && fd.json != side->json) {
			snprintf(err, errlen, "%s: mixes forkbench JSON and ministat files",
				 arg);
			free_series(fd.series, fd.nr);
			goto out;
		}
		side->json = fd.json;
		for (size_t i = 0; i < fd.nr; i++) {
			struct series *from = &fd.series[i];
			struct series *to = (struct series *)side_find(side, from->name);
			int bad = 0;

			if (!to)
				to = add_series(side, from);
			if (!to) {
				bad = 1;
			} else if (nr == 1) {
				/* one file: its samples as they are */
				for (size_t k = 0; k < from->n && !bad; k++)
					bad = push_value(to, from->v[k]);
			} else {
				/* one boot: its median (or mean) is the unit */
				bad = push_value(to, boot_mean ?
						 stats_mean(from->v, from->n) :
						 stats_median(from->v, from->n));
			}
			if (bad) {
				snprintf(err, errlen, "%s: out of memory", files[f]);
				free_series(fd.series, fd.nr);
				goto out;
			}
		}
		free_series(fd.series, fd.nr);
	}
	ret = 0;
out:
	for (size_t f = 0; files && f < nr; f++)
		free(files[f]);
	free(files);
	return ret;
}

void side_free(struct side *side)
{
	for (size_t f = 0; side->files && f < side->nr_files; f++)
		free_file_info(&side->files[f]);
	free(side->files);
	free_series(side->series, side->nr_series);
	free(side->label);
	memset(side, 0, sizeof(*side));
}

const struct series *side_find(const struct side *side, const char *name)
{
	for (size_t i = 0; i < side->nr_series; i++)
		if (!strcmp(side->series[i].name, name))
			return &side->series[i];
	return NULL;
}
