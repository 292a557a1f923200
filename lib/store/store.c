/*
 * store.c - the only writer: turns sink records into rows of one run.
 *
 * The whole ingest is one transaction (BEGIN IMMEDIATE .. COMMIT): on any
 * error the caller aborts and the database is exactly as before.  Kernel,
 * launch and op rows, the bulk of a run, go in a batch at a time
 * (store_batch.c); every other table has one prepared INSERT, bound and
 * reset per row (store_records.c steps those).  Text is interned through
 * an in-memory hash map in front of the str table (intern.c); a late rank
 * moves a file's rows (rank_fixup.c); the ingest ends in store_commit.c.
 * The callbacks and the steps that begin an ingest share the statements
 * and the per-file state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "step_index.h"
#include "store_impl.h"
#include "batch_flusher.h"
#include "op_rows.h"
#include "step_sums.h"
#include "banned.h"

static const char *const stmt_sql[S_COUNT] = {
	[S_STR] = "INSERT INTO str(id, value) VALUES (?1, ?2)",
	[S_SOURCE] = "INSERT INTO source_file(id, run_id, rank, path, role, size, content)"
	             " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_SOURCE_END] = "UPDATE source_file SET rows_read = ?2, rows_stored = ?3,"
	                 " rows_skipped = ?4, sha256 = coalesce(?5, sha256),"
	                 " size = coalesce(?6, size), rows_kernels = ?7, rows_ops = ?8,"
	                 " rows_launches = ?9 WHERE id = ?1",
	[S_SKIP] = "INSERT INTO source_skip(source_id, reason, count, first_line) VALUES (?1, ?2, ?3, ?4)",
	[S_STEP] = "INSERT INTO step(run_id, rank, step, start_ns, end_ns) VALUES (?1,?2,?3,?4,?5)"
	           " ON CONFLICT(run_id, rank, step) DO UPDATE SET"
	           " start_ns = CASE WHEN start_ns IS NULL OR excluded.start_ns < start_ns"
	           "   THEN coalesce(excluded.start_ns, start_ns) ELSE start_ns END,"
	           " end_ns = CASE WHEN end_ns IS NULL OR excluded.end_ns > end_ns"
	           "   THEN coalesce(excluded.end_ns, end_ns) ELSE end_ns END",
	[S_STEP_METRIC] = "INSERT INTO step_metric(run_id, rank, step, metric, value) VALUES (?1,?2,?3,?4,?5)",
	[S_META] = "INSERT INTO run_meta(run_id, rank, key, value) VALUES (?1, ?2, ?3, ?4)",
	[S_NOTE] = "INSERT INTO run_note(run_id, note) VALUES (?1, ?2)",
	/* Ascend communication.json / _matrix.json (schema 009): a transport
	 * row belongs to the op its file sent last (the one of that name on
	 * that rank with the highest id: files of one rank are never read
	 * side by side) */
	[S_COMM_OP] = "INSERT INTO comm_op(run_id, rank, step, scope, op_name, group_name, start_ns, elapse_ns,"
	              " transit_ns, wait_ns, sync_ns, idle_ns, wait_ratio, sync_ratio)"
	              " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
	[S_COMM_TRANSPORT] = "INSERT INTO comm_transport(comm_op_id, transport, bytes, transit_ns, bandwidth_gbps,"
	                     " large_packet_ratio, size_distribution) SELECT max(id), ?4, ?5, ?6, ?7, ?8, ?9"
	                     " FROM comm_op WHERE run_id = ?1 AND rank = ?2 AND op_name = ?3 HAVING max(id)",
	[S_COMM_LINK] = "INSERT INTO comm_link(run_id, rank, step, scope, matrix_op, group_name, src_rank,"
	                " dst_rank, transport, bytes, transit_ns, bandwidth_gbps, op_name)"
	                " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
	[S_MEMORY] = "INSERT INTO memory(run_id, source_id, rank, device_type, device_id, component, ts_ns,"
	             " bytes, addr, total_allocated, total_reserved, total_active, step, tid)"
	             " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
	[S_OP_MEMORY] = "INSERT INTO op_memory(run_id, source_id, rank, device_type, device_id, name, bytes,"
	                " alloc_ns, release_ns, active_release_ns, alloc_total_allocated, alloc_total_reserved,"
	                " alloc_total_active, release_total_allocated, release_total_reserved,"
	                " release_total_active, stream_ptr, step)"
	                " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)",
};

/* Kernel, launch and op rows go through batches (store_batch.c), ids
 * first; their columns are listed once, in columns.h.  Each string below
 * is ", a, b, ...": the batch takes it past the first separator. */
static const char kernel_cols[] = PROFDB__KERNEL_COLUMNS(PROFDB__COL_SQL);
static const char launch_cols[] = PROFDB__LAUNCH_COLUMNS(PROFDB__COL_SQL);
static const char op_cols[] = PROFDB__OP_COLUMNS(PROFDB__COL_SQL);
static const char coll_cols[] = PROFDB__COLL_COLUMNS(PROFDB__COL_SQL);
#define COLS(c) ((c) + 2)

/* The binds a column list's HOW implies (columns.h), b the row's batch:
 * BIND_NUM_* the plain fields, BIND_STR_* the string fields (setting bad
 * on failure).  The SET and NAME columns are bound by hand. */
#define BIND_NUM(how, c, v) BIND_NUM_##how(c, v)
#define BIND_NUM_SET(c, v)
#define BIND_NUM_NAME(c, v)
#define BIND_NUM_STR(c, v)
#define BIND_NUM_TEXT(c, v)
#define BIND_NUM_INT(c, v) profdb__batch_int(b, c, v);
#define BIND_NUM_I64(c, v) profdb__batch_i64(b, c, v);
#define BIND_STR(how, c, v) BIND_STR_##how(c, v)
#define BIND_STR_SET(c, v)
#define BIND_STR_NAME(c, v)
#define BIND_STR_INT(c, v)
#define BIND_STR_I64(c, v)
#define BIND_STR_STR(c, v) bad |= batch_str(st, b, c, v);
#define BIND_STR_TEXT(c, v) bad |= (v) && profdb__batch_text(b, c, v) != 0;
#define KERNEL_NUM(c, sql, how, f) BIND_NUM(how, KERNEL_COL_##c, k->f)
#define KERNEL_STR(c, sql, how, f) BIND_STR(how, KERNEL_COL_##c, k->f)
#define LAUNCH_NUM(c, sql, how, f) BIND_NUM(how, LAUNCH_COL_##c, l->f)
#define LAUNCH_STR(c, sql, how, f) BIND_STR(how, LAUNCH_COL_##c, l->f)
#define OP_NUM(c, sql, how, f) BIND_NUM(how, OP_COL_##c, o->f)
#define OP_STR(c, sql, how, f) BIND_STR(how, OP_COL_##c, o->f)
#define COLL_NUM(col, sql, how, f) BIND_NUM(how, COLL_COL_##col, c->f)
#define COLL_STR(col, sql, how, f) BIND_STR(how, COLL_COL_##col, c->f)

/*
 * Page cache during an ingest, KiB.  The default (2 MB) makes every insert
 * into the name and step indexes of a large run miss the cache and spill
 * pages to the WAL early; a larger cache keeps the B-tree interiors resident.
 * Bounded so that an ingest stays well under 100 MB whatever the input.
 */
#define INGEST_CACHE_KIB 32768
#define NEST_CACHE_KIB 8192 /* while nesting a file's ops: see on_source_end */

int64_t profdb__store_cache_size(sqlite3 *db)
{
	sqlite3_stmt *q = NULL;
	int64_t v = 0;
	if (sqlite3_prepare_v2(db, "PRAGMA cache_size", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

void profdb__store_set_cache_size(sqlite3 *db, int64_t v)
{
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA cache_size = %lld", (long long)v);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

int profdb__store_fail(struct profdb_store *st, const char *what)
{
	return profdb__err_set(&st->err, PROFDB_ERROR, "storing %s: %s", what, sqlite3_errmsg(st->db->sql));
}

/* The str id of s, or 0 on error.  s must not be NULL. */
static int64_t intern(struct profdb_store *st, const char *s)
{
	return profdb__intern(st->str, s);
}

int profdb__store_step_done(struct profdb_store *st, sqlite3_stmt *q, const char *what)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return profdb__store_fail(st, what);
	return PROFDB_OK;
}

int profdb__store_note_row(struct profdb_store *st, struct profdb__row_runs *r, int64_t id)
{
	if (r->n && r->v[r->n - 1].hi + 1 == id) {
		r->v[r->n - 1].hi = id;
		return PROFDB_OK;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct profdb__row_run *v = realloc(r->v, cap * sizeof *v);
		if (!v)
			return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct profdb__row_run){ id, id };
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- sink callbacks */

static int on_source_begin(void *arg, const char *path, const char *role, int64_t rank,
                           const unsigned char *content, size_t content_len)
{
	struct profdb_store *st = arg;
	struct profdb__source_state *c = &st->src;
	struct profdb__val v[7];
	for (size_t i = 0; i < c->nskips; i++)
		free(c->skips[i].reason);
	c->nskips = 0;
	c->stored = 0;
	c->nkernels = c->nops = c->nlaunches = c->nmemory = c->nopmem = 0;
	c->kernels.n = c->launches.n = c->ops.n = 0;
	c->kext_equal = c->kext_differ = 0;
	c->khold = 0;
	c->nkids = 0;
	c->kids_off = 0;
	profdb__store_ops_reset(&c->opn);
	profdb__calls_reset(&c->calls);
	/* its id counted here, not read back: the row may wait for the flusher */
	c->id = st->next_source_id++;
	v[0] = profdb__val_int(c->id);
	v[1] = profdb__val_int(st->run_id);
	v[2] = profdb__val_i64(rank);
	v[3] = profdb__val_text(path);
	v[4] = profdb__val_text(role);
	v[5] = profdb__val_int(0);
	v[6] = profdb__val_blob(content, content ? content_len : 0);
	return profdb__store_run(st, st->stmt[S_SOURCE], v, 7, "source file");
}

/* The file's memory rows without a step take the host step span that
 * holds them, like its ops: its steps are all in now. */
static int memory_steps(struct profdb_store *st)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (profdb__step_index_register(st->db->sql, st->run_id) != SQLITE_OK)
		return profdb__store_fail(st, "memory steps");
	rc = sqlite3_prepare_v2(st->db->sql, st->src.nmemory
	                        ? "UPDATE memory SET step = profdb_step_at(rank, ts_ns) WHERE source_id = ?1 AND step IS NULL"
	                        : "UPDATE op_memory SET step = profdb_step_at(rank, alloc_ns) WHERE source_id = ?1"
	                          " AND step IS NULL AND alloc_ns IS NOT NULL", -1, &q, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, st->src.id);
		rc = sqlite3_step(q);
	}
	sqlite3_finalize(q);
	rc = rc == SQLITE_DONE ? PROFDB_OK : profdb__store_fail(st, "memory steps");
	profdb__step_index_unregister(st->db->sql);
	return rc;
}

/*
 * The passes over a file's rows once it has ended: op_link's kernel links
 * (a Kineto file whose External ids are correlation ids; only Kineto files
 * have runtime calls), then its ops' steps and device times.  Both sort
 * with SQLite's sorter, which holds up to a cache's worth of rows before
 * it spills: a smaller cache meanwhile keeps a big trace's sorts from
 * adding 32 MB to its peak memory, at no cost in time (bench/results.md).
 */
static int file_passes(struct profdb_store *st)
{
	struct profdb__source_state *c = &st->src;
	int64_t was;
	int rc = PROFDB_OK, held = 0;
	/* ops held in memory (ops_held.c): linked, placed and handed over now,
	 * and the kernels held for their links with them */
	if (profdb__store_ops_end_held(st, &held) != PROFDB_OK || profdb__store_kernels_release(st) != PROFDB_OK)
		return st->err.code;
	/* nothing left to do in SQL: the flusher goes on with the file's rows
	 * while the next file is read */
	if (held && !(c->launches.n && !c->calls.swept) && !c->nmemory && !c->nopmem)
		return PROFDB_OK;
	if (profdb__store_sync(st) != PROFDB_OK)
		return st->err.code;
	was = profdb__store_cache_size(st->db->sql);
	profdb__store_set_cache_size(st->db->sql, was < 0 && was > -NEST_CACHE_KIB ? was : -NEST_CACHE_KIB);
	if (!held && c->kernels.n && c->launches.n &&
	    profdb__op_link(st->db, st->run_id, c->id, c->ops.v, c->ops.n, c->opn.closed_upto,
	                    c->launches.v, c->launches.n, c->kernels.v, c->kernels.n, &st->err) != PROFDB_OK)
		rc = st->err.code;
	/* the file's steps are in: its ops take theirs with their device times */
	if (rc == PROFDB_OK && !held && c->ops.n) {
		if (profdb__step_index_register(st->db->sql, st->run_id) != SQLITE_OK)
			rc = profdb__store_fail(st, "op steps");
		else if (profdb__store_ops_finish(st) != PROFDB_OK)
			rc = st->err.code;
		profdb__step_index_unregister(st->db->sql);
	}
	/* then its runtime calls join them, as torch's key_averages lists them
	 * (done with the held ops when its calls were kept: runtime_held.c) */
	if (rc == PROFDB_OK && c->launches.n && !c->calls.swept) {
		if (profdb__batch_flush(st->ops) != SQLITE_OK ||
		    profdb__step_index_register(st->db->sql, st->run_id) != SQLITE_OK)
			rc = profdb__store_fail(st, "runtime calls");
		else if (profdb__runtime_ops(st) != PROFDB_OK)
			rc = st->err.code;
		profdb__step_index_unregister(st->db->sql);
	}
	profdb__store_set_cache_size(st->db->sql, was);
	/* a file holds memory rows or op_memory rows, never both */
	if (rc == PROFDB_OK && (c->nmemory || c->nopmem))
		rc = memory_steps(st);
	return rc;
}

static int hand_over(struct profdb_store *st)
{
	return profdb__store_hand_over(st, st->src.khold != 1);
}

static int on_source_end(void *arg, int64_t rows_read, const char *sha256, uint64_t size)
{
	struct profdb_store *st = arg;
	struct profdb__source_state *c = &st->src;
	int64_t skipped = 0;
	/* the pending rows go in (to the flusher, when there is one: the
	 * passes sync with it where they use the table, store_async.c), the
	 * launches still in their window first */
	if (profdb__launches_drain(st) != PROFDB_OK || hand_over(st) != PROFDB_OK)
		return st->err.code;
	if (profdb__kstep_file_end(st->ksteps, &c->ks) != 0)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	if (!c->id)
		return PROFDB_OK;
	/* the file's ops are all in: store those still open (store_ops.c) */
	profdb__store_window(st, 1);
	if (profdb__store_ops_close(st) != PROFDB_OK || hand_over(st) != PROFDB_OK) {
		profdb__store_window(st, 0);
		return st->err.code;
	}
	profdb__store_window(st, 0);
	if (file_passes(st) != PROFDB_OK)
		return st->err.code;
	c->ops.n = 0;
	for (size_t i = 0; i < c->nskips; i++) {
		struct profdb__val k[4] = { profdb__val_int(c->id), profdb__val_text(c->skips[i].reason),
		                            profdb__val_int(c->skips[i].count), profdb__val_i64(c->skips[i].first) };
		skipped += c->skips[i].count;
		if (profdb__store_run(st, st->stmt[S_SKIP], k, 4, "skip counts") != PROFDB_OK)
			return st->err.code;
	}
	{
		struct profdb__val v[9] = { profdb__val_int(c->id), profdb__val_int(rows_read),
		                            profdb__val_int(c->stored), profdb__val_int(skipped),
		                            profdb__val_text(sha256), profdb__val_int((int64_t)size),
		                            profdb__val_int(c->nkernels), profdb__val_int(c->nops),
		                            profdb__val_int(c->nlaunches) };
		c->id = 0;
		return profdb__store_run(st, st->stmt[S_SOURCE_END], v, 9, "source file");
	}
}

static int on_skip(void *arg, const char *reason, int64_t where)
{
	struct profdb_store *st = arg;
	struct profdb__source_state *c = &st->src;
	struct profdb__skip_count *s;
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

/* Set an interned optional string in column col; -1 on error. */
static int batch_str(struct profdb_store *st, struct profdb__batch *b, int col, const char *s)
{
	int64_t id;
	if (!s)
		return 0; /* a new row's cells are NULL */
	if (!(id = intern(st, s)))
		return -1;
	profdb__batch_int(b, col, id);
	return 0;
}

/* The kernel's text columns (interned) and metrics; -1 on error. */
static int kernel_texts(struct profdb_store *st, struct profdb__batch *b, const struct profdb_kernel_rec *k)
{
	int bad = 0;
	PROFDB__KERNEL_COLUMNS(KERNEL_STR)
	if (bad)
		return -1;
	if (k->nmetrics == 0)
		return 0;
	if (profdb__metrics_json(k->metrics, k->nmetrics, &st->metrics, &st->metrics_cap) != 0 ||
	    profdb__batch_text(b, KERNEL_COL_METRICS, st->metrics) != 0) {
		profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
		return -1;
	}
	return 0;
}

/* The collective args of kernel row kid (schema 007, kernel_coll): plain
 * text, not interned, as few kernels have them.  Batched after the
 * kernels: a full coll batch first flushes the kernels it refers to. */
static int store_coll(struct profdb_store *st, int64_t kid, const struct profdb_coll_rec *c)
{
	struct profdb__batch *b = st->colls;
	int bad = 0;
	if (profdb__batch_full(b) && profdb__store_flush(st) != PROFDB_OK)
		return st->err.code;
	if (profdb__batch_row(b) != SQLITE_OK)
		return profdb__store_fail(st, "collective args");
	profdb__batch_int(b, COLL_COL_KERNEL_ID, kid);
	PROFDB__COLL_COLUMNS(COLL_NUM)
	PROFDB__COLL_COLUMNS(COLL_STR)
	if (bad)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

/* The kernel's step: its own, else its launch's when known now (kernel_step.c). */
static int kernel_step(struct profdb_store *st, const struct profdb_kernel_rec *k, int64_t kid, int64_t *step)
{
	*step = k->step;
	if (k->step != PROFDB_NULL || k->correlation == PROFDB_NULL)
		return PROFDB_OK;
	if (profdb__kstep_guess(st->ksteps, &st->src.ks, profdb__store_rank(k->rank), k->correlation, kid, step) != 0)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	if (*step != PROFDB_NULL)
		return profdb__store_note_row(st, &st->kguessed, kid);
	return PROFDB_OK;
}

/* Kernel rows as they go to the table, their steps final unless the
 * commit changes them: summed for kernel_step_stat (step_sums.h). */
static void kernels_sent(void *arg, const struct profdb__batch *b, size_t rows)
{
	for (size_t i = 0; i < rows; i++)
		profdb__step_sums_add(arg, profdb__batch_sent_get(b, i, KERNEL_COL_RANK),
		                      profdb__batch_sent_get(b, i, KERNEL_COL_STEP),
		                      profdb__batch_sent_get(b, i, KERNEL_COL_NAME_ID),
		                      profdb__batch_sent_get(b, i, KERNEL_COL_BASE_ID),
		                      (int)profdb__batch_sent_get(b, i, KERNEL_COL_KIND),
		                      profdb__batch_sent_get(b, i, KERNEL_COL_DUR_NS));
}

static int store_kernel_row(struct profdb_store *st, const struct profdb_kernel_rec *k)
{
	struct profdb__batch *b = st->kernels;
	int64_t name_id, base_id, kid, step;

	if (profdb__intern_name(st->str, k->name, &name_id, &base_id) != 0)
		return st->err.code ? st->err.code : profdb__store_fail(st, "kernel name");
	if (profdb__store_kernels_hold(st, k) != PROFDB_OK)
		return st->err.code;
	if (profdb__batch_row(b) != SQLITE_OK)
		return profdb__store_fail(st, "kernel");
	kid = st->next_kernel_id++;
	profdb__batch_int(b, KERNEL_COL_ID, kid);
	profdb__batch_int(b, KERNEL_COL_RUN_ID, st->run_id);
	profdb__batch_int(b, KERNEL_COL_RANK, profdb__store_rank(k->rank));
	if (kernel_step(st, k, kid, &step) != PROFDB_OK)
		return st->err.code;
	profdb__batch_i64(b, KERNEL_COL_STEP, step);
	profdb__batch_int(b, KERNEL_COL_NAME_ID, name_id);
	profdb__batch_int(b, KERNEL_COL_BASE_ID, base_id);
	PROFDB__KERNEL_COLUMNS(KERNEL_NUM)
	if (kernel_texts(st, b, k) != 0)
		return st->err.code ? st->err.code : profdb__store_fail(st, "kernel");
	if (profdb__store_note_row(st, &st->src.kernels, kid) != PROFDB_OK)
		return st->err.code;
	if (k->coll && store_coll(st, kid, k->coll) != PROFDB_OK)
		return st->err.code;
	if (profdb__store_kernel_ids(st, k) != PROFDB_OK)
		return st->err.code;
	if (profdb__name_stats_add(st->names, kid, name_id, k->kind, k->dur_ns) != 0)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	st->src.stored++;
	st->src.nkernels++;
	return PROFDB_OK;
}

/* The three records that only fill batches: inside the flusher's window
 * (store_async.c), where full batches are inserted on its thread. */
static int on_kernel(void *arg, const struct profdb_kernel_rec *k)
{
	struct profdb_store *st = arg;
	int rc;
	profdb__store_window(st, 1);
	rc = store_kernel_row(st, k);
	profdb__store_window(st, 0);
	return rc;
}

static int store_op_row(struct profdb_store *st, const struct profdb_op_rec *o)
{
	struct profdb__batch *b = st->ops;
	int64_t name_id;
	int bad = 0;
	if (o->nest) /* nested as it comes, stored when it closes */
		return profdb__store_op_nest(st, o);
	st->ops_elsewhere = 1;
	if (profdb__batch_row(b) != SQLITE_OK)
		return profdb__store_fail(st, "op");
	/* interned in the order the per-row INSERT bound them: same str ids */
	name_id = intern(st, o->name);
	if (!name_id)
		return st->err.code ? st->err.code : profdb__store_fail(st, "op name");
	profdb__batch_int(b, OP_COL_ID, st->next_op_id++);
	profdb__batch_int(b, OP_COL_RUN_ID, st->run_id);
	profdb__batch_int(b, OP_COL_RANK, profdb__store_rank(o->rank));
	profdb__batch_int(b, OP_COL_NAME_ID, name_id);
	PROFDB__OP_COLUMNS(OP_NUM)
	if (o->device_self_ns == PROFDB_NULL && o->external_id != PROFDB_NULL)
		st->ops_no_device++;
	PROFDB__OP_COLUMNS(OP_STR)
	if (bad)
		return st->err.code ? st->err.code : profdb__store_fail(st, "op");
	st->src.stored++;
	st->src.nops++;
	return PROFDB_OK;
}

static int on_op(void *arg, const struct profdb_op_rec *o)
{
	struct profdb_store *st = arg;
	int rc;
	profdb__store_window(st, 1);
	rc = store_op_row(st, o);
	profdb__store_window(st, 0);
	return rc;
}

/* A kernel that came just before its launch takes the launch's step,
 * if its row is still in the batch (kernel_step.c). */
static int launch_kernel_step(struct profdb_store *st, const struct profdb_launch_rec *l)
{
	struct profdb__batch *b = st->kernels;
	int64_t kid, step, first;
	if (profdb__kstep_launch(st->ksteps, &st->src.ks, profdb__store_rank(l->rank), l->correlation, l->start_ns, &kid,
	                         &step) != 0)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	if (!kid || step == PROFDB_NULL || !profdb__batch_pending(b))
		return PROFDB_OK;
	first = profdb__batch_get(b, 0, KERNEL_COL_ID); /* ids are consecutive in the batch */
	if (kid < first || kid - first >= (int64_t)profdb__batch_pending(b))
		return PROFDB_OK; /* inserted already: the commit's UPDATE places it */
	profdb__batch_set(b, (size_t)(kid - first), KERNEL_COL_STEP, step);
	return profdb__store_note_row(st, &st->kguessed, kid);
}

int profdb__store_launch_row(struct profdb_store *st, const struct profdb_launch_rec *l, int64_t name_id)
{
	struct profdb__batch *b = st->launches;
	int64_t id;
	if (profdb__batch_row(b) != SQLITE_OK)
		return profdb__store_fail(st, "launch");
	id = st->next_launch_id++;
	profdb__batch_int(b, LAUNCH_COL_ID, id);
	profdb__batch_int(b, LAUNCH_COL_RUN_ID, st->run_id);
	profdb__batch_int(b, LAUNCH_COL_RANK, profdb__store_rank(l->rank));
	PROFDB__LAUNCH_COLUMNS(LAUNCH_NUM)
	if (name_id)
		profdb__batch_int(b, LAUNCH_COL_NAME_ID, name_id);
	st->src.nlaunches++;
	if (profdb__calls_keep(st, id, l) != PROFDB_OK)
		return st->err.code;
	return profdb__store_note_row(st, &st->src.launches, id);
}

/* Its kernel's step now, its row through the file's launch window. */
static int on_launch(void *arg, const struct profdb_launch_rec *l)
{
	struct profdb_store *st = arg;
	int rc;
	profdb__store_window(st, 1);
	rc = launch_kernel_step(st, l);
	if (rc == PROFDB_OK)
		rc = profdb__launches_add(st, l);
	profdb__store_window(st, 0);
	return rc;
}

int profdb__store_flush(struct profdb_store *st)
{
	if (profdb__launches_drain(st) != PROFDB_OK)
		return st->err.code;
	if (profdb__batch_flush(st->ops) != SQLITE_OK)
		return profdb__store_fail(st, "op");
	if (profdb__batch_flush(st->kernels) != SQLITE_OK)
		return profdb__store_fail(st, "kernel");
	if (profdb__batch_flush(st->launches) != SQLITE_OK)
		return profdb__store_fail(st, "launch");
	if (profdb__batch_flush(st->colls) != SQLITE_OK)
		return profdb__store_fail(st, "collective args");
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- lifecycle */

void profdb__store_free(struct profdb_store *st)
{
	if (st->fk_off)
		sqlite3_exec(st->db->sql, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	if (st->cache_was != 0)
		profdb__store_set_cache_size(st->db->sql, st->cache_was);
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	profdb__batch_free(st->kernels);
	profdb__batch_free(st->launches);
	profdb__batch_free(st->colls);
	profdb__op_rows_free(st->oprows);
	profdb__batch_free(st->ops);
	profdb__intern_free(st->str);
	for (size_t i = 0; i < st->src.nskips; i++)
		free(st->src.skips[i].reason);
	free(st->src.skips);
	free(st->src.kernels.v);
	free(st->src.launches.v);
	free(st->src.ops.v);
	free(st->src.kids);
	profdb__store_ops_free(&st->src.opn);
	profdb__kstep_file_free(&st->src.ks);
	profdb__calls_free(&st->src.calls);
	profdb__launch_window_free(&st->src.lwin);
	profdb__kstep_free(st->ksteps);
	profdb__store_ops_held_done(st);
	free(st->kguessed.v);
	free(st->op_nostep.v);
	free(st->format);
	free(st->metrics);
	profdb__name_stats_free(st->names);
	profdb__step_sums_free(st->sums);
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

/*
 * Foreign keys off while we insert: every id the store writes is one it
 * has just looked up or created, and the checks (a parent lookup per str
 * column, 15 for a kernel) cost more than the inserts themselves.
 * Replacing a run needs them on for its ON DELETE CASCADE, so that ingest
 * keeps them (the pragma cannot change inside a transaction).  Also the
 * ingest's larger page cache.
 */
static void begin_settings(struct profdb_store *st, const char *run, int replace)
{
	sqlite3 *sql = st->db->sql;
	sqlite3_stmt *q = NULL;
	st->cache_was = profdb__store_cache_size(sql);
	if (st->cache_was != 0 && st->cache_was > -INGEST_CACHE_KIB)
		profdb__store_set_cache_size(sql, -INGEST_CACHE_KIB);
	if (sqlite3_prepare_v2(sql, "PRAGMA foreign_keys", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) == 1 &&
	    !(replace && run_id_of(st->db, run) != 0))
		st->fk_off = 1;
	sqlite3_finalize(q);
}

/*
 * BEGIN IMMEDIATE, then make room for the run: refuse an existing one
 * unless replace, else delete it.  On error the transaction may be open
 * (the caller rolls back).
 */
static int begin_transaction(struct profdb_store *st, const char *run, int replace)
{
	profdb *db = st->db;
	int64_t old;
	for (;;) {
		if (st->fk_off && sqlite3_exec(db->sql, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL) != SQLITE_OK)
			st->fk_off = 0;
		if (sqlite3_exec(db->sql, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
			return profdb__sqlerror(db, "cannot start ingest");
		old = run_id_of(db, run);
		if (old < 0)
			return profdb__sqlerror(db, "cannot look up run '%s'", run);
		if (!(old > 0 && replace && st->fk_off))
			break;
		/* another process made the run since we looked: delete with the keys on */
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_exec(db->sql, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
		st->fk_off = 0;
	}
	if (old > 0 && !replace)
		return profdb__error(db, PROFDB_EEXISTS, "run '%s' already exists (use --replace)", run);
	if (old > 0)
		return profdb_run_delete(db, run);
	return PROFDB_OK;
}

/* The run row; sets st->run_id. */
static int create_run(struct profdb_store *st, const char *run, const char *source_path)
{
	profdb *db = st->db;
	sqlite3_stmt *q = NULL;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (sqlite3_prepare_v2(db->sql, "INSERT INTO run(name, source_path, format, ingested_at,"
	    " profdb_version) VALUES (?1, ?2, 'unknown', ?3, ?4)", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot create run");
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, source_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, when, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, PROFDB_VERSION, -1, SQLITE_STATIC);
	if (sqlite3_step(q) != SQLITE_DONE) {
		sqlite3_finalize(q);
		return profdb__sqlerror(db, "cannot create run '%s'", run);
	}
	sqlite3_finalize(q);
	st->run_id = sqlite3_last_insert_rowid(db->sql);
	return PROFDB_OK;
}

/* max(rowid) + 1 of table, read once: the ids of its batched rows. */
static int next_id(sqlite3 *sql, const char *table, int64_t *out)
{
	char q_sql[64];
	sqlite3_stmt *q = NULL;
	int rc;
	snprintf(q_sql, sizeof q_sql, "SELECT coalesce(max(rowid), 0) FROM %s", table);
	if (sqlite3_prepare_v2(sql, q_sql, -1, &q, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(q);
	*out = sqlite3_column_int64(q, 0) + 1;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Statements, batches, the str map and the name statistics. */
static int prepare_writers(struct profdb_store *st)
{
	profdb *db = st->db;
	for (int i = 0; i < S_COUNT; i++)
		if (sqlite3_prepare_v3(db->sql, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
		                       &st->stmt[i], NULL) != SQLITE_OK)
			return profdb__sqlerror(db, "cannot prepare store");
	if (profdb__batch_new(&st->kernels, db->sql, "kernel", COLS(kernel_cols), KERNEL_NCOLS) != SQLITE_OK ||
	    profdb__batch_new(&st->launches, db->sql, "launch", COLS(launch_cols), LAUNCH_NCOLS) != SQLITE_OK ||
	    profdb__batch_new(&st->colls, db->sql, "kernel_coll", COLS(coll_cols), COLL_NCOLS) != SQLITE_OK ||
	    profdb__batch_new(&st->ops, db->sql, "op", COLS(op_cols), OP_NCOLS) != SQLITE_OK ||
	    profdb__op_rows_new(&st->oprows, db->sql, st->run_id, COLS(op_cols)) != SQLITE_OK ||
	    next_id(db->sql, "op", &st->next_op_id) != 0 ||
	    next_id(db->sql, "source_file", &st->next_source_id) != 0 ||
	    next_id(db->sql, "kernel", &st->next_kernel_id) != 0 ||
	    next_id(db->sql, "launch", &st->next_launch_id) != 0)
		return profdb__sqlerror(db, "cannot prepare store");
	/* each one's first column is its rowid: id, rowid, kernel_id */
	profdb__batch_rowid_first(st->kernels);
	profdb__batch_rowid_first(st->launches);
	profdb__batch_rowid_first(st->colls);
	profdb__batch_rowid_first(st->ops);
	if (!(st->str = profdb__intern_new(db->sql, (size_t)db->limits.intern_cached, &st->err)) ||
	    profdb__intern_hold_all(st->str, profdb__store_intern_add, st) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "%s", st->err.msg);
	if (!(st->names = profdb__name_stats_new(&db->limits)) ||
	    !(st->ksteps = profdb__kstep_new(db->limits.kstep_seg_work)))
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	/* none (out of memory): the commit scans the rows instead */
	if ((st->sums = profdb__step_sums_new((size_t)db->limits.step_sums_cells)) != NULL)
		profdb__batch_on_sent(st->kernels, kernels_sent, st->sums);
	return PROFDB_OK;
}

int profdb__store_begin(struct profdb_store **out, profdb *db, const char *run,
                       const char *source_path, int replace)
{
	struct profdb_store *st;
	int rc;

	*out = NULL;
	if (db->readonly)
		return profdb__error(db, PROFDB_EUSAGE, "database is open read-only");
	st = calloc(1, sizeof *st);
	if (!st)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	st->db = db;
	begin_settings(st, run, replace);
	if ((rc = begin_transaction(st, run, replace)) != PROFDB_OK ||
	    (rc = create_run(st, run, source_path)) != PROFDB_OK ||
	    (rc = prepare_writers(st)) != PROFDB_OK) {
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		profdb__store_free(st);
		return rc;
	}
	st->sink = (struct profdb_sink){
		.arg = st, .err = &st->err,
		.source_begin = on_source_begin, .source_end = on_source_end, .skip = on_skip,
		.kernel = on_kernel, .op = on_op, .launch = on_launch, .nests_ops = 1,
		/* one statement each (store_records.c), and rank_fixup.c */
		.step = profdb__store_on_step, .step_metric = profdb__store_on_step_metric,
		.meta = profdb__store_on_meta, .note = profdb__store_on_note, .comm = profdb__store_on_comm,
		.memory = profdb__store_on_memory, .op_memory = profdb__store_on_op_memory,
		.rank_fixup = profdb__store_on_rank_fixup,
	};
	*out = st;
	return PROFDB_OK;
}

struct profdb_sink *profdb__store_sink(struct profdb_store *st) { return &st->sink; }

int64_t profdb__store_run_id(const struct profdb_store *st) { return st->run_id; }

void profdb__store_set_format(struct profdb_store *st, const char *format)
{
	free(st->format);
	st->format = strdup(format);
}
