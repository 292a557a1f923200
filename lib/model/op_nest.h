/*
 * op_nest.h - host-op nesting, written once: self time, device self and
 * total time of each op from the ops of one thread (op_nest.c).  Fed from
 * memory (kineto_ops.c, ascend_db_ops.c), from the store's rows as they
 * arrive (store.c) or from a sorted SELECT (the store's fallback for a
 * file whose ops are not in start order).
 */
#ifndef PROFDB_OP_NEST_H
#define PROFDB_OP_NEST_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "internal.h"

/* One host op.  The caller sets id, start, dur, dev_self and tag; the
 * nester sets self and dev_total before handing the op back to emit. */
struct profdb__nest_op {
	int64_t id;                /* the caller's; orders ops of equal start and end (file order) */
	int64_t start, dur;        /* dur >= 0 */
	int64_t dev_self[2];       /* its own device time ([1]: Ascend AI core part); PROFDB_NULL: none */
	int64_t tag;               /* the caller's, untouched */
	int64_t self;              /* out: dur minus the time of its direct children inside it */
	int64_t dev_total[2];      /* out: dev_self (0 for NULL) plus its direct children's dev_total */
	int64_t desc;              /* out: how many ops nest inside it, at any depth */
	int64_t depth;             /* out: how many open ops hold it (0: top level) */
};

/* Receives each op when it closes (its children before it).  A non-zero
 * return stops the nesting and is returned by the call that closed it. */
typedef int (*profdb__nest_emit_fn)(void *arg, const struct profdb__nest_op *op);

/* profdb__nest_add: op starts before the previous one (input not in start order) */
#define PROFDB__NEST_UNSORTED 1

/*
 * The open ops of one thread.  Ops go in with non-decreasing start (ops
 * of equal start in any order: they wait in ties, sorted by duration
 * descending then id, until a later start arrives), which is torch's
 * key_averages order (start ascending, end descending, id); an op is a
 * child of the innermost open op that holds it: starts before its end and
 * (overlap == 0, torch) ends by its end, or (overlap == 1, the Ascend
 * PYTORCH_API rule) just starts before its end, a child that outlives
 * its parent costing the parent only the overlap.  Memory: the nesting
 * depth plus the ops of one start.  Zero-initialise, then
 * profdb__nest_init.
 */
struct profdb__nest {
	int overlap;
	profdb__nest_emit_fn emit;
	void *arg;
	struct profdb__nest_op *stack;      /* open ops, outermost first; owned */
	size_t top, cap;
	struct profdb__nest_op *ties;       /* ops of the latest start, not yet opened; owned */
	size_t nties, capties;
	int64_t last_start;                /* of the latest op added */
	int started;                       /* an op was added since init or end */
};

void profdb__nest_init(struct profdb__nest *n, int overlap, profdb__nest_emit_fn emit, void *arg);
/* Frees the buffers (no ops are emitted).  NULL is a no-op. */
void profdb__nest_free(struct profdb__nest *n);
/* Add op (copied).  PROFDB_OK, PROFDB__NEST_UNSORTED (nothing done),
 * PROFDB_ERROR when out of memory, or emit's return. */
int profdb__nest_add(struct profdb__nest *n, const struct profdb__nest_op *op);
/* Close the open ops that end by t, after opening waiting ops that start
 * by t: what is open afterwards holds time t (a runtime call at t). */
int profdb__nest_advance(struct profdb__nest *n, int64_t t);
/* The i-th open op from the innermost (0), NULL past the outermost. */
struct profdb__nest_op *profdb__nest_open(struct profdb__nest *n, size_t i);
/* Close every op (the thread's ops are all in); n is ready for another thread. */
int profdb__nest_end(struct profdb__nest *n);

/* Consecutive rowids [lo, hi] of one table written for one file. */
struct profdb__row_run {
	int64_t lo, hi;
};

/* Whether rowid id is in the ascending runs r[0..n). */
int profdb__row_runs_has(const struct profdb__row_run *r, size_t n, int64_t id);

/* Step q once per run of r[0..n), its parameters lo and lo + 1 bound to the
 * run's bounds (the others as the caller bound them, kept across resets).
 * SQLITE_DONE when every step was, else the failing step's code (the
 * message is on q's connection); q is reset either way. */
int profdb__row_runs_exec(sqlite3_stmt *q, int lo, const struct profdb__row_run *r, size_t n);

/* Device time of a file's kernels per (rank, External id): a sorted array
 * (24 bytes a kernel with an External id while loading, then one per key),
 * searched by bisection.  Zero-initialise. */
struct profdb__dev_time {
	int64_t rank, ext, dur;
};
struct profdb__dev_times {
	struct profdb__dev_time *v; /* owned */
	size_t n, cap;
};
/* Sum the kernel rows in kernels[0..nk) with an External id, in one pass
 * over their rows.  PROFDB_OK or PROFDB_ERROR with err set. */
int profdb__dev_times_load(struct profdb__dev_times *d, sqlite3 *db, const struct profdb__row_run *kernels,
                           size_t nk, struct profdb_err *err);
/* A file's kernel as the store keeps it for its links and device times
 * (store.c): rank, correlation id, External id (PROFDB_NULL: none), and
 * duration, as its row has them. */
struct profdb__kernel_ids {
	int64_t rank, corr, ext, dur;
};
/* The same sums from kernels k[0..n), without reading the table. */
int profdb__dev_times_from(struct profdb__dev_times *d, const struct profdb__kernel_ids *k, size_t n,
                           struct profdb_err *err);
/* Their summed duration for (rank, ext), 0 if none. */
int64_t profdb__dev_times_get(const struct profdb__dev_times *d, int64_t rank, int64_t ext);
void profdb__dev_times_free(struct profdb__dev_times *d);

/*
 * For the op rows in ops[0..nops) (ascending, one file's) whose self_ns is
 * NULL and that have times: nest them per (rank, tid) (profdb__nest, torch's
 * rule, fed by an SQL sort) and set self_ns, device_self_ns (durations of
 * the kernel rows in kernels[0..nk) with its External id; NULL without
 * one) and device_total_ns; an op without a step takes
 * profdb_step_at(rank, start_ns) (step_index.h: the caller registers it),
 * since the row is rewritten here anyway.  The store's path for a file
 * whose ops did not arrive in start order: its rows up to closed_upto
 * were stored as they closed (file order is their descending rowids),
 * the later ones in file order.  Memory: the nesting depth and
 * 24 bytes per kernel of the file with an External id; SQLite sorts.
 * Returns PROFDB_OK or PROFDB_ERROR with err set.
 */
int profdb__op_nest(sqlite3 *db, int64_t run_id, const struct profdb__row_run *ops, size_t nops,
                    int64_t closed_upto, const struct profdb__row_run *kernels, size_t nk, struct profdb_err *err);

#endif /* PROFDB_OP_NEST_H */
