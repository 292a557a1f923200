/*
 * store.c - the only writer: turns sink records into rows of one run.
 *
 * The whole ingest is one transaction (BEGIN IMMEDIATE .. COMMIT): on any
 * error the caller aborts and the database is exactly as before.  Each table
 * has one prepared INSERT, bound and reset per row.  Text is interned through
 * an in-memory hash map in front of the str table (intern.c); the ingest
 * ends in store_commit.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "step_index.h"
#include "store_impl.h"
#include "banned.h"

static const char *const stmt_sql[S_COUNT] = {
	[S_SOURCE] = "INSERT INTO source_file(run_id, rank, path, role, size, content)"
	             " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[S_SOURCE_END] = "UPDATE source_file SET rows_read = ?2, rows_stored = ?3,"
	                 " rows_skipped = ?4, sha256 = coalesce(?5, sha256),"
	                 " size = coalesce(?6, size), rows_kernels = ?7, rows_ops = ?8,"
	                 " rows_launches = ?9 WHERE id = ?1",
	[S_SKIP] = "INSERT INTO source_skip(source_id, reason, count, first_line) VALUES (?1, ?2, ?3, ?4)",
	[S_KERNEL] = "INSERT INTO kernel(run_id, rank, device, stream, step, name_id, base_id, kind,"
	             " type_id, core_id, start_ns, dur_ns, wait_ns, task_id, model_id, context_id,"
	             " correlation, external_id, block_dim, mix_block_dim, grid_id, block_id,"
	             " registers, shared_mem, bytes, op_state_id, hf32, in_shapes_id, in_dtypes_id,"
	             " in_formats_id, out_shapes_id, out_dtypes_id, out_formats_id, launch_op_id, metrics)"
	             " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,"
	             "?20,?21,?22,?23,?24,?25,?26,?27,?28,?29,?30,?31,?32,?33,?34,?35)",
	[S_OP] = "INSERT INTO op(run_id, rank, step, name_id, category_id, tid, start_ns, dur_ns,"
	         " self_ns, device_self_ns, device_total_ns, device_self_aicore_ns,"
	         " device_total_aicore_ns, external_id, seq, in_shapes_id, in_types_id, call_stack_id)"
	         " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)",
	[S_LAUNCH] = "INSERT INTO launch(run_id, rank, correlation, tid, start_ns, dur_ns, name_id,"
	             " external_id) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)",
	[S_STEP] = "INSERT INTO step(run_id, rank, step, start_ns, end_ns) VALUES (?1,?2,?3,?4,?5)"
	           " ON CONFLICT(run_id, rank, step) DO UPDATE SET"
	           " start_ns = CASE WHEN start_ns IS NULL OR excluded.start_ns < start_ns"
	           "   THEN coalesce(excluded.start_ns, start_ns) ELSE start_ns END,"
	           " end_ns = CASE WHEN end_ns IS NULL OR excluded.end_ns > end_ns"
	           "   THEN coalesce(excluded.end_ns, end_ns) ELSE end_ns END",
	[S_STEP_METRIC] = "INSERT INTO step_metric(run_id, rank, step, metric, value) VALUES (?1,?2,?3,?4,?5)",
	[S_META] = "INSERT INTO run_meta(run_id, rank, key, value) VALUES (?1, ?2, ?3, ?4)",
	[S_NOTE] = "INSERT INTO run_note(run_id, note) VALUES (?1, ?2)",
	[S_KERNEL_COLL] = "INSERT INTO kernel_coll(kernel_id, collective, in_nelems, out_nelems, dtype,"
	                  " group_size, pg_name, pg_desc, pg_ranks) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
};

/*
 * Page cache during an ingest, KiB.  The default (2 MB) makes every insert
 * into the name and step indexes of a large run miss the cache and spill
 * pages to the WAL early; a larger cache keeps the B-tree interiors resident.
 * Bounded so that an ingest stays well under 100 MB whatever the input.
 */
#define INGEST_CACHE_KIB 32768
#define NEST_CACHE_KIB 8192 /* while nesting a file's ops: see on_source_end */

static int64_t cache_size_of(sqlite3 *db)
{
	sqlite3_stmt *q = NULL;
	int64_t v = 0;
	if (sqlite3_prepare_v2(db, "PRAGMA cache_size", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

static void set_cache_size(sqlite3 *db, int64_t v)
{
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA cache_size = %lld", (long long)v);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

static int st_fail(struct profdb_store *st, const char *what)
{
	return profdb__err_set(&st->err, PROFDB_ERROR, "storing %s: %s", what, sqlite3_errmsg(st->db->sql));
}

/* The str id of s, or 0 on error.  s must not be NULL. */
static int64_t intern(struct profdb_store *st, const char *s)
{
	return profdb__intern(st->str, s);
}

static void bind_i64(sqlite3_stmt *q, int i, int64_t v)
{
	if (v == PROFDB_NULL)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_int64(q, i, v);
}

/* Bind an interned optional string; returns -1 on error. */
static int bind_str(struct profdb_store *st, sqlite3_stmt *q, int i, const char *s)
{
	int64_t id;
	if (!s) {
		sqlite3_bind_null(q, i);
		return 0;
	}
	id = intern(st, s);
	if (!id)
		return -1;
	sqlite3_bind_int64(q, i, id);
	return 0;
}

static int step_done(struct profdb_store *st, sqlite3_stmt *q, const char *what)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return st_fail(st, what);
	return PROFDB_OK;
}

/* step_done for the per-row INSERTs, which bind every parameter of every
 * row: clearing the bindings would only cost time. */
static int step_row(struct profdb_store *st, sqlite3_stmt *q, const char *what)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		return st_fail(st, what);
	return PROFDB_OK;
}

/* Note rowid id as written for the current file. */
static int note_row(struct profdb_store *st, struct row_runs *r, int64_t id)
{
	if (r->n && r->v[r->n - 1].hi + 1 == id) {
		r->v[r->n - 1].hi = id;
		return PROFDB_OK;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct profdb_row_run *v = realloc(r->v, cap * sizeof *v);
		if (!v)
			return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct profdb_row_run){ id, id };
	return PROFDB_OK;
}

static int64_t rank_of(int64_t rank)
{
	return rank == PROFDB_NULL ? 0 : rank;
}

/* ---------------------------------------------------------------- sink callbacks */

static int on_source_begin(void *arg, const char *path, const char *role, int64_t rank,
                           const unsigned char *content, size_t content_len)
{
	struct profdb_store *st = arg;
	struct source_state *c = st->cur;
	sqlite3_stmt *q = st->stmt[S_SOURCE];
	for (size_t i = 0; i < c->nskips; i++)
		free(c->skips[i].reason);
	c->nskips = 0;
	c->stored = 0;
	c->nkernels = c->nops = c->nlaunches = 0;
	c->kernels.n = c->launches.n = c->ops.n = 0;
	sqlite3_bind_int64(q, 1, st->run_id);
	bind_i64(q, 2, rank);
	sqlite3_bind_text(q, 3, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, role, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 5, 0);
	if (content)
		sqlite3_bind_blob64(q, 6, content, content_len, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, 6);
	if (step_done(st, q, "source file") != PROFDB_OK)
		return st->err.code;
	c->id = sqlite3_last_insert_rowid(st->db->sql);
	return PROFDB_OK;
}

static int on_source_end(void *arg, int64_t rows_read, const char *sha256, uint64_t size)
{
	struct profdb_store *st = arg;
	struct source_state *c = st->cur;
	sqlite3_stmt *q = st->stmt[S_SOURCE_END];
	int64_t skipped = 0;
	if (!c->id)
		return PROFDB_OK;
	/* kernels of a Kineto file whose External ids are correlation ids get
	 * their op's (op_link.c); only Kineto files have runtime calls */
	if (c->kernels.n && c->launches.n &&
	    profdb__op_link(st->db->sql, st->run_id, c->id, c->ops.v, c->ops.n, c->launches.v,
	                    c->launches.n, c->kernels.v, c->kernels.n, &st->err) != PROFDB_OK)
		return st->err.code;
	/* the file's steps are in: its ops take theirs while nesting rewrites
	 * them (what commit does for ops still without one, in one pass less) */
	if (c->ops.n) {
		int rc;
		if (profdb__step_index_register(st->db->sql, st->run_id) != SQLITE_OK)
			return st_fail(st, "op steps");
		/* SQLite's sorter holds up to a cache's worth of rows before it
		 * spills: a smaller cache while nesting keeps the sort of a big
		 * trace's ops from adding 32 MB (max RSS: 1 GB trace 86 -> 63 MB,
		 * 3.8 GB trace 115 -> 93 MB; no slower: 10.4 -> 9.6 s on 1 GB) */
		int64_t was = cache_size_of(st->db->sql);
		set_cache_size(st->db->sql, was < 0 && was > -NEST_CACHE_KIB ? was : -NEST_CACHE_KIB);
		rc = profdb__op_nest(st->db->sql, st->run_id, c->ops.v, c->ops.n, c->kernels.v,
		                     c->kernels.n, &st->err);
		set_cache_size(st->db->sql, was);
		profdb__step_index_unregister(st->db->sql);
		if (rc != PROFDB_OK)
			return st->err.code;
	}
	c->ops.n = 0;
	for (size_t i = 0; i < c->nskips; i++) {
		sqlite3_stmt *k = st->stmt[S_SKIP];
		skipped += c->skips[i].count;
		sqlite3_bind_int64(k, 1, c->id);
		sqlite3_bind_text(k, 2, c->skips[i].reason, -1, SQLITE_STATIC);
		sqlite3_bind_int64(k, 3, c->skips[i].count);
		bind_i64(k, 4, c->skips[i].first);
		if (step_done(st, k, "skip counts") != PROFDB_OK)
			return st->err.code;
	}
	sqlite3_bind_int64(q, 1, c->id);
	sqlite3_bind_int64(q, 2, rows_read);
	sqlite3_bind_int64(q, 3, c->stored);
	sqlite3_bind_int64(q, 4, skipped);
	if (sha256)
		sqlite3_bind_text(q, 5, sha256, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, 5);
	sqlite3_bind_int64(q, 6, (int64_t)size);
	sqlite3_bind_int64(q, 7, c->nkernels);
	sqlite3_bind_int64(q, 8, c->nops);
	sqlite3_bind_int64(q, 9, c->nlaunches);
	c->id = 0;
	return step_done(st, q, "source file");
}

static int on_skip(void *arg, const char *reason, int64_t where)
{
	struct profdb_store *st = arg;
	struct source_state *c = st->cur;
	struct skip_count *s;
	for (size_t i = 0; i < c->nskips; i++)
		if (strcmp(c->skips[i].reason, reason) == 0) {
			c->skips[i].count++;
			return PROFDB_OK;
		}
	s = realloc(c->skips, (c->nskips + 1) * sizeof *s);
	if (!s)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	c->skips = s;
	s[c->nskips].reason = strdup(reason);
	if (!s[c->nskips].reason)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	s[c->nskips].count = 1;
	s[c->nskips].first = where;
	c->nskips++;
	return PROFDB_OK;
}

/* The collective args of kernel row kid (schema 007, kernel_coll): plain
 * text, not interned, as few kernels have them. */
static int store_coll(struct profdb_store *st, int64_t kid, const struct profdb_coll_rec *c)
{
	sqlite3_stmt *q = st->stmt[S_KERNEL_COLL];
	const char *text[] = { c->collective, c->dtype, c->pg_name, c->pg_desc, c->pg_ranks };
	const int slot[] = { 2, 5, 7, 8, 9 };
	sqlite3_bind_int64(q, 1, kid);
	for (size_t i = 0; i < sizeof slot / sizeof slot[0]; i++)
		if (text[i])
			sqlite3_bind_text(q, slot[i], text[i], -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(q, slot[i]);
	bind_i64(q, 3, c->in_nelems);
	bind_i64(q, 4, c->out_nelems);
	bind_i64(q, 6, c->group_size);
	return step_row(st, q, "collective args") != PROFDB_OK ? st->err.code : PROFDB_OK;
}

static int on_kernel(void *arg, const struct profdb_kernel_rec *k)
{
	struct profdb_store *st = arg;
	sqlite3_stmt *q = st->stmt[S_KERNEL];
	int64_t name_id, base_id, kid;
	int bad = 0;

	if (profdb__intern_name(st->str, k->name, &name_id, &base_id) != 0)
		return st->err.code ? st->err.code : st_fail(st, "kernel name");
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, rank_of(k->rank));
	bind_i64(q, 3, k->device);
	bind_i64(q, 4, k->stream);
	bind_i64(q, 5, k->step);
	sqlite3_bind_int64(q, 6, name_id);
	sqlite3_bind_int64(q, 7, base_id);
	sqlite3_bind_int(q, 8, k->kind);
	bad |= bind_str(st, q, 9, k->type);
	bad |= bind_str(st, q, 10, k->core);
	sqlite3_bind_int64(q, 11, k->start_ns);
	sqlite3_bind_int64(q, 12, k->dur_ns);
	bind_i64(q, 13, k->wait_ns);
	bind_i64(q, 14, k->task_id);
	bind_i64(q, 15, k->model_id);
	bind_i64(q, 16, k->context_id);
	bind_i64(q, 17, k->correlation);
	bind_i64(q, 18, k->external_id);
	bind_i64(q, 19, k->block_dim);
	bind_i64(q, 20, k->mix_block_dim);
	bad |= bind_str(st, q, 21, k->grid);
	bad |= bind_str(st, q, 22, k->block);
	bind_i64(q, 23, k->registers);
	bind_i64(q, 24, k->shared_mem);
	bind_i64(q, 25, k->bytes);
	bad |= bind_str(st, q, 26, k->op_state);
	bind_i64(q, 27, k->hf32);
	bad |= bind_str(st, q, 28, k->in_shapes);
	bad |= bind_str(st, q, 29, k->in_dtypes);
	bad |= bind_str(st, q, 30, k->in_formats);
	bad |= bind_str(st, q, 31, k->out_shapes);
	bad |= bind_str(st, q, 32, k->out_dtypes);
	bad |= bind_str(st, q, 33, k->out_formats);
	bad |= bind_str(st, q, 34, k->launch_op);
	if (k->nmetrics == 0) {
		sqlite3_bind_null(q, 35);
	} else if (profdb__metrics_json(k->metrics, k->nmetrics, &st->metrics, &st->metrics_cap) != 0) {
		sqlite3_reset(q);
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	} else {
		sqlite3_bind_text(q, 35, st->metrics, -1, SQLITE_STATIC);
	}
	if (bad) {
		sqlite3_reset(q);
		return st->err.code ? st->err.code : st_fail(st, "kernel");
	}
	if (step_row(st, q, "kernel") != PROFDB_OK)
		return st->err.code;
	kid = sqlite3_last_insert_rowid(st->db->sql);
	if (note_row(st, &st->cur->kernels, kid) != PROFDB_OK)
		return st->err.code;
	if (k->coll && store_coll(st, kid, k->coll) != PROFDB_OK)
		return st->err.code;
	if (profdb__name_stats_add(st->names, kid, name_id, k->kind, k->dur_ns) != 0)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	st->cur->stored++;
	st->cur->nkernels++;
	return PROFDB_OK;
}

static int on_op(void *arg, const struct profdb_op_rec *o)
{
	struct profdb_store *st = arg;
	sqlite3_stmt *q = st->stmt[S_OP];
	int64_t name_id = intern(st, o->name);
	int bad = 0;
	if (!name_id)
		return st->err.code ? st->err.code : st_fail(st, "op name");
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, rank_of(o->rank));
	bind_i64(q, 3, o->step);
	sqlite3_bind_int64(q, 4, name_id);
	bad |= bind_str(st, q, 5, o->category);
	bind_i64(q, 6, o->tid);
	bind_i64(q, 7, o->start_ns);
	bind_i64(q, 8, o->dur_ns);
	bind_i64(q, 9, o->self_ns);
	bind_i64(q, 10, o->device_self_ns);
	bind_i64(q, 11, o->device_total_ns);
	bind_i64(q, 12, o->device_self_aicore_ns);
	bind_i64(q, 13, o->device_total_aicore_ns);
	bind_i64(q, 14, o->external_id);
	bind_i64(q, 15, o->seq);
	bad |= bind_str(st, q, 16, o->in_shapes);
	bad |= bind_str(st, q, 17, o->in_types);
	bad |= bind_str(st, q, 18, o->call_stack);
	if (bad) {
		sqlite3_reset(q);
		return st->err.code ? st->err.code : st_fail(st, "op");
	}
	if (step_row(st, q, "op") != PROFDB_OK)
		return st->err.code;
	if (o->nest && note_row(st, &st->cur->ops, sqlite3_last_insert_rowid(st->db->sql)) != PROFDB_OK)
		return st->err.code;
	st->cur->stored++;
	st->cur->nops++;
	return PROFDB_OK;
}

static int on_launch(void *arg, const struct profdb_launch_rec *l)
{
	struct profdb_store *st = arg;
	sqlite3_stmt *q = st->stmt[S_LAUNCH];
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, rank_of(l->rank));
	sqlite3_bind_int64(q, 3, l->correlation);
	bind_i64(q, 4, l->tid);
	sqlite3_bind_int64(q, 5, l->start_ns);
	sqlite3_bind_int64(q, 6, l->dur_ns);
	if (bind_str(st, q, 7, l->name) != 0) {
		sqlite3_reset(q);
		return st->err.code ? st->err.code : st_fail(st, "launch");
	}
	bind_i64(q, 8, l->external_id);
	if (step_row(st, q, "launch") != PROFDB_OK)
		return st->err.code;
	st->cur->nlaunches++;
	return note_row(st, &st->cur->launches, sqlite3_last_insert_rowid(st->db->sql));
}

static int on_step(void *arg, const struct profdb_step_rec *s)
{
	struct profdb_store *st = arg;
	sqlite3_stmt *q = st->stmt[S_STEP];
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, rank_of(s->rank));
	sqlite3_bind_int64(q, 3, s->step);
	bind_i64(q, 4, s->start_ns);
	bind_i64(q, 5, s->end_ns);
	return step_done(st, q, "step");
}

static int on_step_metric(void *arg, int64_t rank, int64_t step, const char *metric, double value)
{
	struct profdb_store *st = arg;
	sqlite3_stmt *q = st->stmt[S_STEP_METRIC];
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, rank_of(rank));
	bind_i64(q, 3, step);
	sqlite3_bind_text(q, 4, metric, -1, SQLITE_STATIC);
	sqlite3_bind_double(q, 5, value);
	return step_done(st, q, "step metric");
}

static int on_meta(void *arg, int64_t rank, const char *key, const char *value)
{
	struct profdb_store *st = arg;
	sqlite3_stmt *q = st->stmt[S_META];
	sqlite3_bind_int64(q, 1, st->run_id);
	bind_i64(q, 2, rank);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
	if (value)
		sqlite3_bind_text(q, 4, value, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, 4);
	return step_done(st, q, "metadata");
}

static int on_note(void *arg, const char *note)
{
	struct profdb_store *st = arg;
	sqlite3_stmt *q = st->stmt[S_NOTE];
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_text(q, 2, note, -1, SQLITE_STATIC);
	return step_done(st, q, "note");
}

/* Move runs of one table's rows from guessed to rank, times + offset. */
static int fixup_runs(struct profdb_store *st, const char *table, const struct row_runs *r,
                      int64_t guessed, int64_t rank, int64_t offset)
{
	char sql[256];
	sqlite3_stmt *q = NULL;
	/* only the columns that change: rank is in indexes, start_ns is not */
	snprintf(sql, sizeof sql, "UPDATE %s SET %s start_ns = start_ns + ?4"
	         " WHERE rowid BETWEEN ?5 AND ?6 AND run_id = ?1 AND rank = ?2", table,
	         rank != guessed ? "rank = ?3," : "");
	if (sqlite3_prepare_v2(st->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return st_fail(st, "rank");
	for (size_t i = 0; i < r->n; i++) {
		sqlite3_bind_int64(q, 1, st->run_id);
		sqlite3_bind_int64(q, 2, guessed);
		if (rank != guessed)
			sqlite3_bind_int64(q, 3, rank);
		sqlite3_bind_int64(q, 4, offset);
		sqlite3_bind_int64(q, 5, r->v[i].lo);
		sqlite3_bind_int64(q, 6, r->v[i].hi);
		if (sqlite3_step(q) != SQLITE_DONE) {
			sqlite3_finalize(q);
			return st_fail(st, "rank");
		}
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return PROFDB_OK;
}

/*
 * The current file's kernels, launches and ops were sent with a guessed
 * rank and base time (Kineto keys after traceEvents): move the rows written for it
 * since source_begin.  Rows of other files, even of the same rank, are
 * outside its runs of rowids.
 */
static int on_rank_fixup(void *arg, int64_t guessed, int64_t rank, int64_t offset)
{
	struct profdb_store *st = arg;
	struct source_state *c = st->cur;
	sqlite3_stmt *q = NULL;
	int rc;
	if (fixup_runs(st, "kernel", &c->kernels, guessed, rank, offset) != PROFDB_OK ||
	    fixup_runs(st, "launch", &c->launches, guessed, rank, offset) != PROFDB_OK ||
	    fixup_runs(st, "op", &c->ops, guessed, rank, offset) != PROFDB_OK)
		return st->err.code;
	if (!c->id || rank == guessed)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(st->db->sql, "UPDATE source_file SET rank = ?2 WHERE id = ?1",
	                       -1, &q, NULL) != SQLITE_OK)
		return st_fail(st, "rank");
	sqlite3_bind_int64(q, 1, c->id);
	sqlite3_bind_int64(q, 2, rank);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : st_fail(st, "rank");
}

/* ---------------------------------------------------------------- lifecycle */

void profdb__store_free(struct profdb_store *st)
{
	if (st->fk_off)
		sqlite3_exec(st->db->sql, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	if (st->cache_was != 0)
		set_cache_size(st->db->sql, st->cache_was);
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	profdb__intern_free(st->str);
	for (size_t j = 0; j < STORE_SLOTS; j++) {
		for (size_t i = 0; i < st->src[j].nskips; i++)
			free(st->src[j].skips[i].reason);
		free(st->src[j].skips);
		free(st->src[j].kernels.v);
		free(st->src[j].launches.v);
		free(st->src[j].ops.v);
	}
	free(st->format);
	free(st->metrics);
	profdb__name_stats_free(st->names);
	free(st);
}

int profdb__store_exec(profdb *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db->sql, sql, NULL, NULL, &err) != SQLITE_OK) {
		int rc = profdb__error(db, PROFDB_ERROR, "%s", err ? err : "SQL error");
		sqlite3_free(err);
		return rc;
	}
	return PROFDB_OK;
}

static int64_t run_id_of(profdb *db, const char *run)
{
	sqlite3_stmt *q = NULL;
	int64_t id = 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT id FROM run WHERE name = ?1", -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return id;
}

int profdb_store_begin(struct profdb_store **out, profdb *db, const char *run,
                       const char *source_path, int replace)
{
	struct profdb_store *st;
	sqlite3_stmt *q = NULL;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	int64_t old;
	int rc;

	*out = NULL;
	if (db->readonly)
		return profdb__error(db, PROFDB_EUSAGE, "database is open read-only");
	st = calloc(1, sizeof *st);
	if (!st)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	st->db = db;
	st->cur = &st->src[0];
	st->cache_was = cache_size_of(db->sql);
	if (st->cache_was != 0 && st->cache_was > -INGEST_CACHE_KIB)
		set_cache_size(db->sql, -INGEST_CACHE_KIB);
	/*
	 * Foreign keys off while we insert: every id the store writes is one it
	 * has just looked up or created, and the checks (a parent lookup per
	 * str column, 15 for a kernel) cost more than the inserts themselves.
	 * Replacing a run needs them on for its ON DELETE CASCADE, so that ingest
	 * keeps them (the pragma cannot change inside a transaction).
	 */
	if (sqlite3_prepare_v2(db->sql, "PRAGMA foreign_keys", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) == 1 &&
	    !(replace && run_id_of(db, run) != 0))
		st->fk_off = 1;
	sqlite3_finalize(q);
	q = NULL;
again:
	if (st->fk_off && sqlite3_exec(db->sql, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL) != SQLITE_OK)
		st->fk_off = 0;
	if (sqlite3_exec(db->sql, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "cannot start ingest");
		profdb__store_free(st);
		return rc;
	}
	old = run_id_of(db, run);
	if (old < 0) {
		rc = profdb__sqlerror(db, "cannot look up run '%s'", run);
		goto fail;
	}
	if (old > 0 && replace && st->fk_off) {
		/* another process made the run since we looked: delete with the keys on */
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_exec(db->sql, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
		st->fk_off = 0;
		goto again;
	}
	if (old > 0 && !replace) {
		rc = profdb__error(db, PROFDB_EEXISTS, "run '%s' already exists (use --replace)", run);
		goto fail;
	}
	if (old > 0 && (rc = profdb_run_delete(db, run)) != PROFDB_OK)
		goto fail;
	gmtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (sqlite3_prepare_v2(db->sql, "INSERT INTO run(name, source_path, format, ingested_at,"
	    " profdb_version) VALUES (?1, ?2, 'unknown', ?3, ?4)", -1, &q, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "cannot create run");
		goto fail;
	}
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, source_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, when, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, PROFDB_VERSION, -1, SQLITE_STATIC);
	if (sqlite3_step(q) != SQLITE_DONE) {
		rc = profdb__sqlerror(db, "cannot create run '%s'", run);
		sqlite3_finalize(q);
		goto fail;
	}
	sqlite3_finalize(q);
	st->run_id = sqlite3_last_insert_rowid(db->sql);
	for (int i = 0; i < S_COUNT; i++)
		if (sqlite3_prepare_v3(db->sql, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
		                       &st->stmt[i], NULL) != SQLITE_OK) {
			rc = profdb__sqlerror(db, "cannot prepare store");
			goto fail;
		}
	if (!(st->str = profdb__intern_new(db->sql, &st->err))) {
		rc = profdb__error(db, PROFDB_ERROR, "%s", st->err.msg);
		goto fail;
	}
	if (!(st->names = profdb__name_stats_new())) {
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		goto fail;
	}
	st->sink = (struct profdb_sink){
		.arg = st, .err = &st->err,
		.source_begin = on_source_begin, .source_end = on_source_end, .skip = on_skip,
		.kernel = on_kernel, .op = on_op, .launch = on_launch, .step = on_step,
		.step_metric = on_step_metric, .meta = on_meta, .note = on_note,
		.rank_fixup = on_rank_fixup, .nests_ops = 1,
	};
	*out = st;
	return PROFDB_OK;
fail:
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	profdb__store_free(st);
	return rc;
}

struct profdb_sink *profdb_store_sink(struct profdb_store *st) { return &st->sink; }

void profdb_store_select_slot(struct profdb_store *st, int slot)
{
	st->cur = &st->src[slot >= 0 && slot < STORE_SLOTS ? slot : 0];
}
int64_t profdb_store_run_id(const struct profdb_store *st) { return st->run_id; }

void profdb_store_set_format(struct profdb_store *st, const char *format)
{
	free(st->format);
	st->format = strdup(format);
}

void profdb_kernel_rec_init(struct profdb_kernel_rec *k)
{
	memset(k, 0, sizeof *k);
	k->rank = k->device = k->stream = k->step = PROFDB_NULL;
	k->wait_ns = k->task_id = k->model_id = k->context_id = PROFDB_NULL;
	k->correlation = k->external_id = k->block_dim = k->mix_block_dim = PROFDB_NULL;
	k->registers = k->shared_mem = k->bytes = k->hf32 = PROFDB_NULL;
	k->kind = PROFDB_KIND_KERNEL;
}

void profdb_op_rec_init(struct profdb_op_rec *o)
{
	memset(o, 0, sizeof *o);
	o->rank = o->step = o->tid = o->start_ns = o->dur_ns = o->self_ns = PROFDB_NULL;
	o->device_self_ns = o->device_total_ns = PROFDB_NULL;
	o->device_self_aicore_ns = o->device_total_aicore_ns = PROFDB_NULL;
	o->external_id = o->seq = PROFDB_NULL;
}
