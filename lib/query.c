/* query.c - placeholder queries */
#include <string.h>
#include "internal.h"

void profdb_filter_init(struct profdb_filter *f)
{
	memset(f, 0, sizeof *f);
	f->rank = f->step_lo = f->step_hi = PROFDB_NULL;
}

int profdb_query_sql(profdb *db, profdb_result **out, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc;
	*out = NULL;
	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "bad SQL");
	rc = profdb__result_from_stmt(db, out, st, NULL);
	sqlite3_finalize(st);
	return rc;
}

int profdb_query_runs(profdb *db, profdb_result **out)
{
	static const enum profdb_coltype types[] = {
		PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT,
		PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT
	};
	sqlite3_stmt *st = NULL;
	int rc;
	*out = NULL;
	if (sqlite3_prepare_v2(db->sql, "SELECT id, name, format, ranks, repeats,"
	    " (SELECT count(*) FROM kernel k WHERE k.run_id = run.id) AS kernels,"
	    " ingested_at, source_path FROM run ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot list runs");
	rc = profdb__result_from_stmt(db, out, st, types);
	sqlite3_finalize(st);
	return rc;
}

int profdb_query_summary(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	static const enum profdb_coltype types[] = {
		PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_REAL, PROFDB_COL_REAL,
		PROFDB_COL_REAL
	};
	sqlite3_stmt *st = NULL;
	int rc;
	*out = NULL;
	if (sqlite3_prepare_v2(db->sql, "SELECT run, repeats, kernels, total_device_us, elapsed_us,"
	    " total_cpu_us FROM run_summary WHERE ?1 IS NULL OR run = ?1", -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot summarise");
	if (f && f->nruns)
		sqlite3_bind_text(st, 1, f->runs[0], -1, SQLITE_STATIC);
	rc = profdb__result_from_stmt(db, out, st, types);
	sqlite3_finalize(st);
	return rc;
}
