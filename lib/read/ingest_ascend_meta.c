/*
 * ingest_ascend_meta.c - profiler_info*.json and profiler_metadata.json of
 * an Ascend export: kept whole (source content and run_meta) and mined for
 * the rank, the versions and the profiler level (FORMATS.md 1.1).
 *
 * These files describe the capture; a corrupt one is reported as a note
 * rather than failing the ingest of otherwise good kernel tables.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "ascend_csv.h"
#include "banned.h"

#define MAX_META_FILES 16 /* profiler_info files per folder we look at */

struct meta_file {
	char path[4200];
	const char *role;          /* "profiler_info" or "profiler_metadata" */
	unsigned char *buf;        /* content, NUL-terminated; NULL if not kept */
	size_t len;
	char sha[65];
	uint64_t size;
	cJSON *json;               /* parsed, NULL if not JSON */
};

int profdb__ascend_slurp(const char *path, size_t max, uint64_t gzip_max, unsigned char **out, size_t *len,
                 char sha[65], uint64_t *size, struct profdb_err *err)
{
	struct profdb_input *in = NULL;
	unsigned char *buf = NULL;
	size_t n = 0, cap;
	long got;
	int rc;

	*out = NULL;
	*len = 0;
	if ((rc = profdb__input_open(&in, path, gzip_max, err)) != PROFDB_OK)
		return rc;
	if (profdb__input_size(in) > max) {
		profdb__input_close(in);
		return 1;
	}
	cap = (size_t)profdb__input_size(in) + 1;
	buf = malloc(cap);
	if (!buf) {
		profdb__input_close(in);
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	/* the size can grow while we read, or a gzip can inflate: stop at max */
	while ((got = profdb__input_read(in, buf + n, cap - 1 - n, err)) > 0) {
		n += (size_t)got;
		if (n == cap - 1) {
			unsigned char *b;
			if (cap - 1 >= max) {
				free(buf);
				profdb__input_close(in);
				return 1;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			b = realloc(buf, cap);
			if (!b) {
				free(buf);
				profdb__input_close(in);
				return profdb__err_set(err, PROFDB_ERROR, "out of memory");
			}
			buf = b;
		}
	}
	if (got < 0) {
		free(buf);
		profdb__input_close(in);
		return err->code ? err->code : PROFDB_ERROR;
	}
	buf[n] = '\0';
	profdb__input_sha256(in, sha);
	*size = profdb__input_size(in);
	profdb__input_close(in);
	*out = buf;
	*len = n;
	return PROFDB_OK;
}

/* "rank" (any case), an optional '_' or '-', then digits: rank0_ascend_pt,
 * test_rank_1.  Other numbers in a folder name are pids and timestamps. */
static int64_t rank_in_name(const char *name)
{
	for (const char *p = name; *p; p++) {
		int64_t v = 0;
		const char *d;
		if (strncasecmp(p, "rank", 4) != 0)
			continue;
		d = p + 4;
		if (*d == '_' || *d == '-')
			d++;
		if (*d < '0' || *d > '9')
			continue;
		for (; *d >= '0' && *d <= '9' && v < 100000000; d++)
			v = v * 10 + (*d - '0');
		return v;
	}
	return PROFDB_NULL;
}

/* rank_id is an int in 2025-01 files and a string ("0") in 2025-11 ones. */
static int64_t rank_in_json(const cJSON *info)
{
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(info, "rank_id");
	int64_t v;
	if (cJSON_IsNumber(r) && r->valuedouble >= 0 && r->valuedouble < 1e9 &&
	    r->valuedouble == (double)(int64_t)r->valuedouble)
		return (int64_t)r->valuedouble;
	if (cJSON_IsString(r) && profdb__parse_i64(r->valuestring, strlen(r->valuestring), &v) == 0 && v >= 0)
		return v;
	return PROFDB_NULL;
}

/* The N of profiler_info_N.json. */
static int64_t rank_in_file_name(const char *name)
{
	int64_t v;
	const char *p = name + strlen("profiler_info");
	size_t n = strlen(p);
	if (*p != '_' || n < 7 || strcmp(p + n - 5, ".json") != 0)
		return PROFDB_NULL;
	if (profdb__parse_i64(p + 1, n - 6, &v) != 0 || v < 0)
		return PROFDB_NULL;
	return v;
}

/* MindSpore's profiler_info names its framework version; torch_npu's never
 * mentions MindSpore. */
static int json_is_mindspore(const cJSON *info)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, info) {
		if (c->string && (strcasecmp(c->string, "ms_version") == 0 ||
		                  strstr(c->string, "mindspore") || strstr(c->string, "MindSpore")))
			return 1;
	}
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The profiler_*.json names of folder, sorted: profiler_info* then metadata. */
static int list_meta(const char *folder, struct meta_file *files, size_t *nfiles)
{
	DIR *d = opendir(folder);
	struct dirent *e;
	char *names[MAX_META_FILES];
	size_t n = 0, have_meta = 0;
	*nfiles = 0;
	if (!d)
		return PROFDB_OK;
	while ((e = readdir(d)) != NULL && n < MAX_META_FILES - 1) {
		size_t len = strlen(e->d_name);
		if (strcmp(e->d_name, "profiler_metadata.json") == 0)
			have_meta = 1;
		else if (strncmp(e->d_name, "profiler_info", 13) == 0 && len >= 18 &&
		         strcmp(e->d_name + len - 5, ".json") == 0 && (names[n] = strdup(e->d_name)) != NULL)
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; i < n; i++) {
		snprintf(files[i].path, sizeof files[i].path, "%s/%s", folder, names[i]);
		files[i].role = "profiler_info";
		free(names[i]);
	}
	if (have_meta) {
		snprintf(files[n].path, sizeof files[n].path, "%s/profiler_metadata.json", folder);
		files[n++].role = "profiler_metadata";
	}
	*nfiles = n;
	return PROFDB_OK;
}

static int note(const struct profdb__ascend_src *src, const char *path, const char *what)
{
	struct profdb_sink *s = src->ctx->sink;
	char buf[PROFDB_ERRMAX + 4300];
	if (!s->note)
		return PROFDB_OK;
	snprintf(buf, sizeof buf, "%s: %s", path, what);
	return profdb__sink_note(s, buf);
}

static int meta(const struct profdb__ascend_src *src, const char *key, const char *value)
{
	struct profdb_sink *s = src->ctx->sink;
	return value ? profdb__sink_meta(s, src->rank, key, value) : PROFDB_OK;
}

static const char *json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Send one file: its source row (with content) and its run_meta rows. */
static int send_file(const struct profdb__ascend_src *src, const struct meta_file *f)
{
	struct profdb_sink *s = src->ctx->sink;
	int rc = PROFDB_OK;
	rc = profdb__sink_source_begin(s, f->path, f->role, src->rank, f->buf, f->buf ? f->len : 0);
	if (rc != PROFDB_OK)
		return rc;
	if ((rc = profdb__sink_source_end(s, 0, f->buf ? f->sha : NULL, f->size)) != PROFDB_OK)
		return rc;
	if (!f->json)
		return PROFDB_OK;
	if ((rc = meta(src, f->role, (const char *)f->buf)) != PROFDB_OK)
		return rc;
	if (strcmp(f->role, "profiler_info") == 0) {
		const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(f->json, "config");
		const cJSON *exp = cJSON_GetObjectItemCaseSensitive(cfg, "experimental_config");
		if ((rc = meta(src, "torch_npu_version", json_str(f->json, "torch_npu_version"))) != PROFDB_OK ||
		    (rc = meta(src, "cann_version", json_str(f->json, "cann_version"))) != PROFDB_OK ||
		    (rc = meta(src, "profiler_level", json_str(exp, "_profiler_level"))) != PROFDB_OK)
			return rc;
	}
	return PROFDB_OK;
}

int profdb__ascend_read_meta(struct profdb__ascend_src *src, const char *folder)
{
	const struct profdb_reader_ctx *ctx = src->ctx;
	struct meta_file *files = calloc(MAX_META_FILES, sizeof *files);
	size_t n = 0;
	int64_t rank = PROFDB_NULL;
	const char *base = strrchr(folder, '/');
	int rc = PROFDB_OK;

	if (!files)
		return profdb__err_set(ctx->err, PROFDB_ERROR, "out of memory");
	list_meta(folder, files, &n);
	for (size_t i = 0; i < n; i++) {
		struct meta_file *f = &files[i];
		rc = profdb__ascend_slurp(f->path, ASCEND_CONTENT_MAX, ctx->limits->gzip_max_bytes, &f->buf, &f->len, f->sha, &f->size, ctx->err);
		if (rc == 1) {
			rc = note(src, f->path, "larger than 8 MiB: not kept and not read");
		} else if (rc == PROFDB_OK) {
			f->json = cJSON_ParseWithLength((const char *)f->buf, f->len);
			if (!f->json)
				rc = note(src, f->path, "not valid JSON: its metadata was not read");
		}
		if (rc != PROFDB_OK)
			goto out;
	}
	/* rank: rank_id, else profiler_info_N.json, else rank<N> in the folder
	 * name, else the driver's index of this export, else 0 */
	for (size_t i = 0; i < n && rank == PROFDB_NULL; i++)
		if (files[i].json && strcmp(files[i].role, "profiler_info") == 0)
			rank = rank_in_json(files[i].json);
	for (size_t i = 0; i < n && rank == PROFDB_NULL; i++)
		if (strcmp(files[i].role, "profiler_info") == 0)
			rank = rank_in_file_name(strrchr(files[i].path, '/') + 1);
	if (rank == PROFDB_NULL)
		rank = rank_in_name(base ? base + 1 : folder);
	if (rank == PROFDB_NULL)
		rank = ctx->rank;
	src->rank = rank == PROFDB_NULL ? 0 : rank;
	for (size_t i = 0; i < n; i++)
		if (files[i].json && strcmp(files[i].role, "profiler_info") == 0 && json_is_mindspore(files[i].json))
			src->mindspore = 1;
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++)
		rc = send_file(src, &files[i]);
out:
	for (size_t i = 0; i < n; i++) {
		free(files[i].buf);
		cJSON_Delete(files[i].json);
	}
	free(files);
	return rc;
}
