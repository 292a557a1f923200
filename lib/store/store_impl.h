/*
 * store_impl.h - the store's state (store.c: records to rows; store_commit.c:
 * the derivations and COMMIT that end an ingest).  Private to those files.
 */
#ifndef PROFDB_STORE_IMPL_H
#define PROFDB_STORE_IMPL_H

#include <stdint.h>
#include <string.h>
#include <sqlite3.h>

#include "internal.h"
#include "intern.h"
#include "kernel_step.h"
#include "name_stats.h"
#include "model/op_nest.h"
#include "op_link.h"
#include "store_batch.h"

struct profdb__step_index;
struct profdb__rt_row;

/* Statements, one per table; indexes into st->stmt. */
enum {
	S_STR, S_SOURCE, S_SOURCE_END, S_SKIP,
	S_STEP, S_STEP_METRIC, S_META, S_NOTE,
	S_COMM_OP, S_COMM_TRANSPORT, S_COMM_LINK, S_MEMORY, S_OP_MEMORY, S_COUNT
};

struct profdb__skip_count {
	char *reason;              /* owned */
	int64_t count, first;
};

/* Runs of consecutive row ids (a file's rows, for rank_fixup). */
struct profdb__row_runs {
	struct profdb__row_run *v;
	size_t n, cap;
};

/* An op of the file waiting for its children (store_ops.c); string ids 0 = NULL. */
struct profdb__op_pending {
	int64_t rank, step, name_id, cat_id, tid, start, dur, ext, seq, shapes_id, types_id, stack_id;
	int64_t concrete_id;
};

/* A closed op held until its file ends (ops_held.c): the row as it would
 * have gone into the op batch when it closed. */
struct profdb__op_held {
	struct profdb__op_pending p;
	int64_t self, dev_self, dev_total;
};

/* The log code of an op row (store_ops.c): descendants << 2 | step guessed << 1 | has a parent. */
#define PROFDB__OP_RAW UINT32_MAX /* a row that is not nested (no times) */
#define PROFDB__OP_GUESS 2u
#define PROFDB__OP_CHILD 1u

/* store_ops.c: the current file's Kineto ops (sent with nest = 1), nested
 * per (rank, tid) as they arrive and stored when they close (held until
 * the file ends, up to a budget: ops_held.c). */
struct profdb__op_thread {
	int64_t rank, tid;
	struct profdb__nest nest;   /* owns its buffers */
};

struct profdb__op_stream {
	struct profdb__op_thread *threads; /* owned */
	size_t nthreads, capthreads, last;
	struct profdb__op_pending *pend; /* open ops, by slot; owned */
	size_t npend, cappend;
	size_t *free_slots;        /* owned */
	size_t nfree, capfree;
	uint32_t *log;             /* per op row of the file: descendants << 1 | has a parent; owned */
	size_t nlog, caplog;
	int64_t arrived;           /* ops nested so far: their order among equal times */
	int unsorted;              /* not in start order: the SQL pass after the file */
	int64_t closed_upto;       /* rowids up to it were stored as they closed (inner first) */
	struct op_step_span *spans; /* the file's ProfilerStep#N ops, as they came; owned */
	size_t nspans, capspans;
	struct profdb__op_held *held; /* closed ops not stored yet, as they closed; owned */
	size_t nheld, capheld;
	int hold_off;              /* the file's ops go to the op batch as they close */
};

/* A file's runtime calls (launch rows) as stored, kept until it ends. */
struct profdb__call_kept {
	int64_t rowid, rank, tid, start, dur, corr, name_id;
	int tid_null;
};
struct profdb__calls_kept {
	struct profdb__call_kept *v; /* owned */
	size_t n, cap;
	int off;                   /* not kept for this file (too many, a rank fix-up, no name) */
	struct profdb__link_op *links; /* v as op_link's items, sorted; owned */
	size_t caplinks;
	struct profdb__rt_row *rows; /* the calls' op rows from the sweep, in id order; owned */
	size_t nrows, caprows;
	int swept;                 /* rows hold this file's: runtime_ops.c need not run */
};

/* A file's launches on their way to the batch in correlation order
 * (launch_order.c): a binary heap, owned. */
struct profdb__launch_item;
struct profdb__launch_window {
	struct profdb__launch_item *v;
	size_t n, cap;
	int64_t seq;               /* arrivals so far: ties keep their order */
};

/* What the store tracks about the source file being stored (one at a
 * time: parallel readers' records are replayed file by file, qsink.c). */
struct profdb__source_state {
	int64_t id;                /* source_file row, 0 = none */
	int64_t stored;            /* rows stored since source_begin */
	int64_t nkernels, nops, nlaunches; /* of which kernels, ops; and launch rows */
	int64_t nmemory;           /* memory rows (schema 012), found by source_id */
	int64_t nopmem;            /* op_memory rows (schema 014), likewise */
	/* of its kernels with both ids: some have them equal, some not (the
	 * External ids are correlation ids when only the first: op_link.c) */
	int kext_equal, kext_differ;
	/* and the ids of each, for its links and its ops' device times in
	 * memory (ops_held.c); off (and freed) when its ops are not held, past
	 * link_calls_max kernels, or after a rank fix-up: those read the
	 * kernel table */
	struct profdb__kernel_ids *kids; /* owned */
	size_t nkids, capkids;
	int kids_off;
	/* its kernel rows held in their batch until its links are known, so
	 * that their External ids go in right (store.c kernels_hold): 0 not
	 * decided yet, 1 held, -1 not */
	int khold;
	struct profdb__skip_count *skips;  /* per reason */
	size_t nskips;
	/* the file's kernel and launch rows, for rank_fixup: runs of ids, one
	 * each while nothing else goes between a file's rows;
	 * and its ops sent with nest = 1, nested at source_end (op_nest.c) */
	struct profdb__row_runs kernels, launches, ops;
	struct profdb__op_stream opn;
	struct profdb__kstep_file ks; /* its runtime calls, for its kernels' steps */
	struct profdb__calls_kept calls; /* its runtime calls, for op_link and runtime_ops */
	struct profdb__launch_window lwin; /* its launches not in the batch yet */
};

struct profdb__op_rows;
struct profdb__flusher;
struct profdb__texts;

struct profdb_store {
	profdb *db;
	int64_t run_id;
	sqlite3_stmt *stmt[S_COUNT];
	struct profdb__intern *str; /* owned: the str table's map */
	struct profdb_sink sink;
	struct profdb_err err;
	/* the file being stored: one at a time at any -j, the readers' records
	 * replayed one file after the other (qsink.c) */
	struct profdb__source_state src;
	char *format;              /* owned */
	int64_t cache_was;         /* the connection's cache_size before the ingest */
	int fk_off;                /* foreign keys were switched off for the ingest */
	struct profdb__name_stats *names; /* owned: kernel_name_stat of the run */
	struct profdb__step_sums *sums;   /* owned: kernel_step_stat of the run, while valid */
	void (*phase)(void *arg, const char *what); /* what the commit is doing; may be NULL */
	void *phase_arg;
	char *metrics;             /* owned: JSON text of the current kernel's metrics */
	size_t metrics_cap;
	/* kernel and launch rows, inserted a batch at a time (store_batch.c)
	 * with ids counted from the tables' max(id) at BEGIN IMMEDIATE: the
	 * transaction holds the write lock, so nothing else takes one */
	struct profdb__batch *kernels, *launches; /* owned */
	/* kernel_coll rows (schema 007), flushed after their kernels: the
	 * foreign key is checked at once when a run is replaced */
	struct profdb__batch *colls;  /* owned */
	int64_t next_kernel_id, next_launch_id;
	/* op rows likewise (both the nested ones, store_ops.c, and the rest):
	 * flushed by profdb__store_flush and profdb__store_ops_flush, before
	 * anything reads or updates op */
	struct profdb__batch *ops;    /* owned */
	int64_t next_op_id;
	/* while a parallel ingest lasts: the thread the batches' INSERTs run
	 * on (store_async.c); NULL: they run on the store's thread */
	struct profdb__flusher *flusher; /* owned */
	struct profdb__texts *texts; /* owned: new texts waiting for the flusher (store_async.c) */
	int64_t next_source_id;    /* source_file ids, counted like the rows' */
	struct profdb__op_rows *oprows; /* owned: a file's held op rows (op_rows.c) */
	/* the held op rows stored without a step (a later file's step may hold
	 * them): while every op row went in that way (ops_elsewhere 0), the
	 * commit's op step UPDATE visits these, not every op of the run */
	struct profdb__row_runs op_nostep;
	int ops_elsewhere;
	/* op rows stored, or set, with an External id and no device_self_ns
	 * (or more: it only has to be 0 when there are none): the commit's
	 * device-time UPDATE, a scan of all the run's ops, runs only if > 0 */
	int64_t ops_no_device;
	/* kernels' steps through their launches, set as they are written
	 * (kernel_step.c); the rows that took one, for the commit's check */
	struct profdb__kstep *ksteps;  /* owned */
	struct profdb__row_runs kguessed;
	/* ops_held.c: the held ops' array of the last file that ended, and the
	 * array of its ops for op_link, kept for the next file (fresh arrays
	 * each file cost 6% of ranks8's -j2 CPU samples in page faults) */
	struct profdb__op_held *held_spare; /* owned */
	size_t held_spare_cap;
	struct profdb__link_op *link_ops; /* owned */
	size_t link_cap;
};

/* Note rowid id as written for the current file, in its runs r (for
 * rank_fixup, op_link and the op pass). */
int profdb__store_note_row(struct profdb_store *st, struct profdb__row_runs *r, int64_t id);

/* store_ops.c.  One op row into the op batch, with the next op id. */
int profdb__store_op_insert(struct profdb_store *st, const struct profdb__op_pending *p, int64_t self,
                            int64_t dev_self, int64_t dev_total);

/* The pass that gives a file's nested ops their steps and device times,
 * fed their rows in the order they closed (store_ops.c's after_file from
 * the table, ops_held.c from memory).  Zero-initialise. */
struct profdb__op_pass {
	struct profdb_store *st;
	struct profdb__dev_times dev;
	struct profdb__pass_thread *threads; /* owned */
	size_t nthreads, capthreads;
};
/* What a row of the pass becomes; changed 0: as it was stored. */
struct profdb__op_final {
	int64_t step, dev_self, dev_total;
	int changed;
};
/* Load the device times of the current file's kernels: with kept, from
 * their ids in memory when the store kept them (linked by then: ops_held.c),
 * else from the table, after the writes in flight. */
int profdb__op_pass_begin(struct profdb__op_pass *p, struct profdb_store *st, int kept);
/* The op of log code code, stored with rank, tid, ext and step, whose
 * start is in step at (profdb_step_at) */
int profdb__op_pass_row(struct profdb__op_pass *p, uint32_t code, int64_t rank, int64_t tid, int64_t ext,
                        int64_t step, int64_t at, struct profdb__op_final *f);
void profdb__op_pass_end(struct profdb__op_pass *p);

/* ops_held.c.  Op row p, closed: held while the file fits the budget, else
 * into the op batch (profdb__store_op_insert). */
int profdb__store_op_put(struct profdb_store *st, const struct profdb__op_pending *p, int64_t self,
                         int64_t dev_self, int64_t dev_total);
/* The held ops into the op batch as they would have gone when they
 * closed; the rest of the file's ops go there as they close. */
int profdb__store_ops_release(struct profdb_store *st);
/* At the file's end (its rows flushed, its open ops closed): if its ops
 * are held, link its kernels (op_link.c), give the ops their steps and
 * device times and store them; *done 0 when the ops were not held (or
 * the file has too many runtime calls: then they are released), and the
 * passes over the table are to run. */
int profdb__store_ops_end_held(struct profdb_store *st, int *done);
void profdb__store_ops_held_free(struct profdb__op_stream *s);
/* The arrays kept for the next file (profdb_store's held_spare, link_ops). */
void profdb__store_ops_held_done(struct profdb_store *st);

/* store_ops.c.  An op sent with nest = 1 (counted, stored when it closes). */
int profdb__store_op_nest(struct profdb_store *st, const struct profdb_op_rec *o);
/* Store the current file's open ops (its ops are all in: rank_fixup,
 * source_end): into the op batch (close), and the batch into the table
 * (flush), so that the op table can be read. */
int profdb__store_ops_close(struct profdb_store *st);
int profdb__store_ops_flush(struct profdb_store *st);
/* After flush and op_link: steps and device times of the file's ops (the
 * step index registered by the caller). */
int profdb__store_ops_finish(struct profdb_store *st);

/* runtime_ops.c.  After the file's ops are stored and nested: its runtime
 * calls as ops of their own, their time out of the op holding each. */
int profdb__runtime_ops(struct profdb_store *st);

#define PROFDB__RUNTIME_CATEGORY "runtime" /* the category of a runtime call's op row */

/* An op or runtime call of the sweep, in its order: rank, tid (NULL
 * first), start, dur descending, ops before calls, self, id. */
struct profdb__rt_item {
	int64_t rank, tid, start, dur;
	int64_t self;              /* op: its self time as stored; call: unused */
	int64_t id;                /* op: its row (or held index); call: its launch rowid */
	int tid_null, call;
};
/* An event open on the sweep's stack. */
struct profdb__rt_open {
	int64_t id, start, end, self, kids; /* kids: the durations of its direct children */
};
/* The sweep's state; where its rows come from and go to is the callbacks'. */
struct profdb__rt_sweep {
	struct profdb_store *st;
	int64_t cat_id;            /* str id of PROFDB__RUNTIME_CATEGORY */
	struct profdb__rt_open *stack; /* owned */
	size_t top, cap;
	int64_t rank, tid;         /* the thread of what the stack holds */
	int tid_null, first;       /* first: nothing swept yet (set it to 1) */
	/* an open event o closes with a self time other than o->self */
	int (*set_self)(struct profdb__rt_sweep *w, const struct profdb__rt_open *o, int64_t self);
	/* call it becomes an op row: *id its op id */
	int (*add_call)(struct profdb__rt_sweep *w, const struct profdb__rt_item *it, int64_t *id);
};
/* The next item, in the order above. */
int profdb__rt_sweep_item(struct profdb__rt_sweep *w, const struct profdb__rt_item *it);
/* Close what is open, free the stack. */
int profdb__rt_sweep_end(struct profdb__rt_sweep *w);

/* runtime_held.c.  A file's runtime calls (its launch rows) kept in memory
 * as they are stored, for op_link and the runtime sweep at the file's end. */
void profdb__calls_reset(struct profdb__calls_kept *k);
void profdb__calls_free(struct profdb__calls_kept *k);
/* Launch row id, just added to the launch batch, as l; stops keeping
 * (frees) past link_calls_max or on a call without a name. */
int profdb__calls_keep(struct profdb_store *st, int64_t id, const struct profdb_launch_rec *l);
/* The kept calls as op_link's items, sorted; NULL when they are not kept
 * (the caller reads them from the table).  Borrowed from st->src. */
const struct profdb__link_op *profdb__calls_linked(struct profdb_store *st, size_t *n);
/* The file's held ops (ops_held.c) and its kept calls through the sweep:
 * the held ops' self times corrected in place, the calls' op rows made
 * (profdb__calls_append adds them to the held ops, after them).
 * *done 0 when the calls are not kept: runtime_ops.c then runs after. */
int profdb__calls_sweep_held(struct profdb_store *st, int *done);
int profdb__calls_append(struct profdb_store *st, const struct profdb__step_index *ix);
void profdb__store_ops_reset(struct profdb__op_stream *s);
void profdb__store_ops_free(struct profdb__op_stream *s);
/* kernels_held.c.  Keep the kernel's ids (for the current file); start
 * holding its file's kernel rows at its first kernel when that pays;
 * whether the file's kernel rows are all still held (with their ids
 * kept); set their External ids from the kept ids; hand them over (and end
 * the hold). */
int profdb__store_kernel_ids(struct profdb_store *st, const struct profdb_kernel_rec *k);
int profdb__store_kernels_hold(struct profdb_store *st, const struct profdb_kernel_rec *k);
int profdb__store_kernels_held(const struct profdb_store *st);
void profdb__store_kernels_patch(struct profdb_store *st);
int profdb__store_kernels_release(struct profdb_store *st);
/* store_async.c.  Wait for the batches in flight: before any other use
 * of the connection (no-op without a flusher). */
int profdb__store_sync(struct profdb_store *st);
/* The batches' pending rows (kernels and their collective args only when
 * kernels), in profdb__store_flush's order: to the flusher inside its
 * window, else inserted now. */
int profdb__store_hand_over(struct profdb_store *st, int kernels);
/* Open (1) or close (0) the window where full batches go to the flusher. */
void profdb__store_window(struct profdb_store *st, int open);
/* Hand job to the flusher (there must be one); wait until job is done (no
 * flusher: at once).  PROFDB_OK or an error (st->err). */
struct profdb__flush_job;
int profdb__store_submit(struct profdb_store *st, struct profdb__flush_job *job);
int profdb__store_wait(struct profdb_store *st, const struct profdb__flush_job *job);
/* A value bound to a statement that profdb__store_run steps: texts and
 * blobs are copied when the statement waits for the flusher. */
enum { PROFDB__VAL_NULL, PROFDB__VAL_INT, PROFDB__VAL_REAL, PROFDB__VAL_TEXT, PROFDB__VAL_BLOB };
struct profdb__val {
	int type;
	int64_t i;
	double r;
	const void *p;
	size_t len;
};
static inline struct profdb__val profdb__val_int(int64_t v)
{
	return (struct profdb__val){ .type = PROFDB__VAL_INT, .i = v };
}
static inline struct profdb__val profdb__val_i64(int64_t v) /* PROFDB_NULL: NULL */
{
	return (struct profdb__val){ .type = v == PROFDB_NULL ? PROFDB__VAL_NULL : PROFDB__VAL_INT, .i = v };
}
static inline struct profdb__val profdb__val_real(double v)
{
	return (struct profdb__val){ .type = PROFDB__VAL_REAL, .r = v };
}
static inline struct profdb__val profdb__val_text(const char *s) /* NULL: NULL */
{
	return (struct profdb__val){ .type = s ? PROFDB__VAL_TEXT : PROFDB__VAL_NULL, .p = s, .len = s ? strlen(s) : 0 };
}
static inline struct profdb__val profdb__val_blob(const void *p, size_t len) /* NULL: NULL */
{
	return (struct profdb__val){ .type = p ? PROFDB__VAL_BLOB : PROFDB__VAL_NULL, .p = p, .len = len };
}
/* Bind v[0..n) to q's parameters 1..n and step it: on the flusher when
 * there is one, else now.  For statements whose result the store does not
 * read.  PROFDB_OK or an error (st->err, "storing <what>: ..."). */
int profdb__store_run(struct profdb_store *st, sqlite3_stmt *q, const struct profdb__val *v, int n,
                      const char *what);
/* A launch's row into the batch, its name interned already (0: none), its
 * id the next; kept for the file's calls (store.c). */
int profdb__store_launch_row(struct profdb_store *st, const struct profdb_launch_rec *l, int64_t name_id);
/* The current file's launches through their window (launch_order.c): add
 * one (the lowest may go on to the batch), or send all, before anything
 * reads the file's launch rows; free the window. */
int profdb__launches_add(struct profdb_store *st, const struct profdb_launch_rec *l);
int profdb__launches_drain(struct profdb_store *st);
void profdb__launch_window_free(struct profdb__launch_window *w);
/* intern.c's hook for a text new to the table, whose id the map chose
 * (profdb__intern_hold_all): its row goes in through profdb__store_run. */
int profdb__store_intern_add(void *arg, int64_t id, const char *s);
/* Insert the pending batches: before anything reads op, kernel or launch. */
int profdb__store_flush(struct profdb_store *st);

/* st->err set to "storing <what>: <SQLite's message>"; returns its code. */
int profdb__store_fail(struct profdb_store *st, const char *what);
/* Step q on the store's thread (synced first by the caller), reset it and
 * clear its bindings: PROFDB_OK, or profdb__store_fail(st, what). */
int profdb__store_step_done(struct profdb_store *st, sqlite3_stmt *q, const char *what);
/* A record's rank: PROFDB_NULL (none given) is rank 0. */
static inline int64_t profdb__store_rank(int64_t rank)
{
	return rank == PROFDB_NULL ? 0 : rank;
}
/* Bind v to q's parameter i, PROFDB_NULL as NULL. */
static inline void profdb__store_bind_i64(sqlite3_stmt *q, int i, int64_t v)
{
	if (v == PROFDB_NULL)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_int64(q, i, v);
}

/* The sink's callbacks for records that go to one statement each
 * (store_records.c) and for a Kineto file's late rank (rank_fixup.c). */
struct profdb_step_rec;
struct profdb_comm_rec;
struct profdb_mem_rec;
struct profdb_opmem_rec;
int profdb__store_on_step(void *arg, const struct profdb_step_rec *s);
int profdb__store_on_step_metric(void *arg, int64_t rank, int64_t step, const char *metric, double value);
int profdb__store_on_comm(void *arg, const struct profdb_comm_rec *c);
int profdb__store_on_memory(void *arg, const struct profdb_mem_rec *m);
int profdb__store_on_op_memory(void *arg, const struct profdb_opmem_rec *m);
int profdb__store_on_meta(void *arg, int64_t rank, const char *key, const char *value);
int profdb__store_on_note(void *arg, const char *note);
int profdb__store_on_rank_fixup(void *arg, int64_t guessed, int64_t rank, int64_t offset);

/* Free st and put the connection's settings back (no ROLLBACK). */
void profdb__store_free(struct profdb_store *st);
/* Run sql on db; the SQLite message becomes db's error. */
int profdb__store_exec(profdb *db, const char *sql);

#endif
