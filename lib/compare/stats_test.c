/*
 * stats_test.c - two-sample tests and the bootstrap interval that decide a
 * diff verdict: Mann-Whitney U (exact, with or without ties, up to EXACT_MAX
 * a side; the normal approximation beyond), Welch's t
 * (t CDF through the regularized incomplete beta) and a fixed-seed
 * bootstrap of the relative change of means.  Plain C, no SQL.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "util/stats.h"
#include "banned.h"

/* Largest side for the exact U distribution: (n+1) * (n*m+1) doubles,
 * or (n+1) * (2nN+1) with ties. */
#define EXACT_MAX 50

struct ranked {
	double v;
	int side;                  /* 0: x, 1: y */
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * Exact two-sided p of U for sizes n, m without ties.  count[k][u] is the
 * number of orderings of k x's among the first j y's giving U = u, built by
 * f(u; k, j) = f(u - j; k - 1, j) + f(u; k, j - 1) (the last element is an
 * x above all j y's, or a y).  Counts stay exact in doubles up to 2^53 and
 * are only ratios after that, which is all the p-value needs.
 */
static double mwu_exact(size_t n, size_t m, double u)
{
	size_t umax = n * m, w = umax + 1;
	double *f = calloc((n + 1) * w, sizeof *f), total = 0, le = 0, ge = 0, p;
	if (!f)
		return NAN;
	for (size_t k = 0; k <= n; k++)
		f[k * w] = 1; /* j = 0: only U = 0 */
	for (size_t j = 1; j <= m; j++)
		for (size_t k = 1; k <= n; k++)
			for (size_t v = umax + 1; v-- > j;)
				f[k * w + v] += f[(k - 1) * w + v - j];
	/* the loop above reads row k-1 after it was updated for this j,
	 * which is what the recurrence asks: f(.; k-1, j) */
	for (size_t v = 0; v <= umax; v++) {
		total += f[n * w + v];
		if ((double)v <= u + 1e-9)
			le += f[n * w + v];
		if ((double)v >= u - 1e-9)
			ge += f[n * w + v];
	}
	free(f);
	p = 2 * (le < ge ? le : ge) / total;
	return p > 1 ? 1 : p;
}

static int cmp_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

/* The n + m values' midranks times 2 (integers) into r2, ascending. */
static int midranks_x2(const double *x, size_t n, const double *y, size_t m, size_t *r2)
{
	size_t N = n + m;
	double *all = malloc(N * sizeof *all);
	if (!all)
		return -1;
	memcpy(all, x, n * sizeof *all);
	memcpy(all + n, y, m * sizeof *all);
	qsort(all, N, sizeof *all, cmp_value);
	for (size_t i = 0; i < N;) {
		size_t j = i + 1;
		while (j < N && all[j] == all[i])
			j++;
		for (size_t k = i; k < j; k++)
			r2[k] = i + 1 + j; /* 2 x the mean of ranks i+1 .. j */
		i = j;
	}
	free(all);
	return 0;
}

/*
 * Exact two-sided p of U under ties: the conditional (permutation)
 * distribution of x's rank sum given the tie pattern.  f[k][s] counts the
 * subsets of k of the values seen so far whose doubled midranks sum to s;
 * each value either joins a subset or not.  U <= u exactly when x's
 * doubled rank sum is <= 2u + n(n+1), so the tails are read at that sum.
 * The p is twice the smaller tail, as without ties.
 */
static double mwu_exact_ties(const double *x, size_t n, const double *y, size_t m, double u)
{
	size_t N = n + m, smax, w, obs;
	size_t *r2 = malloc((2 * N + 1) * sizeof *r2), *pre;
	double *f = NULL, total = 0, le = 0, ge = 0, p;
	if (!r2 || midranks_x2(x, n, y, m, r2) != 0)
		goto fail;
	pre = r2 + N; /* pre[j]: the j smallest summed */
	pre[0] = 0;
	for (size_t i = 0; i < N; i++)
		pre[i + 1] = pre[i] + r2[i];
	smax = pre[N] - pre[N - n];
	w = smax + 1;
	f = calloc((n + 1) * w, sizeof *f);
	if (!f)
		goto fail;
	f[0] = 1;
	for (size_t i = 0; i < N; i++) {
		/* k values that can still reach n; sums between the k-1
		 * smallest plus this one and the k largest seen */
		size_t r = r2[i], kmax = i + 1 < n ? i + 1 : n, kmin = n + i + 1 > N ? n + i + 1 - N : 1;
		for (size_t k = kmax; k >= kmin; k--) {
			size_t hi = pre[i + 1] - pre[i + 1 - k], lo = pre[k - 1] + r;
			for (size_t s = hi; s >= lo; s--)
				f[k * w + s] += f[(k - 1) * w + s - r];
		}
	}
	obs = (size_t)llround(2 * u + (double)n * (double)(n + 1));
	for (size_t s = 0; s <= smax; s++) {
		total += f[n * w + s];
		if (s <= obs)
			le += f[n * w + s];
		if (s >= obs)
			ge += f[n * w + s];
	}
	free(r2);
	free(f);
	p = 2 * (le < ge ? le : ge) / total;
	return p > 1 ? 1 : p;
fail:
	free(r2);
	free(f);
	return NAN;
}

/* The rank sum of x and the tie term, from x and y with their ranks in
 * one qsort of (value, side) pairs: NaN-safe, as before; 0 or -1. */
static int ranks_qsort(const double *x, size_t n, const double *y, size_t m,
                       double *r1, double *ties, int *tied)
{
	size_t N = n + m;
	struct ranked *all = malloc(N * sizeof *all);
	if (!all)
		return -1;
	for (size_t i = 0; i < n; i++)
		all[i] = (struct ranked){ x[i], 0 };
	for (size_t i = 0; i < m; i++)
		all[n + i] = (struct ranked){ y[i], 1 };
	qsort(all, N, sizeof *all, cmp_ranked);
	for (size_t i = 0; i < N;) {
		size_t j = i + 1;      /* a NaN equals nothing, not even itself */
		double mid;
		while (j < N && all[j].v == all[i].v)
			j++;
		mid = (double)(i + 1 + j) / 2; /* ranks i+1 .. j share their mean */
		for (size_t k = i; k < j; k++)
			if (all[k].side == 0)
				*r1 += mid;
		if (j - i > 1) {
			double t = (double)(j - i);
			*ties += t * t * t - t;
			*tied = 1;
		}
		i = j;
	}
	free(all);
	return 0;
}

/* A finite double's bits as an integer whose unsigned order is the
 * number's (-0 just below +0), and back. */
static uint64_t sort_key(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	return u >> 63 ? ~u : u | 0x8000000000000000ull;
}

static double from_key(uint64_t k)
{
	double v;
	k = k >> 63 ? k & 0x7fffffffffffffffull : ~k;
	memcpy(&v, &k, sizeof v);
	return v;
}

/* Sort v (n keys) with tmp (n) as scratch: LSD radix on bytes, a pass
 * skipped when every key has the same byte there (the high bytes of
 * samples of one kernel often are). */
static void radix_sort(uint64_t *v, uint64_t *tmp, size_t n)
{
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[((v[i] >> shift) & 0xff) + 1]++;
		if (count[((v[0] >> shift) & 0xff) + 1] == n)
			continue;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof *v);
	}
}

/* x sorted into out (n doubles), through keys and scratch of n each. */
static void sorted_copy(const double *x, size_t n, uint64_t *keys, uint64_t *scratch, double *out)
{
	for (size_t i = 0; i < n; i++)
		keys[i] = sort_key(x[i]);
	radix_sort(keys, scratch, n);
	for (size_t i = 0; i < n; i++)
		out[i] = from_key(keys[i]);
}

/*
 * The same sums as ranks_qsort without comparing pairs: x and y each
 * radix-sorted, then walked together one value at a time (a value's
 * ranks are the next cx + cy; x's share is cx of their mean).  The sums
 * are of half-integers far below 2^53: exact in any order, so the same
 * doubles.  A qsort of 2 x 31 k pairs per key made the tests a quarter of
 * a diff's instructions.  -1 (use ranks_qsort) for a NaN or no memory.
 */
static int ranks_merge(const double *x, size_t n, const double *y, size_t m,
                       double *r1, double *ties, int *tied)
{
	size_t N = n + m, i = 0, j = 0, pos = 0;
	uint64_t *keys = malloc(2 * N * sizeof *keys);
	double *a = malloc(N * sizeof *a), *b;
	for (size_t k = 0; keys && a && k < n; k++)
		if (isnan(x[k]))
			goto fail;
	for (size_t k = 0; keys && a && k < m; k++)
		if (isnan(y[k]))
			goto fail;
	if (!keys || !a)
		goto fail;
	b = a + n;
	sorted_copy(x, n, keys, keys + N, a);
	sorted_copy(y, m, keys, keys + N, b);
	while (i < n || j < m) {
		double v = j >= m || (i < n && a[i] < b[j]) ? a[i] : b[j];
		size_t cx = 0, cy = 0, t;
		while (i < n && a[i] == v)
			i++, cx++;
		while (j < m && b[j] == v)
			j++, cy++;
		t = cx + cy;
		*r1 += (double)(2 * pos + t + 1) / 2 * (double)cx;
		if (t > 1) {
			double tt = (double)t;
			*ties += tt * tt * tt - tt;
			*tied = 1;
		}
		pos += t;
	}
	free(keys);
	free(a);
	return 0;
fail:
	free(keys);
	free(a);
	return -1;
}

double profdb__mwu(const double *x, size_t n, const double *y, size_t m, double *u)
{
	double r1 = 0, ties = 0, U, mu, var, z;
	size_t N = n + m;
	int tied = 0;

	if (u)
		*u = NAN;
	if (!n || !m)
		return NAN;
	if (ranks_merge(x, n, y, m, &r1, &ties, &tied) != 0 &&
	    ranks_qsort(x, n, y, m, &r1, &ties, &tied) != 0)
		return NAN;
	U = r1 - (double)n * (double)(n + 1) / 2;
	if (u)
		*u = U;
	if (n <= EXACT_MAX && m <= EXACT_MAX)
		return tied ? mwu_exact_ties(x, n, y, m, U) : mwu_exact(n, m, U);
	mu = (double)n * (double)m / 2;
	var = (double)n * (double)m / 12 * ((double)(N + 1) - ties / ((double)N * (double)(N - 1)));
	if (var <= 0)
		return 1; /* every value tied: no evidence of a difference */
	z = (fabs(U - mu) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2.0));
}

double profdb__mwu_min_p(size_t n, size_t m)
{
	/* 2 / C(n+m, n), computed as a product to stay in range */
	double c = 1;
	size_t k = n < m ? n : m;
	if (!n || !m)
		return 1;
	for (size_t i = 1; i <= k; i++) {
		c = c * (double)(n + m - k + i) / (double)i;
		if (c > 1e300)
			return 0;
	}
	return 2 / c > 1 ? 1 : 2 / c;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : 0;
}

/* Continued fraction of the incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int i = 1; i <= 1000; i++) {
		double m2 = 2.0 * i, aa, del;
		aa = i * (b - i) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + i) * (a + b + i) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double profdb__ibeta(double a, double b, double x)
{
	double front;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the fraction converges fast only below the mean; use the symmetry
	 * I_x(a,b) = 1 - I_{1-x}(b,a) above it */
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double profdb__t_cdf(double t, double df)
{
	double tail = 0.5 * profdb__ibeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double profdb__welch(const double *x, size_t n, const double *y, size_t m, double *t, double *df)
{
	double mx, vx, my, vy;
	if (t)
		*t = NAN;
	if (df)
		*df = NAN;
	if (n < 2 || m < 2)
		return NAN;
	mean_var(x, n, &mx, &vx);
	mean_var(y, m, &my, &vy);
	return profdb__welch_summary(mx, vx, (double)n, my, vy, (double)m, t, df);
}

double profdb__welch_summary(double mx, double vx, double n, double my, double vy, double m,
                             double *t, double *df)
{
	double sx, sy, se2, tt, d;
	if (t)
		*t = NAN;
	if (df)
		*df = NAN;
	if (n < 2 || m < 2 || isnan(vx) || isnan(vy))
		return NAN;
	sx = vx / n;
	sy = vy / m;
	se2 = sx + sy;
	if (se2 <= 0)
		return mx == my ? 1 : 0;
	tt = (my - mx) / sqrt(se2);
	d = se2 * se2 / (sx * sx / (n - 1) + sy * sy / (m - 1));
	if (t)
		*t = tt;
	if (df)
		*df = d;
	return profdb__ibeta(d / 2, 0.5, d / (d + tt * tt));
}

uint64_t profdb__rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

/* Mean of n values drawn with replacement from x. */
static double resample_mean(const double *x, size_t n, uint64_t *state)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[profdb__rand_next(state) % n]; /* modulo bias < n / 2^64 */
	return s / (double)n;
}

/* z with P(Z > z) = p for a standard normal Z (0 < p < 1), by bisection
 * on erfc: exact to double precision, and called once per interval. */
static double normal_upper_quantile(double p)
{
	double a = -40, b = 40;
	for (int i = 0; i < 200 && b - a > 1e-15; i++) {
		double mid = (a + b) / 2;
		if (0.5 * erfc(mid / sqrt(2.0)) > p)
			a = mid;
		else
			b = mid;
	}
	return (a + b) / 2;
}

/*
 * Large samples: the normal (delta method) interval of mean(y)/mean(x) - 1,
 * to which the bootstrap converges; the bootstrap's B * (n + m) draws took
 * seconds per key once per-step samples ran into the tens of thousands.
 */
static int delta_rel(const double *x, size_t n, const double *y, size_t m, double level,
                     double *lo, double *hi)
{
	struct profdb__moments mx = { 0 }, my = { 0 };
	double r, se, z;
	for (size_t i = 0; i < n; i++)
		profdb__moments_add(&mx, x[i]);
	for (size_t i = 0; i < m; i++)
		profdb__moments_add(&my, y[i]);
	if (mx.mean == 0)
		return -1;
	r = my.mean / mx.mean;
	se = fabs(r) * sqrt(mx.m2 / (double)(n - 1) / (double)n / (mx.mean * mx.mean) +
	                    (my.mean != 0 ? my.m2 / (double)(m - 1) / (double)m / (my.mean * my.mean) : 0));
	if (my.mean == 0) /* r = 0: the spread of y alone */
		se = sqrt(my.m2 / (double)(m - 1) / (double)m) / fabs(mx.mean);
	z = normal_upper_quantile((1 - level) / 2);
	*lo = r - 1 - z * se;
	*hi = r - 1 + z * se;
	return 0;
}

int profdb__bootstrap_rel(const double *x, size_t n, const double *y, size_t m,
                          int B, double level, uint64_t seed, double *lo, double *hi)
{
	double *rel, q;
	size_t k = 0, ilo, ihi;
	uint64_t state = seed;

	if (n < 2 || m < 2 || B < 1)
		return -1;
	if (n >= PROFDB_BOOTSTRAP_MAX_N && m >= PROFDB_BOOTSTRAP_MAX_N)
		return delta_rel(x, n, y, m, level, lo, hi);
	rel = malloc((size_t)B * sizeof *rel);
	if (!rel)
		return -1;
	for (int b = 0; b < B; b++) {
		double mx = resample_mean(x, n, &state), my = resample_mean(y, m, &state);
		if (mx != 0)
			rel[k++] = my / mx - 1;
	}
	if (!k) {
		free(rel);
		return -1;
	}
	qsort(rel, k, sizeof *rel, cmp_double);
	q = (1 - level) / 2;
	ilo = (size_t)floor(q * (double)(k - 1) + 0.5);
	ihi = (size_t)floor((1 - q) * (double)(k - 1) + 0.5);
	*lo = rel[ilo];
	*hi = rel[ihi];
	free(rel);
	return 0;
}
