/*
 * step_index.h - which profiler step holds a time (step_index.c), for the
 * store's derivations at commit.
 */
#ifndef PROFDB_STEP_INDEX_H
#define PROFDB_STEP_INDEX_H

#include <stdint.h>
#include <sqlite3.h>

/*
 * Register the SQL function profdb_step_at(rank, ns) on db: the smallest
 * step of run run_id and that rank whose host span [start_ns, end_ns) holds
 * ns, or NULL.  The spans are read now, once; later changes to the step
 * table are not seen.  Returns an SQLite result code.
 */
int profdb__step_index_register(sqlite3 *db, int64_t run_id);
/* Remove the function and free its index. */
void profdb__step_index_unregister(sqlite3 *db);

#endif /* PROFDB_STEP_INDEX_H */
