/*
 * ch_sql.c - profdb sql --db clickhouse://...: one ClickHouse statement
 * sent as is, its answer (TabSeparatedWithNamesAndTypes) turned into a
 * profdb_result so every output format works.  Integer types give
 * integer cells, Float32/64 real ones (their text as SQLite would write
 * them), \N NULL, the rest text.  The user's SQL is the point here: it is
 * sent unchanged, with only a FORMAT clause after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "query/result.h"
#include "banned.h"

/* One TSV field at *p (up to tab/newline/end), unescaped into a new
 * string; *null set for \N.  Advances *p past the field. */
static char *field(const char **p, const char *end, int *null)
{
	const char *s = *p;
	size_t n = 0;
	while (s + n < end && s[n] != '\t' && s[n] != '\n')
		n++;
	*null = n == 2 && s[0] == '\\' && s[1] == 'N';
	char *out = malloc(n + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			*o++ = s[i];
			continue;
		}
		char c = s[++i];
		*o++ = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == '0' ? '\0' :
		       c == 'b' ? '\b' : c == 'f' ? '\f' : c;
	}
	*o = '\0';
	*p = s + n;
	return out;
}

/* The cell type a ClickHouse type gives: SQLITE_INTEGER, _FLOAT or _TEXT. */
static int cell_type(const char *t)
{
	if (strncmp(t, "Nullable(", 9) == 0)
		t += 9;
	if (strncmp(t, "Int", 3) == 0 || strncmp(t, "UInt", 4) == 0)
		return SQLITE_INTEGER;
	if (strncmp(t, "Float", 5) == 0)
		return SQLITE_FLOAT;
	return SQLITE_TEXT;
}

static int set_cell(struct profdb__cell *c, int type, char *text, int null)
{
	memset(c, 0, sizeof *c);
	if (null) {
		c->type = SQLITE_NULL;
		free(text);
		return 0;
	}
	c->type = type;
	c->text = text;
	if (type == SQLITE_INTEGER) {
		c->i = strtoll(text, NULL, 10);
	} else if (type == SQLITE_FLOAT) {
		c->d = strtod(text, NULL);
		char *t = sqlite3_mprintf("%!.15g", c->d); /* SQLite's text of a REAL */
		if (!t)
			return -1;
		free(c->text);
		c->text = strdup(t);
		sqlite3_free(t);
		if (!c->text)
			return -1;
	}
	return 0;
}

/* Split one line of n fields into out (malloc'd strings). */
static int split(const char **p, const char *end, size_t n, char **out, int *nulls)
{
	for (size_t i = 0; i < n; i++) {
		if (i) {
			if (*p >= end || **p != '\t')
				return -1;
			(*p)++;
		}
		if (!(out[i] = field(p, end, &nulls[i])))
			return -1;
	}
	if (*p < end && **p == '\n')
		(*p)++;
	return 0;
}

static size_t count_fields(const char *p, const char *end)
{
	size_t n = 1;
	for (; p < end && *p != '\n'; p++)
		n += *p == '\t';
	return n;
}

/* The answer text into r: names, types, then the rows. */
static int parse_answer(profdb_result *r, const char *p, const char *end, int *types)
{
	size_t n = r->ncols, cap = 0;
	int *nulls = calloc(n, sizeof *nulls);
	char **f = calloc(n, sizeof *f);
	int rc = -1;
	if (!nulls || !f || split(&p, end, n, r->names, nulls) != 0 || split(&p, end, n, f, nulls) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		types[i] = cell_type(f[i]);
		free(f[i]);
		f[i] = NULL;
	}
	while (p < end) {
		if (r->nrows == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct profdb__cell *c = realloc(r->cells, ncap * n * sizeof *c);
			if (!c)
				goto out;
			r->cells = c;
			cap = ncap;
		}
		struct profdb__cell *row = &r->cells[r->nrows * n];
		memset(row, 0, n * sizeof *row);
		r->nrows++; /* the cells are zeroed, so a failure frees what is set */
		if (split(&p, end, n, f, nulls) != 0)
			goto out;
		for (size_t i = 0; i < n; i++) {
			int bad = set_cell(&row[i], types[i], f[i], nulls[i]);
			f[i] = NULL;
			if (bad)
				goto out;
		}
	}
	rc = 0;
out:
	for (size_t i = 0; f && i < n; i++)
		free(f[i]);
	free(f);
	free(nulls);
	return rc;
}

int profdb__ch_query_sql(profdb *db, profdb_result **out, const char *sql)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb__ch *ch = NULL;
	struct profdb__ch_buf q = { 0 }, resp = { 0 };
	profdb_result *r = NULL;
	int *types = NULL;
	size_t len = strlen(sql);
	*out = NULL;
	/* the FORMAT clause goes after the statement: drop its final ';' */
	while (len && strchr(" \t\r\n;", sql[len - 1]))
		len--;
	if (len == 0)
		return profdb__error(db, PROFDB_EUSAGE, "no SQL statement given");
	if (profdb__ch_buf_add(&q, sql, len) || profdb__ch_buf_add(&q, "\nFORMAT TabSeparatedWithNamesAndTypes", 37)) {
		profdb__err_set(&err, PROFDB_ERROR, "out of memory");
		goto out;
	}
	if (profdb__ch_open(&ch, profdb__ch_url(db), &db->remote_opts, &err) != PROFDB_OK)
		goto out;
	/* the server, not a look at the text, keeps the database unchanged */
	profdb__ch_set_readonly(ch);
	if (profdb__ch_query(ch, q.data, &resp, &err) != PROFDB_OK)
		goto out;
	/* the format's own end: its names and types lines, each row ending
	 * in a newline */
	if (resp.len == 0 || resp.data[resp.len - 1] != '\n' || !memchr(resp.data, '\n', resp.len - 1)) {
		profdb__err_set(&err, PROFDB_ERROR, "clickhouse %s: the answer ends before its last line",
		    profdb__ch_where(ch));
		goto out;
	}
	const char *end = resp.data + resp.len;
	if (profdb__result_new(&r, count_fields(resp.data, end)) != PROFDB_OK ||
	    !(types = calloc(r->ncols, sizeof *types)) || parse_answer(r, resp.data, end, types) != 0) {
		profdb__err_set(&err, PROFDB_ERROR, "clickhouse %s: cannot read the answer", profdb__ch_where(ch));
		goto out;
	}
	for (size_t c = 0; c < r->ncols; c++) {
		r->types[c] = types[c] == SQLITE_INTEGER ? PROFDB_COL_INT :
		              types[c] == SQLITE_FLOAT ? PROFDB_COL_REAL : PROFDB_COL_TEXT;
	}
out:
	free(types);
	profdb__ch_close(ch);
	profdb__ch_buf_free(&q);
	profdb__ch_buf_free(&resp);
	if (err.code != PROFDB_OK) {
		profdb_result_free(r);
		return profdb__error(db, err.code, "%s", err.msg);
	}
	*out = r;
	return PROFDB_OK;
}
