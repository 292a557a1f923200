/*
 * check_op_nest.c - the one host-op nesting (op_nest.c's profdb__nest) on
 * hand-made op lists.  Every expected self, device total and emit order
 * is worked out by hand in the comment above its case, from torch's rule:
 * ops in (start, end descending, id) order; an op is a child of the
 * innermost open op that it starts before the end of and ends by the end
 * of; self = duration - direct children's durations; device total = own
 * device time + children's totals.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/op_nest.h"
#include "testutil.h"

#define NOD PROFDB_NULL /* no device time of its own */

/* What emit saw, in emit order. */
struct got {
	struct profdb__nest_op v[64];
	size_t n;
};

static int collect(void *arg, const struct profdb__nest_op *o)
{
	struct got *g = arg;
	ck_assert_uint_lt(g->n, 64);
	g->v[g->n++] = *o;
	return PROFDB_OK;
}

static struct profdb__nest_op op(int64_t id, int64_t start, int64_t dur, int64_t dev)
{
	struct profdb__nest_op o;
	memset(&o, 0, sizeof o);
	o.id = id;
	o.start = start;
	o.dur = dur;
	o.dev_self[0] = dev;
	o.dev_self[1] = NOD;
	return o;
}

/* The op with id id as emitted (fails if absent). */
static const struct profdb__nest_op *find(const struct got *g, int64_t id)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].id == id)
			return &g->v[i];
	ck_abort_msg("op %lld not emitted", (long long)id);
	return NULL;
}

static void expect(const struct got *g, int64_t id, int64_t self, int64_t dev_total)
{
	const struct profdb__nest_op *o = find(g, id);
	ck_assert_msg(o->self == self, "op %lld: self %lld, want %lld", (long long)id, (long long)o->self,
	              (long long)self);
	ck_assert_msg(o->dev_total[0] == dev_total, "op %lld: device total %lld, want %lld", (long long)id,
	              (long long)o->dev_total[0], (long long)dev_total);
}

/* Feed ops[0..n) in the given order to one thread, then end it. */
static void run(struct got *g, int overlap, const struct profdb__nest_op *ops, size_t n)
{
	struct profdb__nest nest;
	memset(&nest, 0, sizeof nest);
	memset(g, 0, sizeof *g);
	profdb__nest_init(&nest, overlap, collect, g);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(profdb__nest_add(&nest, &ops[i]), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_end(&nest), PROFDB_OK);
	ck_assert_uint_eq(g->n, n);
	profdb__nest_free(&nest);
}

/*
 * 1 [0,100) dev 5 holds 2 [10,40) dev 7 and 4 [50,100) (no ext); 2 holds
 * 3 [20,30) dev 11; 4 ends exactly at 1's end (a child: ends by its end).
 * self: 1 = 100-30-50 = 20, 2 = 30-10 = 20, 3 = 10, 4 = 50.
 * device totals: 3 = 11, 2 = 7+11 = 18, 4 = 0, 1 = 5+18+0 = 23.
 * emit order: 3, 2, 4, 1 (children before parents).
 */
START_TEST(nests_by_hand)
{
	struct profdb__nest_op ops[] = { op(1, 0, 100, 5), op(2, 10, 30, 7), op(3, 20, 10, 11), op(4, 50, 50, NOD) };
	struct got g;
	run(&g, 0, ops, 4);
	expect(&g, 1, 20, 23);
	expect(&g, 2, 20, 18);
	expect(&g, 3, 10, 11);
	expect(&g, 4, 50, 0);
	ck_assert_int_eq(g.v[0].id, 3);
	ck_assert_int_eq(g.v[1].id, 2);
	ck_assert_int_eq(g.v[2].id, 4);
	ck_assert_int_eq(g.v[3].id, 1);
	ck_assert_int_eq(find(&g, 4)->dev_self[0], NOD); /* handed back as given */
	ck_assert_int_eq(find(&g, 1)->desc, 3);
	ck_assert_int_eq(find(&g, 2)->desc, 1);
	ck_assert_int_eq(find(&g, 4)->desc, 0);
	ck_assert_int_eq(find(&g, 1)->depth, 0);
	ck_assert_int_eq(find(&g, 3)->depth, 2);
	ck_assert_int_eq(find(&g, 4)->depth, 1);
}
END_TEST

/*
 * Equal starts arrive shortest first: 5 [0,10), 6 [0,50), 7 [0,50).
 * Order: 6 and 7 (equal end: id 6 first), then 5.  7 is 6's child (ends
 * by its end), 5 is 7's.  self: 6 = 50-50 = 0, 7 = 50-10 = 40, 5 = 10.
 * dev: 5 has 3, 7 has 2, 6 has 1: totals 5 = 3, 7 = 5, 6 = 6.
 */
START_TEST(ties_at_equal_start)
{
	struct profdb__nest_op ops[] = { op(5, 0, 10, 3), op(7, 0, 50, 2), op(6, 0, 50, 1) };
	struct got g;
	run(&g, 0, ops, 3);
	expect(&g, 6, 0, 6);
	expect(&g, 7, 40, 5);
	expect(&g, 5, 10, 3);
	ck_assert_int_eq(g.v[2].id, 6);
}
END_TEST

/*
 * Zero-duration ops: 1 [0,10); 2 [5,5) inside it (starts before 1's end,
 * ends by it): a child of 1 costing it 0; 3 [10,10) at 1's end: not a
 * child (starts at the end).  8 and 9 both [20,20): 9 does not start
 * before 8's end, so they are siblings, not nested.
 * self: 1 = 10, 2 = 0, 3 = 0, 8 = 0, 9 = 0; dev: 2 has 4 -> 1's total 4,
 * 3 has 6 and no parent, 9 has 1 and stays out of 8's total (8: 0).
 */
START_TEST(zero_duration)
{
	struct profdb__nest_op ops[] = { op(1, 0, 10, NOD), op(2, 5, 0, 4), op(3, 10, 0, 6),
	                                op(8, 20, 0, NOD), op(9, 20, 0, 1) };
	struct got g;
	run(&g, 0, ops, 5);
	expect(&g, 1, 10, 4);
	expect(&g, 2, 0, 4);
	expect(&g, 3, 0, 6);
	expect(&g, 8, 0, 0);
	expect(&g, 9, 0, 1);
}
END_TEST

/*
 * A child that outlives its parent: 1 [0,10), 2 [5,20).  torch's rule:
 * 2 ends after 1, so it is not 1's child: self 1 = 10, 2 = 15, totals
 * their own (1: 1, 2: 2).  The Ascend rule (overlap = 1): 2 is 1's child
 * costing it 10-5 = 5: self 1 = 5, 2 = 15, 1's total 1+2 = 3.
 */
START_TEST(outliving_child)
{
	struct profdb__nest_op ops[] = { op(1, 0, 10, 1), op(2, 5, 15, 2) };
	struct got g;
	run(&g, 0, ops, 2);
	expect(&g, 1, 10, 1);
	expect(&g, 2, 15, 2);
	run(&g, 1, ops, 2);
	expect(&g, 1, 5, 3);
	expect(&g, 2, 15, 2);
}
END_TEST

/* Two threads interleaved, one profdb__nest each: A: 1 [0,100) holds
 * 3 [10,20); B: 2 [5,50) holds 4 [15,60)? no: 4 ends after 2, a sibling.
 * self: 1 = 90, 3 = 10, 2 = 45, 4 = 45.  dev: 3 has 9 -> 1's total 9. */
START_TEST(threads_interleaved)
{
	struct profdb__nest a, b;
	struct got ga, gb;
	struct profdb__nest_op o1 = op(1, 0, 100, NOD), o2 = op(2, 5, 45, NOD), o3 = op(3, 10, 10, 9),
	                      o4 = op(4, 15, 45, NOD);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&ga, 0, sizeof ga);
	memset(&gb, 0, sizeof gb);
	profdb__nest_init(&a, 0, collect, &ga);
	profdb__nest_init(&b, 0, collect, &gb);
	ck_assert_int_eq(profdb__nest_add(&a, &o1), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_add(&b, &o2), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_add(&a, &o3), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_add(&b, &o4), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_end(&a), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_end(&b), PROFDB_OK);
	expect(&ga, 1, 90, 9);
	expect(&ga, 3, 10, 9);
	expect(&gb, 2, 45, 0);
	expect(&gb, 4, 45, 0);
	ck_assert_uint_eq(ga.n, 2);
	ck_assert_uint_eq(gb.n, 2);
	profdb__nest_free(&a);
	profdb__nest_free(&b);
}
END_TEST

/* An op that starts before the previous one is refused, nothing changed;
 * after end() a new thread may start anywhere. */
START_TEST(unsorted_refused)
{
	struct profdb__nest n;
	struct got g;
	struct profdb__nest_op a = op(1, 100, 10, NOD), b = op(2, 50, 10, NOD);
	memset(&n, 0, sizeof n);
	memset(&g, 0, sizeof g);
	profdb__nest_init(&n, 0, collect, &g);
	ck_assert_int_eq(profdb__nest_add(&n, &a), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_add(&n, &b), PROFDB__NEST_UNSORTED);
	ck_assert_int_eq(profdb__nest_end(&n), PROFDB_OK);
	ck_assert_uint_eq(g.n, 1);
	ck_assert_int_eq(profdb__nest_add(&n, &b), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_end(&n), PROFDB_OK);
	ck_assert_uint_eq(g.n, 2);
	profdb__nest_free(&n);
}
END_TEST

/*
 * advance(t) leaves open what holds t: 1 [0,100) holds 2 [10,20); at
 * t = 20, 2 closes (ends at 20) and 1 is the innermost open op; a waiting
 * op of start 30 is opened by advance(30) only.
 */
START_TEST(advance_to_a_time)
{
	struct profdb__nest n;
	struct got g;
	struct profdb__nest_op o1 = op(1, 0, 100, NOD), o2 = op(2, 10, 10, NOD), o3 = op(3, 30, 5, NOD);
	memset(&n, 0, sizeof n);
	memset(&g, 0, sizeof g);
	profdb__nest_init(&n, 0, collect, &g);
	ck_assert_int_eq(profdb__nest_add(&n, &o1), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_add(&n, &o2), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_add(&n, &o3), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_advance(&n, 20), PROFDB_OK);
	ck_assert_uint_eq(g.n, 1);
	ck_assert_int_eq(g.v[0].id, 2);
	ck_assert_int_eq(profdb__nest_open(&n, 0)->id, 1);
	ck_assert_ptr_null(profdb__nest_open(&n, 1));
	ck_assert_int_eq(profdb__nest_advance(&n, 31), PROFDB_OK);
	ck_assert_int_eq(profdb__nest_open(&n, 0)->id, 3);
	profdb__nest_open(&n, 0)->dev_self[0] = 8; /* a linked launch */
	ck_assert_int_eq(profdb__nest_end(&n), PROFDB_OK);
	expect(&g, 3, 5, 8);
	expect(&g, 1, 85, 8);
	profdb__nest_free(&n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("op_nest");
	TCase *tc = tcase_create("nest");
	tcase_add_test(tc, nests_by_hand);
	tcase_add_test(tc, ties_at_equal_start);
	tcase_add_test(tc, zero_duration);
	tcase_add_test(tc, outliving_child);
	tcase_add_test(tc, threads_interleaved);
	tcase_add_test(tc, unsorted_refused);
	tcase_add_test(tc, advance_to_a_time);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
