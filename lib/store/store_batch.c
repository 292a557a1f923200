/*
 * store_batch.c - a table's rows gathered in memory and inserted in one
 * statement per batch, through an eponymous virtual table that reads the
 * batch (rows_vtab.c; store_batch.h says why).
 *
 * Values are kept as typed cells and handed to SQLite with the same types
 * a bound parameter would have, so the rows stored are those of one
 * INSERT per row, with the ids the caller chose.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "store_batch.h"
#include "batch_flusher.h"
#include "rows_vtab.h"
#include "banned.h"

enum { CELL_NULL, CELL_INT, CELL_TEXT };

struct cell {
	int64_t v;                 /* the integer, or the text's offset in text */
	uint32_t len;              /* text length */
	uint8_t type;              /* CELL_* */
};

/* Rows in memory: cap x ncols cells, text apart. */
struct rows {
	struct cell *cells;        /* owned */
	size_t n;                  /* rows added */
	size_t cap;                /* b->rows, more while held (profdb__batch_hold) */
	char *text;                /* owned: the text cells' bytes */
	size_t text_len, text_cap;
	uint64_t used;             /* bit c: column c was set in some row (below 64) */
};

/*
 * Two sets of rows: the caller adds to fill; a flush swaps fill and flight
 * and the INSERT reads flight, on the caller's thread or, with a flusher,
 * on the flusher's while the caller fills the other set.
 */
struct profdb__batch {
	struct profdb__rows_src src; /* flight, read by ins's virtual table */
	struct profdb__rows_insert ins; /* module "profdb_batch_<table>" and its INSERT */
	int ncols;
	struct rows fill, flight;
	struct profdb__flusher *flusher; /* NULL: flushes run on the caller's thread */
	struct profdb__flush_job job;    /* flight's INSERT, handed to flusher */
	size_t hold_rows;          /* while held, fill grows to this before it flushes; 0: not held */
	size_t rows;               /* rows a set holds: PROFDB_BATCH_BYTES of cells */
	int rowid_first;           /* column 0 is the table's rowid (profdb__batch_rowid_first) */
	profdb__batch_sent_fn sent; /* told of each set as it is sent; NULL: none */
	void *sent_arg;
};

/* The rows in flight, as the virtual table's source. */
static size_t src_count(const struct profdb__rows_src *src)
{
	const struct profdb__batch *b = (const struct profdb__batch *)(const void *)
		((const char *)src - offsetof(struct profdb__batch, src));
	return b->flight.n;
}

static void src_column(const struct profdb__rows_src *src, size_t row, int col, sqlite3_context *ctx)
{
	const struct profdb__batch *b = (const struct profdb__batch *)(const void *)
		((const char *)src - offsetof(struct profdb__batch, src));
	const struct cell *x = &b->flight.cells[row * (size_t)b->ncols + (size_t)col];
	if (x->type == CELL_INT)
		sqlite3_result_int64(ctx, x->v);
	else if (x->type == CELL_TEXT) /* the batch's text outlives the statement */
		sqlite3_result_text(ctx, b->flight.text + x->v, (int)x->len, SQLITE_STATIC);
	/* else NULL: a function's result is NULL unless set */
}

/* ---------------------------------------------------------------- the batch */

void profdb__batch_rowid_first(struct profdb__batch *b)
{
	b->rowid_first = 1;
}

void profdb__batch_set_flusher(struct profdb__batch *b, struct profdb__flusher *f)
{
	b->flusher = f;
}

static void drop_flight(struct profdb__batch *b)
{
	b->flight.n = 0;
	b->flight.text_len = 0;
	b->flight.used = 0;
}

/* Whether column 0 of r's rows holds consecutive ids, the first in
 * *first. */
static int consecutive_ids(const struct rows *r, int ncols, int64_t *first)
{
	const struct cell *x = r->cells;
	if (r->n == 0 || x->type != CELL_INT)
		return 0;
	*first = x->v;
	for (size_t i = 1; i < r->n; i++)
		if (x[i * (size_t)ncols].type != CELL_INT || x[i * (size_t)ncols].v != *first + (int64_t)i)
			return 0;
	return 1;
}

/* The columns no row set stay out of the INSERT (rows_vtab.h). */
static int insert_flight(struct profdb__batch *b)
{
	int64_t first;
	int rc = b->rowid_first && consecutive_ids(&b->flight, b->ncols, &first)
	         ? profdb__rows_insert_run_ids(&b->ins, b->flight.used, first, NULL)
	         : profdb__rows_insert_run_cols(&b->ins, b->flight.used);
	drop_flight(b);
	return rc;
}

static struct profdb__batch *batch_of(struct profdb__flush_job *job)
{
	return (struct profdb__batch *)(void *)((char *)job - offsetof(struct profdb__batch, job));
}

static int job_run(struct profdb__flush_job *job)
{
	return insert_flight(batch_of(job));
}

static void job_drop(struct profdb__flush_job *job)
{
	drop_flight(batch_of(job));
}

static size_t rows_bytes(const struct profdb__batch *b, size_t rows)
{
	return rows * (size_t)b->ncols * sizeof(struct cell);
}

int profdb__batch_new(struct profdb__batch **out, sqlite3 *db, const char *table, const char *cols,
                      int ncols)
{
	struct profdb__batch *b;
	int rc;

	*out = NULL;
	b = calloc(1, sizeof *b);
	if (!b)
		return SQLITE_NOMEM;
	b->ncols = ncols;
	b->src = (struct profdb__rows_src){ .ncols = ncols, .count = src_count, .column = src_column };
	b->job = (struct profdb__flush_job){ .run = job_run, .drop = job_drop, .what = table, .urgent = 1 };
	b->rows = PROFDB_BATCH_BYTES / rows_bytes(b, 1);
	b->fill.cells = malloc(rows_bytes(b, b->rows));
	b->flight.cells = malloc(rows_bytes(b, b->rows));
	b->fill.cap = b->flight.cap = b->rows;
	if (!b->fill.cells || !b->flight.cells) {
		profdb__batch_free(b);
		return SQLITE_NOMEM;
	}
	if ((rc = profdb__rows_insert_new(&b->ins, db, "batch", table, cols, &b->src)) != SQLITE_OK) {
		profdb__batch_free(b);
		return rc;
	}
	*out = b;
	return SQLITE_OK;
}

void profdb__batch_free(struct profdb__batch *b)
{
	if (!b)
		return;
	profdb__rows_insert_free(&b->ins);
	free(b->fill.cells);
	free(b->fill.text);
	free(b->flight.cells);
	free(b->flight.text);
	free(b);
}

/* The filled rows become the ones in flight, and the set just inserted
 * (empty) is filled next: back to the usual size if it had grown while
 * held, so that one set at most is large. */
static void swap(struct profdb__batch *b)
{
	struct rows t = b->flight;
	b->flight = b->fill;
	b->fill = t;
	if (b->sent)
		b->sent(b->sent_arg, b, b->flight.n);
	if (b->fill.cap > b->rows && !b->hold_rows) {
		struct cell *c = realloc(b->fill.cells, rows_bytes(b, b->rows));
		if (c) { /* else it stays as large: still correct */
			b->fill.cells = c;
			b->fill.cap = b->rows;
		}
	}
}

void profdb__batch_hold(struct profdb__batch *b, size_t max_bytes)
{
	profdb__batch_hold_rows(b, max_bytes / rows_bytes(b, 1));
}

void profdb__batch_hold_rows(struct profdb__batch *b, size_t rows)
{
	b->hold_rows = rows > b->rows ? rows : 0;
}

/* Room for twice the rows in fill (up to hold_rows); SQLITE_NOMEM. */
static int grow(struct profdb__batch *b)
{
	size_t cap = b->fill.cap * 2 < b->hold_rows ? b->fill.cap * 2 : b->hold_rows;
	struct cell *c = realloc(b->fill.cells, rows_bytes(b, cap));
	if (!c)
		return SQLITE_NOMEM;
	b->fill.cells = c;
	b->fill.cap = cap;
	return SQLITE_OK;
}

int profdb__batch_flush(struct profdb__batch *b)
{
	int rc;
	/* everything handed over goes in first, in order */
	if (b->flusher && (rc = profdb__flusher_sync(b->flusher)) != SQLITE_OK)
		return rc;
	if (b->fill.n == 0)
		return SQLITE_OK;
	swap(b);
	return insert_flight(b);
}

/* A full batch: to the flusher inside its window, else inserted now. */
static int flush_full(struct profdb__batch *b)
{
	int rc;
	if (!b->flusher || !profdb__flusher_window_open(b->flusher))
		return profdb__batch_flush(b);
	if ((rc = profdb__flusher_wait(b->flusher, &b->job)) != SQLITE_OK)
		return rc;
	swap(b);
	return profdb__flusher_submit(b->flusher, &b->job);
}

int profdb__batch_hand_over(struct profdb__batch *b)
{
	return b->fill.n ? flush_full(b) : SQLITE_OK;
}

int profdb__batch_row(struct profdb__batch *b)
{
	int rc;
	struct cell *row;
	if (b->fill.n == b->fill.cap &&
	    (rc = b->hold_rows > b->fill.cap ? grow(b) : flush_full(b)) != SQLITE_OK)
		return rc;
	row = &b->fill.cells[b->fill.n * (size_t)b->ncols];
	memset(row, 0, (size_t)b->ncols * sizeof *row); /* CELL_NULL is 0 */
	b->fill.n++;
	return SQLITE_OK;
}

void profdb__batch_on_sent(struct profdb__batch *b, profdb__batch_sent_fn fn, void *arg)
{
	b->sent = fn;
	b->sent_arg = arg;
}

int64_t profdb__batch_sent_get(const struct profdb__batch *b, size_t row, int col)
{
	const struct cell *x = &b->flight.cells[row * (size_t)b->ncols + (size_t)col];
	return x->type == CELL_INT ? x->v : PROFDB_NULL;
}

int64_t profdb__batch_get(const struct profdb__batch *b, size_t row, int col)
{
	const struct cell *x = &b->fill.cells[row * (size_t)b->ncols + (size_t)col];
	return x->type == CELL_INT ? x->v : PROFDB_NULL;
}

/* A column once set stays in the INSERT, even when set back to NULL. */
static void mark_used(struct rows *r, int col)
{
	if (col < 64)
		r->used |= (uint64_t)1 << col;
}

void profdb__batch_set(struct profdb__batch *b, size_t row, int col, int64_t v)
{
	struct cell *x = &b->fill.cells[row * (size_t)b->ncols + (size_t)col];
	x->type = v == PROFDB_NULL ? CELL_NULL : CELL_INT;
	x->v = v;
	mark_used(&b->fill, col);
}

static struct cell *cell_of(struct profdb__batch *b, int col)
{
	return &b->fill.cells[(b->fill.n - 1) * (size_t)b->ncols + (size_t)col];
}

void profdb__batch_int(struct profdb__batch *b, int col, int64_t v)
{
	struct cell *x = cell_of(b, col);
	x->type = CELL_INT;
	x->v = v;
	mark_used(&b->fill, col);
}

void profdb__batch_i64(struct profdb__batch *b, int col, int64_t v)
{
	if (v != PROFDB_NULL)
		profdb__batch_int(b, col, v);
	else
		cell_of(b, col)->type = CELL_NULL;
}

void profdb__batch_null(struct profdb__batch *b, int col)
{
	cell_of(b, col)->type = CELL_NULL;
}

int profdb__batch_text(struct profdb__batch *b, int col, const char *s)
{
	struct rows *r = &b->fill;
	size_t len = strlen(s);
	struct cell *x;
	if (len > UINT32_MAX)
		return -1;
	if (r->text_len + len + 1 > r->text_cap) {
		size_t cap = r->text_cap ? r->text_cap : 4096;
		char *t;
		while (cap < r->text_len + len + 1)
			cap *= 2;
		if (!(t = realloc(r->text, cap)))
			return -1;
		r->text = t;
		r->text_cap = cap;
	}
	memcpy(r->text + r->text_len, s, len + 1);
	x = cell_of(b, col);
	mark_used(r, col);
	x->type = CELL_TEXT;
	x->v = (int64_t)r->text_len;
	x->len = (uint32_t)len;
	r->text_len += len + 1;
	return 0;
}

size_t profdb__batch_rows(const struct profdb__batch *b)
{
	return b->rows;
}

int profdb__batch_full(const struct profdb__batch *b)
{
	return b->fill.n >= b->rows;
}

size_t profdb__batch_pending(const struct profdb__batch *b)
{
	return b->fill.n;
}
