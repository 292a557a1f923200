/*
 * query_sources.c - what an ingest read: per source file of a run its role,
 * rank, rows read/stored/skipped (with reasons; of the stored, kernels, ops,
 * launch, memory and op_memory rows), the other runs that hold
 * the same content, and the run's notes.  The ingest summary prints this.
 */
#include "internal.h"
#include "banned.h"

static const char sources_sql[] =
	"SELECT f.path, f.role, f.rank, f.rows_read, f.rows_stored, f.rows_skipped,"
	" (SELECT group_concat(s.reason || ' (' || s.count || ', first at ' || s.first_line || ')', '; ')"
	"   FROM source_skip s WHERE s.source_id = f.id) AS skipped_why,"
	" (SELECT group_concat(DISTINCT r2.name) FROM source_file f2 JOIN run r2 ON r2.id = f2.run_id"
	"   WHERE f2.sha256 = f.sha256 AND f2.run_id <> f.run_id) AS same_content_in,"
	" f.rows_kernels, f.rows_ops, f.rows_launches,"
	" (SELECT count(*) FROM memory m WHERE m.source_id = f.id) AS rows_memory,"
	" (SELECT count(*) FROM op_memory m WHERE m.source_id = f.id) AS rows_op_memory"
	" FROM source_file f JOIN run r ON r.id = f.run_id WHERE r.name = ?1 ORDER BY f.id";

static const enum profdb_coltype sources_types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT,
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT,
	PROFDB_COL_INT, PROFDB_COL_INT
};

int profdb_query_sources(profdb *db, profdb_result **out, const char *run)
{
	sqlite3_stmt *st = NULL, *notes = NULL;
	int rc;

	*out = NULL;
	if (sqlite3_prepare_v2(db->sql, sources_sql, -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot list sources");
	sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
	rc = profdb__result_from_stmt(db, out, st, sources_types);
	sqlite3_finalize(st);
	if (rc != PROFDB_OK)
		return rc;
	if (sqlite3_prepare_v2(db->sql, "SELECT n.note FROM run_note n JOIN run r ON r.id = n.run_id"
	    " WHERE r.name = ?1 ORDER BY n.rowid", -1, &notes, NULL) != SQLITE_OK) {
		profdb_result_free(*out);
		*out = NULL;
		return profdb__sqlerror(db, "cannot list notes");
	}
	sqlite3_bind_text(notes, 1, run, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(notes)) == SQLITE_ROW)
		if (profdb__result_add_note(*out, (const char *)sqlite3_column_text(notes, 0)) != PROFDB_OK) {
			rc = SQLITE_NOMEM;
			break;
		}
	sqlite3_finalize(notes);
	if (rc != SQLITE_DONE) {
		profdb_result_free(*out);
		*out = NULL;
		return profdb__error(db, PROFDB_ERROR, "cannot list notes");
	}
	return PROFDB_OK;
}
