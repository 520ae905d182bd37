// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * driver - runs a fuzz harness over its seed corpus once, without
 * libFuzzer, so that make check needs no clang: each file of the corpus
 * directories (or the files) named on the command line, in name order,
 * is one TAP test.  A harness that crashes, aborts or trips a sanitizer
 * ends the process, and the TAP driver sees a short plan.  With no
 * argument it reads $FUZZ_CORPUS, or else the directory the Makefile
 * built in (FUZZ_CORPUS_DIR).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

/* Inputs larger than this are not seeds: libFuzzer's own default cap. */
#define MAX_INPUT (1 << 20)

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int no_dots(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* Read @path whole; return its size, or -1 with a reason printed. */
static ssize_t slurp(const char *path, uint8_t **ret)
{
	struct stat st;
	ssize_t n, got = 0;
	uint8_t *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > MAX_INPUT) {
		fprintf(stderr, "driver: %s: not a regular file of at most %d bytes\n",
			path, MAX_INPUT);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* One byte more, so that malloc(0) is never asked for. */
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -1;
	}
	while (got < st.st_size &&
	       (n = read(fd, buf + got, (size_t)(st.st_size - got))) > 0)
		got += n;
	close(fd);
	*ret = buf;
	return got;
}

int main(int argc, char **argv)
{
	char *fallback[] = { argv[0], getenv("FUZZ_CORPUS"), NULL };
	char **paths = argv + 1, path[4096];
	struct dirent **ents[64];
	int nents[64], npaths, total = 0, t = 0, i, j, rc = 0;
	struct stat st;

	if (argc < 2) {
#ifdef FUZZ_CORPUS_DIR
		if (!fallback[1])
			fallback[1] = FUZZ_CORPUS_DIR;
#endif
		if (!fallback[1]) {
			fprintf(stderr, "driver: no corpus: give FUZZ_CORPUS or paths\n");
			return 2;
		}
		paths = fallback + 1;
		argc = 2;
	}
	npaths = argc - 1;
	if (npaths > 64) {
		fprintf(stderr, "driver: at most 64 paths\n");
		return 2;
	}
	for (i = 0; i < npaths; i++) {
		nents[i] = -1;
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			nents[i] = scandir(paths[i], &ents[i], no_dots, by_name);
			if (nents[i] < 0) {
				fprintf(stderr, "driver: %s: %s\n", paths[i],
					strerror(errno));
				return 2;
			}
			total += nents[i];
		} else {
			total++;
		}
	}
	printf("1..%d\n", total);
	fflush(stdout);
	for (i = 0; i < npaths; i++)
		for (j = 0; j < (nents[i] < 0 ? 1 : nents[i]); j++) {
			uint8_t *data = NULL;
			ssize_t n;

			if (nents[i] < 0)
				snprintf(path, sizeof(path), "%s", paths[i]);
			else
				snprintf(path, sizeof(path), "%s/%s", paths[i],
					 ents[i][j]->d_name);
			n = slurp(path, &data);
			if (n < 0) {
				printf("not ok %d - %s\n", ++t, path);
				rc = 1;
			} else {
				LLVMFuzzerTestOneInput(data, (size_t)n);
				printf("ok %d - %s (%zd bytes)\n", ++t, path, n);
			}
			fflush(stdout);
			free(data);
		}
	for (i = 0; i < npaths; i++) {
		for (j = 0; j < nents[i]; j++)
			free(ents[i][j]);
		if (nents[i] >= 0)
			free(ents[i]);
	}
	return rc;
}
