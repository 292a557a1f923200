/*
 * query_ranks.c - profdb ranks: stragglers.  Per step (or per run with
 * by_rank), each rank's compute, communication and exposed communication
 * come from the breakdown (query_breakdown.c, one definition); across the
 * ranks of a step:
 *
 *  - wait = exposed_communication - the smallest exposed_communication of
 *    the step: the part of a rank's exposed collective time the least
 *    waiting rank did not have, i.e. time spent waiting for slower ranks;
 *  - compute_z = the robust (modified) z-score of compute, 0.6745 (x -
 *    median) / MAD (Iglewicz and Hoaglin); when MAD is 0, (x - median) /
 *    (1.253314 * mean absolute deviation); 0 when both are 0; NULL with
 *    fewer than 3 ranks (two values give +-0.6745 whatever they are);
 *  - straggler: "yes" when compute_z > threshold (default 3.5, the usual
 *    cut-off for the modified z-score), "no" otherwise;
 *  - top_kernel, top_excess: the kernel name whose total in the step on
 *    this rank exceeds the median over the step's ranks (0 where a rank did
 *    not run it) by the most: what explains a slow rank.  NULL when no name
 *    exceeds its median.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "stats.h"
#include "banned.h"

enum { R_RUN_ID, R_RUN, R_RANK, R_STEP, R_COMPUTE, R_COMM, R_EXPOSED, R_WAIT, R_MEDIAN, R_Z, R_STRAGGLER,
       R_TOP, R_EXCESS, R_COUNT };
static const char *const names[R_COUNT] = {
	"run_id", "run", "rank", "step", "compute", "communication", "exposed_communication", "wait",
	"compute_median", "compute_z", "straggler", "top_kernel", "top_excess"
};
static const enum profdb_coltype types[R_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_REAL, PROFDB_COL_TEXT, PROFDB_COL_TEXT,
	PROFDB_COL_NS
};

/* One breakdown row, with the keys to group by (run, step) and its index. */
struct rrow {
	int64_t run, step, compute, exposed; /* step INT64_MIN: NULL */
	size_t i;
};

static int cmp_group(const void *x, const void *y)
{
	const struct rrow *a = x, *b = y;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int find_col(const profdb_result *r, const char *name)
{
	for (size_t i = 0; i < profdb_result_ncols(r); i++)
		if (strcmp(profdb_result_colname(r, i), name) == 0)
			return (int)i;
	return -1;
}

/* Copy the keys and figures of breakdown row i into the result's row i. */
static int copy_row(profdb_result *out, const profdb_result *b, size_t i, const int *bc)
{
	int rc = profdb__result_set_int(out, i, R_RUN_ID, profdb_result_int(b, i, (size_t)bc[0])) |
	         profdb__result_set_text(out, i, R_RUN, profdb_result_text(b, i, (size_t)bc[1])) |
	         profdb__result_set_int(out, i, R_RANK, profdb_result_int(b, i, (size_t)bc[2])) |
	         profdb__result_set_int(out, i, R_COMPUTE, profdb_result_int(b, i, (size_t)bc[4])) |
	         profdb__result_set_int(out, i, R_COMM, profdb_result_int(b, i, (size_t)bc[5])) |
	         profdb__result_set_int(out, i, R_EXPOSED, profdb_result_int(b, i, (size_t)bc[6]));
	if (!profdb_result_isnull(b, i, (size_t)bc[3]))
		rc |= profdb__result_set_int(out, i, R_STEP, profdb_result_int(b, i, (size_t)bc[3]));
	return rc;
}

/* The robust z-scores of the group g[0..n) (n >= 3) into out; v, d scratch of n. */
static int group_stats(profdb_result *out, const struct rrow *g, size_t n, double *v, double *d,
                       double threshold)
{
	double med, mad, mean_ad = 0;
	int64_t least = INT64_MAX;
	int rc = 0;

	for (size_t k = 0; k < n; k++) {
		v[k] = (double)g[k].compute;
		if (g[k].exposed < least)
			least = g[k].exposed;
	}
	profdb__sort_doubles(v, n);
	med = profdb__percentile_sorted(v, n, 50);
	for (size_t k = 0; k < n; k++) {
		d[k] = fabs(v[k] - med);
		mean_ad += d[k] / (double)n;
	}
	profdb__sort_doubles(d, n);
	mad = profdb__percentile_sorted(d, n, 50);
	for (size_t k = 0; k < n; k++) {
		double x = (double)g[k].compute - med, z = NAN;
		rc |= profdb__result_set_int(out, g[k].i, R_WAIT, g[k].exposed - least);
		rc |= profdb__result_set_double(out, g[k].i, R_MEDIAN, med);
		if (n < 3)
			continue;
		z = mad > 0 ? 0.6745 * x / mad : mean_ad > 0 ? x / (1.253314 * mean_ad) : 0.0;
		rc |= profdb__result_set_double(out, g[k].i, R_Z, z);
		rc |= profdb__result_set_text(out, g[k].i, R_STRAGGLER, z > threshold ? "yes" : "no");
	}
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

static int build(profdb *db, profdb_result **out, const profdb_result *b, double threshold)
{
	static const char *const want[7] = { "run_id", "run", "rank", "step", "compute", "communication",
	                                     "exposed_communication" };
	int bc[7];
	size_t n = profdb_result_nrows(b);
	struct rrow *g = calloc(n ? n : 1, sizeof *g);
	double *v = calloc(n ? n : 1, sizeof *v), *d = calloc(n ? n : 1, sizeof *d);
	int rc = PROFDB_OK;

	for (int k = 0; k < 7; k++)
		if ((bc[k] = find_col(b, want[k])) < 0)
			rc = profdb__error(db, PROFDB_ERROR, "ranks: breakdown has no '%s' column", want[k]);
	if (rc == PROFDB_OK && (!g || !v || !d || profdb__result_new_rows(out, names, types, R_COUNT, n) != PROFDB_OK))
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++) {
		g[i].run = profdb_result_int(b, i, (size_t)bc[0]);
		g[i].step = profdb_result_isnull(b, i, (size_t)bc[3]) ? INT64_MIN : profdb_result_int(b, i, (size_t)bc[3]);
		g[i].compute = profdb_result_int(b, i, (size_t)bc[4]);
		g[i].exposed = profdb_result_int(b, i, (size_t)bc[6]);
		g[i].i = i;
		if (copy_row(*out, b, i, bc) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	if (rc == PROFDB_OK && n > 1)
		qsort(g, n, sizeof *g, cmp_group);
	for (size_t i = 0; i < n && rc == PROFDB_OK;) {
		size_t j = i;
		while (j < n && g[j].run == g[i].run && g[j].step == g[i].step)
			j++;
		if (group_stats(*out, g + i, j - i, v, d, threshold) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		i = j;
	}
	free(g);
	free(v);
	free(d);
	return rc;
}

/* Whether every run has kernel_step_stat (run.name_stats, schema 003):
 * then the per (rank, step, name) totals are read from it, a row per name
 * and step instead of one per kernel (2.4 M kernels: 137 k rows). */
static int have_step_stats(profdb *db)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT NOT EXISTS (SELECT 1 FROM run WHERE name_stats = 0)", -1, &st,
	                       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		yes = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return yes;
}

/* Per (run, rank, step): the name with the largest excess over its median across the step's ranks. */
static void top_sql(struct profdb__qbuf *b, const struct profdb_ranks_query *q, int stats)
{
	/* steps are never negative (ProfilerStep#N, Step Id): -1 stands for
	 * NULL so the joins below are equalities SQLite can index */
	profdb__qbuf_addf(b, "WITH kt AS MATERIALIZED (SELECT k.run_id, k.rank, %s AS step, k.name_id, sum(k.%s) AS tot"
	          " FROM %s k WHERE 1", q->by_rank ? "-1" : "coalesce(k.step, -1)", stats ? "total_ns" : "dur_ns",
	          stats ? "kernel_step_stat" : "kernel");
	profdb__qfilter_where(b, &q->filter, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, " GROUP BY 1, 2, 3, 4),\n"
	         /* materialized and grouped: SQLite then indexes them for the joins
	          * (DISTINCT CTEs were joined by nested scans, minutes on 1500 steps) */
	         " rk AS MATERIALIZED (SELECT run_id, rank, step FROM kt GROUP BY 1, 2, 3),\n"
	         " nm AS MATERIALIZED (SELECT run_id, step, name_id FROM kt GROUP BY 1, 2, 3),\n"
	         " fl AS (SELECT rk.run_id, rk.rank, rk.step, nm.name_id, coalesce(kt.tot, 0) AS tot FROM nm"
	         "  JOIN rk ON rk.run_id = nm.run_id AND rk.step = nm.step LEFT JOIN kt ON kt.run_id = rk.run_id"
	         "  AND kt.rank = rk.rank AND kt.step = rk.step AND kt.name_id = nm.name_id),\n"
	         " md AS (SELECT run_id, step, name_id, median(tot) AS m FROM fl GROUP BY 1, 2, 3),\n"
	         " ex AS (SELECT fl.run_id, fl.rank, fl.step, s.value AS name, fl.tot - md.m AS excess,"
	         "  row_number() OVER (PARTITION BY fl.run_id, fl.rank, fl.step ORDER BY fl.tot - md.m DESC,"
	         "  s.value) AS rn FROM fl JOIN md ON md.run_id = fl.run_id AND md.step = fl.step"
	         "  AND md.name_id = fl.name_id JOIN str s ON s.id = fl.name_id)\n"
	         "SELECT run_id, rank, nullif(step, -1), name, excess FROM ex WHERE rn = 1 AND excess > 0"
	         " ORDER BY run_id, rank, step");
}

static int row_cmp(const profdb_result *r, size_t i, sqlite3_stmt *st)
{
	int64_t a[3], b[3];
	a[0] = profdb_result_int(r, i, R_RUN_ID);
	a[1] = profdb_result_int(r, i, R_RANK);
	a[2] = profdb_result_isnull(r, i, R_STEP) ? INT64_MIN : profdb_result_int(r, i, R_STEP);
	b[0] = sqlite3_column_int64(st, 0);
	b[1] = sqlite3_column_int64(st, 1);
	b[2] = sqlite3_column_type(st, 2) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(st, 2);
	for (int k = 0; k < 3; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

/* Fill top_kernel / top_excess: both sides are in (run, rank, step) order. */
static int fill_top(profdb *db, profdb_result *r, const struct profdb_ranks_query *q)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	size_t i = 0;
	int rc, err = 0;

	top_sql(&b, q, have_step_stats(db));
	rc = profdb__query_prepare(db, &b, &st, "cannot find the kernels behind the ranks");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		while (i < r->nrows && row_cmp(r, i, st) < 0)
			i++;
		if (i < r->nrows && row_cmp(r, i, st) == 0)
			err = profdb__result_set_text(r, i, R_TOP, (const char *)sqlite3_column_text(st, 3)) |
			      profdb__result_set_double(r, i, R_EXCESS, sqlite3_column_double(st, 4));
	}
	sqlite3_finalize(st);
	if (err)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(db, "cannot find the kernels behind the ranks");
	return PROFDB_OK;
}

int profdb_query_ranks(profdb *db, profdb_result **out, const struct profdb_ranks_query *q)
{
	struct profdb_breakdown_query bq;
	profdb_result *b = NULL;
	int rc;

	*out = NULL;
	if (!(q->threshold > 0))
		return profdb__error(db, PROFDB_EUSAGE, "ranks: the threshold must be above 0");
	bq.filter = q->filter;
	bq.by_rank = q->by_rank;
	if ((rc = profdb__query_breakdown_full(db, &b, &bq)) != PROFDB_OK)
		return rc;
	rc = build(db, out, b, q->threshold);
	profdb_result_free(b);
	if (rc == PROFDB_OK)
		rc = fill_top(db, *out, q);
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
		return rc;
	}
	if (q->by_rank)
		profdb__result_drop_column(*out, R_STEP);
	if (!profdb__qfilter_run_column(&q->filter))
		profdb__result_drop_column(*out, R_RUN);
	profdb__result_drop_column(*out, R_RUN_ID);
	return PROFDB_OK;
}
