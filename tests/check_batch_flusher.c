/*
 * check_batch_flusher.c - the store's insert thread (batch_flusher.c): jobs
 * run in their order, full batches (urgent) before the rest, a job that
 * asks to run again lets an urgent one in between; the first error drops
 * the jobs after it and every sync returns it; a statement the submitting
 * thread starts while a job is in flight is caught; the filler runs in the
 * idle moments until it says it is done, never ahead of a job.  Each job appends its
 * own number to a table, so the order is read back from the rowids.
 */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/batch_flusher.h"
#include "testutil.h"

struct num_job {
	struct profdb__flush_job job; /* first */
	sqlite3 *db;
	int num, again;            /* runs left before it is done */
	int dropped;
	/* a gate: the job waits until the test opens it */
	pthread_mutex_t *mu;
	pthread_cond_t *cv;
	int *open, *started;
};

static int append(sqlite3 *db, const char *sql, int num)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int(q, 1, num);
		rc = sqlite3_step(q) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
	}
	sqlite3_finalize(q);
	return rc;
}

static int num_run(struct profdb__flush_job *job)
{
	struct num_job *j = (struct num_job *)job;
	if (j->mu) {
		pthread_mutex_lock(j->mu);
		*j->started = 1;
		pthread_cond_broadcast(j->cv);
		while (!*j->open)
			pthread_cond_wait(j->cv, j->mu);
		pthread_mutex_unlock(j->mu);
	}
	if (append(j->db, "INSERT INTO t(n) VALUES (?1)", j->num) != SQLITE_OK)
		return sqlite3_errcode(j->db);
	if (j->again > 0) {
		j->again--;
		return PROFDB__FLUSH_AGAIN;
	}
	return SQLITE_OK;
}

static int bad_run(struct profdb__flush_job *job)
{
	struct num_job *j = (struct num_job *)job;
	return append(j->db, "INSERT INTO missing(n) VALUES (?1)", j->num);
}

static void num_drop(struct profdb__flush_job *job)
{
	((struct num_job *)job)->dropped = 1;
}

static sqlite3 *open_db(void)
{
	sqlite3 *db = NULL;
	ck_assert_int_eq(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
	                                 SQLITE_OPEN_NOMUTEX, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(n INTEGER)", NULL, NULL, NULL), SQLITE_OK);
	return db;
}

static struct num_job job_of(sqlite3 *db, int num, int urgent)
{
	struct num_job j;
	memset(&j, 0, sizeof j);
	j.job = (struct profdb__flush_job){ .run = num_run, .drop = num_drop, .what = "t", .urgent = urgent };
	j.db = db;
	j.num = num;
	return j;
}

/* The numbers in t, in rowid order, as "a b c". */
static void order_of(sqlite3 *db, char *out, size_t cap)
{
	sqlite3_stmt *q = NULL;
	size_t off = 0;
	out[0] = 0;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT n FROM t ORDER BY rowid", -1, &q, NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW)
		off += (size_t)snprintf(out + off, cap - off, "%s%d", off ? " " : "", sqlite3_column_int(q, 0));
	sqlite3_finalize(q);
}

/* A gate shared by a blocking job and the test. */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int open, started;
};

static void gate_init(struct gate *g, struct num_job *j)
{
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->open = g->started = 0;
	j->mu = &g->mu;
	j->cv = &g->cv;
	j->open = &g->open;
	j->started = &g->started;
}

static void gate_wait_started(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	while (!g->started)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->open = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* While job 1 holds the thread, 2 and 3 (not urgent) and 4 and 5 (urgent)
 * queue: 4 and 5 run first, each queue in its own order. */
START_TEST(urgent_first_each_in_order)
{
	sqlite3 *db = open_db();
	struct profdb__flusher *f = NULL;
	struct num_job j[5];
	struct gate g;
	char order[64];
	for (int i = 0; i < 5; i++)
		j[i] = job_of(db, i + 1, i >= 3);
	gate_init(&g, &j[0]);
	ck_assert_int_eq(profdb__flusher_start(&f, db), SQLITE_OK);
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(profdb__flusher_submit(f, &j[i].job), SQLITE_OK);
		if (i == 0)
			gate_wait_started(&g);
	}
	gate_open(&g);
	ck_assert_int_eq(profdb__flusher_wait(f, &j[4].job), SQLITE_OK);
	ck_assert_int_eq(profdb__flusher_sync(f), SQLITE_OK);
	order_of(db, order, sizeof order);
	ck_assert_str_eq(order, "1 4 5 2 3");
	ck_assert_int_eq(profdb__flusher_stop(f), SQLITE_OK);
	sqlite3_close(db);
}
END_TEST

/* A job that runs three times lets the urgent job queued during its first
 * part in before its second. */
START_TEST(again_lets_urgent_in)
{
	sqlite3 *db = open_db();
	struct profdb__flusher *f = NULL;
	struct num_job parts = job_of(db, 2, 0), urgent = job_of(db, 3, 1);
	struct gate g;
	char order[64];
	parts.again = 2;
	gate_init(&g, &parts); /* its first part waits at the gate */
	ck_assert_int_eq(profdb__flusher_start(&f, db), SQLITE_OK);
	ck_assert_int_eq(profdb__flusher_submit(f, &parts.job), SQLITE_OK);
	gate_wait_started(&g);
	ck_assert_int_eq(profdb__flusher_submit(f, &urgent.job), SQLITE_OK);
	gate_open(&g);
	ck_assert_int_eq(profdb__flusher_sync(f), SQLITE_OK);
	order_of(db, order, sizeof order);
	ck_assert_str_eq(order, "2 3 2 2");
	ck_assert_int_eq(profdb__flusher_stop(f), SQLITE_OK);
	sqlite3_close(db);
}
END_TEST

/* The first error: the jobs after it are dropped, not run; sync, wait,
 * submit and stop all return it, with the job's name in the message. */
START_TEST(first_error_drops_the_rest)
{
	sqlite3 *db = open_db();
	struct profdb__flusher *f = NULL;
	struct num_job ok = job_of(db, 1, 0), bad = job_of(db, 2, 0), after = job_of(db, 3, 0),
	               later = job_of(db, 4, 1);
	struct gate g;
	char order[64];
	bad.job.run = bad_run;
	bad.job.what = "missing";
	gate_init(&g, &ok);
	ck_assert_int_eq(profdb__flusher_start(&f, db), SQLITE_OK);
	ck_assert_int_eq(profdb__flusher_submit(f, &ok.job), SQLITE_OK);
	gate_wait_started(&g);
	ck_assert_int_eq(profdb__flusher_submit(f, &bad.job), SQLITE_OK);
	ck_assert_int_eq(profdb__flusher_submit(f, &after.job), SQLITE_OK);
	gate_open(&g);
	ck_assert_int_eq(profdb__flusher_sync(f), SQLITE_ERROR);
	ck_assert(strncmp(profdb__flusher_errmsg(f), "storing missing: no such table", 30) == 0);
	ck_assert_int_eq(after.dropped, 1);
	ck_assert_int_eq(profdb__flusher_submit(f, &later.job), SQLITE_ERROR);
	ck_assert_int_eq(later.dropped, 1);
	order_of(db, order, sizeof order);
	ck_assert_str_eq(order, "1");
	ck_assert_int_eq(profdb__flusher_stop(f), SQLITE_ERROR);
	sqlite3_close(db);
}
END_TEST

/* A statement started on the submitting thread while a job is in flight
 * (two threads on a NOMUTEX connection) fails the next sync. */
START_TEST(statement_during_a_job_caught)
{
	sqlite3 *db = open_db();
	struct profdb__flusher *f = NULL;
	struct num_job slow = job_of(db, 1, 0);
	struct gate g;
	gate_init(&g, &slow);
	ck_assert_int_eq(profdb__flusher_start(&f, db), SQLITE_OK);
	/* after a sync the connection is the caller's: no misuse */
	ck_assert_int_eq(sqlite3_exec(db, "SELECT 1", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(profdb__flusher_sync(f), SQLITE_OK);
	ck_assert_int_eq(profdb__flusher_submit(f, &slow.job), SQLITE_OK);
	gate_wait_started(&g);
	/* the job waits at its gate, before its own statement: this one
	 * runs alone, only its start is wrong */
	ck_assert_int_eq(sqlite3_exec(db, "SELECT 1", NULL, NULL, NULL), SQLITE_OK);
	gate_open(&g);
	ck_assert_int_eq(profdb__flusher_sync(f), SQLITE_MISUSE);
	ck_assert(strstr(profdb__flusher_errmsg(f), "internal error") != NULL);
	ck_assert_int_eq(profdb__flusher_stop(f), SQLITE_MISUSE);
	sqlite3_close(db);
}
END_TEST

/* A filler: counts its pieces, done after limit (0: never done); its
 * first piece waits at a gate, so that jobs queue behind it. */
struct counter {
	pthread_mutex_t mu;
	long pieces, limit;
	struct gate *gate;
};

static int count_piece(void *arg)
{
	struct counter *c = arg;
	long n;
	if (c->gate) {
		struct gate *g = c->gate;
		pthread_mutex_lock(&g->mu);
		g->started = 1;
		pthread_cond_broadcast(&g->cv);
		while (!g->open)
			pthread_cond_wait(&g->cv, &g->mu);
		pthread_mutex_unlock(&g->mu);
		c->gate = NULL;
	}
	pthread_mutex_lock(&c->mu);
	n = ++c->pieces;
	pthread_mutex_unlock(&c->mu);
	return c->limit == 0 || n < c->limit;
}

static long pieces_of(struct counter *c)
{
	long n;
	pthread_mutex_lock(&c->mu);
	n = c->pieces;
	pthread_mutex_unlock(&c->mu);
	return n;
}

/* A filler of 1000 pieces runs to its end in the idle flusher, and no piece
 * after it said it was done. */
START_TEST(filler_runs_until_done)
{
	sqlite3 *db = open_db();
	struct profdb__flusher *f = NULL;
	struct counter c = { .limit = 1000 };
	pthread_mutex_init(&c.mu, NULL);
	ck_assert_int_eq(profdb__flusher_start(&f, db), SQLITE_OK);
	profdb__flusher_set_filler(f, count_piece, &c);
	while (pieces_of(&c) < 1000)
		sched_yield();
	ck_assert_int_eq(profdb__flusher_sync(f), SQLITE_OK);
	ck_assert_int_eq(profdb__flusher_stop(f), SQLITE_OK);
	ck_assert_int_eq(c.pieces, 1000);
	sqlite3_close(db);
}
END_TEST

/* A filler that is never done: jobs submitted while a piece runs go in
 * after that piece, in their order, and stop ends it. */
START_TEST(filler_never_ahead_of_jobs)
{
	sqlite3 *db = open_db();
	struct profdb__flusher *f = NULL;
	struct gate g;
	struct num_job j[3];
	struct counter c = { .limit = 0, .gate = &g };
	char order[64];
	long at_sync;
	pthread_mutex_init(&c.mu, NULL);
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.cv, NULL);
	g.open = g.started = 0;
	for (int i = 0; i < 3; i++)
		j[i] = job_of(db, i + 1, i == 2);
	ck_assert_int_eq(profdb__flusher_start(&f, db), SQLITE_OK);
	profdb__flusher_set_filler(f, count_piece, &c);
	gate_wait_started(&g);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(profdb__flusher_submit(f, &j[i].job), SQLITE_OK);
	gate_open(&g);
	ck_assert_int_eq(profdb__flusher_sync(f), SQLITE_OK);
	order_of(db, order, sizeof order);
	ck_assert_str_eq(order, "3 1 2");
	at_sync = pieces_of(&c);
	while (pieces_of(&c) < at_sync + 100) /* idle again: it goes on */
		sched_yield();
	ck_assert_int_eq(profdb__flusher_stop(f), SQLITE_OK); /* ends it: no hang */
	sqlite3_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("batch_flusher");
	TCase *tc = tcase_create("jobs");
	tcase_add_test(tc, urgent_first_each_in_order);
	tcase_add_test(tc, again_lets_urgent_in);
	tcase_add_test(tc, first_error_drops_the_rest);
	tcase_add_test(tc, statement_during_a_job_caught);
	tcase_add_test(tc, filler_runs_until_done);
	tcase_add_test(tc, filler_never_ahead_of_jobs);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
