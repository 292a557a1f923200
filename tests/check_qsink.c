/*
 * check_qsink.c - the queued sink (qsink.c): records written on worker
 * threads reach the store exactly as the serial path would write them,
 * strings, metrics, blobs and per-slot skip counts included, one unit after
 * the other in the units' order whichever producer runs first; a unit that
 * never ends is an error, not rows lost or reordered.
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "store/qsink.h"

#define NKERNELS 20000 /* enough for many 256 KB batches */

struct producer {
	struct profdb__queue *q;
	int slot;
	const char *prefix;        /* kernel names differ per producer */
	size_t unit;
	int no_end;                /* 1: the unit is never ended (a caller's bug) */
};

/* A record the writer may refuse only after it aborted the queue (an error
 * test): the producer stops there, as a reader would. */
#define SEND(call) do { if ((call) != PROFDB_OK) goto stopped; } while (0)

/* What a reader would send for one file: kernels with strings and metrics,
 * skips, an op, a step and metadata. */
static void *produce(void *arg)
{
	struct producer *p = arg;
	struct profdb__qsink *qs = NULL;
	struct profdb_sink *s;
	char name[64], path[64];
	struct profdb_metric m[2] = { { "aic_mac_ratio", 0.25 }, { "aiv_time(us)", 0 } };
	static const unsigned char blob[4] = { 'a', 0, 'b', 'c' };
	ck_assert_int_eq(profdb__qsink_new(&qs, p->q, p->slot), PROFDB_OK);
	profdb__qsink_begin_unit(qs, p->unit);
	s = profdb__qsink_sink(qs);
	snprintf(path, sizeof path, "/f/%s.csv", p->prefix);
	SEND(s->source_begin(s->arg, path, "kernel_details", p->slot, blob, 4));
	for (int i = 0; i < NKERNELS; i++) {
		struct profdb_kernel_rec k;
		profdb__kernel_rec_init(&k);
		snprintf(name, sizeof name, "%s_kernel_%d", p->prefix, i % 7);
		k.name = name;
		k.rank = p->slot;
		k.start_ns = i;
		k.dur_ns = i % 100 + 1;
		k.step = i % 4;
		k.in_shapes = (i % 2) ? "32,3,224,224" : NULL;
		k.metrics = m;
		k.nmetrics = (i % 3 == 0) ? 2 : 0;
		m[1].value = i;
		SEND(s->kernel(s->arg, &k));
		if (i % 1000 == 0)
			SEND(s->skip(s->arg, "non-positive duration", i + 2));
	}
	struct profdb_op_rec o;
	profdb__op_rec_init(&o);
	o.name = "aten::mm";
	o.self_ns = 7;
	o.call_stack = "a.py(1): f;\r\nb.py(2): g";
	SEND(s->op(s->arg, &o));
	SEND(s->step_metric(s->arg, p->slot, 3, "Computing", 12.5));
	SEND(s->meta(s->arg, p->slot, "cann_version", "8.3.RC1"));
	SEND(s->source_end(s->arg, NKERNELS + 20, "feed", 99));
	if (!p->no_end)
		SEND(profdb__qsink_end_unit(qs));
stopped: /* the writer aborted the queue: nothing more is taken */
	profdb__qsink_free(qs);
	profdb__queue_producer_done(p->q);
	return NULL;
}

/* Unit 1's producer starts first and fills its share of the queue (a unit
 * is more batches than QUEUE_MAX) before unit 0's starts. */
static void run_two(profdb *db, struct producer p[2], int want_rc)
{
	struct profdb_store *st = NULL;
	struct profdb__queue *q = NULL;
	pthread_t th[2];
	ck_assert_int_eq(profdb__store_begin(&st, db, "par", "/f", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__queue_new(&q, 2), PROFDB_OK);
	for (int i = 1; i >= 0; i--) {
		p[i].q = q;
		ck_assert_int_eq(pthread_create(&th[i], NULL, produce, &p[i]), 0);
		if (i == 1)
			usleep(100 * 1000);
	}
	ck_assert_int_eq(profdb__queue_drain(q, st, NULL, NULL), want_rc);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	profdb__queue_free(q);
	if (want_rc == PROFDB_OK)
		ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	else
		profdb__store_abort(st);
}

START_TEST(two_producers_one_writer)
{
	profdb *db = NULL;
	struct producer p[2] = { { NULL, 1, "a", 0, 0 }, { NULL, 2, "b", 1, 0 } };
	char *s;

	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	run_two(db, p, PROFDB_OK);
	/* unit 0 (rank 1) stored first, though unit 1's batches came first */
	ck_assert_int_eq(tu_scalar(db, "SELECT max(id) < (SELECT min(id) FROM kernel WHERE rank = 2)"
	                               " FROM kernel WHERE rank = 1"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT rank FROM source_file ORDER BY id LIMIT 1"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 2 * NKERNELS);
	/* sum of (i % 100 + 1) for i < 20000 = 200 * 5050 = 1010000, per producer */
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(dur_ns) FROM kernel WHERE rank = 1"), 1010000);
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(dur_ns) FROM kernel WHERE rank = 2"), 1010000);
	/* metrics on every third kernel: ceil(20000 / 3) = 6667 kernels x 2 */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_metric"), 2 * 6667 * 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(m.value) FROM kernel_metric m"
	                            " WHERE m.metric = 'aiv_time(us)'"), 2 * 66663333LL);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE in_shapes_id IS NOT NULL"), NKERNELS);
	/* each file's skips land on its own source row */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM source_file WHERE rows_skipped = 20 AND"
	                            " rows_stored = 20001 AND rows_read = 20020 AND sha256 = 'feed'"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT length(content) FROM source_file LIMIT 1"), 4);
	s = tu_text(db, "SELECT call_stack FROM op_v LIMIT 1");
	ck_assert_str_eq(s, "a.py(1): f;\r\nb.py(2): g");
	free(s);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM step_metric WHERE value = 12.5"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run_meta WHERE value = '8.3.RC1'"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT repeats FROM run"), 4);
	profdb_close(db);
}
END_TEST

/* Unit 0 never ends: the drain fails loudly instead of storing unit 1 out
 * of order or dropping it, and nothing is stored. */
START_TEST(unit_never_ended_is_an_error)
{
	profdb *db = NULL;
	struct producer p[2] = { { NULL, 1, "a", 0, 1 }, { NULL, 2, "b", 1, 0 } };
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	run_two(db, p, PROFDB_ERROR);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 0);
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("qsink");
	TCase *tc = tcase_create("replay");
	tcase_add_test(tc, two_producers_one_writer);
	tcase_add_test(tc, unit_never_ended_is_an_error);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
