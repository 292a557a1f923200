/*
 * replay_main.c - a main() for the fuzz targets in builds without
 * libFuzzer: feed every file under each argument (a file or a folder,
 * searched recursively) to LLVMFuzzerTestOneInput once.  meson test runs
 * each target this way over its corpus and testdata/bad, so inputs that
 * once crashed stay regression tests in the normal gcc build.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static long replayed;

/* Feed one file; its bytes go in a buffer of exactly its size, as libFuzzer
 * does, so a read past the end is an ASan error here too. */
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long size;
	int rc = -1;

	if (!f) {
		fprintf(stderr, "replay: cannot open '%s'\n", path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		goto out;
	buf = malloc(size ? (size_t)size : 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size)
		goto out;
	fprintf(stderr, "replay: %s (%ld bytes)\n", path, size);
	LLVMFuzzerTestOneInput(buf, (size_t)size);
	replayed++;
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "replay: cannot read '%s'\n", path);
	free(buf);
	fclose(f);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path)
{
	struct stat sb;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (stat(path, &sb) != 0) {
		fprintf(stderr, "replay: no such file or folder '%s'\n", path);
		return -1;
	}
	if (!S_ISDIR(sb.st_mode))
		return S_ISREG(sb.st_mode) ? replay_file(path) : 0;
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char **nn;
		if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0 ||
		    strcmp(e->d_name, "README.md") == 0)
			continue;
		nn = realloc(names, (n + 1) * sizeof *nn);
		if (!nn || !(nn[n] = strdup(e->d_name))) {
			names = nn ? nn : names;
			rc = -1;
			break;
		}
		names = nn;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char sub[4096];
		snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
		if (rc == 0)
			rc = replay_path(sub);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i]) != 0)
			rc = 1;
	printf("replayed %ld inputs\n", replayed);
	if (replayed == 0) {
		fprintf(stderr, "replay: no inputs found\n");
		rc = 1;
	}
	return rc;
}
