/*
 * op_link.h - kernels linked to the op that launched them (op_link.c), a
 * pass of the store over a Kineto file's stored rows before the nesting
 * (model/op_nest.h).  Private to lib/.
 */
#ifndef PROFDB_OP_LINK_H
#define PROFDB_OP_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "model/op_nest.h"

struct profdb__flush_job;

/*
 * Before profdb__op_nest, for a Kineto file whose device events carry
 * their correlation id as External id (2022-2023 traces; op_link.c says
 * how it is told): link each of its kernels (rows kernels[0..nk)) to the
 * innermost op (ops[0..nops): those with rowids up to closed_upto stored
 * as they closed, the later ones in file order) that holds its runtime call
 * (launches[0..nl), same rank and correlation) on the call's thread, by
 * rewriting kernel.external_id to that op's (NULL if none), and add a run
 * note naming the file (source_file row source_id).  Other files are left
 * as they are.  Memory: 24 bytes per runtime call of the file, for such
 * files only, and while they are swept 56 more (up to 262 144 calls: a
 * file with more is swept by SQLite's sorter).  Returns PROFDB_OK or
 * PROFDB_ERROR with err set.
 */
int profdb__op_link(const profdb *db, int64_t run_id, int64_t source_id, const struct profdb__row_run *ops,
                    size_t nops, int64_t closed_upto, const struct profdb__row_run *launches, size_t nl,
                    const struct profdb__row_run *kernels, size_t nk, struct profdb_err *err);

/* An op of the sweep, or a runtime call (op_link.c's own use). */
struct profdb__link_op {
	int64_t rank, tid, start, dur, v; /* v: call: correlation; op: External id (PROFDB_NULL: none) */
	int64_t key;               /* call: its rowid; op: file order (a later op's is lower at one start and end) */
	int tid_null;
};

/* qsort order of op_link's sweep (op_link.c): rank, tid (NULL first),
 * start, dur descending, key. */
int profdb__link_op_cmp(const void *a, const void *b);

/*
 * profdb__op_link for a file whose ops are not in the op table yet but in
 * ops[0..nops) (store_ops.c holds them until the file ends): the ops with
 * times that are not user annotations, key -(the order they closed in),
 * which is what the table's rowids give in a file whose ops went in as
 * they closed; held ops take ids by thread and start (op_rows.h), which
 * keeps that order among ops of one start, the only ties the key breaks
 * (a later op's key is lower at one start and end).  ops is sorted in
 * place.  calls[0..ncalls): the file's runtime calls as items (key their
 * rowid, v their correlation id) sorted as the sweep sorts them, when the
 * store kept them (runtime_held.c); NULL: read from the launch table.
 * *done 0 (and nothing changed) when the file has too many calls
 * for the sweep in C: the caller stores the ops and calls profdb__op_link.
 * copy: whether the file's kernels carry correlation ids as External ids
 * (as profdb__op_link finds in the table), known to the caller.  defer
 * NULL: the kernels' External ids are rewritten now; else *defer is that
 * rewrite (and the run's note) as a job for the flusher (batch_flusher.h),
 * or NULL when there is none: the kernel rows need not be in the table
 * yet, only before the job runs.  kids[0..nkids): the file's kernels kept
 * by the store (NULL: none), their External ids rewritten likewise.
 * in_table 0: the kernel rows are not in the table but still held by the
 * caller, which sets their External ids from kids (no UPDATE then).
 */
int profdb__op_link_held(const profdb *db, int64_t run_id, int64_t source_id, struct profdb__link_op *ops,
                         size_t nops, const struct profdb__link_op *calls, size_t ncalls,
                         const struct profdb__row_run *launches, size_t nl,
                         const struct profdb__row_run *kernels, size_t nk, int copy,
                         struct profdb__kernel_ids *kids, size_t nkids, int in_table,
                         struct profdb__flush_job **defer, int *done, struct profdb_err *err);

#endif /* PROFDB_OP_LINK_H */
