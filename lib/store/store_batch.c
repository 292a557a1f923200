/*
 * store_batch.c - a table's rows gathered in memory and inserted in one
 * statement per batch, through an eponymous virtual table that reads the
 * batch (store_batch.h says why).
 *
 * Each batch registers its own module, "profdb_batch_<table>", whose
 * client data is the batch: the INSERT names that module as a table and
 * SQLite connects to it (eponymous-only: no CREATE VIRTUAL TABLE, nothing
 * in the schema).  Values are kept as typed cells and handed to SQLite
 * with the same types a bound parameter would have, so the rows stored
 * are those of one INSERT per row, with the ids the caller chose.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "store_batch.h"
#include "batch_flusher.h"
#include "banned.h"

enum { CELL_NULL, CELL_INT, CELL_TEXT };

struct cell {
	int64_t v;                 /* the integer, or the text's offset in text */
	uint32_t len;              /* text length */
	uint8_t type;              /* CELL_* */
};

/* Rows in memory: PROFDB_BATCH_ROWS x ncols cells, text apart. */
struct rows {
	struct cell *cells;        /* owned */
	size_t n;                  /* rows added */
	char *text;                /* owned: the text cells' bytes */
	size_t text_len, text_cap;
};

/*
 * Two sets of rows: the caller adds to fill; a flush swaps fill and flight
 * and the INSERT reads flight, on the caller's thread or, with a flusher,
 * on the flusher's while the caller fills the other set.
 */
struct profdb__batch {
	sqlite3 *db;
	char *module;              /* owned: "profdb_batch_<table>" */
	sqlite3_stmt *insert;      /* INSERT INTO table(cols) SELECT * FROM module */
	int ncols;
	struct rows fill, flight;
	struct profdb__flusher *flusher; /* NULL: flushes run on the caller's thread */
};

struct bvtab {
	sqlite3_vtab base;
	struct profdb__batch *b;
};

struct bcur {
	sqlite3_vtab_cursor base;
	size_t row;
};

/* ---------------------------------------------------------------- virtual table */

static int b_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **err)
{
	struct profdb__batch *b = aux;
	struct bvtab *t;
	char *decl;
	size_t cap = 32 + (size_t)b->ncols * 12, off;
	int rc;
	(void)argc;
	(void)argv;
	(void)err;
	decl = malloc(cap);
	if (!decl)
		return SQLITE_NOMEM;
	off = (size_t)snprintf(decl, cap, "CREATE TABLE x(");
	for (int i = 0; i < b->ncols; i++)
		off += (size_t)snprintf(decl + off, cap - off, "%sc%d", i ? "," : "", i);
	snprintf(decl + off, cap - off, ")");
	rc = sqlite3_declare_vtab(db, decl);
	free(decl);
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof *t);
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof *t);
	t->b = b;
	*out = &t->base;
	return SQLITE_OK;
}

static int b_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

static int b_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	(void)v;
	info->estimatedCost = PROFDB_BATCH_ROWS;
	info->estimatedRows = PROFDB_BATCH_ROWS;
	return SQLITE_OK;
}

static int b_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	struct bcur *c = sqlite3_malloc(sizeof *c);
	(void)v;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*out = &c->base;
	return SQLITE_OK;
}

static int b_close(sqlite3_vtab_cursor *c)
{
	sqlite3_free(c);
	return SQLITE_OK;
}

static int b_filter(sqlite3_vtab_cursor *c, int idx, const char *idxstr, int argc, sqlite3_value **argv)
{
	(void)idx;
	(void)idxstr;
	(void)argc;
	(void)argv;
	((struct bcur *)c)->row = 0;
	return SQLITE_OK;
}

static int b_next(sqlite3_vtab_cursor *c)
{
	((struct bcur *)c)->row++;
	return SQLITE_OK;
}

static int b_eof(sqlite3_vtab_cursor *c)
{
	return ((struct bcur *)c)->row >= ((struct bvtab *)c->pVtab)->b->flight.n;
}

static int b_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx, int col)
{
	const struct profdb__batch *b = ((struct bvtab *)c->pVtab)->b;
	const struct cell *x = &b->flight.cells[((struct bcur *)c)->row * (size_t)b->ncols + (size_t)col];
	if (x->type == CELL_INT)
		sqlite3_result_int64(ctx, x->v);
	else if (x->type == CELL_TEXT) /* the batch's text outlives the statement */
		sqlite3_result_text(ctx, b->flight.text + x->v, (int)x->len, SQLITE_STATIC);
	/* else NULL: a function's result is NULL unless set */
	return SQLITE_OK;
}

static int b_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((struct bcur *)c)->row;
	return SQLITE_OK;
}

static const sqlite3_module batch_module = {
	.iVersion = 0,
	.xCreate = NULL, /* eponymous-only: the module is the table */
	.xConnect = b_connect,
	.xBestIndex = b_best_index,
	.xDisconnect = b_disconnect,
	.xDestroy = b_disconnect,
	.xOpen = b_open,
	.xClose = b_close,
	.xFilter = b_filter,
	.xNext = b_next,
	.xEof = b_eof,
	.xColumn = b_column,
	.xRowid = b_rowid,
};

/* ---------------------------------------------------------------- the batch */

static size_t rows_bytes(const struct profdb__batch *b)
{
	return (size_t)PROFDB_BATCH_ROWS * (size_t)b->ncols * sizeof(struct cell);
}

int profdb__batch_new(struct profdb__batch **out, sqlite3 *db, const char *table, const char *cols,
                      int ncols)
{
	struct profdb__batch *b;
	char *sql;
	size_t cap;
	int rc;

	*out = NULL;
	b = calloc(1, sizeof *b);
	if (!b)
		return SQLITE_NOMEM;
	b->db = db;
	b->ncols = ncols;
	cap = strlen(table) + 16;
	b->module = malloc(cap);
	b->fill.cells = malloc(rows_bytes(b));
	b->flight.cells = malloc(rows_bytes(b));
	if (!b->module || !b->fill.cells || !b->flight.cells) {
		profdb__batch_free(b);
		return SQLITE_NOMEM;
	}
	snprintf(b->module, cap, "profdb_batch_%s", table);
	if ((rc = sqlite3_create_module_v2(db, b->module, &batch_module, b, NULL)) != SQLITE_OK) {
		free(b->module); /* nothing registered: nothing to drop */
		b->module = NULL;
		profdb__batch_free(b);
		return rc;
	}
	cap = strlen(table) + strlen(cols) + strlen(b->module) + 48;
	if (!(sql = malloc(cap))) {
		profdb__batch_free(b);
		return SQLITE_NOMEM;
	}
	snprintf(sql, cap, "INSERT INTO %s(%s) SELECT * FROM %s", table, cols, b->module);
	rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &b->insert, NULL);
	free(sql);
	if (rc != SQLITE_OK) {
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
	/* the statement holds the virtual table: finalize it before the
	 * module goes, and the module before the batch it points at */
	sqlite3_finalize(b->insert);
	if (b->module)
		sqlite3_create_module_v2(b->db, b->module, NULL, NULL, NULL);
	free(b->module);
	free(b->fill.cells);
	free(b->fill.text);
	free(b->flight.cells);
	free(b->flight.text);
	free(b);
}

void profdb__batch_set_flusher(struct profdb__batch *b, struct profdb__flusher *f)
{
	b->flusher = f;
}

void profdb__batch_drop_flight(struct profdb__batch *b)
{
	b->flight.n = 0;
	b->flight.text_len = 0;
}

int profdb__batch_insert_flight(struct profdb__batch *b)
{
	int rc = sqlite3_step(b->insert);
	sqlite3_reset(b->insert);
	profdb__batch_drop_flight(b);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The filled rows become the ones in flight, and the set just inserted
 * (empty) is filled next. */
static void swap(struct profdb__batch *b)
{
	struct rows t = b->flight;
	b->flight = b->fill;
	b->fill = t;
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
	return profdb__batch_insert_flight(b);
}

/* A full batch: to the flusher inside its window, else inserted now. */
static int flush_full(struct profdb__batch *b)
{
	int rc;
	if (!b->flusher || !profdb__flusher_window_open(b->flusher))
		return profdb__batch_flush(b);
	if ((rc = profdb__flusher_wait(b->flusher, b)) != SQLITE_OK)
		return rc;
	swap(b);
	return profdb__flusher_submit(b->flusher, b);
}

int profdb__batch_row(struct profdb__batch *b)
{
	int rc;
	struct cell *row;
	if (b->fill.n == PROFDB_BATCH_ROWS && (rc = flush_full(b)) != SQLITE_OK)
		return rc;
	row = &b->fill.cells[b->fill.n * (size_t)b->ncols];
	memset(row, 0, (size_t)b->ncols * sizeof *row); /* CELL_NULL is 0 */
	b->fill.n++;
	return SQLITE_OK;
}

int64_t profdb__batch_get(const struct profdb__batch *b, size_t row, int col)
{
	const struct cell *x = &b->fill.cells[row * (size_t)b->ncols + (size_t)col];
	return x->type == CELL_INT ? x->v : PROFDB_NULL;
}

void profdb__batch_set(struct profdb__batch *b, size_t row, int col, int64_t v)
{
	struct cell *x = &b->fill.cells[row * (size_t)b->ncols + (size_t)col];
	x->type = CELL_INT;
	x->v = v;
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
	x->type = CELL_TEXT;
	x->v = (int64_t)r->text_len;
	x->len = (uint32_t)len;
	r->text_len += len + 1;
	return 0;
}

size_t profdb__batch_pending(const struct profdb__batch *b)
{
	return b->fill.n;
}
