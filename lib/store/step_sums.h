/*
 * step_sums.h - the run's kernels summed per (rank, step, name, kind) as
 * their rows go to the table (step_sums.c), for kernel_step_stat.
 * Private to the store.
 *
 * Why: kernel_step_stat was a scan of every kernel row of the run at
 * commit, in kernel_run_step order, after every other thread had finished:
 * 28 ms of ranks8's 1.2 s `-j2` ingest, all of it on the critical path
 * (bench/results.md).  The sums are the same whether added up then or as
 * the rows are sent, provided a row's step and rank are final when it is
 * sent: the commit drops the sums when it changes a kernel's step, and a
 * rank fix-up (a Kineto file's rank or base time found after its events)
 * when it moves a file's kernels; then, or past the cells' bound, the scan
 * runs as before (name_stats.c).
 */
#ifndef PROFDB_STEP_SUMS_H
#define PROFDB_STEP_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/*
 * Cells held at most: step_sums_cells of struct profdb_limits, 65 536 built
 * in (56 bytes each and 8 of map, so 4 MB); a run with more drops them and
 * takes the scan.  Kineto traces have a few hundred names a step
 * (bench/run's ranks8: 8 352 cells, its 1 GB trace 30 276); the bound keeps
 * a run of many steps of many names (bench/analyses' 2.4 M kernels:
 * 136 708 cells) within the ingest's memory bound.
 */
struct profdb__step_sums;

/* A new, empty sum of at most max_cells cells, or NULL when out of memory
 * (the commit then scans). */
struct profdb__step_sums *profdb__step_sums_new(size_t max_cells);
void profdb__step_sums_free(struct profdb__step_sums *s);

/* Count one kernel row (step PROFDB_NULL: none).  Rows come in id order.
 * Out of memory, or past the bound: the sums are dropped. */
void profdb__step_sums_add(struct profdb__step_sums *s, int64_t rank, int64_t step, int64_t name_id,
                           int64_t base_id, int kind, int64_t dur_ns);

/* A kernel's step changed after its row was counted: the sums are dropped. */
void profdb__step_sums_drop(struct profdb__step_sums *s);

/* Whether the sums hold every counted row (NULL: no). */
int profdb__step_sums_valid(const struct profdb__step_sums *s);

/*
 * Write the cells into kernel_step_stat through ins (name_stats.h's
 * profdb__step_stat_put), in the scan's order: by rank, then step (none
 * first), then each cell in the order its first row came.  SQLite result
 * code; SQLITE_NOMEM when the sort's room cannot be had.
 */
int profdb__step_sums_write(struct profdb__step_sums *s, sqlite3_stmt *ins, int64_t run_id);

#endif
