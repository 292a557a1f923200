/*
 * sqlfunc_ext.c - profdb's SQL functions as an SQLite loadable extension
 * (libprofdb_sqlfunc.so), so any SQLite client reading a profdb file can use
 * median(), percentile(), stddev() and base_name():
 *
 *   sqlite3 profdb.db ".load libprofdb_sqlfunc" "SELECT median(dur_ns) FROM kernel"
 *
 * sqlfunc.c is compiled a second time for this module with
 * PROFDB_SQLITE_EXTENSION defined, so its SQLite calls go through the
 * routine table the host passes in instead of a linked libsqlite3.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "internal.h"
#include "banned.h"

/* The default entry point the sqlite3 shell and sqlite3_load_extension() try. */
int sqlite3_extension_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
/* The name derived from the file name "libprofdb_sqlfunc". */
int sqlite3_profdbsqlfunc_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);

int sqlite3_extension_init(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
	int rc;
	SQLITE_EXTENSION_INIT2(api);
	rc = profdb__register_functions(db);
	if (rc != SQLITE_OK && err)
		*err = sqlite3_mprintf("profdb_sqlfunc: cannot register functions");
	return rc;
}

int sqlite3_profdbsqlfunc_init(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
	return sqlite3_extension_init(db, err, api);
}
