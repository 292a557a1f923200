/* sqlfunc.c - placeholder: SQL functions registered on every connection */
#include "internal.h"

int profdb__register_functions(sqlite3 *db)
{
	(void)db;
	return SQLITE_OK;
}
