/*
 * ch_compare.c - profdb diff and report on a clickhouse:// snapshot
 * without moving the runs' kernel and op rows.
 *
 * The comparison (lib/report/compare_samples.c) samples kernel time from
 * kernel_step_stat when the grouping key is made of name, base name and
 * kind and every run has that table (run.name_stats); it takes the steps
 * from step and each step's host self time from op.  So the snapshot gets
 * the step and kernel_step_stat rows of the two sides' runs, and the
 * server sums op per run, rank and step (temp.ch_op_step: one row per
 * rank and step instead of every op), which compare_samples.c reads in
 * place of op.  The sums are of integers: the same values as SQLite's.
 *
 * Keys with type, shape or core and runs ingested before the stat tables
 * existed need every kernel row: then every table is pulled, as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "query.h"
#include "banned.h"

/* Does a run of the snapshot lack kernel_step_stat (ingested before it)? */
static int old_runs(profdb *db)
{
	sqlite3_stmt *st = NULL;
	int old = 1;
	if (sqlite3_prepare_v2(db->sql, "SELECT count(*) FROM run WHERE name_stats = 0", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		old = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	return old;
}

static int op_step_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	sqlite3_stmt *put = arg;
	sqlite3_reset(put);
	sqlite3_bind_int64(put, 1, v[0].i);
	sqlite3_bind_int64(put, 2, v[1].i);
	if (v[2].null)
		sqlite3_bind_null(put, 3);
	else
		sqlite3_bind_int64(put, 3, v[2].i);
	sqlite3_bind_int64(put, 4, v[3].i);
	sqlite3_bind_int64(put, 5, v[4].i);
	if (sqlite3_step(put) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s",
		    sqlite3_errmsg(sqlite3_db_handle(put))), -1;
	return 0;
}

/* temp.ch_op_step: per run, rank and step, the host self time and op
 * count, summed by the server over the snapshot's runs. */
static int fill_op_steps(profdb *db)
{
	static const enum profdb__ch_type types[] = { CH_U64, CH_I64, CH_NI64, CH_I64, CH_I64 };
	struct profdb__qbuf q = { 0 };
	sqlite3_stmt *ids = NULL, *put = NULL;
	int rc, n = 0;
	if (sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.ch_op_step;"
	                 " CREATE TEMP TABLE ch_op_step (run_id INTEGER, rank INTEGER, step INTEGER,"
	                 " self_ns INTEGER, ops INTEGER)", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "SELECT remote_id FROM temp.ch_run", -1, &ids, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "INSERT INTO temp.ch_op_step SELECT local_id, ?2, ?3, ?4, ?5"
	                       " FROM temp.ch_run WHERE remote_id = ?1", -1, &put, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "cannot make the snapshot");
		goto out;
	}
	/* run ids are integers of ours: safe in the statement's text */
	profdb__qbuf_add(&q, "SELECT run_id, rank, step, toInt64(sum(coalesce(self_ns, 0))), toInt64(count())"
	                 " FROM op WHERE run_id IN (");
	while (sqlite3_step(ids) == SQLITE_ROW)
		profdb__qbuf_addf(&q, "%s%llu", n++ ? ", " : "", (unsigned long long)sqlite3_column_int64(ids, 0));
	profdb__qbuf_add(&q, ") GROUP BY run_id, rank, step FORMAT RowBinary");
	if (q.oom)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	else
		rc = n ? profdb__ch_rows(db, q.s, types, 5, op_step_row, put) : PROFDB_OK;
out:
	sqlite3_finalize(ids);
	sqlite3_finalize(put);
	profdb__qbuf_free(&q);
	return rc;
}

int profdb__ch_compare_prepare(profdb *db, int key_in_step_stat)
{
	int rc;
	db->ch_op_steps = 0;
	if (!key_in_step_stat || old_runs(db))
		return profdb__ch_ensure(db, CH_ALL_TABLES);
	rc = profdb__ch_ensure(db, profdb__ch_table_bit("step") | profdb__ch_table_bit("kernel_step_stat"));
	if (rc == PROFDB_OK && (rc = fill_op_steps(db)) == PROFDB_OK)
		db->ch_op_steps = 1;
	return rc;
}
