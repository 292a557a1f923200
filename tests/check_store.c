/*
 * check_store.c - the store (store.c, db.c, run.c): schema versioning, one
 * transaction per ingest, interning, derived steps and repeats.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static void add_kernel(struct profdb_sink *s, const char *name, int64_t start, int64_t dur, int64_t step)
{
	struct profdb_kernel_rec k;
	profdb__kernel_rec_init(&k);
	k.name = name;
	k.start_ns = start;
	k.dur_ns = dur;
	k.step = step;
	ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
}

START_TEST(open_memory_schema)
{
	profdb *db = NULL;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "PRAGMA user_version"), profdb_schema_version());
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kind"), 6);
	profdb_close(db);
	profdb_close(NULL); /* NULL is a no-op */
}
END_TEST

START_TEST(newer_schema_refused)
{
	char path[512];
	profdb *db = NULL;
	snprintf(path, sizeof path, "%s/new.db", tu_tmpdir());
	ck_assert_int_eq(profdb_open(&db, path, 0), PROFDB_OK);
	ck_assert_int_eq(sqlite3_exec(db->sql, "PRAGMA user_version = 999", NULL, NULL, NULL), SQLITE_OK);
	profdb_close(db);
	ck_assert_int_eq(profdb_open(&db, path, 0), PROFDB_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "newer profdb"));
	profdb_close(db);
}
END_TEST

START_TEST(not_sqlite_refused)
{
	char path[512];
	profdb *db = NULL;
	snprintf(path, sizeof path, "%s/junk.db", tu_tmpdir());
	ck_assert_int_eq(tu_write_file(path, "this is not a database, just text......", 40), 0);
	ck_assert_int_eq(profdb_open(&db, path, 0), PROFDB_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "not an SQLite database"));
	profdb_close(db);
}
END_TEST

START_TEST(commit_derives_repeats_and_interns)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r1", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	add_kernel(s, "MatMul", 1000, 10, 1);
	add_kernel(s, "MatMul", 2000, 30, 2);
	add_kernel(s, "Add", 3000, 5, 2);
	ck_assert_int_eq(s->skip(s->arg, "non-positive duration", 7), PROFDB_OK);
	ck_assert_int_eq(s->skip(s->arg, "non-positive duration", 9), PROFDB_OK);
	ck_assert_int_eq(s->source_end(s->arg, 5, "abc", 100), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	/* two distinct steps -> repeats 2; MatMul interned once */
	ck_assert_int_eq(tu_scalar(db, "SELECT repeats FROM run WHERE name='r1'"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM str WHERE value='MatMul'"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM step"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT rows_skipped FROM source_file"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT first_line FROM source_skip"), 7);
	/* the view: per_repeat = 40 ns / 2 = 0.02 us */
	ck_assert_int_eq(tu_scalar(db, "SELECT per_repeat_us * 1000 FROM kernel_summary WHERE name='MatMul'"), 20);
	ck_assert_int_eq(tu_scalar(db, "SELECT total_device_us * 1000 FROM run_summary"), 45);
	/* a second ingest of the same name fails without --replace */
	ck_assert_int_eq(profdb__store_begin(&st, db, "r1", "/x", 0), PROFDB_EEXISTS);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r1", "/x", 1), PROFDB_OK);
	profdb__store_abort(st);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 3); /* abort kept the old run */
	ck_assert_int_eq(profdb_run_set_repeats(db, "r1", 4), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT repeats FROM run"), 4);
	ck_assert_int_eq(profdb_run_set_repeats(db, "nope", 4), PROFDB_ENOTFOUND);
	ck_assert_int_eq(profdb_run_delete(db, "r1"), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM source_skip"), 0);
	profdb_close(db);
}
END_TEST

START_TEST(steps_from_launches)
{
	/* a kernel belongs to the step whose host span holds its launch */
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	struct profdb_step_rec sr = { 0, 7, 100, 200 };
	struct profdb_launch_rec l = { 0, 42, 1, 150, 5, PROFDB_NULL, "cudaLaunchKernel" };
	struct profdb_kernel_rec k;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "k", "/k", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->step(s->arg, &sr), PROFDB_OK);
	ck_assert_int_eq(s->launch(s->arg, &l), PROFDB_OK);
	profdb__kernel_rec_init(&k);
	k.name = "gemm";
	k.start_ns = 500; /* runs after the host span ended */
	k.dur_ns = 10;
	k.correlation = 42;
	ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT step FROM kernel"), 7);
	ck_assert_int_eq(tu_scalar(db, "SELECT repeats FROM run"), 1);
	profdb_close(db);
}
END_TEST

START_TEST(commit_op_device_times_and_ranks)
{
	/* ops stored with an External id and no device time take the sum of
	 * their kernels' durations at commit (5 + 7 = 12; 0 for none), an op
	 * with its own device time keeps it; run.ranks counts the distinct
	 * ranks of kernels and ops: 0, 3 (kernels) and 5 (an op) */
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	struct profdb_kernel_rec k;
	struct profdb_op_rec o;
	const int64_t kext[] = { 11, 11, 22 }, krank[] = { 3, 3, 0 }, kdur[] = { 5, 7, 9 };
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "d", "/d", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	for (int i = 0; i < 3; i++) {
		profdb__kernel_rec_init(&k);
		k.name = "gemm";
		k.rank = krank[i];
		k.start_ns = 100 * i;
		k.dur_ns = kdur[i];
		k.external_id = kext[i];
		ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
	}
	profdb__op_rec_init(&o);
	o.name = "aten::mm";
	o.rank = 3;
	o.external_id = 11;
	ck_assert_int_eq(s->op(s->arg, &o), PROFDB_OK);
	o.name = "aten::add";
	o.rank = 5;
	o.external_id = 22; /* rank 5 has no kernels: 0 */
	ck_assert_int_eq(s->op(s->arg, &o), PROFDB_OK);
	o.name = "aten::own";
	o.rank = 3;
	o.device_self_ns = 40;
	ck_assert_int_eq(s->op(s->arg, &o), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT o.device_self_ns FROM op o JOIN str s ON s.id = o.name_id"
	                           " WHERE s.value = 'aten::mm'"), 12);
	ck_assert_int_eq(tu_scalar(db, "SELECT o.device_self_ns FROM op o JOIN str s ON s.id = o.name_id"
	                           " WHERE s.value = 'aten::add'"), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT o.device_self_ns FROM op o JOIN str s ON s.id = o.name_id"
	                           " WHERE s.value = 'aten::own'"), 40);
	ck_assert_int_eq(tu_scalar(db, "SELECT ranks FROM run"), 3);
	profdb_close(db);
}
END_TEST

static void add_op(struct profdb_sink *s, const char *name, int64_t start)
{
	struct profdb_op_rec o;
	profdb__op_rec_init(&o);
	o.name = name;
	o.start_ns = start;
	o.dur_ns = 1;
	ck_assert_int_eq(s->op(s->arg, &o), PROFDB_OK);
}

START_TEST(steps_overlapping_spans)
{
	/* step 3 spans [100, 300), step 2 [200, 400), step 9 [50, 60) on rank 1
	 * only: an op or launch inside both takes the smaller step, 2 */
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	struct profdb_step_rec s3 = { 0, 3, 100, 300 }, s2 = { 0, 2, 200, 400 }, s9 = { 1, 9, 50, 60 };
	struct profdb_launch_rec l = { 0, 42, 1, 250, 5, PROFDB_NULL, "cudaLaunchKernel" };
	struct profdb_kernel_rec k;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "o", "/o", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->step(s->arg, &s3), PROFDB_OK);
	ck_assert_int_eq(s->step(s->arg, &s2), PROFDB_OK);
	ck_assert_int_eq(s->step(s->arg, &s9), PROFDB_OK);
	add_op(s, "a99", 99);   /* before every span of rank 0 */
	add_op(s, "a100", 100); /* start is inside */
	add_op(s, "a199", 199);
	add_op(s, "a200", 200); /* both: 2 */
	add_op(s, "a299", 299);
	add_op(s, "a300", 300); /* step 3 has ended: 2 */
	add_op(s, "a400", 400); /* end is outside */
	add_op(s, "a55", 55);   /* rank 1's span, but this op is rank 0 */
	ck_assert_int_eq(s->launch(s->arg, &l), PROFDB_OK);
	profdb__kernel_rec_init(&k);
	k.name = "gemm";
	k.start_ns = 5000;
	k.dur_ns = 10;
	k.correlation = 42;
	ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM op_v WHERE name = 'a99' AND step IS NULL"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT step FROM op_v WHERE name = 'a100'"), 3);
	ck_assert_int_eq(tu_scalar(db, "SELECT step FROM op_v WHERE name = 'a199'"), 3);
	ck_assert_int_eq(tu_scalar(db, "SELECT step FROM op_v WHERE name = 'a200'"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT step FROM op_v WHERE name = 'a299'"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT step FROM op_v WHERE name = 'a300'"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM op_v WHERE name IN ('a400', 'a55') AND step IS NULL"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT step FROM kernel"), 2);
	profdb_close(db);
}
END_TEST

START_TEST(replace_cascades_with_keys_on)
{
	/* the store switches foreign keys off while it inserts: a replace must
	 * still delete the old run's children, and the pragma must come back */
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	struct profdb_metric m[2] = { { "aic_mac_ratio", 0.5 }, { "aicore_time", 3.0 } };
	struct profdb_kernel_rec k;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "PRAGMA foreign_keys"), 1);
	for (int round = 0; round < 2; round++) {
		ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/r", 1), PROFDB_OK);
		s = profdb__store_sink(st);
		ck_assert_int_eq(s->source_begin(s->arg, "/r/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
		profdb__kernel_rec_init(&k);
		k.name = round ? "second" : "first";
		k.start_ns = 1;
		k.dur_ns = 2;
		k.metrics = m;
		k.nmetrics = round ? 1 : 2;
		ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
		if (!round)
			ck_assert_int_eq(s->skip(s->arg, "bad row", 3), PROFDB_OK);
		ck_assert_int_eq(s->source_end(s->arg, 2, NULL, 10), PROFDB_OK);
		ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
		ck_assert_int_eq(tu_scalar(db, "PRAGMA foreign_keys"), 1);
	}
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_metric"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM source_file"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM source_skip"), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	/* a new name: keys off during the ingest, on again after, no orphans */
	ck_assert_int_eq(profdb__store_begin(&st, db, "n", "/n", 1), PROFDB_OK);
	s = profdb__store_sink(st);
	add_kernel(s, "third", 5, 1, PROFDB_NULL);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "PRAGMA foreign_keys"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	profdb_close(db);
}
END_TEST

/* A digest maker for fill_digests: "d" + path's last letter, repeated; the
 * calls listed; none for a path ending in 'n', an error for 'x'. */
struct digest_calls {
	char seen[128];
};

static int fake_digest(void *arg, const char *path, uint64_t size, char hex[65])
{
	struct digest_calls *c = arg;
	char last = path[strlen(path) - 1];
	size_t off = strlen(c->seen);
	snprintf(c->seen + off, sizeof c->seen - off, "%s%c:%llu", off ? " " : "", last, (unsigned long long)size);
	if (last == 'n')
		return 1;
	if (last == 'x')
		return -1;
	memset(hex, last, 64);
	hex[64] = '\0';
	return 0;
}

/* Source files stored without a SHA-256 get the one fill_digests is given,
 * asked in the order they went in with their sizes; one that has its own
 * keeps it, one without a digest stays NULL; a file that cannot be read
 * again is an error naming it. */
START_TEST(digests_filled_after_the_reads)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	struct digest_calls calls = { "" };
	char *digests;
	const char *files[4] = { "/t/a", "/t/b", "/t/c", "/t/n" };
	const char *own[4] = { NULL, "given", NULL, NULL };
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "t", "/t", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(s->source_begin(s->arg, files[i], "kineto_trace", i, NULL, 0), PROFDB_OK);
		ck_assert_int_eq(s->source_end(s->arg, 0, own[i], (uint64_t)(10 * (i + 1))), PROFDB_OK);
	}
	ck_assert_int_eq(profdb__store_fill_digests(st, fake_digest, &calls), PROFDB_OK);
	ck_assert_str_eq(calls.seen, "a:10 c:30 n:40");
	/* each digest as "path=its first two characters, its length" */
	digests = tu_text(db, "SELECT group_concat(path || '=' || coalesce(substr(sha256, 1, 2) || length(sha256),"
	                      " 'NULL'), ' ') FROM (SELECT * FROM source_file ORDER BY id)");
	ck_assert_str_eq(digests, "/t/a=aa64 /t/b=gi5 /t/c=cc64 /t/n=NULL");
	free(digests);
	ck_assert_int_eq(s->source_begin(s->arg, "/t/x", "kineto_trace", 4, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(s->source_end(s->arg, 0, NULL, 50), PROFDB_OK);
	ck_assert_int_eq(profdb__store_fill_digests(st, fake_digest, &calls), PROFDB_ERROR);
	ck_assert_str_eq(s->err->msg, "/t/x: cannot read it again for its SHA-256");
	profdb__store_abort(st);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM source_file"), 0);
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("open");
	tcase_add_test(tc, open_memory_schema);
	tcase_add_test(tc, newer_schema_refused);
	tcase_add_test(tc, not_sqlite_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("ingest");
	tcase_add_test(tc, commit_derives_repeats_and_interns);
	tcase_add_test(tc, steps_from_launches);
	tcase_add_test(tc, commit_op_device_times_and_ranks);
	tcase_add_test(tc, steps_overlapping_spans);
	tcase_add_test(tc, replace_cascades_with_keys_on);
	tcase_add_test(tc, digests_filled_after_the_reads);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
