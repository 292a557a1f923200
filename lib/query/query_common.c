/*
 * query_common.c - small tools of the query files: a growing SQL text, a
 * checked prepare, and the shape of results whose figures are computed in C
 * (busy time, top kernels) after the SQL part; their cells are set with
 * result.c's setters.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "banned.h"

static int qbuf_grow(struct profdb__qbuf *b, size_t need)
{
	size_t ncap;
	char *s;
	if (b->oom)
		return -1;
	if (b->len + need + 1 <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 1024;
	while (ncap < b->len + need + 1)
		ncap *= 2;
	s = realloc(b->s, ncap);
	if (!s) {
		b->oom = 1;
		return -1;
	}
	b->s = s;
	b->cap = ncap;
	return 0;
}

void profdb__qbuf_add(struct profdb__qbuf *b, const char *text)
{
	size_t n = strlen(text);
	if (qbuf_grow(b, n) != 0)
		return;
	memcpy(b->s + b->len, text, n + 1);
	b->len += n;
}

void profdb__qbuf_addf(struct profdb__qbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || qbuf_grow(b, (size_t)n) != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void profdb__qbuf_free(struct profdb__qbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

int profdb__query_prepare(profdb *db, const struct profdb__qbuf *b, sqlite3_stmt **st, const char *what)
{
	*st = NULL;
	if (b->oom || !b->s)
		return profdb__error(db, PROFDB_ERROR, "%s: out of memory", what);
	if (sqlite3_prepare_v2(db->sql, b->s, -1, st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "%s", what);
	return PROFDB_OK;
}

int profdb__result_new_rows(profdb_result **out, const char *const *names, const enum profdb_coltype *types,
                     size_t ncols, size_t nrows)
{
	profdb_result *r;
	*out = NULL;
	if (profdb__result_new(&r, ncols) != PROFDB_OK)
		return PROFDB_ERROR;
	*out = r;
	for (size_t i = 0; i < ncols; i++) {
		r->types[i] = types[i];
		if (!(r->names[i] = strdup(names[i])))
			return PROFDB_ERROR;
	}
	if (nrows && !(r->cells = calloc(nrows * ncols, sizeof *r->cells)))
		return PROFDB_ERROR;
	for (size_t i = 0; i < nrows * ncols; i++)
		r->cells[i].type = SQLITE_NULL;
	r->nrows = nrows;
	return PROFDB_OK;
}

int profdb__result_query(profdb *db, profdb_result **out, struct profdb__qbuf *b, const struct profdb_filter *f,
                  const enum profdb_coltype *types, const char *what)
{
	sqlite3_stmt *st = NULL;
	int rc = profdb__query_prepare(db, b, &st, what);
	profdb__qbuf_free(b);
	*out = NULL;
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	rc = profdb__result_from_stmt(db, out, st, types);
	sqlite3_finalize(st);
	return rc;
}

int profdb__qfilter_check_no_kind(profdb *db, const struct profdb_filter *f, const char *what)
{
	int rc = profdb__qfilter_check(db, f);
	if (rc == PROFDB_OK && f->kind)
		rc = profdb__error(db, PROFDB_EUSAGE, "%s: no kind filter", what);
	return rc;
}
