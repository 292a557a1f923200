/*
 * result_stream.c - a query's answer handed to the writers as it comes
 * (when profdb_result_stream armed the handle; report/result_write.c
 * writes it), and the spool: an analysis whose rows are computed in C
 * puts them in a temporary table (result.h) and answers with one
 * statement over it, so the same writers stream them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "query.h"
#include "result.h"
#include "banned.h"

int profdb__result_infer_types(profdb_result *r, int *known, size_t from)
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

void profdb__result_clear_rows(profdb_result *r)
{
	for (size_t i = 0; i < r->nrows * r->ncols; i++)
		free(r->cells[i].text);
	r->nrows = 0;
}

size_t profdb__result_row_bytes(const profdb_result *r, size_t row)
{
	size_t n = r->ncols * sizeof *r->cells;
	for (size_t c = 0; c < r->ncols; c++)
		if (r->cells[row * r->ncols + c].text)
			n += strlen(r->cells[row * r->ncols + c].text) + 32; /* + the allocator's */
	return n;
}

int profdb__result_streamed(const profdb_result *r)
{
	return r->write_rest && r->written > 0;
}

/* The first column of r named name (NULL: as it is). */
static int name_first(profdb *db, profdb_result *r, const char *name)
{
	char *n;
	if (!name)
		return PROFDB_OK;
	if (!(n = strdup(name)))
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	free(r->names[0]);
	r->names[0] = n;
	return PROFDB_OK;
}

int profdb__result_from_stmt_stream(profdb *db, profdb_result **out, sqlite3_stmt *st,
                                    const enum profdb_coltype *types)
{
	return profdb__result_from_stmt_stream_named(db, out, st, types, NULL);
}

int profdb__result_from_stmt_stream_named(profdb *db, profdb_result **out, sqlite3_stmt *st,
                                          const enum profdb_coltype *types, const char *first)
{
	FILE *f = db->stream_out;
	const struct profdb_format_opts *fmt = db->stream_fmt;
	profdb_result *r = NULL;
	int rc;

	/* one use: whatever the next query does, a later one answers whole */
	db->stream_out = NULL;
	db->stream_fmt = NULL;
	*out = NULL;
	if (!f) {
		if ((rc = profdb__result_from_stmt(db, out, st, types)) == PROFDB_OK &&
		    (rc = name_first(db, *out, first)) != PROFDB_OK) {
			profdb_result_free(*out);
			*out = NULL;
		}
		return rc;
	}
	if ((rc = profdb__result_for_stmt(db, &r, st, types)) != PROFDB_OK)
		return rc;
	if ((rc = name_first(db, r, first)) != PROFDB_OK) {
		profdb_result_free(r);
		return rc;
	}
	/* the writers are the report side's (db->stream_write, set with
	 * stream_out): a query only hands them its statement */
	rc = db->stream_write(db, st, r, f, fmt, types != NULL);
	/* nothing written yet: the answer is whole, for the whole writer (json's
	 * one object) */
	if (rc == PROFDB_OK && r->write_rest && r->written == 0)
		r->write_rest = NULL;
	if (rc != PROFDB_OK) {
		profdb_result_free(r);
		return rc;
	}
	*out = r;
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- spool */

/* "name" quoted as an SQL identifier into b (the names are the caller's
 * constants; quotes doubled all the same). */
static void add_ident(struct profdb__qbuf *b, const char *name)
{
	profdb__qbuf_add(b, "\"");
	for (const char *p = name; *p; p++)
		profdb__qbuf_add(b, *p == '"' ? "\"\"" : (char[2]){ *p, 0 });
	profdb__qbuf_add(b, "\"");
}

static int spool_exec(profdb *db, const char *sql)
{
	return sqlite3_exec(db->sql, sql, NULL, NULL, NULL) == SQLITE_OK ? PROFDB_OK :
	       profdb__sqlerror(db, "cannot keep the rows");
}

static int pragma_int(profdb *db, const char *sql, int *v)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	if (rc)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc ? PROFDB_OK : profdb__sqlerror(db, "cannot keep the rows");
}

int profdb__spool_open(profdb *db, struct profdb__spool *s, const char *const *names,
                       const enum profdb_coltype *types, size_t ncols)
{
	struct profdb__qbuf b = { 0 };
	int rc;

	memset(s, 0, sizeof *s);
	s->query_only = -1;
	s->db = db;
	if (ncols == 0 || ncols > 64) /* the columns profdb__spool_answer can drop */
		return profdb__error(db, PROFDB_ERROR, "a spool of %zu columns", ncols);
	if (profdb__result_new_rows(&s->row, names, types, ncols, 1) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	/* a read-only handle is query_only, which refuses temporary tables
	 * too: lifted while the spool lives (it writes temp only; the main
	 * database stays as it was) */
	if ((rc = pragma_int(db, "PRAGMA query_only", &s->query_only)) != PROFDB_OK)
		return rc;
	if (s->query_only == 1 && (rc = spool_exec(db, "PRAGMA query_only = 0")) != PROFDB_OK)
		return rc;
	/* one transaction for the rows (a commit per row would cost more than
	 * the analysis); the analysis's reads then share its snapshot */
	if (sqlite3_get_autocommit(db->sql)) {
		if ((rc = spool_exec(db, "BEGIN")) != PROFDB_OK)
			return rc;
		s->began = 1;
	}
	/* no declared types: each value keeps the type it was put with */
	profdb__qbuf_add(&b, "CREATE TEMP TABLE profdb_spool(");
	for (size_t c = 0; c < ncols; c++) {
		profdb__qbuf_add(&b, c ? ", " : "");
		add_ident(&b, names[c]);
	}
	profdb__qbuf_add(&b, ")");
	if ((rc = spool_exec(db, "DROP TABLE IF EXISTS temp.profdb_spool")) == PROFDB_OK &&
	    (rc = profdb__query_prepare(db, &b, &s->ins, "cannot keep the rows")) == PROFDB_OK) {
		rc = sqlite3_step(s->ins) == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot keep the rows");
		sqlite3_finalize(s->ins);
		s->ins = NULL;
	}
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qbuf_add(&b, "INSERT INTO temp.profdb_spool VALUES (?");
	for (size_t c = 1; c < ncols; c++)
		profdb__qbuf_add(&b, ", ?");
	profdb__qbuf_add(&b, ")");
	rc = profdb__query_prepare(db, &b, &s->ins, "cannot keep the rows");
	profdb__qbuf_free(&b);
	return rc;
}

int profdb__spool_put_from(struct profdb__spool *s, const profdb_result *r, size_t row)
{
	int rc;
	for (size_t c = 0; c < r->ncols; c++) {
		const struct profdb__cell *v = &r->cells[row * r->ncols + c];
		int i = (int)c + 1;
		if (v->type == SQLITE_INTEGER)
			sqlite3_bind_int64(s->ins, i, v->i);
		else if (v->type == SQLITE_FLOAT)
			sqlite3_bind_double(s->ins, i, v->d);
		else if (v->type == SQLITE_TEXT)
			sqlite3_bind_text(s->ins, i, v->text, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(s->ins, i);
	}
	rc = sqlite3_step(s->ins) == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(s->db, "cannot keep the rows");
	sqlite3_reset(s->ins);
	sqlite3_clear_bindings(s->ins);
	return rc;
}

int profdb__spool_put(struct profdb__spool *s)
{
	int rc = profdb__spool_put_from(s, s->row, 0);
	for (size_t c = 0; c < s->row->ncols; c++)
		profdb__result_set_null(s->row, 0, c);
	return rc;
}

/* No more rows: the insert finalized, the rows committed when the spool
 * began their transaction. */
static int spool_finish(struct profdb__spool *s)
{
	int rc;
	sqlite3_finalize(s->ins);
	s->ins = NULL;
	if (s->began && (rc = spool_exec(s->db, "COMMIT")) != PROFDB_OK)
		return rc;
	s->began = 0;
	return PROFDB_OK;
}

int profdb__spool_answer_sql(struct profdb__spool *s, profdb_result **out, const char *sql,
                             const enum profdb_coltype *types)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if ((rc = spool_finish(s)) != PROFDB_OK)
		return rc;
	if (sqlite3_prepare_v2(s->db->sql, sql, -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read the rows");
	rc = profdb__result_from_stmt_stream(s->db, out, st, types);
	sqlite3_finalize(st);
	return rc;
}

int profdb__spool_answer(struct profdb__spool *s, profdb_result **out, uint64_t drop, const char *order_by)
{
	const profdb_result *r = s->row;
	enum profdb_coltype types[64];
	struct profdb__qbuf b = { 0 };
	size_t n = 0;
	int rc;

	*out = NULL;
	profdb__qbuf_add(&b, "SELECT ");
	for (size_t c = 0; c < r->ncols; c++) {
		if (drop & ((uint64_t)1 << c))
			continue;
		profdb__qbuf_add(&b, n ? ", " : "");
		add_ident(&b, r->names[c]);
		types[n++] = r->types[c];
	}
	profdb__qbuf_addf(&b, " FROM temp.profdb_spool ORDER BY %s", order_by);
	rc = b.oom ? profdb__error(s->db, PROFDB_ERROR, "out of memory") :
	     profdb__spool_answer_sql(s, out, b.s, types);
	profdb__qbuf_free(&b);
	return rc;
}

int profdb__spool_keep(struct profdb__spool *s, const char *name, const char *order_by)
{
	struct profdb__qbuf b = { 0 };
	int rc;
	if ((rc = spool_finish(s)) != PROFDB_OK)
		return rc;
	profdb__qbuf_add(&b, "DROP TABLE IF EXISTS temp.");
	add_ident(&b, name);
	rc = b.oom ? profdb__error(s->db, PROFDB_ERROR, "out of memory") : spool_exec(s->db, b.s);
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	/* a new table's rowids count from 1 in the order its rows come */
	profdb__qbuf_add(&b, "CREATE TEMP TABLE ");
	add_ident(&b, name);
	profdb__qbuf_addf(&b, " AS SELECT * FROM temp.profdb_spool ORDER BY %s", order_by);
	rc = b.oom ? profdb__error(s->db, PROFDB_ERROR, "out of memory") : spool_exec(s->db, b.s);
	profdb__qbuf_free(&b);
	return rc;
}

int profdb__spool_prepare(struct profdb__spool *s, const char *sql, sqlite3_stmt **out)
{
	int rc;
	*out = NULL;
	if ((rc = spool_finish(s)) != PROFDB_OK)
		return rc;
	return sqlite3_prepare_v2(s->db->sql, sql, -1, out, NULL) == SQLITE_OK ? PROFDB_OK :
	       profdb__sqlerror(s->db, "cannot read the rows");
}

void profdb__spool_drop(profdb *db, const char *name)
{
	struct profdb__qbuf b = { 0 };
	int query_only = 0;
	/* the guard lifted for the one statement, as a spool lifts it */
	if (pragma_int(db, "PRAGMA query_only", &query_only) != PROFDB_OK)
		return;
	if (query_only == 1)
		sqlite3_exec(db->sql, "PRAGMA query_only = 0", NULL, NULL, NULL);
	profdb__qbuf_add(&b, "DROP TABLE IF EXISTS temp.");
	add_ident(&b, name);
	if (!b.oom)
		sqlite3_exec(db->sql, b.s, NULL, NULL, NULL);
	profdb__qbuf_free(&b);
	if (query_only == 1)
		sqlite3_exec(db->sql, "PRAGMA query_only = 1", NULL, NULL, NULL);
}

void profdb__spool_close(struct profdb__spool *s)
{
	sqlite3_finalize(s->ins);
	s->ins = NULL;
	if (s->began)
		sqlite3_exec(s->db->sql, "ROLLBACK", NULL, NULL, NULL);
	s->began = 0;
	if (s->db)
		sqlite3_exec(s->db->sql, "DROP TABLE IF EXISTS temp.profdb_spool", NULL, NULL, NULL);
	if (s->db && s->query_only == 1)
		sqlite3_exec(s->db->sql, "PRAGMA query_only = 1", NULL, NULL, NULL);
	profdb_result_free(s->row);
	s->row = NULL;
}

/* Each row of st through fill into the open spool s. */
static int spool_rows(struct profdb__spool *s, sqlite3_stmt *st, profdb_result *r,
                      int (*fill)(profdb_result *r, void *arg), void *arg)
{
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int err;
		profdb__result_clear_rows(r);
		if (profdb__result_add_row(r, st, &cap) != PROFDB_OK || (fill && fill(r, arg) != PROFDB_OK))
			return profdb__error(s->db, PROFDB_ERROR, "out of memory");
		if ((err = profdb__spool_put_from(s, r, 0)) != PROFDB_OK)
			return err;
	}
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(s->db, "query failed");
}

int profdb__spool_stmt(profdb *db, sqlite3_stmt *st, const enum profdb_coltype *types,
                       int (*fill)(profdb_result *r, void *arg), void *arg, uint64_t drop,
                       profdb_result **out)
{
	struct profdb__spool s;
	profdb_result *r = NULL;
	int rc;

	*out = NULL;
	/* nothing to complete or leave out: the statement's rows are the answer */
	if (!fill && !drop)
		return profdb__result_from_stmt_stream(db, out, st, types);
	memset(&s, 0, sizeof s);
	if ((rc = profdb__result_for_stmt(db, &r, st, types)) == PROFDB_OK &&
	    (rc = profdb__spool_open(db, &s, (const char *const *)r->names, types, r->ncols)) == PROFDB_OK &&
	    (rc = spool_rows(&s, st, r, fill, arg)) == PROFDB_OK)
		rc = profdb__spool_answer(&s, out, drop, "rowid");
	profdb__spool_close(&s);
	profdb_result_free(r);
	return rc;
}
