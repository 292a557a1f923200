/*
 * store_batch.h - rows of one table gathered in memory and inserted
 * a batch at a time by one "INSERT INTO t(cols) SELECT * FROM
 * <batch>" (store_batch.c, over rows_vtab.c, which says why).  Private to
 * the store.
 *
 * Use: profdb__batch_row, then one profdb__batch_int/_i64/_null/_text per
 * column; the batch flushes itself when full; flush it before anything
 * reads the table (the rows are not there until then).  The table's id
 * column, when it is one of cols, is the caller's to fill (ids assigned
 * from max(id), so that the caller knows each row's id as it adds it).
 */
#ifndef PROFDB_STORE_BATCH_H
#define PROFDB_STORE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/* Rows a batch inserts at once: any number from 256 to 65536 ingests as
 * fast.  A batch holds two sets (one filling, one being inserted) of this
 * many bytes of cells each (16 a value): 2048 op rows, 1081 kernel rows,
 * 5120 launch rows.  Equal bytes rather than rows: a narrow table's set
 * holds more rows, so the insert thread has work queued while the store's
 * thread works out a file's end (store_async.c). */
#define PROFDB_BATCH_BYTES (640 * 1024)

struct profdb__batch;

/*
 * A batch for table's columns cols (a comma-separated list of ncols names,
 * spelled as SQL), on connection db, whose virtual table is named
 * "profdb_batch_<table>".  Returns an SQLite result code; *out is NULL on
 * error.  The batch must be freed before db is closed.
 */
int profdb__batch_new(struct profdb__batch **out, sqlite3 *db, const char *table, const char *cols,
                      int ncols);
/* Column 0 is table's rowid (its INTEGER PRIMARY KEY, or "rowid"): a set
 * of rows whose ids there are consecutive, continuing the table's, goes in
 * with the ids left to SQLite, which gives the same ones without searching
 * the table for each (profdb__rows_insert_run_ids). */
void profdb__batch_rowid_first(struct profdb__batch *b);
/* Discard the pending rows, finalize the INSERT, drop the virtual table.
 * NULL is a no-op. */
void profdb__batch_free(struct profdb__batch *b);

/* Start a row (all columns NULL); flushes first when the batch is full.
 * Returns an SQLite result code (of that flush; SQLITE_NOMEM). */
int profdb__batch_row(struct profdb__batch *b);
/* Set column col (0-based) of the current row. */
void profdb__batch_int(struct profdb__batch *b, int col, int64_t v);
void profdb__batch_i64(struct profdb__batch *b, int col, int64_t v); /* PROFDB_NULL: NULL */
void profdb__batch_null(struct profdb__batch *b, int col);
/* Text, copied; -1 when out of memory. */
int profdb__batch_text(struct profdb__batch *b, int col, const char *s);

/* Insert the pending rows, after every batch in flight on b's flusher;
 * SQLite result code (the message is on db). */
int profdb__batch_flush(struct profdb__batch *b);

/* The pending rows as a full batch's: to b's flusher inside its window,
 * else inserted now.  SQLite result code. */
int profdb__batch_hand_over(struct profdb__batch *b);

/* Hold the pending rows, up to max_bytes of cells, instead of inserting
 * each full batch: the store changes them before they go in (store.c, a
 * file's kernels until their links are known).  Past max_bytes full
 * batches go in again; 0 ends the hold (the rows stay pending). */
void profdb__batch_hold(struct profdb__batch *b, size_t max_bytes);
/* The same, up to rows rows. */
void profdb__batch_hold_rows(struct profdb__batch *b, size_t rows);

struct profdb__flusher;
/* From now on a full batch goes to flusher f (batch_flusher.h) instead of
 * being inserted by profdb__batch_row's caller; NULL: inserted there again.
 * Only while f is idle. */
void profdb__batch_set_flusher(struct profdb__batch *b, struct profdb__flusher *f);

/* Rows a set holds (what a flush when full inserts); whether the pending
 * rows are that many or more. */
size_t profdb__batch_rows(const struct profdb__batch *b);
int profdb__batch_full(const struct profdb__batch *b);
/* Rows added and not yet inserted. */
size_t profdb__batch_pending(const struct profdb__batch *b);
/* Integer column col of pending row row (0 .. pending - 1, in the order
 * added); PROFDB_NULL when it is NULL (or text).  And set it (PROFDB_NULL:
 * NULL): so that the store can change rows that are not in the table yet
 * without an UPDATE. */
int64_t profdb__batch_get(const struct profdb__batch *b, size_t row, int col);
/*
 * fn(arg, b, rows) is called with each set of rows as it is sent to the
 * table (a flush, or a full batch handed to the flusher), on the thread
 * that fills b, before the INSERT reads them: their values are final
 * then.  profdb__batch_sent_get reads them, as profdb__batch_get does the
 * pending ones (row 0 .. rows - 1).
 */
typedef void (*profdb__batch_sent_fn)(void *arg, const struct profdb__batch *b, size_t rows);
void profdb__batch_on_sent(struct profdb__batch *b, profdb__batch_sent_fn fn, void *arg);
int64_t profdb__batch_sent_get(const struct profdb__batch *b, size_t row, int col);
void profdb__batch_set(struct profdb__batch *b, size_t row, int col, int64_t v);

#endif
