/*
 * store_commit.c - how an ingest ends: the derivations that need the whole
 * run (steps of kernels and ops, step rows, device times of ops, ranks),
 * the repeat count, the per-name and per-step statistics, then COMMIT; or
 * ROLLBACK, which leaves the database exactly as it was.
 */
#include <stdio.h>
#include <stdlib.h>

#include "intern.h"
#include "step_index.h"
#include "store_impl.h"
#include "op_rows.h"
#include "step_sums.h"
#include "banned.h"

/* Run one UPDATE/INSERT bound to the run id. */
static int exec_run(struct profdb_store *st, const char *sql)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (sqlite3_prepare_v2(st->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(st->db, "finishing ingest");
	sqlite3_bind_int64(q, 1, st->run_id);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(st->db, "finishing ingest");
	return PROFDB_OK;
}

/* A run note when texts were cut to PROFDB_TEXT_MAX bytes (intern.c). */
static int note_cut(struct profdb_store *st)
{
	sqlite3_stmt *q = NULL;
	int64_t n = profdb__intern_cut(st->str);
	int rc;
	if (n == 0)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(st->db->sql, "INSERT INTO run_note(run_id, note) VALUES (?1, ?2 ||"
	    " ' names or other texts truncated to ' || ?3 || ' bytes (they end with ' || ?4 || ')')",
	    -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(st->db, "finishing ingest");
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, n);
	sqlite3_bind_int64(q, 3, (int64_t)PROFDB_TEXT_MAX);
	sqlite3_bind_text(q, 4, PROFDB_TEXT_CUT_MARK, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(st->db, "finishing ingest");
}

/*
 * Derivations that need the whole run, in order:
 *  1. a kernel without a step takes the step whose host span holds the
 *     runtime call that launched it (same rank, same correlation id);
 *     one whose launch is not there (or whose rank has no host spans) takes
 *     the step whose device-side span (PROFDB_META_DEVICE_STEPS) holds its
 *     start;
 *  2. host ops without a step take the step whose span holds their start;
 *  3. steps named only by kernels (Ascend Step Id) get a step row;
 *  4. ops without device times get them from kernels of their External id.
 */
#define FINISH_OP_STEP 2   /* finish_sql[2], only over op_nostep's rows when it says so */
#define FINISH_OP_DEVICE 4 /* finish_sql[4], skipped when no op row needs it (ops_no_device) */
#define FINISH_KERNEL_STEPS 2 /* finish_sql[0] and [1] set kernels' steps */
/*
 * The run's distinct kernel ranks, one seek of kernel_run_step per rank
 * (rank > the last one) instead of a scan of every row; the last row is
 * NULL.  With them a statement seeks (run_id, rank, step IS NULL) per
 * rank: the index cannot seek "step IS NULL" past an unknown rank, so
 * without the ranks SQLite visits every kernel of the run (all 2.4 M of a
 * big run) to find the few without a step.
 */
#define KERNEL_RANKS \
	"kr(r) AS (SELECT (SELECT min(rank) FROM kernel WHERE run_id = ?1) UNION ALL" \
	" SELECT (SELECT min(rank) FROM kernel WHERE run_id = ?1 AND rank > kr.r) FROM kr WHERE kr.r IS NOT NULL)"
static const char *const finish_sql[] = {
	/* profdb_step_at (step_index.c): the smallest step whose span holds a time */
	"WITH RECURSIVE " KERNEL_RANKS
	" UPDATE kernel INDEXED BY kernel_run_step SET step = (SELECT min(profdb_step_at(l.rank, l.start_ns))"
	"  FROM launch l WHERE l.run_id = kernel.run_id AND l.rank = kernel.rank"
	"  AND l.correlation = kernel.correlation)"
	" WHERE run_id = ?1 AND rank IN (SELECT r FROM kr) AND step IS NULL AND correlation IS NOT NULL"
	" AND EXISTS (SELECT 1 FROM step WHERE run_id = ?1 AND start_ns IS NOT NULL)",
	"WITH RECURSIVE " KERNEL_RANKS
	" UPDATE kernel INDEXED BY kernel_run_step SET step = (SELECT json_extract(j.value, '$[0]')"
	"  FROM run_meta m, json_each(m.value) j"
	"  WHERE m.run_id = kernel.run_id AND m.rank = kernel.rank AND m.key = '" PROFDB_META_DEVICE_STEPS "'"
	"  AND kernel.start_ns >= json_extract(j.value, '$[1]') AND kernel.start_ns < json_extract(j.value, '$[2]')"
	"  ORDER BY 1 LIMIT 1)"
	" WHERE run_id = ?1 AND rank IN (SELECT r FROM kr) AND step IS NULL"
	" AND EXISTS (SELECT 1 FROM run_meta WHERE run_id = ?1 AND key = '" PROFDB_META_DEVICE_STEPS "')"
	" AND (correlation IS NULL OR NOT EXISTS (SELECT 1 FROM launch l WHERE l.run_id = ?1"
	"  AND l.rank = kernel.rank AND l.correlation = kernel.correlation)"
	"  OR NOT EXISTS (SELECT 1 FROM step s WHERE s.run_id = ?1 AND s.rank = kernel.rank"
	"  AND s.start_ns IS NOT NULL))",
	"UPDATE op SET step = profdb_step_at(rank, start_ns)"
	" WHERE run_id = ?1 AND step IS NULL AND start_ns IS NOT NULL"
	" AND profdb_step_at(rank, start_ns) IS NOT NULL",
	/* each rank's distinct steps, a seek each (step > the last one) */
	"WITH RECURSIVE " KERNEL_RANKS ","
	" ks(r, s) AS (SELECT r, (SELECT min(step) FROM kernel WHERE run_id = ?1 AND rank = kr.r AND step IS NOT NULL)"
	"  FROM kr WHERE r IS NOT NULL UNION ALL"
	"  SELECT r, (SELECT min(step) FROM kernel WHERE run_id = ?1 AND rank = ks.r AND step > ks.s)"
	"  FROM ks WHERE s IS NOT NULL)"
	" INSERT OR IGNORE INTO step(run_id, rank, step) SELECT ?1, r, s FROM ks WHERE s IS NOT NULL",
	"UPDATE op SET device_self_ns = coalesce((SELECT sum(k.dur_ns) FROM kernel k"
	"  WHERE k.run_id = op.run_id AND k.rank = op.rank AND k.external_id = op.external_id), 0)"
	" WHERE run_id = ?1 AND device_self_ns IS NULL AND external_id IS NOT NULL",
	/* the run's distinct ranks, of kernels or ops */
	"UPDATE run SET ranks = max(1, (SELECT count(*) FROM ("
	" WITH RECURSIVE " KERNEL_RANKS ","
	" orr(r) AS (SELECT (SELECT min(rank) FROM op WHERE run_id = ?1) UNION ALL"
	"  SELECT (SELECT min(rank) FROM op WHERE run_id = ?1 AND rank > orr.r) FROM orr WHERE orr.r IS NOT NULL)"
	" SELECT r FROM kr WHERE r IS NOT NULL UNION SELECT r FROM orr WHERE r IS NOT NULL))) WHERE id = ?1",
	NULL
};

/* finish_sql[FINISH_OP_STEP] over the rows that can need it when every op
 * row was held (store_impl.h op_nostep), not a scan of the run's ops. */
static int op_steps_held(struct profdb_store *st)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (!st->op_nostep.n)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(st->db->sql, "UPDATE op SET step = profdb_step_at(rank, start_ns)"
	                       " WHERE id BETWEEN ?1 AND ?2 AND step IS NULL AND start_ns IS NOT NULL"
	                       " AND profdb_step_at(rank, start_ns) IS NOT NULL", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(st->db, "finishing ingest");
	rc = profdb__row_runs_exec(q, 1, st->op_nostep.v, st->op_nostep.n);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(st->db, "finishing ingest");
}

/*
 * Kernels that took their launch's step as they were written (store.c,
 * kernel_step.c) keep it only if that is what finish_sql[0] would set:
 * else they go back to NULL and the UPDATE places them.
 */
static int check_kernel_steps(struct profdb_store *st)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (!st->kguessed.n || profdb__kstep_valid(st->ksteps))
		return PROFDB_OK;
	if (sqlite3_prepare_v2(st->db->sql, "UPDATE kernel SET step = NULL WHERE id BETWEEN ?1 AND ?2",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(st->db, "finishing ingest");
	rc = profdb__row_runs_exec(q, 1, st->kguessed.v, st->kguessed.n);
	sqlite3_finalize(q);
	profdb__step_sums_drop(st->sums); /* they were summed with the guessed step */
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(st->db, "finishing ingest");
}

/* finish_sql in order, with the step index they look spans up in. */
static int finish_run(struct profdb_store *st)
{
	sqlite3 *sql = st->db->sql;
	int rc = PROFDB_OK;
	if (profdb__step_index_register(sql, st->run_id) != SQLITE_OK)
		return profdb__sqlerror(st->db, "finishing ingest");
	for (int i = 0; finish_sql[i] && rc == PROFDB_OK; i++) {
		if (i == FINISH_OP_STEP && !st->ops_elsewhere)
			rc = op_steps_held(st);
		else if (i != FINISH_OP_DEVICE || st->ops_no_device > 0)
			rc = exec_run(st, finish_sql[i]);
		/* kernels placed now were summed without their step */
		if (i < FINISH_KERNEL_STEPS && sqlite3_changes(sql) > 0)
			profdb__step_sums_drop(st->sums);
	}
	profdb__step_index_unregister(sql);
	return rc;
}

void profdb__store_set_phase(struct profdb_store *st, void (*fn)(void *arg, const char *what), void *arg)
{
	st->phase = fn;
	st->phase_arg = arg;
}

static void say_phase(const struct profdb_store *st, const char *what)
{
	if (st->phase)
		st->phase(st->phase_arg, what);
}

int profdb__store_commit(struct profdb_store *st, int64_t repeats)
{
	profdb *db = st->db;
	sqlite3_stmt *q = NULL;
	int64_t nsteps = 0;
	int rc = PROFDB_OK;

	if ((rc = profdb__store_flush(st)) != PROFDB_OK) {
		rc = profdb__error(db, rc, "%s", st->err.msg);
		goto fail;
	}
	say_phase(st, "linking kernels and steps");
	if ((rc = check_kernel_steps(st)) != PROFDB_OK)
		goto fail;
	if ((rc = finish_run(st)) != PROFDB_OK)
		goto fail;
	/* Repeats: what the user said, else the steps per rank, else 1. */
	if (repeats <= 0) {
		if (sqlite3_prepare_v2(db->sql, "SELECT max(n) FROM (SELECT count(*) AS n FROM step"
		    " WHERE run_id = ?1 GROUP BY rank)", -1, &q, NULL) != SQLITE_OK) {
			rc = profdb__sqlerror(db, "counting steps");
			goto fail;
		}
		sqlite3_bind_int64(q, 1, st->run_id);
		if (sqlite3_step(q) == SQLITE_ROW)
			nsteps = sqlite3_column_int64(q, 0);
		sqlite3_finalize(q);
		q = NULL;
	}
	if (sqlite3_prepare_v2(db->sql, "UPDATE run SET repeats = ?2, repeats_source = ?3,"
	    " format = coalesce(?4, format) WHERE id = ?1", -1, &q, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "finishing ingest");
		goto fail;
	}
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, repeats > 0 ? repeats : nsteps > 0 ? nsteps : 1);
	sqlite3_bind_text(q, 3, repeats > 0 ? "user" : nsteps > 0 ? "steps" : "default", -1, SQLITE_STATIC);
	if (st->format)
		sqlite3_bind_text(q, 4, st->format, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, 4);
	rc = sqlite3_step(q) == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "finishing ingest");
	sqlite3_finalize(q);
	if (rc != PROFDB_OK)
		goto fail;
	if ((rc = note_cut(st)) != PROFDB_OK)
		goto fail;
	say_phase(st, "kernel statistics");
	if (profdb__name_stats_write(st->names, st->sums, db->sql, st->run_id) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "writing kernel statistics");
		goto fail;
	}
	for (int i = 0; i < S_COUNT; i++) {
		sqlite3_finalize(st->stmt[i]);
		st->stmt[i] = NULL;
	}
	/* the batches' statements and modules go before COMMIT too */
	profdb__batch_free(st->kernels);
	profdb__batch_free(st->launches);
	profdb__batch_free(st->colls);
	profdb__batch_free(st->ops);
	profdb__op_rows_free(st->oprows);
	st->kernels = st->launches = st->colls = st->ops = NULL;
	st->oprows = NULL;
	say_phase(st, "committing");
	if ((rc = profdb__store_exec(db, "COMMIT")) != PROFDB_OK)
		goto fail;
	profdb__store_free(st);
	/* a new file's first ingest went through the rollback journal: WAL
	 * from now on, so that readers run while the next ingest writes */
	profdb__db_wal_now(db);
	return PROFDB_OK;
fail:
	profdb__store_abort(st);
	return rc;
}

void profdb__store_abort(struct profdb_store *st)
{
	if (!st)
		return;
	for (int i = 0; i < S_COUNT; i++) {
		sqlite3_finalize(st->stmt[i]);
		st->stmt[i] = NULL;
	}
	sqlite3_exec(st->db->sql, "ROLLBACK", NULL, NULL, NULL);
	profdb__store_free(st);
}

