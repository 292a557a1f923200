/*
 * stats.h - the descriptive statistics profdb reports (stats.c): exact
 * median and percentiles, sample standard deviation, and the busy time of a
 * set of intervals.  Plain C over arrays, no SQL: the SQL functions
 * (sqlfunc.c), the queries and the unit tests all use these, so there is one
 * definition of each figure.  Private to lib/ and the tests.
 */
#ifndef PROFDB_STATS_H
#define PROFDB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Sort v ascending in place. */
void profdb__sort_doubles(double *v, size_t n);

/*
 * The p-th percentile (0 <= p <= 100) of sorted v (n >= 1), by linear
 * interpolation between the closest ranks (numpy's default "linear" method,
 * R type 7, Python statistics.quantiles(method="inclusive")):
 *   h = (n - 1) * p / 100,  result = v[floor h] + (h - floor h) * (v[floor h + 1] - v[floor h]).
 * p = 50 is the median (the mean of the two middle values when n is even).
 */
double profdb__percentile_sorted(const double *v, size_t n, double p);

/*
 * Running mean and sum of squared deviations (Welford), so the sample
 * standard deviation needs one pass and no stored values.
 */
struct profdb__moments {
	int64_t n;                 /* values added */
	double mean;               /* running mean */
	double m2;                 /* sum of squared deviations from the mean */
};
void profdb__moments_add(struct profdb__moments *m, double x);
/* Sample standard deviation (divisor n - 1); returns -1 when n < 2 (undefined). */
double profdb__moments_stddev(const struct profdb__moments *m);

/* A half-open time interval [start, end) in ns. */
struct profdb__interval {
	int64_t start, end;
};

/*
 * The length of the union of the intervals (time during which at least one
 * is active): sorts iv by start in place, then sweeps merging overlaps.
 * Empty or negative intervals add nothing.
 */
int64_t profdb__union_ns(struct profdb__interval *iv, size_t n);

#endif
