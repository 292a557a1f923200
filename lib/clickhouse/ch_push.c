/*
 * ch_push.c - profdb_run_push: copy one run from the SQLite store to a
 * ClickHouse database.  ClickHouse has no multi-table transaction, so:
 *  - each push attempt gets a fresh random run id and logs it (push_log)
 *    with the run's content hash before any row goes;
 *  - every row carries that id; the run row goes last, and readers only
 *    see runs through their run row, so a partial push is invisible;
 *  - a retry deletes what an earlier attempt of the same content left
 *    (push_log ids without a run row), then pushes anew: idempotent;
 *  - the same content already there is refused unless replace, and so is
 *    another run of the same name.
 * Rows stream from SQLite into one chunked INSERT per table (bounded memory;
 * the server cuts its own blocks), a big run's kernels into two or more at
 * once (ch_push_rows.c).  The local database is only read.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ch.h"
#include "banned.h"

/* A fresh run id: 63 random bits (positive as Int64 too), never 0. */
static int new_run_id(uint64_t *out, struct profdb_err *err)
{
	unsigned char b[8];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, b, sizeof b) : -1;
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof b)
		return profdb__err_set(err, PROFDB_ERROR, "cannot read /dev/urandom");
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	v &= 0x7fffffffffffffffull;
	*out = v ? v : 1;
	return PROFDB_OK;
}

/* SHA-256 over what the run was made from: its format, repeats and ranks
 * and each source file's rank, role, digest (or path), size and rows
 * stored.  The same dump ingested the same way hashes the same on any
 * node, whatever the run's name or path. */
static int content_hash(sqlite3 *sql, int64_t run_id, char hex[65], struct profdb_err *err)
{
	static const char q[] =
	    "SELECT 'run', format, repeats, ranks, NULL FROM run WHERE id = ?1 "
	    "UNION ALL SELECT * FROM (SELECT coalesce(rank, -1), role, coalesce(sha256, path), "
	    "size, rows_stored FROM source_file WHERE run_id = ?1 ORDER BY 1, 2, 3, 4, 5)";
	struct profdb_sha256 h;
	sqlite3_stmt *st = NULL;
	int rc;
	profdb__sha256_init(&h);
	if (sqlite3_prepare_v2(sql, q, -1, &st, NULL) != SQLITE_OK)
		return profdb__err_set(err, PROFDB_ERROR, "reading run: %s", sqlite3_errmsg(sql));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < 5; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);
			if (v)
				profdb__sha256_update(&h, v, strlen((const char *)v));
			profdb__sha256_update(&h, "\x1f", 1);
		}
		profdb__sha256_update(&h, "\x1e", 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "reading run: %s", sqlite3_errmsg(sql));
	profdb__sha256_hex(&h, hex);
	return PROFDB_OK;
}

/* "ALTER TABLE <t> DELETE WHERE <col> IN (id, ...)" for every run table. */
static int delete_ids(struct profdb__ch *ch, const char *table, const char *col,
                      const uint64_t *ids, size_t n, struct profdb_err *err)
{
	struct profdb__ch_buf q = { 0 };
	char num[40];
	int rc = PROFDB_OK;
	if (n == 0)
		return PROFDB_OK;
	snprintf(num, sizeof num, " DELETE WHERE %s IN (", col);
	int bad = profdb__ch_buf_add(&q, "ALTER TABLE ", 12) || profdb__ch_buf_add(&q, table, strlen(table)) ||
	          profdb__ch_buf_add(&q, num, strlen(num));
	for (size_t i = 0; i < n && !bad; i++) {
		snprintf(num, sizeof num, "%s%llu", i ? ", " : "", (unsigned long long)ids[i]);
		bad = profdb__ch_buf_add(&q, num, strlen(num));
	}
	bad = bad || profdb__ch_buf_add(&q, ")", 1);
	rc = bad ? profdb__err_set(err, PROFDB_ERROR, "out of memory") : profdb__ch_query(ch, q.data, NULL, err);
	profdb__ch_buf_free(&q);
	return rc;
}

static int delete_run_rows(struct profdb__ch *ch, const uint64_t *ids, size_t n, struct profdb_err *err)
{
	int rc = PROFDB_OK;
	for (const struct profdb__ch_table *t = profdb__ch_tables; t->name && rc == PROFDB_OK; t++)
		rc = delete_ids(ch, t->store ? t->store : t->name, "run_id", ids, n, err);
	/* name is a VIEW where there is a store; the texts are here */
	return rc == PROFDB_OK ? delete_ids(ch, CH_DICT_TABLE, "run_id", ids, n, err) : rc;
}

/* Deletes are mutations, applied in the background: wait until run's are
 * done, so the replaced run row is gone before the new one appears. */
static int wait_mutations(struct profdb__ch *ch, struct profdb_err *err)
{
	char q[200];
	const char *db = strchr(profdb__ch_where(ch), '/') + 1;
	snprintf(q, sizeof q, "SELECT count() FROM system.mutations WHERE database = '%s' "
	    "AND table = 'run' AND is_done = 0", db);
	for (int i = 0; i < 1200; i++) {
		struct profdb__ch_buf r = { 0 };
		int rc = profdb__ch_query(ch, q, &r, err);
		int pending = rc == PROFDB_OK ? (int)strtol(r.data, NULL, 10) : 0;
		profdb__ch_buf_free(&r);
		if (rc != PROFDB_OK || pending == 0)
			return rc;
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: deleting the replaced run did not finish",
	    profdb__ch_where(ch));
}

struct ids { uint64_t *v; size_t n, cap; };

static int ids_add(struct ids *s, uint64_t v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		uint64_t *p = realloc(s->v, cap * sizeof *p);
		if (!p)
			return -1;
		s->v = p;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

/* Attempts of this content whose run row never came: delete their rows. */
static int clean_leftovers(struct profdb__ch *ch, const char *hash, const struct profdb__ch_run *runs,
                           size_t nruns, struct profdb_err *err)
{
	char q[200];
	struct profdb__ch_buf r = { 0 };
	struct ids dead = { 0 };
	/* hash is hex digits we computed, safe in a literal */
	snprintf(q, sizeof q, "SELECT run_id FROM push_log WHERE content_hash = '%s' FORMAT RowBinary", hash);
	int rc = profdb__ch_query(ch, q, &r, err);
	for (size_t off = 0; rc == PROFDB_OK && off + 8 <= r.len; off += 8) {
		struct profdb__ch_val v;
		enum profdb__ch_type t = CH_U64;
		profdb__ch_get_row(r.data + off, 8, &t, 1, &v);
		int live = 0;
		for (size_t i = 0; i < nruns; i++)
			live |= runs[i].id == (uint64_t)v.i;
		if (!live && ids_add(&dead, (uint64_t)v.i) != 0)
			rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	if (rc == PROFDB_OK)
		rc = delete_run_rows(ch, dead.v, dead.n, err);
	if (rc == PROFDB_OK)
		rc = delete_ids(ch, "push_log", "run_id", dead.v, dead.n, err);
	profdb__ch_buf_free(&r);
	free(dead.v);
	return rc;
}

/* Refuse a push the server already has, unless replacing by name; collect
 * the ids a replace removes. */
static int check_existing(struct profdb__ch *ch, const char *run, const char *hash, int replace,
                          const struct profdb__ch_run *runs, size_t n, struct ids *old, struct profdb_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int same_name = strcmp(runs[i].name, run) == 0;
		if (!replace && strcmp(runs[i].hash, hash) == 0)
			return profdb__err_set(err, PROFDB_EEXISTS,
			    "run '%s' is already on clickhouse %s%s%s%s (same content; --replace pushes it again)",
			    run, profdb__ch_where(ch), same_name ? "" : " as '", same_name ? "" : runs[i].name,
			    same_name ? "" : "'");
		if (!replace && same_name)
			return profdb__err_set(err, PROFDB_EEXISTS,
			    "clickhouse %s already has a different run named '%s' (use --replace)",
			    profdb__ch_where(ch), run);
		if (same_name && ids_add(old, runs[i].id) != 0)
			return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	return PROFDB_OK;
}

static int log_attempt(struct profdb__ch *ch, uint64_t id, const char *hash, const char *run,
                       struct profdb_err *err)
{
	struct profdb__ch_buf b = { 0 };
	int rc;
	if (profdb__ch_put_u64(&b, id) || profdb__ch_put_str(&b, hash, strlen(hash)) ||
	    profdb__ch_put_str(&b, run, strlen(run)))
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
	else
		rc = profdb__ch_send(ch, "INSERT INTO push_log (run_id, content_hash, name) FORMAT RowBinary",
		    b.data, b.len, 1, NULL, NULL, err);
	profdb__ch_buf_free(&b);
	return rc;
}

/* The rows, then (after removing a replaced run's row) the run row. */
static int push_rows(struct profdb__ch *ch, profdb *db, int64_t run_id, uint64_t id,
                     const char *hash, const struct ids *old, struct profdb_push_stats *st,
                     struct profdb_err *err)
{
	struct profdb__ch_dict dict;
	int rc = PROFDB_OK;
	memset(&dict, 0, sizeof dict);
	for (const struct profdb__ch_table *t = profdb__ch_tables; t->name && rc == PROFDB_OK; t++) {
		int64_t rows = 0;
		rc = profdb__ch_push_table(ch, db, t, run_id, id, hash, &dict, &rows, err);
		st->rows += rows;
		if (strcmp(t->name, "kernel") == 0)
			st->kernels = rows;
	}
	/* the texts before the run row: a reader never sees ids without them */
	if (rc == PROFDB_OK && dict.body.len)
		rc = profdb__ch_send(ch, "INSERT INTO " CH_DICT_TABLE " (run_id, id, text) FORMAT RowBinary",
		    dict.body.data, dict.body.len, 1, NULL, NULL, err);
	profdb__ch_dict_clear(&dict);
	if (rc == PROFDB_OK && old->n) {
		rc = delete_ids(ch, "run", "id", old->v, old->n, err);
		if (rc == PROFDB_OK)
			rc = wait_mutations(ch, err);
	}
	if (rc == PROFDB_OK)
		rc = profdb__ch_push_table(ch, db, &profdb__ch_run_table, run_id, id, hash, NULL, NULL, err);
	if (rc == PROFDB_OK && old->n)
		rc = delete_run_rows(ch, old->v, old->n, err);
	return rc;
}

static int local_run(profdb *db, const char *run, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db->sql, "SELECT id FROM run WHERE name = ?1", -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot read runs");
	sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return PROFDB_OK;
	if (rc == SQLITE_DONE)
		return profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s'", run);
	return profdb__sqlerror(db, "cannot read runs");
}

int profdb_run_push(profdb *db, struct profdb_push_stats *out, const char *url, const char *run,
                    int replace)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb_push_stats st = { 0, 0 };
	struct profdb__ch *ch = NULL;
	struct profdb__ch_run *runs = NULL;
	struct ids old = { 0 };
	size_t nruns = 0;
	char hash[65];
	int64_t run_id;
	uint64_t id = 0;
	int rc = local_run(db, run, &run_id);
	if (rc != PROFDB_OK)
		return rc;
	/* one read transaction: the rows pushed are one consistent snapshot */
	sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL);
	if (content_hash(db->sql, run_id, hash, &err) == PROFDB_OK &&
	    profdb__ch_open(&ch, url, &db->remote_opts, &err) == PROFDB_OK &&
	    profdb__ch_ensure_schema(ch, &err) == PROFDB_OK &&
	    profdb__ch_runs(ch, &runs, &nruns, &err) == PROFDB_OK &&
	    check_existing(ch, run, hash, replace, runs, nruns, &old, &err) == PROFDB_OK &&
	    clean_leftovers(ch, hash, runs, nruns, &err) == PROFDB_OK &&
	    new_run_id(&id, &err) == PROFDB_OK && log_attempt(ch, id, hash, run, &err) == PROFDB_OK)
		push_rows(ch, db, run_id, id, hash, &old, &st, &err);
	sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	profdb__ch_runs_free(runs, nruns);
	profdb__ch_close(ch);
	free(old.v);
	if (out)
		*out = st;
	if (err.code != PROFDB_OK)
		return profdb__error(db, err.code, "%s", err.msg);
	return PROFDB_OK;
}
