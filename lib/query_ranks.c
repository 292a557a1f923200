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
 *    cut-off for the modified z-score), "no" otherwise.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "stats.h"
#include "banned.h"

enum { R_RUN_ID, R_RUN, R_RANK, R_STEP, R_COMPUTE, R_COMM, R_EXPOSED, R_WAIT, R_MEDIAN, R_Z, R_STRAGGLER,
       R_COUNT };
static const char *const names[R_COUNT] = {
	"run_id", "run", "rank", "step", "compute", "communication", "exposed_communication", "wait",
	"compute_median", "compute_z", "straggler"
};
static const enum profdb_coltype types[R_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_REAL, PROFDB_COL_TEXT
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
	int rc = qresult_set_int(out, i, R_RUN_ID, profdb_result_int(b, i, (size_t)bc[0])) |
	         qresult_set_text(out, i, R_RUN, profdb_result_text(b, i, (size_t)bc[1])) |
	         qresult_set_int(out, i, R_RANK, profdb_result_int(b, i, (size_t)bc[2])) |
	         qresult_set_int(out, i, R_COMPUTE, profdb_result_int(b, i, (size_t)bc[4])) |
	         qresult_set_int(out, i, R_COMM, profdb_result_int(b, i, (size_t)bc[5])) |
	         qresult_set_int(out, i, R_EXPOSED, profdb_result_int(b, i, (size_t)bc[6]));
	if (!profdb_result_isnull(b, i, (size_t)bc[3]))
		rc |= qresult_set_int(out, i, R_STEP, profdb_result_int(b, i, (size_t)bc[3]));
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
		rc |= qresult_set_int(out, g[k].i, R_WAIT, g[k].exposed - least);
		rc |= qresult_set_double(out, g[k].i, R_MEDIAN, med);
		if (n < 3)
			continue;
		z = mad > 0 ? 0.6745 * x / mad : mean_ad > 0 ? x / (1.253314 * mean_ad) : 0.0;
		rc |= qresult_set_double(out, g[k].i, R_Z, z);
		rc |= qresult_set_text(out, g[k].i, R_STRAGGLER, z > threshold ? "yes" : "no");
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
	if (rc == PROFDB_OK && (!g || !v || !d || qresult_new_rows(out, names, types, R_COUNT, n) != PROFDB_OK))
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
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
		return rc;
	}
	if (q->by_rank)
		qresult_drop_column(*out, R_STEP);
	if (!qfilter_run_column(&q->filter))
		qresult_drop_column(*out, R_RUN);
	qresult_drop_column(*out, R_RUN_ID);
	return PROFDB_OK;
}
