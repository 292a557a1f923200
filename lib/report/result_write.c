/*
 * result_write.c - query rows written as they come, a thousand at a time,
 * so memory stays flat whatever the size of the answer.  csv, json and
 * `sql`'s md write each part as it comes.  A table (widths, unit,
 * decimals) and md with times (unit, decimals) hold the answer up to
 * hold_bytes (struct profdb_limits: 8 MiB built in, cells and text, about
 * a third of what the table writer then uses) and are written whole; past
 * that they make two passes over the statement inside one read
 * transaction (both see the same rows): the first folds every row into a
 * layout (format.h, profdb__fmt_plan), the second writes the rows in parts
 * along it.  The query side (query/result_stream.c) reaches these writers
 * through db->stream_write, which profdb_result_stream sets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "format.h"
#include "query/query.h"
#include "query/result.h"
#include "source.h"
#include "banned.h"

#define STREAM_ROWS 1024 /* rows held between writes: memory stays flat */

profdb__part_fn profdb__part_writer(const struct profdb_format_opts *fmt)
{
	/* (json_object too: a part is written from STREAM_ROWS rows on, and an
	 * answer of one row, the object, is whole) */
	const struct profdb__writer *w = profdb__writer(fmt->format);
	return w ? w->write_part : NULL;
}

/* Write r's rows as the next part (not the last) and drop them. */
static int write_part(profdb *db, profdb_result *r, FILE *out, const struct profdb_format_opts *fmt)
{
	if (r->write_rest(r, out, fmt, r->part, r->written) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "cannot write the output: %s", strerror(errno));
	r->written += r->nrows;
	r->part = 0;
	profdb__result_clear_rows(r);
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
			all = profdb__result_infer_types(r, known, seen);
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
		profdb__result_infer_types(r, known, seen);
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

/* The first pass: every row (those r holds, then the rest of st) folded
 * into a new layout, fixed and given to r; r is left without rows.  *cap:
 * the rows r->cells has room for. */
static int plan_pass(profdb *db, sqlite3_stmt *st, profdb_result *r, size_t *cap,
                     const struct profdb_format_opts *fmt, int *known, int all)
{
	struct profdb__fmt_plan *plan = NULL;
	int rc = SQLITE_ROW;

	if (profdb__fmt_plan_new(&plan, r->ncols) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	for (;;) {
		if (r->nrows >= STREAM_ROWS || rc != SQLITE_ROW) {
			/* (a column's type: its first non-NULL value, in any part) */
			if (!all)
				all = profdb__result_infer_types(r, known, 0);
			if (profdb__fmt_plan_add(plan, r) != PROFDB_OK) {
				profdb__fmt_plan_free(plan);
				return profdb__error(db, PROFDB_ERROR, "out of memory");
			}
			profdb__result_clear_rows(r);
		}
		if (rc != SQLITE_ROW)
			break;
		if ((rc = sqlite3_step(st)) == SQLITE_ROW && profdb__result_add_row(r, st, cap) != PROFDB_OK) {
			profdb__fmt_plan_free(plan);
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		}
	}
	if (rc != SQLITE_DONE) {
		profdb__fmt_plan_free(plan);
		return profdb__sqlerror(db, "query failed");
	}
	profdb__fmt_plan_fix(plan, r, fmt);
	r->plan = plan;
	r->plan_free = profdb__fmt_plan_free;
	return PROFDB_OK;
}

int profdb__result_two_pass(profdb *db, sqlite3_stmt *st, profdb_result *r, FILE *out,
                            const struct profdb_format_opts *fmt, int types_known)
{
	const struct profdb__writer *w = profdb__writer(fmt->format);
	uint64_t budget = db->limits.hold_bytes, held = 0;
	size_t cap = 0;
	int *known, rc, began = 0, err;

	if (!w || !w->write_planned)
		return profdb__error(db, PROFDB_ERROR, "a result has no such format");
	known = calloc(r->ncols + 1, sizeof *known);
	if (!known)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	while (held <= budget && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (profdb__result_add_row(r, st, &cap) != PROFDB_OK) {
			free(known);
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		}
		held += profdb__result_row_bytes(r, r->nrows - 1);
	}
	if (held <= budget) {
		/* whole: written by profdb_result_write as any held result */
		if (rc == SQLITE_DONE && !types_known)
			profdb__result_infer_types(r, known, 0);
		free(known);
		return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "query failed");
	}
	/* the statement's snapshot stays for the second pass (BEGIN while it
	 * runs keeps its read transaction open past the reset) */
	if (sqlite3_get_autocommit(db->sql)) {
		if (sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
			free(known);
			return profdb__sqlerror(db, "query failed");
		}
		began = 1;
	}
	err = plan_pass(db, st, r, &cap, fmt, known, types_known);
	free(known);
	if (err == PROFDB_OK) {
		sqlite3_reset(st);
		err = profdb__result_stream_rows(db, st, r, w->write_planned, out, fmt, 1, 1);
	}
	if (began)
		sqlite3_exec(db->sql, err == PROFDB_OK ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
	return err;
}

/* db->stream_write: a table or md in two passes past the budget, the
 * others part by part (json's object whole when it fits one part). */
static int stream_answer(profdb *db, sqlite3_stmt *st, profdb_result *r, FILE *out,
                         const struct profdb_format_opts *fmt, int types_known)
{
	const struct profdb__writer *w = profdb__writer(fmt->format);
	if (!w)
		return profdb__error(db, PROFDB_ERROR, "a result has no such format");
	if (w->write_planned)
		return profdb__result_two_pass(db, st, r, out, fmt, types_known);
	return profdb__result_stream_rows(db, st, r, w->write_part, out, fmt, types_known, 1);
}

int profdb_result_stream(profdb *db, FILE *out, const struct profdb_format_opts *fmt)
{
	db->stream_out = NULL;
	db->stream_fmt = NULL;
	if (!out || !fmt)
		return PROFDB_ENOTFOUND;
	if (profdb__version_check(db, fmt->version, PROFDB_FORMAT_OPTS_VERSION, "profdb_format_opts") != PROFDB_OK)
		return PROFDB_EUSAGE;
	db->stream_out = out;
	db->stream_fmt = fmt;
	db->stream_write = stream_answer;
	return PROFDB_OK;
}

/* sql collected under o's guard. */
static int run_guarded(profdb *db, profdb_result **out, const char *sql, const struct profdb_sql_opts *o)
{
	struct profdb__sql_guard g;
	profdb__sql_guard_begin(db, &g, o);
	return profdb__sql_guard_end(db, &g, o, profdb__sql_collect(db, out, sql));
}

/* sql's rows written to o->stream in o->format as they come. */
static int run_streamed(profdb *db, const char *sql, const struct profdb_sql_opts *o)
{
	const struct profdb_format_opts def_fmt = PROFDB_FORMAT_OPTS_INIT;
	const struct profdb_format_opts *fmt = o->format ? o->format : &def_fmt;
	profdb__part_fn write = profdb__part_writer(fmt);
	FILE *out = o->stream;
	profdb_result *r = NULL;
	sqlite3_stmt *st = NULL;
	struct profdb__sql_guard g;
	int rc, began = 0;

	if ((!write && (fmt->format != PROFDB_FMT_TABLE || o->write)) || db->source->sql) {
		/* a json object is built whole, and a table with --write (a
		 * second pass would run its changes twice); a source's own SQL
		 * (source.h) answers whole too */
		if ((rc = run_guarded(db, &r, sql, o)) == PROFDB_OK && profdb_result_write(r, out, fmt) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "cannot write the output: %s", strerror(errno));
		profdb_result_free(r);
		return rc;
	}
	profdb__sql_guard_begin(db, &g, o);
	rc = profdb__sql_prepare_one(db, &st, sql);
	/* a table's two passes read one snapshot: our own transaction, once
	 * the guard has passed the user's statement (it refuses theirs); not
	 * around one that writes (VACUUM: the guard refuses it as it runs) */
	if (rc == PROFDB_OK && !write && sqlite3_stmt_readonly(st) && sqlite3_get_autocommit(db->sql)) {
		g.own_txn = 1;
		if (sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
			rc = profdb__sqlerror(db, "sql failed");
		g.own_txn = 0;
		began = rc == PROFDB_OK;
	}
	if (rc == PROFDB_OK)
		rc = profdb__result_for_stmt(db, &r, st, NULL);
	if (rc == PROFDB_OK && write)
		rc = profdb__result_stream_rows(db, st, r, write, out, fmt, 0, 0);
	else if (rc == PROFDB_OK) {
		/* a table: whole up to a budget, else two passes (above) */
		rc = profdb__result_two_pass(db, st, r, out, fmt, 0);
		if (rc == PROFDB_OK && profdb_result_write(r, out, fmt) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "cannot write the output: %s", strerror(errno));
	}
	sqlite3_finalize(st);
	profdb_result_free(r);
	rc = profdb__sql_guard_end(db, &g, o, rc);
	if (began)
		sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	return rc;
}

/* Here rather than in query/ with the guard: streaming needs the writers. */
int profdb_sql(profdb *db, profdb_result **out, const char *sql, const struct profdb_sql_opts *o)
{
	const struct profdb_sql_opts def = PROFDB_SQL_OPTS_INIT;

	if (out)
		*out = NULL;
	if (!o)
		o = &def;
	if (o->version != PROFDB_SQL_OPTS_VERSION)
		return profdb__version_check(db, o->version, PROFDB_SQL_OPTS_VERSION, "profdb_sql_opts");
	if (o->format && o->format->version != PROFDB_FORMAT_OPTS_VERSION)
		return profdb__version_check(db, o->format->version, PROFDB_FORMAT_OPTS_VERSION, "profdb_format_opts");
	if (o->stream)
		return run_streamed(db, sql, o);
	if (!out)
		return profdb__error(db, PROFDB_EUSAGE, "profdb_sql: no result to fill (out is NULL) and no stream");
	return run_guarded(db, out, sql, o);
}
