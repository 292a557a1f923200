/*
 * stats.c - exact descriptive statistics: percentiles by linear
 * interpolation over sorted values, Welford moments for the sample standard
 * deviation, and the union length of intervals (device busy time).  The
 * definitions are written down in stats.h and in doc/definitions.md.
 */
#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "interval.h"
#include "banned.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

void profdb__sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_double);
}

double profdb__percentile_sorted(const double *v, size_t n, double p)
{
	double h, frac;
	size_t lo;

	if (n == 0)
		return NAN;
	if (p <= 0)
		return v[0];
	if (p >= 100)
		return v[n - 1];
	h = (double)(n - 1) * p / 100.0;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return v[n - 1];
	frac = h - (double)lo;
	/* v[lo] + frac * (v[lo+1] - v[lo]) is exact when frac is 0 and keeps
	 * the result between the two neighbours. */
	return v[lo] + frac * (v[lo + 1] - v[lo]);
}

void profdb__moments_add(struct profdb__moments *m, double x)
{
	double d = x - m->mean;
	m->n++;
	m->mean += d / (double)m->n;
	m->m2 += d * (x - m->mean);
}

double profdb__moments_stddev(const struct profdb__moments *m)
{
	if (m->n < 2)
		return -1;
	/* rounding can leave a tiny negative m2 for equal values */
	return m->m2 > 0 ? sqrt(m->m2 / (double)(m->n - 1)) : 0.0;
}

int64_t profdb__union_ns(struct profdb__interval *iv, size_t n)
{
	/* one merge for every figure built on intervals (interval.c) */
	return profdb__ivals_length(iv, profdb__ivals_merge(iv, n));
}
