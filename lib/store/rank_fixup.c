/*
 * rank_fixup.c - a Kineto file whose rank or base time is written after
 * its events (lib/read/ingest_kineto.c): its rows went out with a guess,
 * and are moved here once the keys are read, in the batches where they
 * still wait and by UPDATE where they are stored.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "columns.h"
#include "kernel_step.h"
#include "step_sums.h"
#include "store_batch.h"
#include "store_impl.h"
#include "banned.h"

/*
 * Move the current file's rows of one table (runs r, batch b: column 0 the
 * id, rank_col, time_col) from rank guessed to rank, times + offset.  The
 * rows still in the batch are changed there, by arithmetic; only those
 * already inserted (ids below the batch's first: ids grow and batches go
 * in in order) take an UPDATE: an UPDATE of every row of a Kineto file
 * whose baseTimeNanoseconds follows its events costs a large share of
 * its ingest.
 */
static int fixup_rows(struct profdb_store *st, const char *table, struct profdb__batch *b, int rank_col,
                      int time_col, struct profdb__row_runs *r, int64_t guessed, int64_t rank, int64_t offset)
{
	char sql[256];
	sqlite3_stmt *q = NULL;
	size_t pending = profdb__batch_pending(b), nsql = 0;
	int64_t first = pending ? profdb__batch_get(b, 0, 0) : INT64_MAX, hi_was = 0;
	int rc;
	for (size_t i = 0; i < pending; i++) {
		int64_t t = profdb__batch_get(b, i, time_col);
		if (profdb__batch_get(b, i, rank_col) != guessed ||
		    !profdb__row_runs_has(r->v, r->n, profdb__batch_get(b, i, 0)))
			continue;
		profdb__batch_set(b, i, rank_col, rank);
		if (t != PROFDB_NULL)
			profdb__batch_set(b, i, time_col, t + offset);
	}
	while (nsql < r->n && r->v[nsql].lo < first)
		nsql++;
	if (nsql == 0)
		return PROFDB_OK;
	/* only the columns that change: rank is in indexes, start_ns is not */
	snprintf(sql, sizeof sql, "UPDATE %s SET %s start_ns = start_ns + ?4"
	         " WHERE rowid BETWEEN ?5 AND ?6 AND run_id = ?1 AND rank = ?2", table,
	         rank != guessed ? "rank = ?3," : "");
	if (sqlite3_prepare_v2(st->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__store_fail(st, "rank");
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, guessed);
	if (rank != guessed)
		sqlite3_bind_int64(q, 3, rank);
	sqlite3_bind_int64(q, 4, offset);
	/* the last run may reach into the batch: cut it there for the UPDATE */
	hi_was = r->v[nsql - 1].hi;
	if (hi_was >= first)
		r->v[nsql - 1].hi = first - 1;
	rc = profdb__row_runs_exec(q, 5, r->v, nsql);
	r->v[nsql - 1].hi = hi_was;
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__store_fail(st, "rank");
}

/* The current file's memory rows likewise (all were sent with the guess). */
static int fixup_memory(struct profdb_store *st, int64_t rank, int64_t offset)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (!st->src.nmemory || !st->src.id)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(st->db->sql, "UPDATE memory SET rank = ?2, ts_ns = ts_ns + ?3 WHERE source_id = ?1",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__store_fail(st, "rank");
	sqlite3_bind_int64(q, 1, st->src.id);
	sqlite3_bind_int64(q, 2, rank);
	sqlite3_bind_int64(q, 3, offset);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__store_fail(st, "rank");
}

/*
 * The current file's kernels, launches and ops were sent with a guessed
 * rank and base time (Kineto keys after traceEvents): move the rows written for it
 * since source_begin.  Rows of other files, even of the same rank, are
 * outside its runs of rowids.
 */
int profdb__store_on_rank_fixup(void *arg, int64_t guessed, int64_t rank, int64_t offset)
{
	struct profdb_store *st = arg;
	/* the launches still in their window go to the batch with the guess */
	if (profdb__launches_drain(st) != PROFDB_OK || profdb__store_sync(st) != PROFDB_OK) /* store_async.c */
		return st->err.code;
	struct profdb__source_state *c = &st->src;
	sqlite3_stmt *q = NULL;
	int rc;
	c->kids_off = 1; /* their ranks change: read back from the table */
	/* the file's ops are all in: the open ones go into the batch, then
	 * all are moved */
	if (profdb__store_ops_close(st) != PROFDB_OK || profdb__store_ops_release(st) != PROFDB_OK)
		return st->err.code;
	profdb__kstep_fixup(st->ksteps, &c->ks, guessed, rank);
	/* kernels sent before were summed with the guess (step_sums.h): the
	 * commit scans instead (a rank or base time found late is rare) */
	if (c->nkernels)
		profdb__step_sums_drop(st->sums);
	c->calls.n = 0; /* kept as they were before the move: read from the table instead */
	c->calls.off = 1;
	if (fixup_rows(st, "kernel", st->kernels, KERNEL_COL_RANK, KERNEL_COL_START_NS, &c->kernels, guessed,
	               rank, offset) != PROFDB_OK ||
	    fixup_rows(st, "launch", st->launches, LAUNCH_COL_RANK, LAUNCH_COL_START_NS, &c->launches, guessed,
	               rank, offset) != PROFDB_OK ||
	    fixup_rows(st, "op", st->ops, OP_COL_RANK, OP_COL_START_NS, &c->ops, guessed, rank, offset) != PROFDB_OK ||
	    fixup_memory(st, rank, offset) != PROFDB_OK)
		return st->err.code;
	if (!c->id || rank == guessed)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(st->db->sql, "UPDATE source_file SET rank = ?2 WHERE id = ?1",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__store_fail(st, "rank");
	sqlite3_bind_int64(q, 1, c->id);
	sqlite3_bind_int64(q, 2, rank);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__store_fail(st, "rank");
}
