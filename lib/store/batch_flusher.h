/*
 * batch_flusher.h - the store's writes on a thread of their own, run in
 * the order they were handed over (batch_flusher.c).  Private to the
 * store.
 *
 * Why: in a parallel ingest the store's thread did two jobs, building rows
 * (replaying the readers' records, nesting ops, linking kernels, interning)
 * and SQLite's INSERTs, two thirds of its CPU.  With the writes on a
 * thread of their own the two overlap, so the store's thread no longer
 * bounds the ingest at the sum of both (bench/results.md, issue 37).
 *
 * A write is a job: a full batch (store_batch.c), a file's held op rows
 * (op_rows.c), one statement with its values (store_async.c).  The
 * connection is opened NOMUTEX (one thread at a time, db.c): while a job
 * is with the flusher, the thread that handed it over must not touch the
 * connection at all.  So full batches go to the flusher only inside a
 * window the caller opens around code that only fills batches (elsewhere
 * they are inserted on the caller's thread, after a sync), and
 * profdb__flusher_sync, which waits until the flusher is idle, comes
 * before every other use of the connection (any statement, prepare,
 * create_function, errmsg).  A statement started by another thread while
 * a job is in flight is caught (a trace callback) and fails the next
 * sync, so that a missing sync shows in the tests.
 */
#ifndef PROFDB_BATCH_FLUSHER_H
#define PROFDB_BATCH_FLUSHER_H

#include <sqlite3.h>

struct profdb__flusher;

/* One write, embedded in whatever owns its data.  run returns an SQLite
 * result code, or PROFDB__FLUSH_AGAIN when it did a part and wants to be
 * run again (after any urgent job); after an earlier job failed, drop
 * runs instead (it may be NULL).  Either may free the job (a job the
 * flusher owns) when it is done. */
struct profdb__flush_job {
	int (*run)(struct profdb__flush_job *job);
	void (*drop)(struct profdb__flush_job *job);
	const char *what;          /* for the message: "op", "source file", ... */
	int urgent;                /* run before the others waiting (full batches) */
	struct profdb__flush_job *next; /* the flusher's queue */
};
#define PROFDB__FLUSH_AGAIN (-1)

/* CONSTRUCTOR: start the flusher thread for connection db.  Returns an
 * SQLite result code (SQLITE_NOMEM, SQLITE_ERROR when no thread starts). */
int profdb__flusher_start(struct profdb__flusher **out, sqlite3 *db);
/* DESTRUCTOR: wait for the jobs in flight, stop the thread.  Returns the
 * first error (as profdb__flusher_sync).  NULL: no-op. */
int profdb__flusher_stop(struct profdb__flusher *f);

/* Work for the flusher's idle moments, which must not touch the
 * connection: fill(arg) does a short piece of it and returns non-zero
 * while more remains; the flusher calls it while no job waits, until it
 * returns 0, another filler replaces it (NULL: none) or the flusher
 * stops.  A piece under way when it is replaced still finishes: arg must
 * live until profdb__flusher_stop.  Syncs do not wait for it. */
void profdb__flusher_set_filler(struct profdb__flusher *f, int (*fill)(void *arg), void *arg);

/* Open (1) or close (0) the window in which full batches go to the
 * flusher; closed at the start.  Only the submitting thread calls these. */
void profdb__flusher_window(struct profdb__flusher *f, int open);
int profdb__flusher_window_open(const struct profdb__flusher *f);

/* Hand job over, to run after those before it in its queue (urgent or
 * not).  It must not be in flight
 * (profdb__flusher_wait).  After an error, the error (job dropped). */
int profdb__flusher_submit(struct profdb__flusher *f, struct profdb__flush_job *job);
/* Wait until job is no longer in flight; the first error of any job
 * (SQLite result code), SQLITE_OK if none. */
int profdb__flusher_wait(struct profdb__flusher *f, const struct profdb__flush_job *job);
/* Wait until nothing is in flight; the first error, as above.  After it,
 * the calling thread may use the connection. */
int profdb__flusher_sync(struct profdb__flusher *f);
/* The first error's message ("storing op: ..."), "" if none.  Valid until
 * the flusher stops; read it after a sync. */
const char *profdb__flusher_errmsg(const struct profdb__flusher *f);

#endif
