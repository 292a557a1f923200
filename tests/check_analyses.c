/*
 * check_analyses.c - the interval algebra (interval.c) and the analysis
 * queries built on it (query_breakdown.c, query_launches.c,
 * query_bandwidth.c), against values worked out by hand: the figures of
 * testdata/analyses/README.md and small interval lists below.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/interval.h"

START_TEST(merge_length_overlap)
{
	/* unsorted; [0,10) [5,20) overlap, [20,25) touches, [30,30) empty, [40,35) negative */
	struct profdb__interval a[] = { { 20, 25 }, { 5, 20 }, { 30, 30 }, { 0, 10 }, { 40, 35 }, { 50, 60 } };
	struct profdb__interval b[] = { { 15, 55 } };
	struct profdb__interval u[8];
	size_t n = profdb__ivals_merge(a, 6), nu;
	ck_assert_uint_eq(n, 2);
	ck_assert(a[0].start == 0 && a[0].end == 25 && a[1].start == 50 && a[1].end == 60);
	ck_assert_int_eq(profdb__ivals_length(a, n), 35);
	ck_assert_int_eq(profdb__ivals_overlap(a, n, b, 1), 10 + 5); /* [15,25) + [50,55) */
	nu = profdb__ivals_union(u, a, n, b, 1);
	ck_assert_uint_eq(nu, 1);
	ck_assert(u[0].start == 0 && u[0].end == 60);
	{
		size_t cur = 0; /* ascending queries against a = [0,25) [50,60) */
		ck_assert_int_eq(profdb__ivals_overlap_at(a, n, &cur, 10, 30), 15);
		ck_assert_int_eq(profdb__ivals_overlap_at(a, n, &cur, 30, 55), 5);
		ck_assert_uint_eq(cur, 1);
		ck_assert_int_eq(profdb__ivals_overlap_at(a, n, &cur, 55, 100), 5);
		ck_assert_int_eq(profdb__ivals_overlap_at(a, n, &cur, 70, 80), 0);
	}
	/* one query in any order (bisection), by hand against a = [0,25) [50,60) */
	ck_assert_int_eq(profdb__ivals_overlap_one(a, n, 55, 100), 5);
	ck_assert_int_eq(profdb__ivals_overlap_one(a, n, 10, 30), 15);
	ck_assert_int_eq(profdb__ivals_overlap_one(a, n, 25, 50), 0);  /* the gap, touching both */
	ck_assert_int_eq(profdb__ivals_overlap_one(a, n, -5, 70), 35); /* covers both */
	ck_assert_int_eq(profdb__ivals_overlap_one(a, n, 24, 51), 2);
	ck_assert_int_eq(profdb__ivals_overlap_one(a, n, 60, 61), 0);
	ck_assert_uint_eq(profdb__ivals_merge(a, 0), 0);
	ck_assert_int_eq(profdb__ivals_overlap(a, 0, b, 1), 0);
	ck_assert_int_eq(profdb__ivals_overlap_one(a, 0, 0, 10), 0);
}
END_TEST

/* The bisection agrees with the two-list merge on random unions and
 * spans (queries in random order, as launches --by step may ask them). */
START_TEST(overlap_one_random)
{
	struct profdb__interval a[64], span;
	unsigned seed = 12345;
	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)(round % 64);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			int64_t s = (int64_t)(seed >> 8) % 1000;
			seed = seed * 1103515245u + 12345u;
			a[i] = (struct profdb__interval){ s, s + (int64_t)(seed >> 8) % 40 };
		}
		n = profdb__ivals_merge(a, n);
		for (int k = 0; k < 20; k++) {
			seed = seed * 1103515245u + 12345u;
			span.start = (int64_t)(seed >> 8) % 1100 - 50;
			seed = seed * 1103515245u + 12345u;
			span.end = span.start + (int64_t)(seed >> 8) % 200;
			ck_assert_int_eq(profdb__ivals_overlap_one(a, n, span.start, span.end),
			                 profdb__ivals_overlap(a, n, &span, 1));
		}
	}
}
END_TEST

START_TEST(breakdown_figures)
{
	/* testdata/analyses README, Ascend step 1: C [0,20) [30,35) [50,60), M [15,40) */
	struct profdb__interval c[] = { { 0, 20 }, { 30, 35 }, { 50, 60 } }, m[] = { { 15, 40 } };
	/* Kineto step 2: C [150,170), Y [160,165) [175,185) */
	struct profdb__interval c2[] = { { 150, 170 } }, y2[] = { { 160, 165 }, { 175, 185 } };
	struct profdb__interval scratch[4];
	struct profdb__breakdown b;
	profdb__breakdown_figures(&b, c, 3, m, 1, NULL, 0, scratch);
	ck_assert_int_eq(b.compute, 35);
	ck_assert_int_eq(b.comm, 25);
	ck_assert_int_eq(b.compute_comm, 10);
	ck_assert_int_eq(b.exposed_comm, 15);
	ck_assert_int_eq(b.busy, 50);
	ck_assert_int_eq(b.memory, 0);
	profdb__breakdown_figures(&b, c2, 1, NULL, 0, y2, 2, scratch);
	ck_assert_int_eq(b.memory, 15);
	ck_assert_int_eq(b.compute_memory, 5);
	ck_assert_int_eq(b.exposed_memory, 10);
	ck_assert_int_eq(b.busy, 30);
	ck_assert_int_eq(b.comm_memory, 0);
}
END_TEST

static profdb *hand_db(void)
{
	profdb *db = NULL;
	struct profdb_ingest_opts o = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	o.run = "kin";
	ck_assert_int_eq(profdb_ingest(db, NULL, tu_testdata("analyses/trace.json"), &o), PROFDB_OK);
	o.run = "asc";
	ck_assert_int_eq(profdb_ingest(db, NULL, tu_testdata("analyses/breakdown_kernel_details.csv"), &o), PROFDB_OK);
	return db;
}

static int col(const profdb_result *r, const char *name)
{
	for (size_t i = 0; i < profdb_result_ncols(r); i++)
		if (strcmp(profdb_result_colname(r, i), name) == 0)
			return (int)i;
	ck_abort_msg("no column %s", name);
	return -1;
}

START_TEST(queries)
{
	profdb *db = hand_db();
	profdb_result *r = NULL;
	struct profdb_breakdown_query bq = PROFDB_BREAKDOWN_QUERY_INIT;
	struct profdb_launch_query lq = PROFDB_LAUNCH_QUERY_INIT;
	struct profdb_bandwidth_query wq = PROFDB_BANDWIDTH_QUERY_INIT;
	const char *asc[] = { "asc" }, *kin[] = { "kin" };

	bq.filter.runs = asc;
	bq.filter.nruns = 1;
	bq.by_rank = 1;
	ck_assert_int_eq(profdb_query_breakdown(db, &r, &bq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 1);
	ck_assert_int_eq(profdb_result_int(r, 0, col(r, "span")), 130000);
	ck_assert_int_eq(profdb_result_int(r, 0, col(r, "exposed_communication")), 35000);
	ck_assert_int_eq(profdb_result_int(r, 0, col(r, "idle")), 50000);
	profdb_result_free(r);

	lq.filter.runs = kin;
	lq.filter.nruns = 1;
	lq.by = "step";
	ck_assert_int_eq(profdb_query_launches(db, &r, &lq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 2);
	ck_assert_int_eq(profdb_result_int(r, 1, col(r, "queued")), 25000);
	ck_assert_str_eq(profdb_result_text(r, 1, col(r, "bound")), "device");
	profdb_result_free(r);
	lq.by = "name";
	ck_assert_int_eq(profdb_query_launches(db, &r, &lq), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 0, col(r, "name")), "(all)");
	ck_assert_double_eq(profdb_result_double(r, 0, col(r, "start_delay_median")), 36500);
	profdb_result_free(r);

	wq.filter.runs = kin;
	wq.filter.nruns = 1;
	wq.by_rank = 1;
	ck_assert_int_eq(profdb_query_bandwidth(db, &r, &wq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 3);
	ck_assert_str_eq(profdb_result_text(r, 0, col(r, "direction")), "DtoH");
	ck_assert_int_eq(profdb_result_int(r, 0, col(r, "bytes")), 2000);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(errors)
{
	profdb *db = hand_db();
	profdb_result *r = NULL;
	struct profdb_breakdown_query bq = PROFDB_BREAKDOWN_QUERY_INIT;
	struct profdb_launch_query lq = PROFDB_LAUNCH_QUERY_INIT;
	struct profdb_bandwidth_query wq = PROFDB_BANDWIDTH_QUERY_INIT;
	const char *none[] = { "nosuch" };

	bq.filter.kind = "kernel";
	ck_assert_int_eq(profdb_query_breakdown(db, &r, &bq), PROFDB_EUSAGE);
	ck_assert_ptr_null(r);
	lq.by = "kernel";
	ck_assert_int_eq(profdb_query_launches(db, &r, &lq), PROFDB_EUSAGE);
	ck_assert(strstr(profdb_errmsg(db), "'kernel'") != NULL);
	wq.filter.runs = none;
	wq.filter.nruns = 1;
	ck_assert_int_eq(profdb_query_bandwidth(db, &r, &wq), PROFDB_ENOTFOUND);
	ck_assert_ptr_null(r);
	profdb_close(db);
}
END_TEST

START_TEST(ranks_idle_collectives)
{
	profdb *db = NULL;
	profdb_result *r = NULL;
	struct profdb_ingest_opts o = PROFDB_INGEST_OPTS_INIT;
	struct profdb_ranks_query rq = PROFDB_RANKS_QUERY_INIT;
	struct profdb_collective_query cq = PROFDB_COLLECTIVE_QUERY_INIT;
	struct profdb_idle_query iq = PROFDB_IDLE_QUERY_INIT;
	size_t zc;

	/* testdata/analyses README, ranks/: step 3 has MAD 0, z of rank 4 = 2 / (1.253314 * 0.4);
	 * communication 10, 10, 10, 10, 8: rank 4 arrives last, the others wait 2 us */
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	o.run = "five";
	ck_assert_int_eq(profdb_ingest(db, NULL, tu_testdata("analyses/ranks"), &o), PROFDB_OK);
	rq.filter.step_lo = rq.filter.step_hi = 3;
	ck_assert_int_eq(profdb_query_ranks(db, &r, &rq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 5);
	zc = (size_t)col(r, "compute_z");
	ck_assert_double_eq_tol(profdb_result_double(r, 4, zc), 2 / (1.253314 * 0.4), 1e-12);
	ck_assert_str_eq(profdb_result_text(r, 4, (size_t)col(r, "straggler")), "yes");
	ck_assert_int_eq(profdb_result_int(r, 0, (size_t)col(r, "wait")), 2000);
	profdb_result_free(r);
	/* the straggler rule: rank 4 is 2 us late against a median collective
	 * time of 10 us, 20 %: flagged at the default 10 %, not at 25 % */
	rq.threshold = 25;
	ck_assert_int_eq(profdb_query_ranks(db, &r, &rq), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 4, (size_t)col(r, "straggler")), "no");
	profdb_result_free(r);
	rq.threshold = 0;
	ck_assert_int_eq(profdb_query_ranks(db, &r, &rq), PROFDB_EUSAGE);

	cq.by_step = 1;
	cq.filter.step_lo = cq.filter.step_hi = 2;
	ck_assert_int_eq(profdb_query_collectives(db, &r, &cq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 1);
	ck_assert_str_eq(profdb_result_text(r, 0, (size_t)col(r, "collective")), "all_reduce");
	ck_assert_int_eq(profdb_result_int(r, 0, (size_t)col(r, "skew")), 20000);
	ck_assert_int_eq(profdb_result_int(r, 0, (size_t)col(r, "waited_on_rank")), 4);
	profdb_result_free(r);
	profdb_close(db);

	db = hand_db();
	iq.gaps = 1;
	ck_assert_int_eq(profdb_query_idle(db, &r, &iq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 1);
	ck_assert_int_eq(profdb_result_int(r, 0, (size_t)col(r, "gap")), 130000);
	ck_assert_int_eq(profdb_result_int(r, 0, (size_t)col(r, "host_wait")), 80000);
	ck_assert_str_eq(profdb_result_text(r, 0, (size_t)col(r, "host_op")), "aten::nonzero");
	profdb_result_free(r);
	iq.gaps = -1;
	ck_assert_int_eq(profdb_query_idle(db, &r, &iq), PROFDB_EUSAGE);
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analyses");
	TCase *tc = tcase_create("interval");
	tcase_add_test(tc, merge_length_overlap);
	tcase_add_test(tc, overlap_one_random);
	tcase_add_test(tc, breakdown_figures);
	suite_add_tcase(s, tc);
	tc = tcase_create("queries");
	tcase_add_test(tc, queries);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, ranks_idle_collectives);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
