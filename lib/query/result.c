/*
 * result.c - profdb_result: a small in-memory table of query rows with
 * column names and types, filled from an SQLite statement.  Formats render
 * it; callers free it with profdb_result_free().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "result.h"
#include "banned.h"

size_t profdb_result_ncols(const profdb_result *r) { return r->ncols; }
size_t profdb_result_nrows(const profdb_result *r) { return r->nrows; }
const char *profdb_result_colname(const profdb_result *r, size_t c) { return r->names[c]; }
enum profdb_coltype profdb_result_coltype(const profdb_result *r, size_t c) { return r->types[c]; }
size_t profdb_result_nnotes(const profdb_result *r) { return r->nnotes; }
const char *profdb_result_note(const profdb_result *r, size_t i) { return r->notes[i]; }

static const struct profdb__cell *cell(const profdb_result *r, size_t row, size_t col)
{
	return &r->cells[row * r->ncols + col];
}

int profdb_result_isnull(const profdb_result *r, size_t row, size_t col)
{
	return cell(r, row, col)->type == SQLITE_NULL;
}

const char *profdb_result_text(const profdb_result *r, size_t row, size_t col)
{
	return cell(r, row, col)->text;
}

double profdb_result_double(const profdb_result *r, size_t row, size_t col)
{
	const struct profdb__cell *c = cell(r, row, col);
	return c->type == SQLITE_INTEGER ? (double)c->i : c->type == SQLITE_FLOAT ? c->d :
	       c->text ? strtod(c->text, NULL) : 0.0;
}

int64_t profdb_result_int(const profdb_result *r, size_t row, size_t col)
{
	const struct profdb__cell *c = cell(r, row, col);
	return c->type == SQLITE_INTEGER ? c->i : c->type == SQLITE_FLOAT ? (int64_t)c->d :
	       c->text ? strtoll(c->text, NULL, 10) : 0;
}

void profdb_result_free(profdb_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrows * r->ncols; i++)
		free(r->cells[i].text);
	free(r->cells);
	for (size_t i = 0; i < r->ncols; i++)
		free(r->names[i]);
	free(r->names);
	free(r->types);
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	if (r->plan_free)
		r->plan_free(r->plan);
	free(r);
}

/* The cell's new value: type, numbers and its own copy of text (NULL for
 * NULL); the old text is freed. */
static int put_cell(struct profdb__cell *c, int type, int64_t i, double d, const char *text)
{
	char *t = text ? strdup(text) : NULL;
	if (type == SQLITE_TEXT && !text)
		type = SQLITE_NULL;
	free(c->text);
	c->text = t;
	c->i = i;
	c->d = d;
	if (text && !t) {
		c->type = SQLITE_NULL;
		return PROFDB_ERROR;
	}
	c->type = type;
	return PROFDB_OK;
}

int profdb__result_set_null(profdb_result *r, size_t row, size_t col)
{
	return put_cell(&r->cells[row * r->ncols + col], SQLITE_NULL, 0, 0, NULL);
}

int profdb__result_set_int(profdb_result *r, size_t row, size_t col, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", (long long)v);
	return put_cell(&r->cells[row * r->ncols + col], SQLITE_INTEGER, v, 0, buf);
}

int profdb__result_set_double(profdb_result *r, size_t row, size_t col, double v)
{
	char buf[40];
	snprintf(buf, sizeof buf, "%.17g", v);
	return put_cell(&r->cells[row * r->ncols + col], SQLITE_FLOAT, 0, v, buf);
}

int profdb__result_set_text(profdb_result *r, size_t row, size_t col, const char *v)
{
	return put_cell(&r->cells[row * r->ncols + col], SQLITE_TEXT, 0, 0, v);
}

int profdb__result_add_note(profdb_result *r, const char *note)
{
	char **n = realloc(r->notes, (r->nnotes + 1) * sizeof *n);
	if (!n)
		return PROFDB_ERROR;
	r->notes = n;
	if (!(r->notes[r->nnotes] = strdup(note)))
		return PROFDB_ERROR;
	r->nnotes++;
	return PROFDB_OK;
}

void profdb__result_priority(profdb_result *r, const char *const *headline, const char *const *hide)
{
	if (!r)
		return;
	r->headline = headline;
	r->hide = hide;
}

int profdb__result_add_row(profdb_result *r, sqlite3_stmt *st, size_t *cap)
{
	if (r->nrows == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct profdb__cell *c = realloc(r->cells, ncap * r->ncols * sizeof *c);
		if (!c)
			return PROFDB_ERROR;
		r->cells = c;
		*cap = ncap;
	}
	for (size_t i = 0; i < r->ncols; i++) {
		struct profdb__cell *c = &r->cells[r->nrows * r->ncols + i];
		const unsigned char *t;
		c->type = sqlite3_column_type(st, (int)i);
		c->i = 0;
		c->d = 0;
		c->text = NULL;
		if (c->type == SQLITE_INTEGER)
			c->i = sqlite3_column_int64(st, (int)i);
		else if (c->type == SQLITE_FLOAT)
			c->d = sqlite3_column_double(st, (int)i);
		if (c->type == SQLITE_NULL)
			continue;
		t = sqlite3_column_text(st, (int)i);
		if (c->type == SQLITE_BLOB)
			c->type = SQLITE_TEXT;
		if (t && !(c->text = strdup((const char *)t))) {
			r->nrows++; /* so the cells set so far are freed */
			for (size_t j = i + 1; j < r->ncols; j++)
				r->cells[(r->nrows - 1) * r->ncols + j].text = NULL;
			return PROFDB_ERROR;
		}
	}
	r->nrows++;
	return PROFDB_OK;
}

int profdb__result_new(profdb_result **out, size_t ncols)
{
	profdb_result *r = calloc(1, sizeof *r);
	*out = NULL;
	if (!r)
		return PROFDB_ERROR;
	r->ncols = ncols;
	r->names = calloc(ncols ? ncols : 1, sizeof *r->names);
	r->types = calloc(ncols ? ncols : 1, sizeof *r->types);
	if (!r->names || !r->types) {
		profdb_result_free(r);
		return PROFDB_ERROR;
	}
	*out = r;
	return PROFDB_OK;
}

int profdb__result_for_stmt(profdb *db, profdb_result **out, sqlite3_stmt *st,
                            const enum profdb_coltype *types)
{
	profdb_result *r = NULL;
	size_t ncols = (size_t)sqlite3_column_count(st);

	*out = NULL;
	if (profdb__result_new(&r, ncols) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < ncols; i++) {
		r->names[i] = strdup(sqlite3_column_name(st, (int)i));
		if (!r->names[i]) {
			profdb_result_free(r);
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		}
		r->types[i] = types ? types[i] : PROFDB_COL_TEXT;
	}
	*out = r;
	return PROFDB_OK;
}

int profdb__result_from_stmt(profdb *db, profdb_result **out, sqlite3_stmt *st,
                             const enum profdb_coltype *types)
{
	profdb_result *r = NULL;
	size_t cap = 0, ncols = (size_t)sqlite3_column_count(st);
	int rc;

	*out = NULL;
	if ((rc = profdb__result_for_stmt(db, &r, st, types)) != PROFDB_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (profdb__result_add_row(r, st, &cap) != PROFDB_OK) {
			profdb_result_free(r);
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		}
	if (rc != SQLITE_DONE) {
		profdb_result_free(r);
		return profdb__sqlerror(db, "query failed");
	}
	if (!types) {
		/* infer from the first non-null value of each column */
		for (size_t c = 0; c < ncols; c++)
			for (size_t row = 0; row < r->nrows; row++) {
				int t = r->cells[row * ncols + c].type;
				if (t == SQLITE_NULL)
					continue;
				r->types[c] = t == SQLITE_INTEGER ? PROFDB_COL_INT :
				              t == SQLITE_FLOAT ? PROFDB_COL_REAL : PROFDB_COL_TEXT;
				break;
			}
	}
	*out = r;
	return PROFDB_OK;
}
