/*
 * batch_flusher.h - the INSERTs of full batches (store_batch.c) on a
 * thread of their own, in the order they were handed over
 * (batch_flusher.c).  Private to the store.
 *
 * Why: in a parallel ingest the store's thread did two jobs, building rows
 * (replaying the readers' records, nesting ops, linking kernels, interning)
 * and SQLite's INSERTs, two thirds of its CPU.  With the INSERTs on a
 * thread of their own the two overlap, so the store's thread no longer
 * bounds the ingest at the sum of both (bench/results.md, issue 37).
 *
 * The connection is opened NOMUTEX (one thread at a time, db.c): while a
 * batch is with the flusher, the thread that handed it over must not touch
 * the connection at all.  So full batches go to the flusher only inside a
 * window the caller opens around code that only fills batches (elsewhere
 * they are inserted on the caller's thread, after a sync), and
 * profdb__flusher_sync, which waits until the flusher is idle, comes
 * before every other use of the connection (any statement, prepare,
 * create_function, errmsg).  A statement started by another thread while
 * a batch is in flight is caught (a trace callback) and fails the next
 * sync, so that a missing sync shows in the tests.
 */
#ifndef PROFDB_BATCH_FLUSHER_H
#define PROFDB_BATCH_FLUSHER_H

#include <sqlite3.h>

struct profdb__batch;
struct profdb__flusher;

/* CONSTRUCTOR: start the flusher thread for connection db.  Returns an
 * SQLite result code (SQLITE_NOMEM, SQLITE_ERROR when no thread starts). */
int profdb__flusher_start(struct profdb__flusher **out, sqlite3 *db);
/* DESTRUCTOR: wait for the batches in flight, stop the thread.  Returns
 * the first error of a flush not yet returned by a sync.  NULL: no-op. */
int profdb__flusher_stop(struct profdb__flusher *f);

/* Open (1) or close (0) the window in which full batches go to the
 * flusher; closed at the start.  Only the submitting thread calls these. */
void profdb__flusher_window(struct profdb__flusher *f, int open);
int profdb__flusher_window_open(const struct profdb__flusher *f);

/* Hand b over: the flusher runs profdb__batch_insert_flight(b).  b must
 * not be in flight (profdb__flusher_wait). */
int profdb__flusher_submit(struct profdb__flusher *f, struct profdb__batch *b);
/* Wait until b is no longer in flight; the first error of any flush
 * (SQLite result code), SQLITE_OK if none. */
int profdb__flusher_wait(struct profdb__flusher *f, const struct profdb__batch *b);
/* Wait until nothing is in flight; the first error, as above.  After it,
 * the calling thread may use the connection. */
int profdb__flusher_sync(struct profdb__flusher *f);

#endif
