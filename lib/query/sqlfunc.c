/*
 * sqlfunc.c - the SQL functions profdb registers on every connection (and
 * that the loadable extension sqlfunc_ext.c registers in any SQLite client):
 *
 *   median(x)          aggregate: percentile(x, 50)
 *   percentile(x, p)   aggregate: exact p-th percentile, 0 <= p <= 100, linear
 *                      interpolation between closest ranks (numpy default)
 *   stddev(x)          aggregate: sample standard deviation (n - 1); NULL
 *                      for fewer than two values
 *   base_name(s)       scalar: the normalised kernel name (basename.c)
 *   union_ns(a, b)     aggregate: the length of the union of the intervals
 *                      [a, b) of the group, as INTEGER (overlaps count
 *                      once; stats.c profdb__union_ns): steps' busy time
 *
 * The aggregates skip NULLs and values that are not numbers (as sum() skips
 * NULLs) and return NULL for an empty group.  They return REAL (union_ns:
 * INTEGER, and it skips a row unless both ends are integers).  The
 * definitions live in stats.c so that queries and SQL agree.
 */
#ifdef PROFDB_SQLITE_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include <string.h>

#include "internal.h"
#include "util/stats.h"
#include "banned.h"

/* The values of one group, collected for sorting at the end. */
struct collect {
	double *v;                 /* values so far */
	size_t n, cap;
	double p;                  /* percentile asked for (percentile() only) */
	int have_p;                /* p was read from the first row */
};

/* The numeric value of an argument; 0 when it is NULL or not a number. */
static int numeric_arg(sqlite3_value *a, double *out)
{
	switch (sqlite3_value_numeric_type(a)) {
	case SQLITE_INTEGER:
		*out = (double)sqlite3_value_int64(a);
		return 1;
	case SQLITE_FLOAT:
		*out = sqlite3_value_double(a);
		return 1;
	default:
		return 0;
	}
}

static int collect_add(sqlite3_context *ctx, struct collect *c, double x)
{
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 64;
		double *nv = sqlite3_realloc64(c->v, ncap * sizeof *nv);
		if (!nv) {
			sqlite3_result_error_nomem(ctx);
			return -1;
		}
		c->v = nv;
		c->cap = ncap;
	}
	c->v[c->n++] = x;
	return 0;
}

static void median_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct collect *c = sqlite3_aggregate_context(ctx, sizeof *c);
	double x;
	(void)argc;
	if (!c) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (numeric_arg(argv[0], &x))
		collect_add(ctx, c, x);
}

static void percentile_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct collect *c = sqlite3_aggregate_context(ctx, sizeof *c);
	double x, p;
	(void)argc;
	if (!c) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	/* p must be the same number on every row: a constant in practice */
	if (!numeric_arg(argv[1], &p) || !(p >= 0 && p <= 100) ||
	    (c->have_p && p != c->p)) {
		sqlite3_result_error(ctx, "percentile(x, p): p must be one number from 0 to 100", -1);
		return;
	}
	c->p = p;
	c->have_p = 1;
	if (numeric_arg(argv[0], &x))
		collect_add(ctx, c, x);
}

static void finish_percentile(sqlite3_context *ctx, double p)
{
	struct collect *c = sqlite3_aggregate_context(ctx, 0);
	if (!c || c->n == 0) {
		sqlite3_result_null(ctx);
	} else {
		profdb__sort_doubles(c->v, c->n);
		sqlite3_result_double(ctx, profdb__percentile_sorted(c->v, c->n, p));
	}
	if (c)
		sqlite3_free(c->v);
}

static void median_final(sqlite3_context *ctx)
{
	finish_percentile(ctx, 50);
}

static void percentile_final(sqlite3_context *ctx)
{
	struct collect *c = sqlite3_aggregate_context(ctx, 0);
	finish_percentile(ctx, c ? c->p : 0);
}

static void stddev_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct profdb__moments *m = sqlite3_aggregate_context(ctx, sizeof *m);
	double x;
	(void)argc;
	if (!m) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (numeric_arg(argv[0], &x))
		profdb__moments_add(m, x);
}

static void stddev_final(sqlite3_context *ctx)
{
	struct profdb__moments *m = sqlite3_aggregate_context(ctx, 0);
	double sd = m ? profdb__moments_stddev(m) : -1;
	if (sd < 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, sd);
}

/* The intervals of one group, merged at the end.  Held one group at a
 * time when the GROUP BY runs in order (query_steps.c's busy column). */
struct ivals {
	struct profdb__interval *iv;
	size_t n, cap;
};

static void union_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct ivals *c = sqlite3_aggregate_context(ctx, sizeof *c);
	(void)argc;
	if (!c) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER ||
	    sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER)
		return;
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 64;
		struct profdb__interval *niv = sqlite3_realloc64(c->iv, ncap * sizeof *niv);
		if (!niv) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		c->iv = niv;
		c->cap = ncap;
	}
	c->iv[c->n].start = sqlite3_value_int64(argv[0]);
	c->iv[c->n].end = sqlite3_value_int64(argv[1]);
	c->n++;
}

static void union_final(sqlite3_context *ctx)
{
	struct ivals *c = sqlite3_aggregate_context(ctx, 0);
	if (!c || c->n == 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, profdb__union_ns(c->iv, c->n));
	if (c)
		sqlite3_free(c->iv);
}

static void base_name_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	size_t n;
	char *out;
	(void)argc;
	if (!s) {
		sqlite3_result_null(ctx);
		return;
	}
	/* the base name is never longer than the name */
	n = strlen(s) + 1;
	out = sqlite3_malloc64(n);
	if (!out) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	profdb__base_name(s, out, n);
	sqlite3_result_text(ctx, out, -1, sqlite3_free);
}

int profdb__register_functions(sqlite3 *db)
{
	const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
	int rc = sqlite3_create_function(db, "median", 1, flags, NULL, NULL, median_step, median_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "percentile", 2, flags, NULL, NULL,
		                             percentile_step, percentile_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "stddev", 1, flags, NULL, NULL, stddev_step, stddev_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "base_name", 1, flags, NULL, base_name_fn, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "union_ns", 2, flags, NULL, NULL, union_step, union_final);
	return rc;
}
