/*
 * result.h - the layout of profdb_result (result.c), for lib/ files that
 * build results cell by cell (diff, verify) rather than from a statement.
 */
#ifndef PROFDB_RESULT_H
#define PROFDB_RESULT_H

#include <stdio.h>

#include "internal.h"

struct profdb__cell {
	int type;                  /* SQLITE_NULL, _INTEGER, _FLOAT or _TEXT */
	int64_t i;                 /* value when INTEGER */
	double d;                  /* value when FLOAT */
	char *text;                /* owned text form (NULL for NULL) */
};

struct profdb_result {
	size_t ncols, nrows;
	char **names;              /* ncols owned column names */
	enum profdb_coltype *types; /* ncols render types */
	struct profdb__cell *cells; /* nrows * ncols, row-major */
	char **notes;              /* owned warnings for formats to show */
	size_t nnotes;
	/* streamed (report/result_write.c): earlier rows were written already; the
	 * rows held here are the last part, written by profdb_result_write */
	int (*write_rest)(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
	                  unsigned part, size_t before); /* NULL: the result is whole */
	unsigned part;             /* PROFDB__PART_FIRST while nothing was written */
	size_t written;            /* rows the earlier parts wrote */
	struct profdb__fmt_plan *plan; /* owned: a streamed table's or md's layout
	                              (report/format.h), NULL when whole */
	void (*plan_free)(struct profdb__fmt_plan *p); /* frees plan; set with it */
	const char *const *headline; /* profdb__result_priority: never hidden */
	const char *const *hide;   /* ... the lesser columns, first to go first */
};

/* CONSTRUCTOR: an empty result with ncols unnamed TEXT columns. */
int profdb__result_new(profdb_result **out, size_t ncols);
/* CONSTRUCTOR: an empty result with st's columns, named as st names them,
 * of types (NULL: TEXT until the rows say).  Errors on db. */
int profdb__result_for_stmt(profdb *db, profdb_result **out, sqlite3_stmt *st,
                            const enum profdb_coltype *types);

/* Copy the current row of st into the next cells of r; *cap is the rows
 * r->cells has room for (0 at first).  -1 (PROFDB_ERROR) out of memory. */
int profdb__result_add_row(profdb_result *r, sqlite3_stmt *st, size_t *cap);

/*
 * The one set of cell setters (queries, verify, the comparison table).
 * Each replaces cell (row, col) of r, row < nrows, freeing the text it
 * held, so a new cell must be zeroed (calloc, memset) or NULL first.  The
 * text form of a number is its exact round trip (%.17g for a double), so
 * profdb_result_text and profdb_result_double agree.  -1 (PROFDB_ERROR)
 * out of memory, the cell then NULL.
 */
int profdb__result_set_null(profdb_result *r, size_t row, size_t col);
int profdb__result_set_int(profdb_result *r, size_t row, size_t col, int64_t v);
int profdb__result_set_double(profdb_result *r, size_t row, size_t col, double v);
int profdb__result_set_text(profdb_result *r, size_t row, size_t col, const char *v);
/* What held row `row` of r takes, about, of the bytes of cells and text a
 * table or md answer may hold whole before it is written in two passes
 * (hold_bytes of struct profdb_limits): the one budget of report/result_write.c
 * and of diff's table (compare_write.c). */
size_t profdb__result_row_bytes(const profdb_result *r, size_t row);
/* Column types from the first non-NULL value of each column, as
 * profdb_query_sql infers them over the whole result (the NULLs before it
 * print the same whatever the type); known[c] marks the columns done and
 * rows before from were looked at already.  Whether every type is known. */
int profdb__result_infer_types(profdb_result *r, int *known, size_t from);
/* Drop the rows r holds (the columns stay). */
void profdb__result_clear_rows(profdb_result *r);
/* Were some of r's rows written already (r holds the last part only)?
 * Then what needs every row asks the database again. */
int profdb__result_streamed(const profdb_result *r);
/* profdb__result_from_stmt, but when profdb_result_stream armed db (and
 * disarmed by this call) the rows go out as they come and *out holds the
 * last part only.  For queries whose statement's rows are the answer. */
int profdb__result_from_stmt_stream(profdb *db, profdb_result **out, sqlite3_stmt *st,
                                    const enum profdb_coltype *types);
/* The same, the first column named first (NULL: as st names it): a name
 * the user chose (summary --by tag:KEY), so never SQL text. */
int profdb__result_from_stmt_stream_named(profdb *db, profdb_result **out, sqlite3_stmt *st,
                                          const enum profdb_coltype *types, const char *first);

/*
 * A spool: the rows of an analysis whose figures are computed in C, kept in
 * the temporary table temp.profdb_spool (on disk past SQLite's cache)
 * instead of in memory, then read back by one statement (sorted there if
 * need be) and answered through profdb__result_from_stmt_stream like any
 * query's rows: streamed when the CLI armed db, whole otherwise.  The
 * analysis sets the cells of s->row (one row of the spool's columns, with
 * result.c's setters) and calls profdb__spool_put for each of its rows.
 */
struct profdb__spool {
	profdb *db;
	sqlite3_stmt *ins;         /* INSERT of one row */
	profdb_result *row;        /* the next row's cells (names and types of the columns) */
	int began;                 /* the spool began the transaction its rows are written in */
	int query_only;            /* PRAGMA query_only before the spool (restored by close) */
};
/* Open a spool of ncols columns named and typed so.  Errors on db. */
int profdb__spool_open(profdb *db, struct profdb__spool *s, const char *const *names,
                       const enum profdb_coltype *types, size_t ncols);
/* Store s->row's cells as the next row and set them to NULL.  Errors on db. */
int profdb__spool_put(struct profdb__spool *s);
/* Store the cells of row of r (s's columns) as the next row.  Errors on db. */
int profdb__spool_put_from(struct profdb__spool *s, const profdb_result *r, size_t row);
/* The answer: the spool's columns but those whose bit is set in drop
 * (column i: bit i), its rows in the order of order_by (SQL text, a
 * constant of the caller: "rowid" keeps the order they were put in). */
int profdb__spool_answer(struct profdb__spool *s, profdb_result **out, uint64_t drop, const char *order_by);
/* The answer: the rows of sql, a statement over temp.profdb_spool (a
 * constant of the caller), columns of the given types. */
int profdb__spool_answer_sql(struct profdb__spool *s, profdb_result **out, const char *sql,
                             const enum profdb_coltype *types);
/* The answer of an analysis whose rows are those of st (bound, its
 * columns of types), each completed in C by fill (NULL: none) as row 0 of
 * r, in st's order, less the columns whose bit is set in drop: through a
 * spool, so streamed when profdb_result_stream armed db.  Errors on db. */
int profdb__spool_stmt(profdb *db, sqlite3_stmt *st, const enum profdb_coltype *types,
                       int (*fill)(profdb_result *r, void *arg), void *arg, uint64_t drop,
                       profdb_result **out);
/* Keep the spool's rows past its close, sorted: the temporary table
 * temp.<name> (a constant of the caller), its rowids 1, 2, ... in the
 * order of order_by.  The caller drops it (profdb__spool_drop).  Errors
 * on db. */
int profdb__spool_keep(struct profdb__spool *s, const char *name, const char *order_by);
/* The rows put so far, for the caller's own reading: sql (a constant of
 * the caller, over temp.profdb_spool) prepared into *out (the caller
 * finalizes it before the close).  No more rows may be put.  Errors on db. */
int profdb__spool_prepare(struct profdb__spool *s, const char *sql, sqlite3_stmt **out);
/* Drop the table temp.<name> that profdb__spool_keep made, on a read-only
 * handle too; what fails is left to the connection's close. */
void profdb__spool_drop(profdb *db, const char *name);
/* Close s and drop its table (after profdb__spool_answer, or on an error). */
void profdb__spool_close(struct profdb__spool *s);

#endif
