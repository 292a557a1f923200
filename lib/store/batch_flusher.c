/*
 * batch_flusher.c - full batches inserted on a thread of their own
 * (batch_flusher.h says why and what the caller must keep to).
 *
 * A FIFO of batches, each at most once in it (a batch has one buffer in
 * flight, store_batch.c), so FLUSH_QUEUE_MAX bounds it.  The first error
 * stops the flushing: the batches after it are dropped, and every sync
 * returns it, as the ingest is rolled back anyway.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"
#include "batch_flusher.h"
#include "store_batch.h"
#include "banned.h"

#define FLUSH_QUEUE_MAX 16 /* more than the store's batches */

struct profdb__flusher {
	sqlite3 *db;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	struct profdb__batch *queue[FLUSH_QUEUE_MAX]; /* ring */
	size_t head, n;
	struct profdb__batch *running;  /* taken off the queue, being inserted */
	int stop;
	int window;                /* full batches go to the flusher (batch_flusher.h) */
	int rc;                    /* first error, SQLITE_OK if none */
	atomic_int outstanding;    /* batches submitted and not yet inserted */
	atomic_int misuse;         /* a statement ran on another thread meanwhile */
};

static void *flusher_main(void *arg)
{
	struct profdb__flusher *f = arg;
	pthread_mutex_lock(&f->mu);
	for (;;) {
		struct profdb__batch *b;
		int rc = SQLITE_OK, skip;
		while (!f->n && !f->stop)
			pthread_cond_wait(&f->work, &f->mu);
		if (!f->n)
			break;
		b = f->queue[f->head];
		f->head = (f->head + 1) % FLUSH_QUEUE_MAX;
		f->n--;
		f->running = b;
		skip = f->rc != SQLITE_OK;
		pthread_mutex_unlock(&f->mu);
		if (skip)
			profdb__batch_drop_flight(b);
		else
			rc = profdb__batch_insert_flight(b);
		pthread_mutex_lock(&f->mu);
		if (f->rc == SQLITE_OK)
			f->rc = rc;
		f->running = NULL;
		atomic_fetch_sub(&f->outstanding, 1);
		pthread_cond_broadcast(&f->idle);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

/* SQLITE_TRACE_STMT: a statement starts.  On any thread but the flusher's
 * while a batch is in flight, that is two threads on a NOMUTEX connection:
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

/* The error to report: a flush's, else a misuse caught by guard. */
static int result(struct profdb__flusher *f)
{
	if (f->rc == SQLITE_OK && atomic_load(&f->misuse))
		f->rc = SQLITE_MISUSE;
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

void profdb__flusher_window(struct profdb__flusher *f, int open)
{
	f->window = open;
}

int profdb__flusher_window_open(const struct profdb__flusher *f)
{
	return f->window;
}

int profdb__flusher_submit(struct profdb__flusher *f, struct profdb__batch *b)
{
	int rc;
	pthread_mutex_lock(&f->mu);
	rc = result(f);
	if (rc == SQLITE_OK && f->n == FLUSH_QUEUE_MAX)
		rc = SQLITE_INTERNAL; /* cannot happen: each batch is in it once */
	if (rc == SQLITE_OK) {
		f->queue[(f->head + f->n) % FLUSH_QUEUE_MAX] = b;
		f->n++;
		atomic_fetch_add(&f->outstanding, 1);
		pthread_cond_signal(&f->work);
	}
	pthread_mutex_unlock(&f->mu);
	return rc;
}

static int in_flight(const struct profdb__flusher *f, const struct profdb__batch *b)
{
	if (f->running == b)
		return 1;
	for (size_t i = 0; i < f->n; i++)
		if (f->queue[(f->head + i) % FLUSH_QUEUE_MAX] == b)
			return 1;
	return 0;
}

int profdb__flusher_wait(struct profdb__flusher *f, const struct profdb__batch *b)
{
	int rc;
	pthread_mutex_lock(&f->mu);
	while (in_flight(f, b))
		pthread_cond_wait(&f->idle, &f->mu);
	rc = result(f);
	pthread_mutex_unlock(&f->mu);
	return rc;
}

int profdb__flusher_sync(struct profdb__flusher *f)
{
	int rc;
	pthread_mutex_lock(&f->mu);
	while (f->n || f->running)
		pthread_cond_wait(&f->idle, &f->mu);
	rc = result(f);
	pthread_mutex_unlock(&f->mu);
	return rc;
}
