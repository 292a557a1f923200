/*
 * result_order.c - --sort COL, --asc and --top N for every table command
 * whose query does not order and cut its rows itself (kernels, ops and
 * diff do, in SQL): the answer's rows reordered by a named column, then at
 * most N kept per run.  One implementation, so steps, launches, idle,
 * flops, collectives, ranks, bandwidth, apis, memory, breakdown and
 * summary sort and cut alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "result.h"
#include "banned.h"

struct order_ctx {
	const profdb_result *r;
	size_t col;                /* the sort column; (size_t)-1: keep the order */
	size_t *group;             /* per row: the rank of its run's first row */
	int desc;
};

/* Cells compare as numbers where both are, else as text; NULL last. */
static int cell_cmp(const struct profdb__cell *a, const struct profdb__cell *b, int desc)
{
	int an = a->type == SQLITE_NULL, bn = b->type == SQLITE_NULL, c;
	if (an || bn)
		return an - bn;
	if (a->type != SQLITE_TEXT && b->type != SQLITE_TEXT) {
		double x = a->type == SQLITE_INTEGER ? (double)a->i : a->d;
		double y = b->type == SQLITE_INTEGER ? (double)b->i : b->d;
		c = (x > y) - (x < y);
	} else {
		c = strcmp(a->text ? a->text : "", b->text ? b->text : "");
	}
	return desc ? -c : c;
}

static int row_cmp(const struct order_ctx *x, size_t a, size_t b)
{
	const profdb_result *r = x->r;
	int c;
	if (x->group[a] != x->group[b])
		return x->group[a] < x->group[b] ? -1 : 1;
	if (x->col != (size_t)-1 &&
	    (c = cell_cmp(&r->cells[a * r->ncols + x->col], &r->cells[b * r->ncols + x->col], x->desc)))
		return c;
	return (a > b) - (a < b); /* ties keep the query's order */
}

/* Bottom-up merge sort of idx[0, n) by row_cmp (qsort takes no context,
 * and a library may run on several threads). */
static void sort_rows(const struct order_ctx *x, size_t *idx, size_t *tmp, size_t n)
{
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = row_cmp(x, idx[i], idx[j]) <= 0 ? idx[i++] : idx[j++];
			while (i < mid)
				tmp[k++] = idx[i++];
			while (j < hi)
				tmp[k++] = idx[j++];
		}
		memcpy(idx, tmp, n * sizeof *idx);
	}
}

/* The column named name: as the answer names it, as a table heads it
 * ("total (us)") or as csv and json do (total_us, busy_pct). */
static size_t find_col(const profdb_result *r, const char *name)
{
	static const char *const time_sfx[] = { "_us", "_ns", "_ms", "_s" };
	size_t len = strcspn(name, " (");
	for (size_t c = 0; c < r->ncols; c++)
		if (r->names[c] && strlen(r->names[c]) == len && strncmp(r->names[c], name, len) == 0)
			return c;
	for (size_t c = 0; c < r->ncols; c++) {
		size_t n = r->names[c] ? strlen(r->names[c]) : 0;
		if (!n || n >= len || strncmp(r->names[c], name, n) != 0)
			continue;
		if (r->types[c] == PROFDB_COL_PCT && strcmp(name + n, "_pct") == 0)
			return c;
		for (size_t i = 0; r->types[c] == PROFDB_COL_NS && i < 4; i++)
			if (strcmp(name + n, time_sfx[i]) == 0)
				return c;
	}
	return (size_t)-1;
}

/* EUSAGE naming r's columns, with the nearest when one is close. */
static int unknown_col(profdb *db, const profdb_result *r, const char *name)
{
	const char *names[64];
	char list[512] = "", hint[96];
	size_t n = 0, off = 0;
	for (size_t c = 0; c < r->ncols && n < 64; c++)
		if (r->names[c])
			names[n++] = r->names[c];
	for (size_t i = 0; i < n && off < sizeof list; i++)
		off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", i ? ", " : "", names[i]);
	return profdb__error(db, PROFDB_EUSAGE, "cannot sort by '%s'%s (%s)", name,
	                     profdb__did_you_mean(hint, sizeof hint, name, names, n), list);
}

/* Per row, the rank of the first row of its run (the "run" column), so
 * runs stay in the query's order and --top counts per run. */
static void run_groups(const profdb_result *r, size_t *group, int per_run)
{
	size_t rc = per_run ? find_col(r, "run") : (size_t)-1;
	for (size_t i = 0; i < r->nrows; i++) {
		group[i] = i;
		if (rc == (size_t)-1)
			group[i] = 0;
		else if (i && cell_cmp(&r->cells[(i - 1) * r->ncols + rc], &r->cells[i * r->ncols + rc], 0) == 0)
			group[i] = group[i - 1];
		else
			for (size_t j = 0; j < i; j++)
				if (cell_cmp(&r->cells[j * r->ncols + rc], &r->cells[i * r->ncols + rc], 0) == 0) {
					group[i] = group[j];
					break;
				}
	}
}

/* Move rows into the order of idx, keeping those whose keep[] is set. */
static int permute(profdb_result *r, const size_t *idx, const unsigned char *keep)
{
	size_t kept = 0;
	struct profdb__cell *cells = calloc(r->nrows ? r->nrows * r->ncols : 1, sizeof *cells);
	if (!cells)
		return PROFDB_ERROR;
	for (size_t i = 0; i < r->nrows; i++) {
		struct profdb__cell *src = &r->cells[idx[i] * r->ncols];
		if (keep[i]) {
			memcpy(&cells[kept * r->ncols], src, r->ncols * sizeof *src);
			kept++;
		} else {
			for (size_t c = 0; c < r->ncols; c++)
				free(src[c].text);
		}
	}
	free(r->cells);
	r->cells = cells;
	r->nrows = kept;
	return PROFDB_OK;
}

int profdb_result_order(profdb *db, profdb_result *r, const char *col, int ascending, int64_t top, int per_run)
{
	size_t *idx, *group, *tmp, c = (size_t)-1;
	struct order_ctx x;
	unsigned char *keep;
	int rc = PROFDB_OK;

	if (col && *col && (c = find_col(r, col)) == (size_t)-1)
		return unknown_col(db, r, col);
	if (profdb__result_streamed(r))
		return profdb__error(db, PROFDB_EUSAGE, "cannot sort rows that were written already");
	idx = malloc((r->nrows ? r->nrows : 1) * sizeof *idx);
	group = malloc((r->nrows ? r->nrows : 1) * sizeof *group);
	tmp = malloc((r->nrows ? r->nrows : 1) * sizeof *tmp);
	keep = malloc(r->nrows ? r->nrows : 1);
	if (!idx || !group || !tmp || !keep) {
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < r->nrows; i++)
		idx[i] = i;
	run_groups(r, group, per_run);
	/* numbers largest first unless --asc; text (names) reads A..Z */
	x = (struct order_ctx){ r, c, group, 0 };
	if (c != (size_t)-1)
		x.desc = !ascending && r->types[c] != PROFDB_COL_TEXT && r->types[c] != PROFDB_COL_JSON;
	sort_rows(&x, idx, tmp, r->nrows);
	for (size_t i = 0, n = 0; i < r->nrows; i++) {
		n = i && group[idx[i]] == group[idx[i - 1]] ? n + 1 : 1;
		keep[i] = top <= 0 || (int64_t)n <= top;
	}
	if (permute(r, idx, keep) != PROFDB_OK)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
out:
	free(idx);
	free(group);
	free(tmp);
	free(keep);
	return rc;
}
