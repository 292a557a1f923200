/*
 * check_statstest.c - the two-sample statistics of stats_test.c against
 * references built here from first principles: closed forms of the t CDF,
 * a Simpson integral of the t density, the binomial sum for the incomplete
 * beta, and brute-force enumeration of the Mann-Whitney null distribution.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "compare/compare.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int popcount(unsigned v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* ---------------------------------------------------------------- references */

static double binom(int n, int k)
{
	double c = 1;
	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

/* I_x(a, b) for integer a, b: P(Binomial(a+b-1, x) >= a). */
static double ibeta_int(int a, int b, double x)
{
	int n = a + b - 1;
	double s = 0;
	for (int j = a; j <= n; j++)
		s += binom(n, j) * pow(x, j) * pow(1 - x, n - j);
	return s;
}

static double t_pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * M_PI) *
	       pow(1 + t * t / df, -(df + 1) / 2);
}

/* P(T <= t) = 1/2 + integral of the density from 0 to t (Simpson, fine grid). */
static double t_cdf_simpson(double t, double df)
{
	const int n = 20000;
	double h = t / n, s = t_pdf(0, df) + t_pdf(t, df);
	for (int i = 1; i < n; i++)
		s += (i % 2 ? 4 : 2) * t_pdf(i * h, df);
	return 0.5 + s * h / 3;
}

/* U of x: pairs with x > y, ties one half. */
static double u_pairs(const double *x, int n, const double *y, int m)
{
	double u = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++)
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	return u;
}

/* Exact two-sided p by enumerating every choice of n ranks out of n+m. */
static double mwu_enumerate(int n, int m, double u_obs)
{
	int N = n + m;
	double le = 0, ge = 0, total = 0;
	for (unsigned mask = 0; mask < (1u << N); mask++) {
		double u = 0;
		int k = 0;
		if (popcount(mask) != n)
			continue;
		/* U = sum over x of the number of y below it */
		for (int i = 0; i < N; i++) {
			if (mask & (1u << i))
				u += i - k++;
		}
		total++;
		le += u <= u_obs;
		ge += u >= u_obs;
	}
	return fmin(1, 2 * fmin(le, ge) / total);
}

/* Exact two-sided p under ties: every split of the pooled values into n
 * and the rest, U of each split by comparing pairs (ties one half). */
static double mwu_enumerate_values(const double *x, int n, const double *y, int m)
{
	int N = n + m;
	double all[24], u_obs = u_pairs(x, n, y, m), le = 0, ge = 0, total = 0;
	for (int i = 0; i < N; i++)
		all[i] = i < n ? x[i] : y[i - n];
	for (unsigned mask = 0; mask < (1u << N); mask++) {
		double u = 0;
		if (popcount(mask) != n)
			continue;
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				if ((mask & (1u << i)) && !(mask & (1u << j)))
					u += all[i] > all[j] ? 1 : all[i] == all[j] ? 0.5 : 0;
		total++;
		le += u <= u_obs;
		ge += u >= u_obs;
	}
	return fmin(1, 2 * fmin(le, ge) / total);
}

/* ---------------------------------------------------------------- tests */

START_TEST(ibeta_matches_binomial_sum)
{
	static const struct { int a, b; double x; } c[] = {
		{ 1, 1, 0.3 }, { 2, 3, 0.25 }, { 5, 2, 0.8 }, { 7, 9, 0.41 }, { 20, 15, 0.6 }, { 3, 30, 0.05 }
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		ck_assert_double_eq_tol(profdb__ibeta(c[i].a, c[i].b, c[i].x),
		                        ibeta_int(c[i].a, c[i].b, c[i].x), 1e-12);
	ck_assert_double_eq(profdb__ibeta(2, 3, 0), 0);
	ck_assert_double_eq(profdb__ibeta(2, 3, 1), 1);
}
END_TEST

START_TEST(t_cdf_closed_forms)
{
	/* df = 1 is Cauchy: 1/2 + atan(t)/pi; df = 2: 1/2 + t / (2 sqrt(2 + t^2)) */
	for (double t = -6; t <= 6; t += 0.75) {
		ck_assert_double_eq_tol(profdb__t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		ck_assert_double_eq_tol(profdb__t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	/* a fractional df against the integral of the density */
	ck_assert_double_eq_tol(profdb__t_cdf(1.897, 5.8823), t_cdf_simpson(1.897, 5.8823), 1e-9);
	ck_assert_double_eq_tol(profdb__t_cdf(-2.5, 17.3), 1 - t_cdf_simpson(2.5, 17.3), 1e-9);
}
END_TEST

START_TEST(welch_by_hand)
{
	/* x: mean 3, var 2.5; y: mean 6, var 10.  se^2 = 2.5/5 + 10/5 = 2.5,
	 * t = 3 / sqrt(2.5), df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 }, t, df, p;
	double want_t = 3 / sqrt(2.5), want_df = 6.25 / 1.0625;
	p = profdb__welch(x, 5, y, 5, &t, &df);
	ck_assert_double_eq_tol(t, want_t, 1e-12);
	ck_assert_double_eq_tol(df, want_df, 1e-12);
	ck_assert_double_eq_tol(p, 2 * (1 - t_cdf_simpson(want_t, want_df)), 1e-9);
	ck_assert(p > 0.1 && p < 0.12); /* not significant: the samples overlap */
	/* swapping sides flips t, keeps p */
	ck_assert_double_eq_tol(profdb__welch(y, 5, x, 5, &t, NULL), p, 1e-15);
	ck_assert_double_eq_tol(t, -want_t, 1e-12);
	/* too few, and zero variance */
	ck_assert(isnan(profdb__welch(x, 1, y, 5, NULL, NULL)));
	double c1[] = { 4, 4, 4 }, c2[] = { 4, 4, 4 }, c3[] = { 5, 5, 5 };
	ck_assert_double_eq(profdb__welch(c1, 3, c2, 3, NULL, NULL), 1);
	ck_assert_double_eq(profdb__welch(c1, 3, c3, 3, NULL, NULL), 0);
}
END_TEST

START_TEST(mwu_exact_matches_enumeration)
{
	double x[] = { 3.1, 9.2, 4.4, 7.7, 1.3 }, y[] = { 2.2, 8.5, 6.1, 10.4, 5.5, 12.0 };
	double u, p = profdb__mwu(x, 5, y, 6, &u);
	ck_assert_double_eq(u, u_pairs(x, 5, y, 6));
	ck_assert_double_eq_tol(p, mwu_enumerate(5, 6, u), 1e-12);
	/* complete separation: U = 0, p = 2 / C(10, 5) = 2/252 */
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	ck_assert_double_eq_tol(profdb__mwu(a, 5, b, 5, &u), 2.0 / 252, 1e-15);
	ck_assert_double_eq(u, 0);
	ck_assert_double_eq_tol(profdb__mwu(b, 5, a, 5, &u), 2.0 / 252, 1e-15);
	ck_assert_double_eq(u, 25);
	/* larger sizes, still exact: 9 vs 8 by enumeration (24310 subsets) */
	double c[] = { 11, 3, 17, 8, 14, 1, 6, 20, 9 }, d[] = { 2, 16, 5, 13, 19, 7, 4, 12 };
	p = profdb__mwu(c, 9, d, 8, &u);
	ck_assert_double_eq(u, u_pairs(c, 9, d, 8));
	ck_assert_double_eq_tol(p, mwu_enumerate(9, 8, u), 1e-12);
	ck_assert_double_eq_tol(profdb__mwu_min_p(5, 5), 2.0 / 252, 1e-15);
	ck_assert_double_eq_tol(profdb__mwu_min_p(3, 3), 0.1, 1e-15);
	ck_assert_double_eq_tol(profdb__mwu_min_p(4, 6), 2.0 / 210, 1e-15);
	ck_assert_double_eq(profdb__mwu_min_p(1, 1), 1);
}
END_TEST

START_TEST(mwu_exact_with_ties)
{
	/* 5 vs 5 fully separated, two equal values inside the new side: only
	 * one split puts all of x lowest, so p = 2 / C(10, 5) = 2/252 (the
	 * normal approximation said 0.0119) */
	double a[] = { 10, 11, 12, 13, 14 }, b[] = { 20, 21, 22, 22, 24 }, u;
	ck_assert_double_eq_tol(profdb__mwu(a, 5, b, 5, &u), 2.0 / 252, 1e-15);
	ck_assert_double_eq(u, 0);
	ck_assert_double_eq_tol(profdb__mwu(b, 5, a, 5, &u), 2.0 / 252, 1e-15);
	/* ties across the sides: tests/cli/mwu_ties_ref.py enumerates these
	 * as fractions (7/22, 1555/4862, 1); the enumeration here by pairs */
	double x[] = { 0, 0, 0, 1, 5 }, y[] = { 0, 0, 1, 2, 2, 2, 7 };
	ck_assert_double_eq_tol(profdb__mwu(x, 5, y, 7, &u), 7.0 / 22, 1e-12);
	ck_assert_double_eq(u, 11.5);
	ck_assert_double_eq_tol(mwu_enumerate_values(x, 5, y, 7), 7.0 / 22, 1e-12);
	double c[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5 }, d[] = { 3, 5, 8, 9, 7, 9, 3, 2, 3 };
	ck_assert_double_eq_tol(profdb__mwu(c, 9, d, 9, &u), 1555.0 / 4862, 1e-12);
	ck_assert_double_eq(u, 29);
	ck_assert_double_eq_tol(mwu_enumerate_values(c, 9, d, 9), 1555.0 / 4862, 1e-12);
	double e[] = { 2, 2, 3 }, f[] = { 2, 3, 3 };
	ck_assert_double_eq(profdb__mwu(e, 3, f, 3, &u), 1);
	/* everything tied: no evidence */
	double z1[] = { 0, 0, 0 }, z2[] = { 0, 0, 0, 0 };
	ck_assert_double_eq(profdb__mwu(z1, 3, z2, 4, NULL), 1);
	ck_assert(isnan(profdb__mwu(z1, 0, z2, 4, NULL)));
}
END_TEST

START_TEST(mwu_ties_normal_approximation)
{
	/* beyond 50 a side, with ties: z = (|U - nm/2| - 1/2) / sigma,
	 * sigma^2 = nm/12 ((N+1) - sum(t^3 - t) / (N (N-1))).  x is
	 * {0,0,0,1,5} eleven times (55), y {0,0,1,2,2,2,7} eight times (56);
	 * tie groups counted by hand: 0 (33 + 16 = 49), 1 (11 + 8 = 19),
	 * 2 (24), 5 (11), 7 (8) */
	static const double xs[] = { 0, 0, 0, 1, 5 }, ys[] = { 0, 0, 1, 2, 2, 2, 7 };
	double x[55], y[56];
	for (int i = 0; i < 55; i++)
		x[i] = xs[i % 5];
	for (int i = 0; i < 56; i++)
		y[i] = ys[i % 7];
	double u, p = profdb__mwu(x, 55, y, 56, &u);
	double N = 111, t[] = { 49, 19, 24, 11, 8 }, ties = 0;
	for (int i = 0; i < 5; i++)
		ties += t[i] * t[i] * t[i] - t[i];
	double var = 55.0 * 56 / 12 * ((N + 1) - ties / (N * (N - 1)));
	double z = (fabs(u - 55.0 * 56 / 2) - 0.5) / sqrt(var);
	ck_assert_double_eq(u, u_pairs(x, 55, y, 56));
	ck_assert_double_eq_tol(p, erfc(z / sqrt(2)), 1e-12);
}
END_TEST

START_TEST(mwu_large_samples_radix)
{
	/* 700 vs 900 samples on 41 levels (negative, fractional, -0 and +0
	 * equal, one huge): U by counting pairs, the tie term by counting
	 * each level's members, z as in the test above.  Checks the radix
	 * sort and merged walk (stats_test.c ranks_merge) against arithmetic
	 * that shares nothing with it. */
	enum { NX = 700, NY = 900, L = 41 };
	static double x[NX], y[NY];
	double level[L], cnt[L] = { 0 }, ties = 0, u, p;
	uint64_t g = 12345;
	for (int k = 0; k < L; k++)
		level[k] = (k - 20) * 0.37;
	level[20] = -0.0;
	level[40] = 1e300;
	for (int i = 0; i < NX; i++) {
		int k = (int)(profdb__rand_next(&g) % L);
		x[i] = level[k] == -0.0 && i % 2 ? 0.0 : level[k];
		cnt[k]++;
	}
	for (int i = 0; i < NY; i++) {
		int k = (int)(profdb__rand_next(&g) % (L - 5)) + 5; /* shifted up */
		y[i] = level[k];
		cnt[k]++;
	}
	for (int k = 0; k < L; k++)
		ties += cnt[k] * cnt[k] * cnt[k] - cnt[k];
	p = profdb__mwu(x, NX, y, NY, &u);
	ck_assert_double_eq(u, u_pairs(x, NX, y, NY));
	double N = NX + NY, var = (double)NX * NY / 12 * ((N + 1) - ties / (N * (N - 1)));
	double z = (fabs(u - (double)NX * NY / 2) - 0.5) / sqrt(var);
	ck_assert_double_eq_tol(p, erfc(z / sqrt(2)), 1e-12);
	ck_assert(u < (double)NX * NY / 2 && p < 0.05); /* y was drawn from the upper levels */
	/* a NaN among them: the pairs sort, as before (no crash, a number) */
	x[3] = NAN;
	ck_assert(!isnan(profdb__mwu(x, NX, y, NY, &u)));
}
END_TEST

START_TEST(prng_and_bootstrap)
{
	uint64_t s = 0;
	/* splitmix64 reference: the first output for seed 0 */
	ck_assert_uint_eq(profdb__rand_next(&s), 0xe220a8397b1dcdafull);
	double x[30], y[30], lo, hi, lo2, hi2;
	uint64_t g = 7;
	for (int i = 0; i < 30; i++) {
		/* about 100 +- 1 and 130 +- 1.3 */
		x[i] = 100 + (double)(profdb__rand_next(&g) % 2001) / 1000 - 1;
		y[i] = 1.3 * (100 + (double)(profdb__rand_next(&g) % 2001) / 1000 - 1);
	}
	ck_assert_int_eq(profdb__bootstrap_rel(x, 30, y, 30, 2000, 0.95, 42, &lo, &hi), 0);
	ck_assert(lo < 0.3 && hi > 0.3);
	ck_assert(lo > 0.28 && hi < 0.32);
	/* reproducible with the same seed */
	ck_assert_int_eq(profdb__bootstrap_rel(x, 30, y, 30, 2000, 0.95, 42, &lo2, &hi2), 0);
	ck_assert_double_eq(lo, lo2);
	ck_assert_double_eq(hi, hi2);
	/* constant sides: the interval is the exact ratio */
	double c1[] = { 100, 100, 100 }, c2[] = { 130, 130, 130 };
	ck_assert_int_eq(profdb__bootstrap_rel(c1, 3, c2, 3, 500, 0.95, 1, &lo, &hi), 0);
	ck_assert_double_eq_tol(lo, 0.3, 1e-12);
	ck_assert_double_eq_tol(hi, 0.3, 1e-12);
	ck_assert_int_eq(profdb__bootstrap_rel(c1, 1, c2, 3, 500, 0.95, 1, &lo, &hi), -1);
}
END_TEST

/* From 1000 samples a side, the delta-method interval: x alternates 99, 101
 * (mean 100, sample variance 1000/999), y 128, 132 (mean 130, variance
 * 4000/999); r = 1.3, se = 1.3 sqrt(v_x / (1000 * 100^2) + v_y / (1000 * 130^2)),
 * z(0.975) = 1.959963984540054. */
START_TEST(large_samples_delta_interval)
{
	static double x[1000], y[1000];
	double lo, hi, blo, bhi, se;
	for (int i = 0; i < 1000; i++) {
		x[i] = i % 2 ? 101 : 99;
		y[i] = i % 2 ? 132 : 128;
	}
	se = 1.3 * sqrt((1000.0 / 999) / (1000.0 * 100 * 100) + (4000.0 / 999) / (1000.0 * 130 * 130));
	ck_assert_int_eq(profdb__bootstrap_rel(x, 1000, y, 1000, 2000, 0.95, 42, &lo, &hi), 0);
	ck_assert_double_eq_tol(lo, 0.3 - 1.959963984540054 * se, 1e-12);
	ck_assert_double_eq_tol(hi, 0.3 + 1.959963984540054 * se, 1e-12);
	/* and the bootstrap just below the threshold agrees within a tenth of the width */
	ck_assert_int_eq(profdb__bootstrap_rel(x, 999, y, 999, 2000, 0.95, 42, &blo, &bhi), 0);
	ck_assert_double_eq_tol(blo, lo, 0.1 * (hi - lo));
	ck_assert_double_eq_tol(bhi, hi, 0.1 * (hi - lo));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("statstest");
	TCase *tc = tcase_create("tests");
	SRunner *sr;
	int failed;
	tcase_add_test(tc, ibeta_matches_binomial_sum);
	tcase_add_test(tc, t_cdf_closed_forms);
	tcase_add_test(tc, welch_by_hand);
	tcase_add_test(tc, mwu_exact_matches_enumeration);
	tcase_add_test(tc, mwu_exact_with_ties);
	tcase_add_test(tc, mwu_ties_normal_approximation);
	tcase_add_test(tc, mwu_large_samples_radix);
	tcase_add_test(tc, prng_and_bootstrap);
	tcase_add_test(tc, large_samples_delta_interval);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
