/*
 * rows_vtab.h - rows held in memory, read by SQLite as an eponymous
 * virtual table, and the "INSERT INTO t(cols) SELECT c0, c1.. FROM <it>"
 * that copies them into a table (rows_vtab.c).  Private to the store.
 *
 * Why: a one-row INSERT per record reopens the table's and each index's
 * cursor and seeks from the root every time; one INSERT .. SELECT over a
 * connection-local virtual table keeps them open, about half the
 * instructions per row.  Two kinds of rows use it: a batch's typed cells
 * (store_batch.c) and a file's held op rows as they are held (op_rows.c).
 */
#ifndef PROFDB_ROWS_VTAB_H
#define PROFDB_ROWS_VTAB_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* Where the rows are: ncols columns, count() rows, column() sets the
 * result of (row, col) with sqlite3_result_* (unset: NULL).  Text results
 * must outlive the statement's step (SQLITE_STATIC). */
struct profdb__rows_src {
	int ncols;
	size_t (*count)(const struct profdb__rows_src *src);
	void (*column)(const struct profdb__rows_src *src, size_t row, int col, sqlite3_context *ctx);
};

#define PROFDB__ROWS_INSERT_VARIANTS 8

/* The module "profdb_<tag>_<table>" reading src, and the INSERT; those
 * naming fewer columns, made as they are asked for. */
struct profdb__rows_insert {
	sqlite3 *db;
	char *module;              /* owned */
	sqlite3_stmt *insert;      /* owned: every column */
	char *table, *cols;        /* owned copies */
	int ncols;
	struct {
		uint64_t cols;
		sqlite3_stmt *insert; /* owned */
	} some[PROFDB__ROWS_INSERT_VARIANTS];
	int nsome;
	sqlite3_stmt *last;        /* owned, made when first asked: the table's largest rowid */
};

/* Register the module and prepare the INSERT of src's rows into table's
 * columns cols (comma-separated SQL names, as many as src->ncols).  src is
 * borrowed until profdb__rows_insert_free.  SQLite result code. */
int profdb__rows_insert_new(struct profdb__rows_insert *ri, sqlite3 *db, const char *tag, const char *table,
                            const char *cols, struct profdb__rows_src *src);
/* Finalize the INSERT, drop the module.  A zeroed ri: no-op. */
void profdb__rows_insert_free(struct profdb__rows_insert *ri);
/* Insert src's rows as they are now, where every column not in used (bit
 * i: column i) is NULL in every row: those go in as the constant NULL,
 * which spares SQLite a virtual table call per row and column (~0: every
 * column).  Past 64 columns or PROFDB__ROWS_INSERT_VARIANTS sets, the
 * INSERT that reads every column runs.  SQLite result code, SQLITE_OK when
 * done (the message is on db). */
int profdb__rows_insert_run_cols(struct profdb__rows_insert *ri, uint64_t used);
/*
 * The same, for rows whose column 0 is the table's INTEGER PRIMARY KEY and
 * holds first_id, first_id + 1, ... in row order.  When the table's largest
 * rowid is first_id - 1, column 0 goes in as NULL: SQLite then gives each
 * row the largest rowid + 1, the same ids, appended at the B-tree's end.
 * An id given explicitly is first searched for from the root (a duplicate
 * must fail), a descent per row.  *appended (may be NULL): whether the
 * NULL ids went in.  SQLite result code.
 */
int profdb__rows_insert_run_ids(struct profdb__rows_insert *ri, uint64_t used, int64_t first_id, int *appended);

#endif
