/*
 * ch_steps.c - profdb steps on a clickhouse:// snapshot without moving the
 * kernel rows.  The server groups the selected kernels per run, rank and
 * step: count, total, first start, last end, the top kernel (the name
 * with the largest total, the least name on a tie, as query_steps.c picks
 * it) and the busy time, into temp.profdb_stepgroup; the step rows are pulled;
 * query_steps.c then reads profdb_stepgroup in place of grouping kernel rows itself,
 * so the wall time, the order and every formatter are its own.
 *
 * Busy is the length of the union of the step's kernel intervals, which
 * query_steps.c computes by merging the sorted intervals (interval.c).
 * The server has no such merge; it sweeps the sorted start (+1) and end
 * (-1) events instead: the time between two consecutive events counts
 * when the running sum after the first is above 0.  Events at one instant
 * add up to the same sum in any order and have no time between them, so
 * ties do not matter; intervals of no length are left out as the merge
 * leaves them out.  All integers: the same value.
 *
 * Each event travels as one integer (EVENTS), time * 2 + 1 for a start
 * and time * 2 for an end, so the server sorts one array per step instead
 * of sorting the times and then the +1/-1 array by them.  With the events
 * collected per step (not per name, then per step) and the names joined
 * as rows, a 10 M-kernel run's steps took 10.3-10.4 s of server CPU, not
 * 20.8-23.9 s (bench/results.md).  time * 2 must not wrap in the middle of a
 * step, so EVENTS needs every time within +-2^62 ns (146 years from
 * 1970); each step row brings its first start and last end, which bound
 * all its events, and if any step is outside, the groups are made again
 * with the times and the +1/-1 in two arrays (WIDE).
 *
 * Not grouped here: a --name glob with [...]; nor an empty answer, whose
 * notes query_steps.c takes from the rows (prepared as PROFDB__NEED_ROWS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "query/query.h"
#include "banned.h"

/* 2^62 ns: the EVENTS form's bound on a time, see the top */
#define EVENT_TIME_BOUND ((int64_t)1 << 62)

enum { G_RUN, G_RANK, G_STEP, G_N, G_TOT, G_S0, G_S1, G_BUSY, G_TOP_TOTAL, G_TOP, G_COUNT };

static const enum profdb__ch_type group_types[G_COUNT] = {
	CH_U64, CH_I64, CH_NI64, CH_I64, CH_I64, CH_I64, CH_I64, CH_I64, CH_I64, CH_STR
};

/* A step's busy time, from its kernel rows grouped per step, in each form
 * (see the top).  EVENTS: after a sorted event x the running sum k is 0
 * only at the end of a busy stretch, and 1 after a start only at its
 * beginning, so busy = the sum of those ends' times - the sum of those
 * starts' times (x - bitAnd(x, 1) is even: the halving is exact for any
 * sign; the sums may wrap, their difference does not).  WIDE: the times
 * between consecutive events, counted where the sum after the first is
 * above 0 (a lambda over pairs: slower). */
static const char *const busy_sql[2][2] = {
	{ "toInt64(arraySum(arrayMap((x, k) -> intDiv(x - bitAnd(x, 1), 2) * ((k = 0) - (k = 1 AND bitAnd(x, 1) = 1)),"
	  " e, c)))",
	  "arraySort(groupArrayIf(ev, dur_ns > 0)) AS e, arrayCumSum(arrayMap(x -> bitAnd(x, 1) * 2 - 1, e)) AS c"
	  " FROM kernel_ids ARRAY JOIN [start_ns * 2 + 1, (start_ns + dur_ns) * 2] AS ev" },
	{ "toInt64(arraySum(arrayMap((e0, e1, live) -> (e1 - e0) * (live > 0),"
	  " arrayPopBack(t), arrayPopFront(t), arrayPopBack(c))))",
	  "groupArrayIf(start_ns, dur_ns > 0) AS starts, groupArrayIf(start_ns + dur_ns, dur_ns > 0) AS ends,"
	  " arraySort(arrayConcat(starts, ends)) AS t,"
	  " arrayCumSum(arraySort((d, x) -> x, arrayConcat(arrayMap(x -> 1, starts), arrayMap(x -> -1, ends)),"
	  " arrayConcat(starts, ends))) AS c FROM kernel_ids" }
};

/*
 * The server's answer: the counts, times and top kernel grouped per name
 * first, then per run, rank and step; joined with the busy times grouped
 * per step straight from the kernel rows (collecting the events per name
 * and then per step took 9 s more than the second scan).  A step may be
 * NULL and JOIN keys cannot: isNull(step) and assumeNotNull(step) stand
 * for it.  1 written, 0 not groupable.
 */
static int group_sql(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f, int wide)
{
	int rc;
	profdb__qbuf_add(b,
	    "SELECT run_id, rank, step, n, tot, s0, s1, busy, top_total, top FROM ("
	    "SELECT run_id, rank, step, isNull(step) AS step_null, assumeNotNull(step) AS step_key,"
	    " toInt64(sum(kn)) AS n, toInt64(sum(kt)) AS tot, toInt64(min(k0)) AS s0,"
	    " toInt64(max(k1)) AS s1, toInt64(max(kt)) AS top_total,"
	    /* the largest total, then the least name: the first of the
	     * (-total, name) pairs in order (18.16 crashes on a lambda that
	     * compares with max() of the same GROUP BY) */
	    " arraySort(groupArray((-kt, name)))[1].2 AS top FROM ("
	    /* grouped by the name's id, its text joined per group: the ties
	     * above are broken by the text, as SQLite does */
	    "SELECT run_id, rank, step, name, kn, kt, k0, k1 FROM ("
	    "SELECT run_id, rank, step, name_id, count() AS kn, sum(dur_ns) AS kt, min(start_ns) AS k0,"
	    " max(start_ns + dur_ns) AS k1 FROM kernel_ids");
	if ((rc = profdb__ch_kernel_where(db, b, f, 0)) != 1)
		return rc;
	profdb__qbuf_add(b, " GROUP BY run_id, rank, step, name_id)");
	if ((rc = profdb__ch_name_join_runs(db, b, f)) != PROFDB_OK)
		return rc;
	profdb__qbuf_add(b, ") GROUP BY run_id, rank, step) ANY LEFT JOIN ("
	    "SELECT run_id, rank, isNull(step) AS step_null, assumeNotNull(step) AS step_key, ");
	profdb__qbuf_addf(b, "%s AS busy FROM (SELECT run_id, rank, step, %s", busy_sql[wide][0], busy_sql[wide][1]);
	if ((rc = profdb__ch_kernel_where(db, b, f, 0)) != 1)
		return rc;
	profdb__qbuf_add(b, " GROUP BY run_id, rank, step)) USING (run_id, rank, step_null, step_key) FORMAT RowBinary");
	return b->oom ? profdb__error(db, PROFDB_ERROR, "out of memory") : 1;
}

/* The step rows on their way into temp.profdb_stepgroup. */
struct groups {
	sqlite3_stmt *put;
	int wide;                  /* a step's times do not fit the EVENTS form */
};

static int group_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct groups *g = arg;
	sqlite3_stmt *put = g->put;
	if (v[G_S0].i < -EVENT_TIME_BOUND || v[G_S1].i >= EVENT_TIME_BOUND)
		g->wide = 1;
	sqlite3_reset(put);
	for (int i = 0; i < G_COUNT; i++) {
		if (v[i].null)
			sqlite3_bind_null(put, i + 1);
		else if (i == G_TOP)
			sqlite3_bind_text(put, i + 1, v[i].s, (int)v[i].n, SQLITE_TRANSIENT);
		else
			sqlite3_bind_int64(put, i + 1, v[i].i);
	}
	if (sqlite3_step(put) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s",
		    sqlite3_errmsg(sqlite3_db_handle(put))), -1;
	return 0;
}

/* temp.profdb_stepgroup from the server in one form: 1 filled, 0 when the server
 * cannot group f, or an error code; *wide: a step does not fit EVENTS. */
static int fill_groups_as(profdb *db, const struct profdb_filter *f, int form, int *wide)
{
	struct profdb__qbuf b = { 0 };
	struct groups g = { NULL, 0 };
	int rc = group_sql(db, &b, f, form);
	if (rc == 1 && (sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.profdb_stepgroup;"
	                "CREATE TEMP TABLE profdb_stepgroup (run_id INTEGER, rank INTEGER, step INTEGER, n INTEGER,"
	                " tot INTEGER, s0 INTEGER, s1 INTEGER, busy INTEGER, top_total INTEGER, top TEXT)",
	                NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "INSERT INTO temp.profdb_stepgroup SELECT local_id, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10"
	                       " FROM temp.ch_run WHERE remote_id = ?1", -1, &g.put, NULL) != SQLITE_OK))
		rc = profdb__sqlerror(db, "cannot make the snapshot");
	if (rc == 1 && (rc = profdb__ch_rows(db, b.s, group_types, G_COUNT, group_row, &g)) == PROFDB_OK)
		rc = 1;
	*wide = g.wide;
	sqlite3_finalize(g.put);
	profdb__qbuf_free(&b);
	return rc;
}

/* temp.profdb_stepgroup: as events, or again as two arrays when a step's times are
 * too far from 1970 for them (the first answer is then not used). */
static int fill_groups(profdb *db, const struct profdb_filter *f)
{
	int wide = 0;
	int rc = fill_groups_as(db, f, 0, &wide);
	if (rc == 1 && wide)
		rc = fill_groups_as(db, f, 1, &wide);
	return rc;
}

int profdb__ch_prepare_steps(profdb *db, const struct profdb_filter *f, struct profdb__rel *rel)
{
	int rc;
	if ((rc = profdb__ch_ensure(db, profdb__ch_table_bit("step"))) != PROFDB_OK)
		return rc;
	if ((rc = fill_groups(db, f)) < 0)
		return rc;
	if (rc == 1) {
		rel->stepgroup = "temp.profdb_stepgroup";
		return PROFDB_OK;
	}
	return profdb__ch_ensure(db, CH_ALL_TABLES);
}
