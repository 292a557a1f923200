/*
 * ch_steps.c - profdb steps on a clickhouse:// snapshot without moving the
 * kernel rows.  The server groups the selected kernels per run, rank and
 * step: count, total, first start, last end, the top kernel (the name
 * with the largest total, the least name on a tie, as query_steps.c picks
 * it) and the busy time, into temp.ch_kg; the step rows are pulled;
 * query_steps.c then reads ch_kg in place of grouping kernel rows itself,
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
 * Not grouped here: a --name glob with [...] and an empty answer (its
 * notes need the rows); then the kernel rows are pulled as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "query.h"
#include "banned.h"

enum { G_RUN, G_RANK, G_STEP, G_N, G_TOT, G_S0, G_S1, G_BUSY, G_TOP_TOTAL, G_TOP, G_COUNT };

static const enum profdb__ch_type group_types[G_COUNT] = {
	CH_U64, CH_I64, CH_NI64, CH_I64, CH_I64, CH_I64, CH_I64, CH_I64, CH_I64, CH_STR
};

/* The server's GROUP BY: per name first (the top kernel's totals and the
 * intervals), then per run, rank and step.  1 written, 0 not groupable. */
static int group_sql(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f)
{
	int rc;
	profdb__qbuf_add(b,
	    "SELECT run_id, rank, step, n, tot, s0, s1, toInt64(arraySum(arrayMap((e0, e1, live) -> (e1 - e0) * (live > 0),"
	    " arrayPopBack(t), arrayPopFront(t), arrayPopBack(c)))), top_total, top FROM ("
	    "SELECT run_id, rank, step, toInt64(sum(kn)) AS n, toInt64(sum(kt)) AS tot, toInt64(min(k0)) AS s0,"
	    " toInt64(max(k1)) AS s1, toInt64(max(kt)) AS top_total,"
	    /* the largest total, then the least name: the first of the
	     * (-total, name) pairs in order (18.16 crashes on a lambda that
	     * compares with max() of the same GROUP BY) */
	    " arraySort(groupArray((-kt, name)))[1].2 AS top,"
	    " groupArrayArray(ss) AS starts, groupArrayArray(ee) AS ends,"
	    " arraySort(arrayConcat(starts, ends)) AS t,"
	    " arrayCumSum(arraySort((d, x) -> x, arrayConcat(arrayMap(x -> 1, starts), arrayMap(x -> -1, ends)),"
	    " arrayConcat(starts, ends))) AS c FROM ("
	    /* grouped by the name's id, its text mapped per group: the ties
	     * above are broken by the text, as SQLite does */
	    "SELECT run_id, rank, step, d[name_id] AS name, kn, kt, k0, k1, ss, ee FROM ("
	    "SELECT run_id, rank, step, name_id, count() AS kn, sum(dur_ns) AS kt, min(start_ns) AS k0,"
	    " max(start_ns + dur_ns) AS k1, groupArrayIf(start_ns, dur_ns > 0) AS ss,"
	    " groupArrayIf(start_ns + dur_ns, dur_ns > 0) AS ee FROM kernel_ids");
	if ((rc = profdb__ch_kernel_where(db, b, f, 0)) != 1)
		return rc;
	profdb__qbuf_add(b, " GROUP BY run_id, rank, step, name_id)");
	if ((rc = profdb__ch_dict_join_runs(db, b, f)) != PROFDB_OK)
		return rc;
	profdb__qbuf_add(b, ") GROUP BY run_id, rank, step) FORMAT RowBinary");
	return b->oom ? profdb__error(db, PROFDB_ERROR, "out of memory") : 1;
}

static int group_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	sqlite3_stmt *put = arg;
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

/* temp.ch_kg from the server: 1 filled, 0 when the server cannot group f,
 * or an error code. */
static int fill_groups(profdb *db, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *put = NULL;
	int rc = group_sql(db, &b, f);
	if (rc == 1 && (sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.ch_kg;"
	                "CREATE TEMP TABLE ch_kg (run_id INTEGER, rank INTEGER, step INTEGER, n INTEGER,"
	                " tot INTEGER, s0 INTEGER, s1 INTEGER, busy INTEGER, top_total INTEGER, top TEXT)",
	                NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "INSERT INTO temp.ch_kg SELECT local_id, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10"
	                       " FROM temp.ch_run WHERE remote_id = ?1", -1, &put, NULL) != SQLITE_OK))
		rc = profdb__sqlerror(db, "cannot make the snapshot");
	if (rc == 1 && (rc = profdb__ch_rows(db, b.s, group_types, G_COUNT, group_row, put)) == PROFDB_OK)
		rc = 1;
	sqlite3_finalize(put);
	profdb__qbuf_free(&b);
	return rc;
}

/* profdb_query_steps on the snapshot as it stands. */
static int local_steps(profdb *db, profdb_result **out, const struct profdb_filter *f, int grouped)
{
	char *remote = db->remote;
	int rc;
	db->remote = NULL;
	db->ch_steps = grouped;
	rc = profdb_query_steps(db, out, f);
	db->ch_steps = 0;
	db->remote = remote;
	return rc;
}

int profdb__ch_query_steps(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	/* an empty first answer wrote nothing: the second streams in its place */
	FILE *stream_out = db->stream_out;
	const struct profdb_format_opts *stream_fmt = db->stream_fmt;
	int rc;
	*out = NULL;
	if ((rc = profdb__qfilter_check(db, f)) != PROFDB_OK ||
	    (rc = profdb__ch_ensure(db, profdb__ch_table_bit("step"))) != PROFDB_OK)
		return rc;
	if ((rc = fill_groups(db, f)) < 0)
		return rc;
	if (rc == 1) {
		if ((rc = local_steps(db, out, f, 1)) != PROFDB_OK || profdb_result_nrows(*out) > 0)
			return rc;
		/* an empty answer's notes say what the runs' rows lack */
		profdb_result_free(*out);
		*out = NULL;
		db->stream_out = stream_out;
		db->stream_fmt = stream_fmt;
	}
	if ((rc = profdb__ch_ensure(db, CH_ALL_TABLES)) != PROFDB_OK)
		return rc;
	return local_steps(db, out, f, 0);
}
