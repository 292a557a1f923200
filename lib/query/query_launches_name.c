/*
 * query_launches_name.c - profdb launches --by name (query_launches.c has
 * the command and the other views): per kernel name and one "(all)" row
 * per run, the host launch call's duration and the launch -> device start
 * delay (median, p90, p99, max) and the outliers above the run's p75 + 3
 * (p75 - p25), computed in one pass over the kernel-launch join.
 */
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "analyses.h"
#include "stats.h"
#include "banned.h"

static const enum profdb_coltype name_types[N_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_INT
};

static const char *const name_cols[N_COUNT] = {
	"run_id", "ord", "run", "name", "calls", "launch_total", "launch_avg", "launch_max", "delay_median",
	"delay_p90", "delay_p99", "delay_max", "outliers"
};

/* One linked activity as the by-name figures see it. */
struct nrow {
	int64_t name_id, ld, delay;
};

/* One row of the by-name table before it becomes cells: a name of a run,
 * or the run's "(all)" (name NULL). */
struct nline {
	int64_t run_id, calls, ltotal, lmax, dmax, out;
	double lavg, dmed, dp90, dp99;
	char *name;                /* owned; NULL: "(all)" */
};

struct nlines {
	struct nline *v;
	size_t n, cap;
	struct nrow *rows;         /* the current run's activities */
	size_t nrows, rcap;
	double *d;                 /* scratch: delays, sorted */
	size_t dcap;
};

static int cmp_nrow(const void *x, const void *y)
{
	const struct nrow *a = x, *b = y;
	if (a->name_id != b->name_id)
		return a->name_id < b->name_id ? -1 : 1;
	return a->delay < b->delay ? -1 : a->delay > b->delay;
}

static int cmp_nline(const void *x, const void *y)
{
	const struct nline *a = x, *b = y;
	if (a->run_id != b->run_id)
		return a->run_id < b->run_id ? -1 : 1;
	if (!a->name != !b->name)
		return a->name ? 1 : -1; /* "(all)" first */
	if (a->ltotal != b->ltotal)
		return a->ltotal > b->ltotal ? -1 : 1;
	return a->name ? strcmp(a->name, b->name) : 0;
}

/* The figures of v[0..n) (delays in d, sorted) into a new line of L. */
static struct nline *nline_add(struct nlines *L, int64_t run, const struct nrow *v, size_t n, double fence)
{
	struct nline *l;
	if (L->n == L->cap) {
		size_t ncap = L->cap ? 2 * L->cap : 64;
		struct nline *m = realloc(L->v, ncap * sizeof *m);
		if (!m)
			return NULL;
		L->v = m;
		L->cap = ncap;
	}
	l = &L->v[L->n++];
	memset(l, 0, sizeof *l);
	l->run_id = run;
	l->calls = (int64_t)n;
	for (size_t i = 0; i < n; i++) {
		l->ltotal += v[i].ld;
		l->lmax = i == 0 || v[i].ld > l->lmax ? v[i].ld : l->lmax;
		l->out += (double)v[i].delay > fence;
	}
	l->lavg = (double)l->ltotal / (double)n;
	l->dmed = profdb__percentile_sorted(L->d, n, 50);
	l->dp90 = profdb__percentile_sorted(L->d, n, 90);
	l->dp99 = profdb__percentile_sorted(L->d, n, 99);
	l->dmax = (int64_t)L->d[n - 1];
	return l;
}

/* The lines of one run from its activities: "(all)" (its quartiles give
 * the fence) and one per name, named through q (str by id). */
static int name_run(struct nlines *L, int64_t run, sqlite3_stmt *q)
{
	size_t n = L->nrows, i = 0;
	double q1, q3;
	if (n == 0)
		return PROFDB_OK;
	if (n > L->dcap) {
		double *d = realloc(L->d, n * sizeof *d);
		if (!d)
			return PROFDB_ERROR;
		L->d = d;
		L->dcap = n;
	}
	for (size_t k = 0; k < n; k++)
		L->d[k] = (double)L->rows[k].delay;
	profdb__sort_doubles(L->d, n);
	q1 = profdb__percentile_sorted(L->d, n, 25);
	q3 = profdb__percentile_sorted(L->d, n, 75);
	if (!nline_add(L, run, L->rows, n, q3 + 3 * (q3 - q1)))
		return PROFDB_ERROR;
	qsort(L->rows, n, sizeof *L->rows, cmp_nrow);
	while (i < n) {
		size_t j = i;
		struct nline *l;
		while (j < n && L->rows[j].name_id == L->rows[i].name_id)
			j++;
		for (size_t k = i; k < j; k++)
			L->d[k - i] = (double)L->rows[k].delay; /* already sorted by delay */
		if (!(l = nline_add(L, run, &L->rows[i], j - i, q3 + 3 * (q3 - q1))))
			return PROFDB_ERROR;
		sqlite3_bind_int64(q, 1, L->rows[i].name_id);
		l->name = strdup(sqlite3_step(q) == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : "");
		sqlite3_reset(q);
		if (!l->name)
			return PROFDB_ERROR;
		i = j;
	}
	L->nrows = 0;
	return PROFDB_OK;
}

/* Stream the linked activities of f run by run into L's lines. */
static int name_pass(profdb *db, const struct profdb_filter *f, struct nlines *L)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL, *q = NULL;
	int64_t run = 0;
	int rc, err = PROFDB_OK, have = 0;

	profdb__qbuf_add(&b, "SELECT k.run_id, k.name_id, l.dur_ns, k.start_ns - l.start_ns FROM kernel k"
	         " JOIN launch l ON l.run_id = k.run_id AND l.rank = k.rank AND l.correlation = k.correlation"
	         " WHERE 1");
	profdb__qfilter_where(&b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(&b, " ORDER BY k.run_id");
	rc = profdb__query_prepare(db, &b, &st, "cannot read launches");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	if (sqlite3_prepare_v2(db->sql, "SELECT value FROM str WHERE id = ?1", -1, &q, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return profdb__sqlerror(db, "cannot read names");
	}
	profdb__qfilter_bind(st, f);
	while (err == PROFDB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t krun = sqlite3_column_int64(st, 0);
		if (have && krun != run && (err = name_run(L, run, q)) != PROFDB_OK)
			break;
		run = krun, have = 1;
		if (L->nrows == L->rcap) {
			size_t ncap = L->rcap ? 2 * L->rcap : 4096;
			struct nrow *m = realloc(L->rows, ncap * sizeof *m);
			if (!m) {
				err = PROFDB_ERROR;
				break;
			}
			L->rows = m;
			L->rcap = ncap;
		}
		L->rows[L->nrows++] = (struct nrow){ sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
		                                     sqlite3_column_int64(st, 3) };
	}
	if (err == PROFDB_OK && rc == SQLITE_DONE && have)
		err = name_run(L, run, q);
	sqlite3_finalize(st);
	sqlite3_finalize(q);
	if (err != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot read launches");
}

/* The cells of line l into row i of r; run names through q (run by id). */
static int name_cells(profdb_result *r, size_t i, const struct nline *l, sqlite3_stmt *q)
{
	int rc = 0;
	sqlite3_bind_int64(q, 1, l->run_id);
	rc |= profdb__result_set_text(r, i, N_RUN, sqlite3_step(q) == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : "");
	sqlite3_reset(q);
	rc |= profdb__result_set_int(r, i, N_RUN_ID, l->run_id);
	rc |= profdb__result_set_int(r, i, N_ORD, l->name != NULL);
	rc |= profdb__result_set_text(r, i, N_NAME, l->name ? l->name : "(all)");
	rc |= profdb__result_set_int(r, i, N_CALLS, l->calls);
	rc |= profdb__result_set_int(r, i, N_LTOTAL, l->ltotal);
	rc |= profdb__result_set_double(r, i, N_LAVG, l->lavg);
	rc |= profdb__result_set_int(r, i, N_LMAX, l->lmax);
	rc |= profdb__result_set_double(r, i, N_DMED, l->dmed);
	rc |= profdb__result_set_double(r, i, N_DP90, l->dp90);
	rc |= profdb__result_set_double(r, i, N_DP99, l->dp99);
	rc |= profdb__result_set_int(r, i, N_DMAX, l->dmax);
	rc |= profdb__result_set_int(r, i, N_OUT, l->out);
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

/*
 * By name in one pass over the join, in C: each figure used to be an SQL
 * aggregate sorting its own copy of the delays (five sorts of a run's
 * delays and a materialized join); here a run's delays are sorted once for
 * "(all)" and once by (name, delay).  Same definitions (stats.h).
 */
int profdb__launches_by_name(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct nlines L = { 0 };
	sqlite3_stmt *q = NULL;
	int rc = name_pass(db, f, &L);

	if (rc == PROFDB_OK) {
		if (L.n > 1) /* (an empty answer has no array: qsort wants one) */
			qsort(L.v, L.n, sizeof *L.v, cmp_nline);
		if (profdb__result_new_rows(out, name_cols, name_types, N_COUNT, L.n) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		else if (sqlite3_prepare_v2(db->sql, "SELECT name FROM run WHERE id = ?1", -1, &q, NULL) != SQLITE_OK)
			rc = profdb__sqlerror(db, "cannot read runs");
	}
	for (size_t i = 0; rc == PROFDB_OK && i < L.n; i++)
		if (name_cells(*out, i, &L.v[i], q) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	sqlite3_finalize(q);
	for (size_t i = 0; i < L.n; i++)
		free(L.v[i].name);
	free(L.v);
	free(L.rows);
	free(L.d);
	return rc;
}
