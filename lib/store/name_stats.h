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
 * the scans).  A run with more kernels gets its percentiles from scans of
 * its rows at commit instead, half a budget's worth of names (as 8-byte
 * doubles) per scan: bounded memory, slower.  The environment variable
 * PROFDB_NAME_STATS_VALUES can lower it (tests use it to reach the scans
 * with small inputs).
 */
#define PROFDB_NAME_STATS_VALUES (8u << 20)

/*
 * Names whose statistics are kept in memory, at most (about 200 bytes
 * each with the step cells at commit: 26 MB).  A run with more drops them
 * all and computes kernel_name_stat and kernel_step_stat from ordered
 * scans of its rows at commit: one name's durations held at a time, the
 * step groups in SQLite's sorter.  PROFDB_NAME_STATS_NAMES can lower it.
 * 2^18 names held 44 MB just before they were dropped: an ingest of 1 M
 * names peaked at 100 MB there (issue 20); 2^17 keeps it at 64 MB.
 */
#define PROFDB_NAME_STATS_NAMES (1u << 17)

struct profdb__name_stats;

/* store.c: the connection's page cache size as PRAGMA cache_size reads and
 * sets it (negative: KiB); the ingest's, and the smaller one of the commit's
 * sorts here. */
int64_t profdb__store_cache_size(sqlite3 *db);
void profdb__store_set_cache_size(sqlite3 *db, int64_t v);

/* A new, empty accumulator, or NULL when out of memory.  Free with
 * profdb__name_stats_free. */
struct profdb__name_stats *profdb__name_stats_new(void);
void profdb__name_stats_free(struct profdb__name_stats *ns);

/* Count one kernel (row kernel_id); -1 when out of memory (the caller
 * fails the ingest). */
int profdb__name_stats_add(struct profdb__name_stats *ns, int64_t kernel_id, int64_t name_id, int kind,
                           int64_t dur_ns);

/*
 * Write the rows of run_id into kernel_name_stat, and kernel_step_stat (by
 * SQL over the run's rows: call after the steps are final), and set
 * run.name_stats.  When the durations did not fit in memory they are read
 * back from the run's kernel rows, a budget's worth of names per scan.
 * Returns an SQLite result code.
 */
int profdb__name_stats_write(struct profdb__name_stats *ns, sqlite3 *db, int64_t run_id);

#endif
