/*
 * ingest_ascend_db.c - reader for the SQLite exports of torch_npu / msprof:
 * ascend_pytorch_profiler[_N].db (an export_type=db *_ascend_pt folder or
 * the lone file) and msprof_*.db (FORMATS.md 4.1).
 *
 * The source is opened read-only on its own connection, never ATTACHed to
 * the store.  This file finds and opens it, decides the rank
 * (RANK_DEVICE_MAP, profiler_info_N.json or the file name), sends the
 * metadata and runs the readers in order: steps = STEP_TIME and the links
 * (ascend_db_links.c), host operators = PYTORCH_API rows of type op
 * (ascend_db_ops.c), device kernels, PMU metrics and communication
 * operators (ascend_db_kernels.c); columns are found by name
 * (ascend_db_sql.c).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>

#include "ascend_db.h"
#include "fs_path.h"
#include "banned.h"

/* ---------------------------------------------------------------- rank, metadata */

/* RANK_DEVICE_MAP: the rank (-1 = unset) and device of this file. */
static void read_rank_map(struct profdb__adb *r, int64_t *rank)
{
	sqlite3_stmt *q = NULL;
	*rank = PROFDB_NULL;
	if (!profdb__adb_has_table(r, "RANK_DEVICE_MAP") || !profdb__adb_has_col(r, "RANK_DEVICE_MAP", "rankId") ||
	    !profdb__adb_has_col(r, "RANK_DEVICE_MAP", "deviceId"))
		return;
	if (sqlite3_prepare_v2(r->db, "SELECT rankId, deviceId FROM RANK_DEVICE_MAP", -1, &q, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(q) == SQLITE_ROW) {
		int64_t rk = profdb__adb_col_i64(q, 0);
		if (rk != PROFDB_NULL && rk >= 0)
			*rank = rk;
		r->device = profdb__adb_col_i64(q, 1);
		if (r->device != PROFDB_NULL && r->device < 0)
			r->device = PROFDB_NULL;
	}
	sqlite3_finalize(q);
}

static int read_meta(struct profdb__adb *r)
{
	sqlite3_stmt *q = NULL;
	int rc = PROFDB_OK;
	if (!r->sink->meta)
		return PROFDB_OK;
	if (profdb__adb_has_table(r, "META_DATA") && profdb__adb_has_col(r, "META_DATA", "name") && profdb__adb_has_col(r, "META_DATA", "value") &&
	    sqlite3_prepare_v2(r->db, "SELECT 'ascend_db.' || name, value FROM META_DATA WHERE name IS NOT NULL",
	                       -1, &q, NULL) == SQLITE_OK) {
		while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW)
			rc = profdb__sink_meta(r->sink, r->rank, (const char *)sqlite3_column_text(q, 0),
			                       (const char *)sqlite3_column_text(q, 1));
		sqlite3_finalize(q);
		q = NULL;
	}
	if (rc == PROFDB_OK && profdb__adb_has_table(r, "NPU_INFO") && profdb__adb_has_col(r, "NPU_INFO", "name") &&
	    sqlite3_prepare_v2(r->db, "SELECT name FROM NPU_INFO WHERE name IS NOT NULL LIMIT 1",
	                       -1, &q, NULL) == SQLITE_OK) {
		if (sqlite3_step(q) == SQLITE_ROW)
			rc = profdb__sink_meta(r->sink, r->rank, "npu", (const char *)sqlite3_column_text(q, 0));
		sqlite3_finalize(q);
	}
	return rc;
}

/* ---------------------------------------------------------------- files */

/* Hex SHA-256 and size of a whole file; 0 ok. */
static int hash_file(const char *path, char hex[65], uint64_t *size, struct profdb_err *err)
{
	struct profdb_sha256 s;
	unsigned char buf[65536];
	size_t got;
	FILE *f = fopen(path, "rb");
	if (!f)
		return profdb__err_set(err, PROFDB_ENOTFOUND, "%s: cannot open", path);
	profdb__sha256_init(&s);
	*size = 0;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		profdb__sha256_update(&s, buf, got);
		*size += got;
	}
	if (ferror(f)) {
		fclose(f);
		return profdb__err_set(err, PROFDB_ERROR, "%s: byte %llu: read error", path,
		                       (unsigned long long)*size);
	}
	fclose(f);
	profdb__sha256_hex(&s, hex);
	return PROFDB_OK;
}

/*
 * Open file read-only into *out (closed by the caller, even on error).
 * immutable=1 makes SQLite write nothing beside the file (no -shm in a
 * read-only corpus folder) and needs no lock; it would ignore a write-ahead
 * log, so a file with a non-empty -wal is opened with mode=ro instead,
 * which reads the log.  Returns an SQLite code.
 */
static int open_readonly(const char *file, sqlite3 **out)
{
	char uri[8192], wal[4200];
	struct stat sb;
	size_t n = 0;
	const char *p;

	*out = NULL;
	snprintf(wal, sizeof wal, "%s-wal", file);
	n = (size_t)snprintf(uri, sizeof uri, "file:");
	for (p = file; *p && n + 4 < sizeof uri; p++) {
		unsigned char c = (unsigned char)*p;
		/* percent-encode what a URI path cannot hold as is */
		if (c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f)
			n += (size_t)snprintf(uri + n, sizeof uri - n, "%%%02X", c);
		else
			uri[n++] = (char)c;
	}
	uri[n] = '\0';
	snprintf(uri + n, sizeof uri - n, "%s",
	         stat(wal, &sb) == 0 && sb.st_size > 0 ? "?mode=ro" : "?immutable=1");
	return sqlite3_open_v2(uri, out, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, profdb__vfs_longpath());
}

static const char not_ascend[] = "no STRING_IDS, COMPUTE_TASK_INFO, COMMUNICATION_OP or PYTORCH_API"
                                 " table: not an Ascend profiler database";

/* Does r's source have the tables of an Ascend export? */
static int ascend_tables(struct profdb__adb *r)
{
	return profdb__adb_has_table(r, "STRING_IDS") && (profdb__adb_has_table(r, "COMPUTE_TASK_INFO") ||
	       profdb__adb_has_table(r, "COMMUNICATION_OP") || profdb__adb_has_table(r, "PYTORCH_API"));
}

/* Open the source read-only and check it is one we may read. */
static int open_source(struct profdb__adb *r)
{
	int rc = open_readonly(r->file, &r->db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(r->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return profdb__err_set(r->ctx->err, PROFDB_EFORMAT, "%s: cannot read as SQLite: %s", r->file,
		                       r->db ? sqlite3_errmsg(r->db) : "out of memory");
	return profdb__sql_source_check(r->db, r->file, r->ctx->err);
}

/* rank_id of a profiler_info*.json (int or string); PROFDB_NULL if none. */
static int64_t info_rank(const char *text)
{
	cJSON *j = cJSON_Parse(text), *v;
	int64_t rank = PROFDB_NULL, x;
	if (!j)
		return PROFDB_NULL;
	v = cJSON_GetObjectItemCaseSensitive(j, "rank_id");
	if (cJSON_IsNumber(v) && v->valuedouble >= 0)
		rank = (int64_t)v->valuedouble;
	else if (cJSON_IsString(v) && profdb__parse_i64(v->valuestring, strlen(v->valuestring), &x) == 0 && x >= 0)
		rank = x;
	cJSON_Delete(j);
	return rank;
}

/* Read whole small file; NULL if unreadable.  *len set. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && n < (16L << 20) && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		*len = fread(buf, 1, (size_t)n, f);
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}

/* Find the first file in folder named prefix*suffix (sorted); 0 if found. */
static int find_file(const char *folder, const char *prefix, const char *suffix, char *out, size_t cap)
{
	DIR *d = opendir(folder);
	struct dirent *e;
	char best[1024] = "";
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && profdb__path_ends_with(e->d_name, suffix) &&
		    (!best[0] || strcmp(e->d_name, best) < 0))
			snprintf(best, sizeof best, "%s", e->d_name);
	closedir(d);
	if (!best[0])
		return -1;
	snprintf(out, cap, "%s/%s", folder, best);
	return 0;
}

/* The N of a ..._N.db name, or PROFDB_NULL. */
static int64_t name_rank(const char *path)
{
	const char *base = strrchr(path, '/'), *us, *dot;
	int64_t v;
	base = base ? base + 1 : path;
	if (strncmp(base, "ascend_pytorch_profiler_", 24) != 0)
		return PROFDB_NULL;
	us = base + 24;
	dot = strrchr(us, '.');
	if (!dot || dot == us || profdb__parse_i64(us, (size_t)(dot - us), &v) != 0 || v < 0)
		return PROFDB_NULL;
	return v;
}

static void rd_free(struct profdb__adb *r)
{
	for (size_t i = 0; i < r->nops; i++) {
		free(r->ops[i].name);
		free(r->ops[i].shapes);
		free(r->ops[i].dtypes);
		free(r->ops[i].stack);
	}
	free(r->ops);
	free(r->by_id);
	free(r->steps);
	free(r->conns);
	sqlite3_close(r->db);
}

/* Send profiler_info*.json of a folder as a source with its content. */
static int read_info(const struct profdb_reader_ctx *ctx, const char *folder, int64_t *rank)
{
	char path[4200], hex[65];
	char *text;
	size_t len = 0;
	uint64_t size;
	int rc;
	struct profdb_sha256 s;

	*rank = PROFDB_NULL;
	if (find_file(folder, "profiler_info", ".json", path, sizeof path) != 0)
		return PROFDB_OK;
	text = slurp(path, &len);
	if (!text)
		return PROFDB_OK;
	*rank = info_rank(text);
	profdb__sha256_init(&s);
	profdb__sha256_update(&s, text, len);
	profdb__sha256_hex(&s, hex);
	size = len;
	rc = profdb__sink_source_begin(ctx->sink, path, "profiler_info", *rank, (const unsigned char *)text, len);
	if (rc == PROFDB_OK)
		rc = profdb__sink_meta(ctx->sink, *rank, "profiler_info", text);
	if (rc == PROFDB_OK)
		rc = profdb__sink_source_end(ctx->sink, 0, hex, size);
	free(text);
	return rc;
}

static int read_export(const struct profdb_reader_ctx *ctx)
{
	struct profdb__adb r;
	char file[4200], out[4200], hex[65];
	int64_t info = PROFDB_NULL, map;
	uint64_t size = 0;
	int rc;

	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.sink = ctx->sink;
	r.device = PROFDB_NULL;
	if (profdb__path_is_dir(ctx->path)) {
		/* an export_type=db *_ascend_pt folder */
		snprintf(out, sizeof out, "%s/ASCEND_PROFILER_OUTPUT", ctx->path);
		if (find_file(out, "ascend_pytorch_profiler", ".db", file, sizeof file) != 0)
			return profdb__err_set(ctx->err, PROFDB_ENOTFOUND,
			                       "%s: no ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler*.db", ctx->path);
		if ((rc = read_info(ctx, ctx->path, &info)) != PROFDB_OK)
			return rc;
	} else {
		snprintf(file, sizeof file, "%s", ctx->path);
	}
	r.file = file;
	if ((rc = hash_file(file, hex, &size, ctx->err)) != PROFDB_OK)
		return rc;
	if ((rc = open_source(&r)) != PROFDB_OK)
		goto out;
	if (!ascend_tables(&r)) {
		rc = profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: %s", file, not_ascend);
		goto out;
	}
	/* the rank: what the database says, else profiler_info, else the file name */
	read_rank_map(&r, &map);
	r.rank = map != PROFDB_NULL ? map : info != PROFDB_NULL ? info :
	         name_rank(file) != PROFDB_NULL ? name_rank(file) : ctx->rank;
	if ((rc = profdb__sink_source_begin(ctx->sink, file, "ascend_db", r.rank, NULL, 0)) != PROFDB_OK)
		goto out;
	if ((rc = read_meta(&r)) != PROFDB_OK || (rc = profdb__adb_read_steps(&r)) != PROFDB_OK ||
	    (rc = profdb__adb_read_conns(&r)) != PROFDB_OK || (rc = profdb__adb_read_ops(&r)) != PROFDB_OK ||
	    (rc = profdb__adb_read_kernels(&r)) != PROFDB_OK || (rc = profdb__adb_read_comm(&r)) != PROFDB_OK ||
	    (rc = profdb__adb_nest_ops(&r)) != PROFDB_OK || (rc = profdb__adb_emit_ops(&r)) != PROFDB_OK)
		goto out;
	rc = profdb__sink_source_end(ctx->sink, r.rows, hex, size);
	if (rc == PROFDB_OK && ctx->progress)
		ctx->progress(ctx->progress_arg, size, size);
out:
	rd_free(&r);
	return rc;
}

/*
 * An Ascend SQLite export (ascend_pytorch_profiler*.db, msprof*.db): the
 * SQLite magic and the export's tables.  A file with the magic that SQLite
 * cannot read is not taken, with the reader's own message as the reason
 * (a file named as an export is still handed to the reader by the walk,
 * so a damaged export fails the ingest; a damaged other database beside
 * a dump does not).
 */
static int sniff(const struct profdb_sniff *s)
{
	struct profdb__adb r;
	int answer = PROFDB_SNIFF_NO;
	if (s->gzip || s->n < 16 || memcmp(s->buf, "SQLite format 3", 16) != 0)
		return PROFDB_SNIFF_NO;
	memset(&r, 0, sizeof r);
	if (open_readonly(s->path, &r.db) != SQLITE_OK ||
	    sqlite3_exec(r.db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(s->reason, s->cap, "cannot read as SQLite: %s",
		         r.db ? sqlite3_errmsg(r.db) : "out of memory");
		answer = PROFDB_SNIFF_DAMAGED;
	} else if (ascend_tables(&r))
		answer = PROFDB_SNIFF_YES;
	else
		snprintf(s->reason, s->cap, "%s", not_ascend);
	sqlite3_close(r.db);
	return answer;
}

/* The SQLite form of an Ascend export: one .db file, or an export_type=db
 * *_ascend_pt folder (the walk picks it by its layout, ingest_walk.c). */
const struct profdb_reader profdb__reader_ascend_db = {
	.name = "ascend_db", .label = "ascend_db", .sniff = sniff, .read = read_export,
	.flags = PROFDB_READER_WALK,
};
