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
	/* streamed (result_stream.c): earlier rows were written already; the
	 * rows held here are the last part, written by profdb_result_write */
	int (*write_rest)(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
	                  unsigned part, size_t before); /* NULL: the result is whole */
	unsigned part;             /* PROFDB__PART_FIRST while nothing was written */
	size_t written;            /* rows the earlier parts wrote */
	struct profdb__fmt_plan *plan; /* owned: a streamed table's or md's layout
	                              (format.h), NULL when whole */
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
/* Were some of r's rows written already (r holds the last part only)?
 * Then what needs every row asks the database again. */
int profdb__result_streamed(const profdb_result *r);
/* profdb__result_from_stmt, but when profdb_result_stream armed db (and
 * disarmed by this call) the rows go out as they come and *out holds the
 * last part only.  For queries whose statement's rows are the answer. */
int profdb__result_from_stmt_stream(profdb *db, profdb_result **out, sqlite3_stmt *st,
                                    const enum profdb_coltype *types);

#endif
