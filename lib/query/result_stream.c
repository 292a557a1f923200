/*
 * result_stream.c - query rows written as they come, a thousand at a time,
 * for the formats that can: `sql` (csv, json, md) and the query commands
 * whose result is final as SQLite returns it (csv, json: see
 * profdb_result_stream) hold a bounded number of rows whatever the size of
 * the answer.  A table, and md with times, choose a unit and decimals from
 * every value, so they stay whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "format.h"
#include "result.h"
#include "banned.h"

#define STREAM_ROWS 1024 /* rows held between writes: memory stays flat */

profdb__part_fn profdb__part_writer(const struct profdb_format_opts *fmt)
{
	return fmt->format == PROFDB_FMT_CSV ? profdb__write_csv_part :
	       fmt->format == PROFDB_FMT_JSON && !fmt->json_object ? profdb__write_json_part :
	       fmt->format == PROFDB_FMT_MD ? profdb__write_md_part : NULL;
}

/* A column's type: that of its first non-NULL value, as profdb_query_sql
 * infers it over the whole result (the NULLs before it print the same
 * whatever the type).  Rows before from were looked at already.  Returns
 * whether every column's type is known. */
static int infer_types(profdb_result *r, int *known, size_t from)
{
	int all = 1;
	for (size_t c = 0; c < r->ncols; c++)
		for (size_t row = from; !known[c] && row < r->nrows; row++) {
			int t = r->cells[row * r->ncols + c].type;
			if (t == SQLITE_NULL)
				continue;
			r->types[c] = t == SQLITE_INTEGER ? PROFDB_COL_INT :
			              t == SQLITE_FLOAT ? PROFDB_COL_REAL : PROFDB_COL_TEXT;
			known[c] = 1;
		}
	for (size_t c = 0; c < r->ncols; c++)
		all = all && known[c];
	return all;
}

static void clear_rows(profdb_result *r)
{
	for (size_t i = 0; i < r->nrows * r->ncols; i++)
		free(r->cells[i].text);
	r->nrows = 0;
}

/* Write r's rows as the next part (not the last) and drop them. */
static int write_part(profdb *db, profdb_result *r, FILE *out, const struct profdb_format_opts *fmt)
{
	if (r->write_rest(r, out, fmt, r->part, r->written) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "cannot write the output: %s", strerror(errno));
	r->written += r->nrows;
	r->part = 0;
	clear_rows(r);
	return PROFDB_OK;
}

int profdb__result_stream_rows(profdb *db, sqlite3_stmt *st, profdb_result *r, profdb__part_fn write,
                               FILE *out, const struct profdb_format_opts *fmt, int types_known,
                               int hold_last)
{
	size_t cap = 0, seen = 0;
	int *known = calloc(r->ncols + 1, sizeof *known), rc, all = types_known, err = PROFDB_OK;

	if (!known)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	r->write_rest = write;
	r->part = PROFDB__PART_FIRST;
	r->written = 0;
	for (;;) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		if (!all) {
			all = infer_types(r, known, seen);
			seen = r->nrows;
		}
		/* md's head aligns each column by its type: it waits for them all */
		if (r->nrows >= STREAM_ROWS && (all || write != profdb__write_md_part)) {
			if ((err = write_part(db, r, out, fmt)) != PROFDB_OK)
				goto fail;
			seen = 0;
		}
		if (profdb__result_add_row(r, st, &cap) != PROFDB_OK) {
			err = profdb__error(db, PROFDB_ERROR, "out of memory");
			goto fail;
		}
	}
	if (rc != SQLITE_DONE) {
		err = profdb__sqlerror(db, "query failed");
		goto fail;
	}
	if (!all)
		infer_types(r, known, seen);
	free(known);
	/* held: the caller's profdb_result_write writes them, notes and all */
	if (hold_last)
		return PROFDB_OK;
	if (write(r, out, fmt, r->part | PROFDB__PART_LAST, r->written) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "cannot write the output: %s", strerror(errno));
	return PROFDB_OK;
fail:
	free(known);
	return err;
}

int profdb_result_stream(profdb *db, FILE *out, const struct profdb_format_opts *fmt)
{
	db->stream_out = NULL;
	db->stream_fmt = NULL;
	/* md and tables choose their unit and decimals from every value */
	if (!out || !fmt || (fmt->format != PROFDB_FMT_CSV && fmt->format != PROFDB_FMT_JSON) ||
	    !profdb__part_writer(fmt))
		return PROFDB_ENOTFOUND;
	db->stream_out = out;
	db->stream_fmt = fmt;
	return PROFDB_OK;
}

int profdb__result_from_stmt_stream(profdb *db, profdb_result **out, sqlite3_stmt *st,
                                    const enum profdb_coltype *types)
{
	FILE *f = db->stream_out;
	const struct profdb_format_opts *fmt = db->stream_fmt;
	profdb_result *r = NULL;
	int rc;

	/* one use: whatever the next query does, a later one answers whole */
	db->stream_out = NULL;
	db->stream_fmt = NULL;
	*out = NULL;
	if (!f)
		return profdb__result_from_stmt(db, out, st, types);
	if ((rc = profdb__result_for_stmt(db, &r, st, types)) != PROFDB_OK)
		return rc;
	rc = profdb__result_stream_rows(db, st, r, profdb__part_writer(fmt), f, fmt, types != NULL, 1);
	if (rc != PROFDB_OK) {
		profdb_result_free(r);
		return rc;
	}
	*out = r;
	return PROFDB_OK;
}
