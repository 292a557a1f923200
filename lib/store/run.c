/*
 * run.c - changes to stored runs after ingest: repeat count, deletion.
 */
#include <string.h>

#include "internal.h"
#include "banned.h"

int profdb_run_set_repeats(profdb *db, const char *run, int64_t n)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (n <= 0)
		return profdb__error(db, PROFDB_EUSAGE, "repeats must be a positive integer");
	if (sqlite3_prepare_v2(db->sql, "UPDATE run SET repeats = ?2, repeats_source = 'user'"
	    " WHERE name = ?1", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot set repeats");
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, n);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(db, "cannot set repeats of '%s'", run);
	if (sqlite3_changes(db->sql) == 0)
		return profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s'", run);
	return PROFDB_OK;
}

int profdb_run_delete(profdb *db, const char *run)
{
	sqlite3_stmt *q = NULL;
	int rc;
	/* ON DELETE CASCADE removes kernels, metrics, ops, steps, sources ... */
	if (sqlite3_prepare_v2(db->sql, "DELETE FROM run WHERE name = ?1", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot delete run");
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(db, "cannot delete run '%s'", run);
	if (sqlite3_changes(db->sql) == 0)
		return profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s'", run);
	return PROFDB_OK;
}
