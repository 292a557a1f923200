/*
 * name_stats.h - per kernel name statistics gathered while an ingest's
 * kernel rows pass through the store (name_stats.c), written to
 * kernel_name_stat at commit.  Private to lib/.
 */
#ifndef PROFDB_NAME_STATS_H
#define PROFDB_NAME_STATS_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/*
 * Durations kept in memory for exact percentiles, at most, over all names
 * of a run (4 bytes each, so 32 MB; a kernel over 4.29 s sends the run to
 * the SQL pass).  A run with more kernels gets its
 * statistics from one SQL pass over its rows at commit instead (bounded
 * memory, slower).  The environment variable PROFDB_NAME_STATS_VALUES can
 * lower it (tests use it to reach the SQL path with small inputs).
 */
#define PROFDB_NAME_STATS_VALUES (8u << 20)

struct profdb_name_stats;

/* A new, empty accumulator, or NULL when out of memory.  Free with
 * profdb__name_stats_free. */
struct profdb_name_stats *profdb__name_stats_new(void);
void profdb__name_stats_free(struct profdb_name_stats *ns);

/* Count one kernel; -1 when out of memory (the caller fails the ingest). */
int profdb__name_stats_add(struct profdb_name_stats *ns, int64_t name_id, int kind, int64_t dur_ns);

/*
 * Write the rows of run_id into kernel_name_stat and kernel_step_stat (by
 * SQL over the run's rows: call after the steps are final) and set
 * run.name_stats.
 * kernel_rows is the number of kernel rows the run has: when it differs
 * from the kernels counted (rows came in another way), or the durations
 * did not fit in memory, the statistics are computed from the rows by SQL
 * (profdb's median/percentile/stddev functions must be registered on db).
 * Returns an SQLite result code.
 */
int profdb__name_stats_write(struct profdb_name_stats *ns, sqlite3 *db, int64_t run_id,
                             int64_t kernel_rows);

#endif
