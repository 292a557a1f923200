/*
 * compare_lines.c - the kernel lines of a comparison, held or spooled.
 *
 * Why: the lines are sorted by |delta| before the first is written, so
 * each key's line (about 250 bytes with its key) was held to the end: 1 M
 * keys were 250 MB.  They are held while they fit the one hold budget
 * (profdb__result_hold_budget, 8 MiB: about 30 000 lines); past it every
 * line goes to a spool (result_stream.c: a temporary table, on disk past
 * SQLite's cache) and is read back sorted, ORDER BY abs(delta) DESC, key:
 * the order cmp_lines gives the held ones (keys are distinct, SQLite's
 * BINARY collation is strcmp's).  The renderers read both through one
 * walk (compare.h), so the held and the spooled lines print alike.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "query/query.h"
#include "query/result.h"
#include "banned.h"

/* The spooled lines: their sorted table and their counts per verdict. */
struct profdb__cmp_spooled {
	profdb *db;
	char table[48];            /* temp.<table>: rowid k is line k - 1 */
	int kept;                  /* the table exists */
	size_t count[PROFDB_VERDICT_GONE + 1];
};

enum { L_KEY, L_VERDICT, L_IS_COUNT, L_BASE, L_NEXT, L_BASE_CALLS, L_NEXT_CALLS, L_DELTA, L_REL,
       L_P, L_CI_LO, L_CI_HI, L_NBASE, L_NNEXT, L_WHY, L_COLS };

static const char *const col_names[L_COLS] = {
	"key", "verdict", "is_count", "base", "next", "base_calls", "next_calls", "delta", "rel",
	"p", "ci_lo", "ci_hi", "nbase", "nnext", "why"
};

static const char READ_SQL[] =
	"SELECT key, verdict, is_count, base, next, base_calls, next_calls, delta, rel, p, ci_lo,"
	" ci_hi, nbase, nnext, why FROM temp.\"%s\" WHERE rowid > ?1 ORDER BY rowid";

static int cmp_lines(const void *a, const void *b)
{
	const struct profdb__cmp_line *x = a, *y = b;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Bytes line l takes held, about: itself, its key and the allocator's. */
static uint64_t line_bytes(const struct profdb__cmp_line *l)
{
	return sizeof *l + strlen(l->key) + 1 + 32;
}

/* NaN (no figure) is NULL in the spool, and NULL NaN again when read. */
static void bind_real(sqlite3_stmt *q, int col, double v)
{
	if (isnan(v))
		sqlite3_bind_null(q, col + 1);
	else
		sqlite3_bind_double(q, col + 1, v);
}

/* Line l as the spool's next row, bound straight to its insert: through
 * the spool's row (profdb__spool_put) each figure would be printed as
 * text too, 9 M snprintf for 1 M lines. */
static int spool_line(struct profdb__cmp_lines *L, const struct profdb__cmp_line *l)
{
	sqlite3_stmt *q = L->spool->ins;
	int rc;
	sqlite3_bind_text(q, L_KEY + 1, l->key, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, L_VERDICT + 1, (int)l->verdict);
	sqlite3_bind_int(q, L_IS_COUNT + 1, l->is_count);
	bind_real(q, L_BASE, l->base);
	bind_real(q, L_NEXT, l->next);
	bind_real(q, L_BASE_CALLS, l->base_calls);
	bind_real(q, L_NEXT_CALLS, l->next_calls);
	bind_real(q, L_DELTA, l->delta);
	bind_real(q, L_REL, l->rel);
	bind_real(q, L_P, l->p);
	bind_real(q, L_CI_LO, l->ci_lo);
	bind_real(q, L_CI_HI, l->ci_hi);
	sqlite3_bind_int64(q, L_NBASE + 1, (sqlite3_int64)l->nbase);
	sqlite3_bind_int64(q, L_NNEXT + 1, (sqlite3_int64)l->nnext);
	sqlite3_bind_text(q, L_WHY + 1, l->why, -1, SQLITE_STATIC);
	rc = sqlite3_step(q) == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(L->db, "cannot keep the kernel lines");
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc == PROFDB_OK)
		L->c->spooled->count[l->verdict]++;
	return rc;
}

/* Past the budget: open the spool and move the held lines into it. */
static int spill(struct profdb__cmp_lines *L)
{
	static const enum profdb_coltype types[L_COLS] = {
		PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_REAL, PROFDB_COL_REAL,
		PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_REAL,
		PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT
	};
	profdb_comparison *c = L->c;
	int rc;
	if (!(c->spooled = calloc(1, sizeof *c->spooled)) || !(L->spool = calloc(1, sizeof *L->spool)))
		return profdb__error(L->db, PROFDB_ERROR, "out of memory");
	c->spooled->db = L->db;
	/* one table per live comparison: its address names it */
	snprintf(c->spooled->table, sizeof c->spooled->table, "profdb_cmp_%" PRIxPTR, (uintptr_t)c);
	if ((rc = profdb__spool_open(L->db, L->spool, col_names, types, L_COLS)) != PROFDB_OK)
		return rc;
	for (size_t i = 0; i < c->nkernels; i++)
		if ((rc = spool_line(L, &c->kernels[i])) != PROFDB_OK)
			return rc;
	for (size_t i = 0; i < c->nkernels; i++)
		free(c->kernels[i].key);
	free(c->kernels);
	c->kernels = NULL;
	L->cap = 0;
	return PROFDB_OK;
}

int profdb__cmp_lines_add(struct profdb__cmp_lines *L, struct profdb__cmp_line *l)
{
	profdb_comparison *c = L->c;
	int rc;
	if (L->spool) {
		rc = spool_line(L, l);
		free(l->key);
		l->key = NULL;
		c->nkernels += rc == PROFDB_OK;
		return rc;
	}
	if (c->nkernels == L->cap) {
		size_t ncap = L->cap ? L->cap * 2 : 256;
		struct profdb__cmp_line *t = realloc(c->kernels, ncap * sizeof *t);
		if (!t) {
			free(l->key);
			return profdb__error(L->db, PROFDB_ERROR, "out of memory");
		}
		c->kernels = t;
		L->cap = ncap;
	}
	c->kernels[c->nkernels++] = *l;
	L->held += line_bytes(l);
	l->key = NULL;
	return L->held > c->hold_bytes ? spill(L) : PROFDB_OK;
}

int profdb__cmp_lines_done(struct profdb__cmp_lines *L)
{
	profdb_comparison *c = L->c;
	int rc;
	if (!L->spool) {
		/* never NULL, as the renderers and free expect */
		if (!c->kernels && !(c->kernels = calloc(1, sizeof *c->kernels)))
			return profdb__error(L->db, PROFDB_ERROR, "out of memory");
		if (c->nkernels > 1)
			qsort(c->kernels, c->nkernels, sizeof *c->kernels, cmp_lines);
		return PROFDB_OK;
	}
	rc = profdb__spool_keep(L->spool, c->spooled->table, "abs(delta) DESC, key");
	c->spooled->kept = 1; /* dropped by the comparison's free, made or not */
	profdb__spool_close(L->spool);
	free(L->spool);
	L->spool = NULL;
	return rc;
}

void profdb__cmp_lines_abort(struct profdb__cmp_lines *L)
{
	if (L->spool)
		profdb__spool_close(L->spool);
	free(L->spool);
	L->spool = NULL;
}

void profdb__cmp_spooled_free(struct profdb__cmp_spooled *sp)
{
	if (sp && sp->kept)
		profdb__spool_drop(sp->db, sp->table);
	free(sp);
}

profdb *profdb__cmp_spooled_db(const struct profdb__cmp_spooled *sp)
{
	return sp->db;
}

size_t profdb__cmp_spooled_count(const struct profdb__cmp_spooled *sp, enum profdb_verdict v)
{
	return (size_t)v <= PROFDB_VERDICT_GONE ? sp->count[v] : 0;
}

/* ---------------------------------------------------------------- walk */

void profdb__cmp_walk_start(struct profdb__cmp_walk *w, const profdb_comparison *c, size_t from)
{
	char sql[sizeof READ_SQL + 48];
	memset(w, 0, sizeof *w);
	w->c = c;
	w->pos = from;
	if (!c->spooled)
		return;
	snprintf(sql, sizeof sql, READ_SQL, c->spooled->table);
	if (sqlite3_prepare_v2(c->spooled->db->sql, sql, -1, &w->q, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(w->q, 1, (sqlite3_int64)from) != SQLITE_OK)
		w->err = PROFDB_ERROR;
}

static double get_real(sqlite3_stmt *q, int col)
{
	return sqlite3_column_type(q, col) == SQLITE_NULL ? NAN : sqlite3_column_double(q, col);
}

/* The current row of w->q as w->line. */
static const struct profdb__cmp_line *read_line(struct profdb__cmp_walk *w)
{
	struct profdb__cmp_line *l = &w->line;
	const char *key = (const char *)sqlite3_column_text(w->q, L_KEY);
	const char *why = (const char *)sqlite3_column_text(w->q, L_WHY);
	free(w->key);
	if (!(w->key = strdup(key ? key : ""))) {
		w->err = PROFDB_ERROR;
		return NULL;
	}
	memset(l, 0, sizeof *l);
	l->key = w->key;
	l->verdict = (enum profdb_verdict)sqlite3_column_int(w->q, L_VERDICT);
	l->is_count = sqlite3_column_int(w->q, L_IS_COUNT);
	l->base = get_real(w->q, L_BASE);
	l->next = get_real(w->q, L_NEXT);
	l->base_calls = get_real(w->q, L_BASE_CALLS);
	l->next_calls = get_real(w->q, L_NEXT_CALLS);
	l->delta = get_real(w->q, L_DELTA);
	l->rel = get_real(w->q, L_REL);
	l->p = get_real(w->q, L_P);
	l->ci_lo = get_real(w->q, L_CI_LO);
	l->ci_hi = get_real(w->q, L_CI_HI);
	l->nbase = (size_t)sqlite3_column_int64(w->q, L_NBASE);
	l->nnext = (size_t)sqlite3_column_int64(w->q, L_NNEXT);
	snprintf(l->why, sizeof l->why, "%s", why ? why : "");
	w->pos++;
	return l;
}

const struct profdb__cmp_line *profdb__cmp_walk_next(struct profdb__cmp_walk *w)
{
	int rc;
	if (w->err)
		return NULL;
	if (!w->c->spooled)
		return w->pos < w->c->nkernels ? &w->c->kernels[w->pos++] : NULL;
	if ((rc = sqlite3_step(w->q)) == SQLITE_ROW)
		return read_line(w);
	if (rc != SQLITE_DONE)
		w->err = PROFDB_ERROR;
	return NULL;
}

int profdb__cmp_walk_end(struct profdb__cmp_walk *w)
{
	sqlite3_finalize(w->q);
	w->q = NULL;
	free(w->key);
	w->key = NULL;
	return w->err;
}
