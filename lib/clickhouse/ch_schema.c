/*
 * ch_schema.c - the ClickHouse side's schema and run list: create the
 * database and apply schemas/clickhouse/NNN_*.sql newer than the version
 * the server records (ClickHouse has no user_version pragma, so a table
 * profdb_schema holds the versions applied), and read the run rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "banned.h"

static int file_version(const char *name)
{
	int v = 0;
	while (*name >= '0' && *name <= '9')
		v = v * 10 + (*name++ - '0');
	return v;
}

/* Does s[0..n) hold anything but white space and -- comments? */
static int has_sql(const char *s, size_t n)
{
	int comment = 0;
	for (size_t i = 0; i < n; i++) {
		if (comment) {
			comment = s[i] != '\n';
			continue;
		}
		if (s[i] == '-' && i + 1 < n && s[i + 1] == '-')
			comment = 1;
		else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 1;
	}
	return 0;
}

/*
 * Did the failed statement stmt, an "ALTER TABLE t ADD COLUMN c ...", fail
 * because c is there now?  Pushes that start together apply the same
 * migration at once, and the ClickHouse the tests run (before 19.x) has no
 * ADD COLUMN IF NOT EXISTS: the pushes that lose find the column added.
 * Names come from the embedded schema files, never from the user.
 */
static int column_added(struct profdb__ch *c, const char *stmt)
{
	char table[64], col[64], q[256];
	const char *p = strstr(stmt, "ALTER TABLE ");
	struct profdb__ch_buf resp = { 0 };
	struct profdb_err e = { 0 };
	int yes;
	if (!p || sscanf(p, "ALTER TABLE %63[A-Za-z0-9_] ADD COLUMN %63[A-Za-z0-9_]", table, col) != 2)
		return 0;
	snprintf(q, sizeof q, "SELECT count() FROM system.columns WHERE database = currentDatabase()"
	         " AND table = '%s' AND name = '%s'", table, col);
	yes = profdb__ch_query(c, q, &resp, &e) == PROFDB_OK && resp.data && strtol(resp.data, NULL, 10) > 0;
	profdb__ch_buf_free(&resp);
	return yes;
}

/* Send each statement of a file: they end with ';' at the end of a line,
 * and the HTTP interface takes one per request. */
static int apply_file(struct profdb__ch *c, const struct profdb__schema_file *f,
                      struct profdb_err *err)
{
	const char *p = f->text;
	while (*p) {
		const char *end = strstr(p, ";\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (has_sql(p, n)) {
			char *stmt = malloc(n + 1);
			if (!stmt)
				return profdb__err_set(err, PROFDB_ERROR, "out of memory");
			memcpy(stmt, p, n);
			stmt[n] = '\0';
			struct profdb_err e = { 0 };
			int rc = profdb__ch_query(c, stmt, NULL, &e);
			if (rc != PROFDB_OK && column_added(c, stmt))
				rc = PROFDB_OK;
			free(stmt);
			if (rc != PROFDB_OK) {
				*err = e;
				return rc;
			}
		}
		p += end ? n + 2 : n;
	}
	char ins[96];
	snprintf(ins, sizeof ins, "INSERT INTO profdb_schema (version) VALUES (%d)",
	    file_version(f->name));
	return profdb__ch_query(c, ins, NULL, err);
}

/* The first schema whose kernel rows hold ids (004_kernel_ids.sql). */
#define CH_IDS_VERSION 4

/*
 * A database whose runs were pushed before schema 4 has their kernels as
 * text in a table that schema replaces with a view: refused rather than
 * read wrongly or converted in place (a conversion on the server would be
 * one query per text column per run, long on a big database, and a push
 * from the runs' SQLite files does it better).  An error to ask (no such
 * table yet: a new database) is no refusal; the next query reports it.
 */
int profdb__ch_check_layout(struct profdb__ch *c, struct profdb_err *err)
{
	struct profdb__ch_buf resp = { 0 };
	struct profdb_err e = { 0 };
	long version = 0, runs = 0;
	if (profdb__ch_query(c, "SELECT (SELECT max(version) FROM profdb_schema), (SELECT count() FROM run)"
	                     " FORMAT TSV", &resp, &e) == PROFDB_OK && resp.data)
		sscanf(resp.data, "%ld\t%ld", &version, &runs);
	profdb__ch_buf_free(&resp);
	if (version < 1 || version >= CH_IDS_VERSION || runs == 0)
		return PROFDB_OK;
	return profdb__err_set(err, PROFDB_ESCHEMA,
	    "clickhouse %s holds runs pushed with profdb schema %ld (kernel texts in every row), which "
	    "this profdb does not read: push them again from their SQLite files into a new database",
	    profdb__ch_where(c), version);
}

int profdb__ch_ensure_schema(struct profdb__ch *c, struct profdb_err *err)
{
	struct profdb__ch_buf create = { 0 }, resp = { 0 };
	int rc, want = 0, have;
	const char *db = strstr(profdb__ch_where(c), "/") + 1;
	if (profdb__ch_buf_add(&create, "CREATE DATABASE IF NOT EXISTS ", 30) != 0 ||
	    profdb__ch_buf_add(&create, db, strlen(db)) != 0) {
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
		goto out;
	}
	/* the database name is an identifier checked by profdb__ch_open */
	rc = profdb__ch_send(c, create.data, NULL, 0, 0, NULL, NULL, err);
	if (rc == PROFDB_OK)
		rc = profdb__ch_query(c, "CREATE TABLE IF NOT EXISTS profdb_schema (version UInt32, "
		    "applied DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY version", NULL, err);
	if (rc == PROFDB_OK)
		rc = profdb__ch_query(c, "SELECT max(version) FROM profdb_schema", &resp, err);
	if (rc != PROFDB_OK)
		goto out;
	have = (int)strtol(resp.data, NULL, 10);
	for (const struct profdb__schema_file *f = profdb__ch_schema_files; f->name; f++)
		if (file_version(f->name) > want)
			want = file_version(f->name);
	if (have > want) {
		rc = profdb__err_set(err, PROFDB_ESCHEMA,
		    "clickhouse %s has profdb schema %d, this build knows %d: upgrade profdb",
		    profdb__ch_where(c), have, want);
		goto out;
	}
	if (have > 0 && have < CH_IDS_VERSION && (rc = profdb__ch_check_layout(c, err)) != PROFDB_OK)
		goto out;
	for (const struct profdb__schema_file *f = profdb__ch_schema_files; f->name && rc == PROFDB_OK; f++)
		if (file_version(f->name) > have)
			rc = apply_file(c, f, err);
out:
	profdb__ch_buf_free(&create);
	profdb__ch_buf_free(&resp);
	return rc;
}

/* Decoding state of the run list. */
struct runs_acc {
	struct profdb__ch_buf pending;     /* bytes of an incomplete row */
	struct profdb__ch_run *runs;
	size_t n, cap;
	struct profdb_err *err;
};

static const enum profdb__ch_type run_types[] = { CH_U64, CH_STR, CH_STR };

static int add_run(struct runs_acc *a, const struct profdb__ch_val *v)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct profdb__ch_run *r = realloc(a->runs, cap * sizeof *r);
		if (!r)
			return -1;
		a->runs = r;
		a->cap = cap;
	}
	struct profdb__ch_run *r = &a->runs[a->n];
	r->id = (uint64_t)v[0].i;
	r->name = malloc(v[1].n + 1);
	r->hash = malloc(v[2].n + 1);
	if (!r->name || !r->hash) {
		free(r->name);
		free(r->hash);
		return -1;
	}
	memcpy(r->name, v[1].s, v[1].n);
	r->name[v[1].n] = '\0';
	memcpy(r->hash, v[2].s, v[2].n);
	r->hash[v[2].n] = '\0';
	a->n++;
	return 0;
}

static int runs_sink(void *arg, const char *p, size_t n)
{
	struct runs_acc *a = arg;
	struct profdb__ch_val v[3];
	size_t off = 0, k;
	if (profdb__ch_buf_add(&a->pending, p, n) != 0)
		return profdb__err_set(a->err, PROFDB_ERROR, "out of memory"), -1;
	while ((k = profdb__ch_get_row(a->pending.data + off, a->pending.len - off, run_types, 3, v)) > 0) {
		if (add_run(a, v) != 0)
			return profdb__err_set(a->err, PROFDB_ERROR, "out of memory"), -1;
		off += k;
	}
	memmove(a->pending.data, a->pending.data + off, a->pending.len - off);
	a->pending.len -= off;
	return 0;
}

int profdb__ch_runs(struct profdb__ch *c, struct profdb__ch_run **out, size_t *n, struct profdb_err *err)
{
	struct runs_acc a = { { 0 }, NULL, 0, 0, err };
	int rc = profdb__ch_check_layout(c, err);
	if (rc != PROFDB_OK) {
		*out = NULL;
		*n = 0;
		return rc;
	}
	rc = profdb__ch_send_held(c, "SELECT id, name, content_hash FROM run "
	    "ORDER BY pushed_at, local_id, id FORMAT RowBinary", runs_sink, &a, err);
	if (rc == PROFDB_OK && a.pending.len)
		rc = profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: truncated run list",
		    profdb__ch_where(c));
	profdb__ch_buf_free(&a.pending);
	if (rc != PROFDB_OK) {
		profdb__ch_runs_free(a.runs, a.n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	*out = a.runs;
	*n = a.n;
	return PROFDB_OK;
}

void profdb__ch_runs_free(struct profdb__ch_run *r, size_t n)
{
	for (size_t i = 0; i < n && r; i++) {
		free(r[i].name);
		free(r[i].hash);
	}
	free(r);
}
