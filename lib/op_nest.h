/*
 * op_nest.h - self and device times of one file's host ops, computed by the
 * store from the rows it wrote (op_nest.c), so that a reader need not keep
 * its ops until the file ends.
 */
#ifndef PROFDB_OP_NEST_H
#define PROFDB_OP_NEST_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "internal.h"

/* Consecutive rowids [lo, hi] of one table written for one file. */
struct profdb_row_run {
	int64_t lo, hi;
};

/*
 * For the op rows in ops[0..nops) (ascending, one file's) whose self_ns is
 * NULL and that have times: nest them per (rank, tid) as torch's
 * key_averages does (sorted by start, then end descending, then rowid; an
 * op is a child of the innermost open op that holds it), and set self_ns
 * (duration minus direct children's), device_self_ns (durations of the
 * kernel rows in kernels[0..nk) with its External id; NULL without one)
 * and device_total_ns (its own plus its children's totals); an op without
 * a step takes profdb_step_at(rank, start_ns) (step_index.h: the caller
 * registers it), since the row is rewritten here anyway.  Memory: the
 * nesting depth and 24 bytes per kernel of the file with an External id; SQLite
 * sorts.  Returns PROFDB_OK or PROFDB_ERROR with err set.
 */
int profdb__op_nest(sqlite3 *db, int64_t run_id, const struct profdb_row_run *ops, size_t nops,
                    const struct profdb_row_run *kernels, size_t nk, struct profdb_err *err);

/*
 * Before profdb__op_nest, for a Kineto file whose device events carry
 * their correlation id as External id (2022-2023 traces; op_link.c says
 * how it is told): link each of its kernels (rows kernels[0..nk)) to the
 * innermost op (ops[0..nops), not yet nested) that holds its runtime call
 * (launches[0..nl), same rank and correlation) on the call's thread, by
 * rewriting kernel.external_id to that op's (NULL if none), and add a run
 * note naming the file (source_file row source_id).  Other files are left
 * as they are.  Memory: 24 bytes per runtime call of the file, for such
 * files only.  Returns PROFDB_OK or PROFDB_ERROR with err set.
 */
int profdb__op_link(sqlite3 *db, int64_t run_id, int64_t source_id, const struct profdb_row_run *ops,
                    size_t nops, const struct profdb_row_run *launches, size_t nl,
                    const struct profdb_row_run *kernels, size_t nk, struct profdb_err *err);

#endif /* PROFDB_OP_NEST_H */
