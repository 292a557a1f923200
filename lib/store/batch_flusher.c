/*
 * batch_flusher.c - the store's writes on a thread of their own
 * (batch_flusher.h says why and what the caller must keep to).
 *
 * Two FIFOs of jobs, linked through the jobs themselves: full batches
 * first, the rest (a file's op rows, statements) when no batch waits, a
 * chunk at a time.  So the store's thread, filling the next file's
 * batches, never waits behind the last file's op rows; the order within
 * each queue is kept, and no row of one queue refers to a row of the
 * other.  The first error stops the writing: the jobs after it are
 * dropped, and every sync returns it, as the ingest is rolled back anyway.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "internal.h"
#include "batch_flusher.h"
#include "banned.h"

struct profdb__flusher {
	sqlite3 *db;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	struct queue { struct profdb__flush_job *head, *tail; } q[2]; /* urgent, then the rest */
	struct profdb__flush_job *running;     /* being run, off its queue */
	int stop;
	int (*fill)(void *arg);    /* work for idle moments (profdb__flusher_set_filler) */
	void *fill_arg;
	int window;                /* full batches go to the flusher (batch_flusher.h) */
	int rc;                    /* first error, SQLITE_OK if none */
	char msg[512];             /* its message */
	atomic_int outstanding;    /* jobs submitted and not yet run */
	atomic_int misuse;         /* a statement ran on another thread meanwhile */
};

/* Run (or drop, after an error) one job; mu is not held. */
static int run_one(struct profdb__flusher *f, struct profdb__flush_job *job, int skip)
{
	const char *what = job->what;
	int rc;
	if (skip) {
		if (job->drop)
			job->drop(job);
		return SQLITE_OK;
	}
	/* job may be freed by its run: what was read before */
	if ((rc = job->run(job)) != SQLITE_OK && rc != PROFDB__FLUSH_AGAIN)
		snprintf(f->msg, sizeof f->msg, "storing %s: %s", what, sqlite3_errmsg(f->db));
	return rc;
}

static int idle(const struct profdb__flusher *f)
{
	return !f->q[0].head && !f->q[1].head && !f->running;
}

static void push(struct queue *q, struct profdb__flush_job *job)
{
	job->next = NULL;
	if (q->tail)
		q->tail->next = job;
	else
		q->head = job;
	q->tail = job;
}

static void pop(struct queue *q)
{
	q->head = q->head->next;
	if (!q->head)
		q->tail = NULL;
}

static void *flusher_main(void *arg)
{
	struct profdb__flusher *f = arg;
#ifdef __linux__
	/* named, so that top -H, perf and bench/thread_cpu.c can tell it */
	prctl(PR_SET_NAME, "profdb-insert", 0, 0, 0);
#endif
	pthread_mutex_lock(&f->mu);
	for (;;) {
		struct queue *q;
		struct profdb__flush_job *job;
		int rc, skip;
		while (!f->q[0].head && !f->q[1].head && !f->stop) {
			int (*fill)(void *) = f->fill;
			void *fill_arg = f->fill_arg;
			/* a piece at a time, mu released: a job handed over
			 * meanwhile waits one piece at most */
			if (fill) {
				int more;
				pthread_mutex_unlock(&f->mu);
				more = fill(fill_arg);
				pthread_mutex_lock(&f->mu);
				if (!more && f->fill == fill && f->fill_arg == fill_arg)
					f->fill = NULL; /* done, unless replaced meanwhile */
				continue;
			}
			pthread_cond_wait(&f->work, &f->mu);
		}
		q = f->q[0].head ? &f->q[0] : &f->q[1];
		if (!q->head)
			break;
		/* off the queue while it runs: a job may free itself when done */
		job = f->running = q->head;
		pop(q);
		skip = f->rc != SQLITE_OK;
		pthread_mutex_unlock(&f->mu);
		rc = run_one(f, job, skip);
		pthread_mutex_lock(&f->mu);
		f->running = NULL;
		if (rc == PROFDB__FLUSH_AGAIN) { /* a chunk done: back at the head */
			job->next = q->head;
			q->head = job;
			if (!q->tail)
				q->tail = job;
			continue;
		}
		if (f->rc == SQLITE_OK)
			f->rc = rc;
		atomic_fetch_sub(&f->outstanding, 1);
		pthread_cond_broadcast(&f->idle);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

/* SQLITE_TRACE_STMT: a statement starts.  On any thread but the flusher's
 * while a job is in flight, that is two threads on a NOMUTEX connection:
 * noted, and reported by the next sync. */
static int guard(unsigned type, void *arg, void *p, void *x)
{
	struct profdb__flusher *f = arg;
	(void)type;
	(void)p;
	(void)x;
	if (atomic_load(&f->outstanding) > 0 && !pthread_equal(pthread_self(), f->thread))
		atomic_store(&f->misuse, 1);
	return 0;
}

int profdb__flusher_start(struct profdb__flusher **out, sqlite3 *db)
{
	struct profdb__flusher *f = calloc(1, sizeof *f);
	*out = NULL;
	if (!f)
		return SQLITE_NOMEM;
	f->db = db;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->work, NULL);
	pthread_cond_init(&f->idle, NULL);
	atomic_init(&f->outstanding, 0);
	atomic_init(&f->misuse, 0);
	if (pthread_create(&f->thread, NULL, flusher_main, f) != 0) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->work);
		pthread_cond_destroy(&f->idle);
		free(f);
		return SQLITE_ERROR;
	}
	sqlite3_trace_v2(db, SQLITE_TRACE_STMT, guard, f);
	*out = f;
	return SQLITE_OK;
}

/* The error to report: a job's, else a misuse caught by guard.  mu held. */
static int result(struct profdb__flusher *f)
{
	if (f->rc == SQLITE_OK && atomic_load(&f->misuse)) {
		f->rc = SQLITE_MISUSE;
		snprintf(f->msg, sizeof f->msg, "internal error: the store used the database while a write"
		         " was running on the insert thread");
	}
	return f->rc;
}

int profdb__flusher_stop(struct profdb__flusher *f)
{
	int rc;
	if (!f)
		return SQLITE_OK;
	pthread_mutex_lock(&f->mu);
	f->stop = 1;
	pthread_cond_signal(&f->work);
	pthread_mutex_unlock(&f->mu);
	pthread_join(f->thread, NULL);
	sqlite3_trace_v2(f->db, 0, NULL, NULL);
	rc = result(f);
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->work);
	pthread_cond_destroy(&f->idle);
	free(f);
	return rc;
}

void profdb__flusher_set_filler(struct profdb__flusher *f, int (*fill)(void *arg), void *arg)
{
	pthread_mutex_lock(&f->mu);
	f->fill = fill;
	f->fill_arg = arg;
	pthread_cond_signal(&f->work);
	pthread_mutex_unlock(&f->mu);
}

void profdb__flusher_window(struct profdb__flusher *f, int open)
{
	f->window = open;
}

int profdb__flusher_window_open(const struct profdb__flusher *f)
{
	return f->window;
}

const char *profdb__flusher_errmsg(const struct profdb__flusher *f)
{
	return f->msg;
}

int profdb__flusher_submit(struct profdb__flusher *f, struct profdb__flush_job *job)
{
	int rc;
	pthread_mutex_lock(&f->mu);
	rc = result(f);
	if (rc == SQLITE_OK) {
		push(&f->q[job->urgent ? 0 : 1], job);
		atomic_fetch_add(&f->outstanding, 1);
		pthread_cond_signal(&f->work);
	}
	pthread_mutex_unlock(&f->mu);
	if (rc != SQLITE_OK && job->drop)
		job->drop(job);
	return rc;
}

static int in_flight(const struct profdb__flusher *f, const struct profdb__flush_job *job)
{
	if (f->running == job)
		return 1;
	for (int i = 0; i < 2; i++)
		for (const struct profdb__flush_job *j = f->q[i].head; j; j = j->next)
			if (j == job)
				return 1;
	return 0;
}

int profdb__flusher_wait(struct profdb__flusher *f, const struct profdb__flush_job *job)
{
	int rc;
	pthread_mutex_lock(&f->mu);
	while (in_flight(f, job))
		pthread_cond_wait(&f->idle, &f->mu);
	rc = result(f);
	pthread_mutex_unlock(&f->mu);
	return rc;
}

int profdb__flusher_sync(struct profdb__flusher *f)
{
	int rc;
	pthread_mutex_lock(&f->mu);
	while (!idle(f))
		pthread_cond_wait(&f->idle, &f->mu);
	rc = result(f);
	pthread_mutex_unlock(&f->mu);
	return rc;
}
