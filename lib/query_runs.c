/*
 * query_runs.c - the run-level queries: the list of stored runs, the
 * summary of each run (the run_summary figures, in ns), and free SQL.
 * cmd_ingest reads runs columns 0 (id) and 1 (name) and the summary from
 * column 1 on; keep those positions.
 */
#include <stdio.h>

#include "query.h"
#include "banned.h"

int profdb_query_sql(profdb *db, profdb_result **out, const char *sql)
{
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	int rc;

	*out = NULL;
	if (db->remote) /* a clickhouse:// snapshot: ClickHouse SQL, run there */
		return profdb__ch_query_sql(db, out, sql);
	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, &tail) != SQLITE_OK)
		return profdb__sqlerror(db, "bad SQL");
	if (!st)
		return profdb__error(db, PROFDB_EUSAGE, "no SQL statement given");
	while (tail && (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == '\r' || *tail == ';'))
		tail++;
	if (tail && *tail) {
		sqlite3_finalize(st);
		return profdb__error(db, PROFDB_EUSAGE, "give one SQL statement (text after the first: '%.40s')", tail);
	}
	rc = profdb__result_from_stmt(db, out, st, NULL);
	sqlite3_finalize(st);
	return rc;
}

static const enum profdb_coltype runs_types[] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT,
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_TEXT, PROFDB_COL_TEXT
};

int profdb_query_runs(profdb *db, profdb_result **out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (db->remote) /* a clickhouse:// snapshot: the server counts */
		return profdb__ch_query_runs(db, out);
	if (sqlite3_prepare_v2(db->sql, "SELECT r.id, r.name, r.format, r.ranks, r.repeats,"
	    " r.repeats_source, (SELECT count(*) FROM kernel k WHERE k.run_id = r.id) AS kernels,"
	    " (SELECT count(*) FROM op o WHERE o.run_id = r.id) AS ops,"
	    " coalesce((SELECT sum(k.dur_ns) FROM kernel k WHERE k.run_id = r.id), 0) AS total_device,"
	    " r.ingested_at, r.source_path FROM run r ORDER BY r.id", -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot list runs");
	rc = profdb__result_from_stmt(db, out, st, runs_types);
	sqlite3_finalize(st);
	return rc;
}

static const enum profdb_coltype summary_types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS
};

int profdb_query_summary(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb_filter runs_only;
	struct qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	/* a summary is of whole runs: only the run names of f apply */
	profdb_filter_init(&runs_only);
	if (f) {
		runs_only.runs = f->runs;
		runs_only.nruns = f->nruns;
	}
	if ((rc = qfilter_check(db, &runs_only)) != PROFDB_OK)
		return rc;
	if (db->remote) /* a clickhouse:// snapshot: the server sums */
		return profdb__ch_query_summary(db, out, &runs_only);
	qbuf_add(&b, "SELECT r.name AS run, r.repeats,"
	    " (SELECT count(*) FROM kernel k WHERE k.run_id = r.id) AS kernels,"
	    " coalesce((SELECT sum(k.dur_ns) FROM kernel k WHERE k.run_id = r.id), 0) AS total_device,"
	    " coalesce((SELECT max(span) FROM (SELECT max(k.start_ns + k.dur_ns) - min(k.start_ns) AS span"
	    "  FROM kernel k WHERE k.run_id = r.id GROUP BY k.rank)), 0) AS elapsed,"
	    " coalesce((SELECT sum(o.self_ns) FROM op o WHERE o.run_id = r.id), 0) AS total_cpu"
	    " FROM run r WHERE 1");
	if (runs_only.nruns) {
		qbuf_add(&b, " AND r.name IN (");
		for (size_t i = 0; i < runs_only.nruns; i++)
			qbuf_addf(&b, "%s:run%zu", i ? ", " : "", i);
		qbuf_add(&b, ")");
	}
	qbuf_add(&b, " ORDER BY r.id");
	rc = qprepare(db, &b, &st, "cannot summarise");
	qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	qfilter_bind(st, &runs_only);
	rc = profdb__result_from_stmt(db, out, st, summary_types);
	sqlite3_finalize(st);
	return rc;
}
