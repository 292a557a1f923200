/*
 * check_lower_bound.c - PROFDB__LOWER_BOUND (lib/util/lower_bound.h), the
 * bisection every sorted lookup of lib/ uses: hand-worked cases, then
 * random sorted arrays with repeats against a linear scan, for "<" (lower
 * bound) and "<=" (upper bound), on whole arrays and sub-ranges.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/lower_bound.h"
#include "testutil.h"

START_TEST(by_hand)
{
	/* indexes:           0  1  2  3  4  5  6 */
	const int64_t a[] = { 1, 3, 3, 3, 7, 9, 9 };
	size_t pos = 99;
	PROFDB__LOWER_BOUND(pos, 0, 7, i, a[i] < 3);
	ck_assert_uint_eq(pos, 1); /* the first 3 */
	PROFDB__LOWER_BOUND(pos, 0, 7, i, a[i] <= 3);
	ck_assert_uint_eq(pos, 4); /* past the last 3: the 7 */
	PROFDB__LOWER_BOUND(pos, 0, 7, i, a[i] < 0);
	ck_assert_uint_eq(pos, 0); /* below all */
	PROFDB__LOWER_BOUND(pos, 0, 7, i, a[i] < 10);
	ck_assert_uint_eq(pos, 7); /* above all: last */
	PROFDB__LOWER_BOUND(pos, 0, 7, i, a[i] < 9);
	ck_assert_uint_eq(pos, 5);
	PROFDB__LOWER_BOUND(pos, 0, 7, i, a[i] < 8);
	ck_assert_uint_eq(pos, 5); /* absent key: where it would go */
	PROFDB__LOWER_BOUND(pos, 2, 5, i, a[i] < 3);
	ck_assert_uint_eq(pos, 2); /* a sub-range starts at first */
	PROFDB__LOWER_BOUND(pos, 2, 5, i, a[i] < 100);
	ck_assert_uint_eq(pos, 5); /* ... and ends at last */
	PROFDB__LOWER_BOUND(pos, 3, 3, i, a[i] < 100);
	ck_assert_uint_eq(pos, 3); /* empty range: first */
}
END_TEST

/* The predicate is read as few times as a bisection needs, and each macro
 * argument once. */
START_TEST(evaluations)
{
	const int64_t a[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	size_t pos = 0, calls = 0, firsts = 0, lasts = 0;
	PROFDB__LOWER_BOUND(pos, (firsts++, 0), (lasts++, 16), i, (calls++, a[i] < 11));
	ck_assert_uint_eq(pos, 11);
	ck_assert_uint_le(calls, 5); /* log2(16) + 1 */
	ck_assert_uint_eq(firsts, 1);
	ck_assert_uint_eq(lasts, 1);
}
END_TEST

static size_t scan(const int64_t *a, size_t first, size_t last, int64_t key, int le)
{
	size_t i = first;
	while (i < last && (le ? a[i] <= key : a[i] < key))
		i++;
	return i;
}

START_TEST(random_against_scan)
{
	int64_t a[64];
	uint64_t x = 88172645463325252ull;
	for (int round = 0; round < 2000; round++) {
		size_t n, first, last, pos;
		int64_t v = 0, key;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		n = (size_t)(x % 65);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			v += (int64_t)(x % 3); /* steps of 0, 1 or 2: runs of repeats */
			a[i] = v;
		}
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		first = n ? (size_t)(x % (n + 1)) : 0;
		last = first + (n > first ? (size_t)((x >> 20) % (n - first + 1)) : 0);
		key = (int64_t)((x >> 40) % (uint64_t)(v + 3)) - 1;
		PROFDB__LOWER_BOUND(pos, first, last, i, a[i] < key);
		ck_assert_uint_eq(pos, scan(a, first, last, key, 0));
		PROFDB__LOWER_BOUND(pos, first, last, i, a[i] <= key);
		ck_assert_uint_eq(pos, scan(a, first, last, key, 1));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lower_bound");
	TCase *tc = tcase_create("lower_bound");
	tcase_add_test(tc, by_hand);
	tcase_add_test(tc, evaluations);
	tcase_add_test(tc, random_against_scan);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
