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
 * One budget, in bytes, for the whole per-name state an ingest holds: the
 * groups (96 bytes a name), their map (4 bytes a slot, at most two slots a
 * name) and the durations kept for exact percentiles (4 bytes each, plus
 * 16 a name for malloc's block).  Past it the durations are dropped and
 * read back from the rows at commit, a batch of names at a time (what the
 * budget leaves beside the names per scan, 4-byte values sorted by radix);
 * if the names alone pass it, they are dropped too (the spilled path
 * below).  28 MB: the names at their bound take 13 MB of it, and runs of
 * a few names keep about 7 M durations (arrays past 64 K values grow by a
 * quarter: a generated 6.5 M-kernel kernel_details.csv of 18 names needs
 * 27.9 MB; 7 M go to the scans, which cost less than 50 MB of doubled
 * arrays).  Names and their durations share this one bound, so many names
 * of a few calls each cannot hold more than few names of many calls
 * (bench/limits checks the RSS): name_stats_bytes of struct profdb_limits.
 */

/*
 * Durations kept in memory for exact percentiles, at most, over all names
 * of a run (4 bytes each, so 32 MB; a kernel over 4.29 s sends the run to
 * the scans); the byte budget above binds first unless this is lowered.
 * name_stats_values of struct profdb_limits (tests lower it to reach the
 * scans with small inputs).
 */

/*
 * Names whose statistics are kept in memory, at most (96 bytes each and
 * 48 for the step cells at commit).  A run with more drops them
 * all and computes kernel_name_stat and kernel_step_stat from ordered
 * scans of its rows at commit: one name's durations held at a time, the
 * step groups in SQLite's sorter: name_stats_names of struct profdb_limits.
 * The default, 2^17 names, keeps an ingest of 1 M names at 64 MB: each
 * doubling adds about 44 MB held just before the state is dropped.
 */

struct profdb__name_stats;
struct profdb_limits;

/* store.c: the connection's page cache size as PRAGMA cache_size reads and
 * sets it (negative: KiB); the ingest's, and the smaller one of the commit's
 * sorts here. */
int64_t profdb__store_cache_size(sqlite3 *db);
void profdb__store_set_cache_size(sqlite3 *db, int64_t v);

/* A new, empty accumulator, or NULL when out of memory.  Free with
 * profdb__name_stats_free. */
struct profdb__name_stats *profdb__name_stats_new(const struct profdb_limits *l);
void profdb__name_stats_free(struct profdb__name_stats *ns);

/* Count one kernel (row kernel_id); -1 when out of memory (the caller
 * fails the ingest). */
int profdb__name_stats_add(struct profdb__name_stats *ns, int64_t kernel_id, int64_t name_id, int kind,
                           int64_t dur_ns);

/*
 * The path the commit will take: 0 every name's durations held, 1 the
 * durations dropped (read back by scans), 2 the names dropped (ordered
 * scans); and, in *bytes, the per-name state held now as the budget counts
 * it.  For tests, which cannot tell the paths apart by their rows.
 */
int profdb__name_stats_path(const struct profdb__name_stats *ns, size_t *bytes);

/*
 * Write the rows of run_id into kernel_name_stat, and kernel_step_stat
 * (from sums when they are valid, step_sums.h; else by SQL over the run's
 * rows: call after the steps are final), and set run.name_stats.  When the
 * durations did not fit in memory they are read back from the run's kernel
 * rows, a budget's worth of names per scan.  Returns an SQLite result code.
 */
struct profdb__step_sums;
int profdb__name_stats_write(struct profdb__name_stats *ns, struct profdb__step_sums *sums, sqlite3 *db,
                             int64_t run_id);

/* The slot in which step_stats.c's scan keeps name_id's first cell of the
 * step it sums; NULL when the name is not held (spilled, or never met). */
size_t *profdb__name_stats_cell(struct profdb__name_stats *ns, int64_t name_id);

/* step_stats.c: kernel_step_stat of run_id, from sums when they are valid
 * (step_sums.h), else by a scan of the run's kernel rows in
 * kernel_run_step order through ns's names, or, spilled, by an SQL GROUP
 * BY: the same rows in the same order.  SQLite result code. */
int profdb__step_stats_write(struct profdb__name_stats *ns, struct profdb__step_sums *sums, sqlite3 *db,
                             int64_t run_id, int spilled);

/* One kernel_step_stat row through ins, the INSERT every way of computing
 * them prepares (step PROFDB_NULL: none).  SQLite result code. */
int profdb__step_stat_put(sqlite3_stmt *ins, int64_t run_id, int64_t rank, int64_t step, int64_t name_id,
                          int64_t base_id, int kind, int64_t calls, int64_t total_ns);

#endif
