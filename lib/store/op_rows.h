/*
 * op_rows.h - a file's held op rows (ops_held.c), final, inserted from the
 * array they are held in (op_rows.c).  Private to the store.
 *
 * Why: at a file's end its held ops and runtime calls go into the op
 * table at once (65 000 rows a file of 8 x HTA's control trace).  Through
 * the op batch that is a copy of every value into cells and, in a
 * parallel ingest, the store's thread waiting on each batch's INSERT in
 * turn.  Handed over as the array, the rows cost no copy and the store's
 * thread goes on to the next file while the flusher inserts them.
 */
#ifndef PROFDB_OP_ROWS_H
#define PROFDB_OP_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

struct profdb__op_held;
struct profdb__flush_job;
struct profdb__op_rows;

/* CONSTRUCTOR: the INSERT of op rows of run run_id into op's columns cols
 * (store.c's op_cols, less its leading ", "), on db.  SQLite result code. */
int profdb__op_rows_new(struct profdb__op_rows **out, sqlite3 *db, int64_t run_id, const char *cols);
/* DESTRUCTOR: frees the array it holds.  NULL: no-op. */
void profdb__op_rows_free(struct profdb__op_rows *r);

/* The rows to insert next: v[0..n), row i with id first_id + i, in an
 * array of cap rows that r owns from now on.  The array of the rows set
 * before goes back to the caller (*old, *oldcap; NULL when none): the
 * insert of those must be done (or never started). */
void profdb__op_rows_set(struct profdb__op_rows *r, struct profdb__op_held *v, size_t n, size_t cap,
                         int64_t first_id, struct profdb__op_held **old, size_t *oldcap);
/*
 * Sort v[0..n) in place by rank, thread and start, stable (ops of one
 * start keep the order they closed in): the order of op_run_tid, so that
 * the rows' ids (their places) and each index entry land at the ends of
 * their B-trees instead of a descent from the root each.  Where the order
 * cannot be made (out of memory, more than 64 threads, a row without a
 * start) v stays as it is.  Made on the store's thread before the ids are
 * given: the rows stored do not depend on -j.
 */
void profdb__op_rows_sort(struct profdb__op_held *v, size_t n);
/* The INSERT of the rows set, as a job for the flusher (batch_flusher.h);
 * or run at once: SQLite result code. */
struct profdb__flush_job *profdb__op_rows_job(struct profdb__op_rows *r);
int profdb__op_rows_insert(struct profdb__op_rows *r);

#endif
