/*
 * ingest_threads.c - on which threads the units of one run are read:
 * -j1 on this one, straight into the store; -j2 over several files on this
 * one too, beside the store's insert thread, the files' digests made apart
 * (read_beside_inserts says why); otherwise on reader threads that hand
 * their records to this one through a bounded queue (qsink.c).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "ingest_impl.h"
#include "store/qsink.h"
#include "banned.h"

#define MAX_WORKERS 64 /* slots: reader threads take 1..63, as the queue has (qsink.h) */

static void progress_relay(void *arg, uint64_t done, uint64_t total)
{
	struct profdb__progress *p = arg;
	(void)total;
	p->fn(p->arg, p->done_before + done, p->total);
}

/* Bytes on disk under path (a file, or the files of a folder, one level of
 * ASCEND_PROFILER_OUTPUT deep is enough for an estimate). */
uint64_t profdb__ingest_size_of(const char *path)
{
	struct stat sb;
	char sub[4096];
	DIR *d;
	struct dirent *e;
	uint64_t n = 0;
	if (stat(path, &sb) != 0)
		return 0;
	if (S_ISREG(sb.st_mode))
		return (uint64_t)sb.st_size;
	snprintf(sub, sizeof sub, "%s/ASCEND_PROFILER_OUTPUT", path);
	d = opendir(sub);
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char f[4400];
		snprintf(f, sizeof f, "%s/%s", sub, e->d_name);
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0 && stat(f, &sb) == 0 &&
		    S_ISREG(sb.st_mode))
			n += (uint64_t)sb.st_size;
	}
	closedir(d);
	return n;
}

/* Read every unit on this thread, straight into the store. */
static int read_serial(struct profdb__walk *w, struct profdb_sink *sink, struct profdb__progress *prog,
                       const struct profdb_limits *limits, int hash_elsewhere)
{
	int rc = PROFDB_OK;
	for (size_t i = 0; i < w->n && rc == PROFDB_OK; i++) {
		struct profdb_reader_ctx ctx = {
			.path = w->items[i].path,
			/* the n-th unit's fallback rank; readers prefer what the data says */
			.rank = w->n > 1 ? (int64_t)i : PROFDB_NULL,
			.sink = sink, .err = sink->err,
			.progress = prog->fn ? progress_relay : NULL,
			.progress_arg = prog,
			.limits = limits,
			.hash_elsewhere = hash_elsewhere,
		};
		rc = w->items[i].reader->read(&ctx);
		if (prog->fn) {
			prog->done_before += profdb__ingest_size_of(w->items[i].path);
			prog->fn(prog->arg, prog->done_before, prog->total);
		}
		if (rc != PROFDB_OK && sink->err->code == PROFDB_OK)
			profdb__err_set(sink->err, rc, "%s: read failed", w->items[i].path);
	}
	return rc;
}

/* State shared by the reader threads of one parallel ingest. */
struct pool {
	pthread_mutex_t mu;        /* guards next, done_before, slot_done */
	size_t next;               /* next unit to read */
	struct profdb__walk *w;
	struct profdb__queue *q;
	struct profdb__progress *prog;
	const struct profdb_limits *limits;
	uint64_t done_before;      /* bytes of finished units */
	uint64_t slot_done[MAX_WORKERS]; /* bytes of each worker's current unit */
};

struct worker {
	pthread_t thread;
	int slot;                  /* 1..63: its progress cell, its slot in the queue */
	struct pool *pool;
	struct profdb__qsink *qs;
	int rc;                    /* first error of this worker */
};

static void worker_progress(void *arg, uint64_t done, uint64_t total)
{
	struct worker *wk = arg;
	(void)total;
	pthread_mutex_lock(&wk->pool->mu);
	wk->pool->slot_done[wk->slot] = done;
	pthread_mutex_unlock(&wk->pool->mu);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct pool *p = wk->pool;
	struct profdb_sink *sink = profdb__qsink_sink(wk->qs);
	for (;;) {
		size_t i;
		pthread_mutex_lock(&p->mu);
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->w->n)
			break;
		struct profdb_reader_ctx ctx = {
			.path = p->w->items[i].path,
			.rank = p->w->n > 1 ? (int64_t)i : PROFDB_NULL,
			.sink = sink, .err = sink->err,
			.progress = p->prog->fn ? worker_progress : NULL,
			.progress_arg = wk,
			.limits = p->limits,
		};
		profdb__qsink_begin_unit(wk->qs, i);
		wk->rc = p->w->items[i].reader->read(&ctx);
		if (wk->rc == PROFDB_OK)
			wk->rc = profdb__qsink_end_unit(wk->qs);
		if (wk->rc != PROFDB_OK) {
			if (sink->err->code == PROFDB_OK)
				profdb__err_set(sink->err, wk->rc, "%s: read failed", ctx.path);
			profdb__queue_abort(p->q);
			break;
		}
		pthread_mutex_lock(&p->mu);
		p->done_before += profdb__ingest_size_of(ctx.path);
		p->slot_done[wk->slot] = 0;
		pthread_mutex_unlock(&p->mu);
	}
	profdb__queue_producer_done(p->q);
	return NULL;
}

static void pool_progress(void *arg)
{
	struct pool *p = arg;
	uint64_t done;
	if (!p->prog->fn)
		return;
	pthread_mutex_lock(&p->mu);
	done = p->done_before;
	for (size_t i = 0; i < MAX_WORKERS; i++)
		done += p->slot_done[i];
	pthread_mutex_unlock(&p->mu);
	p->prog->fn(p->prog->arg, done, p->prog->total);
}

/*
 * Readers on nworkers threads, this thread the only SQLite writer.  With one
 * big file this still overlaps parsing and storing; with many files they are
 * also parsed side by side, and stored one after the other in the walk's
 * order (qsink.c), as -j1 stores them.  The first error stops everything.
 */
static int read_parallel(struct profdb__walk *w, struct profdb_store *st, int nworkers,
                         struct profdb__progress *prog, const struct profdb_limits *limits, struct profdb_err *err)
{
	struct pool p = { .w = w, .prog = prog, .limits = limits };
	struct worker wk[MAX_WORKERS];
	int started = 0, rc;

	if (nworkers > (int)w->n)
		nworkers = (int)w->n;
	if (nworkers >= MAX_WORKERS)
		nworkers = MAX_WORKERS - 1;
	memset(wk, 0, sizeof wk);
	if (profdb__queue_new(&p.q, nworkers) != PROFDB_OK)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	pthread_mutex_init(&p.mu, NULL);
	for (int i = 0; i < nworkers; i++) {
		wk[i].slot = i + 1;
		wk[i].pool = &p;
		if (profdb__qsink_new(&wk[i].qs, p.q, wk[i].slot) != PROFDB_OK ||
		    pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]) != 0) {
			profdb__err_set(err, PROFDB_ERROR, "cannot start reader thread");
			profdb__queue_abort(p.q);
			/* the workers not started will never report done */
			for (int j = i; j < nworkers; j++)
				profdb__queue_producer_done(p.q);
			break;
		}
		started++;
	}
	rc = profdb__queue_drain(p.q, st, pool_progress, &p);
	if (rc != PROFDB_OK) {
		struct profdb_sink *s = profdb__store_sink(st);
		if (s->err->code != PROFDB_OK)
			*err = *s->err;
	}
	for (int i = 0; i < started; i++)
		pthread_join(wk[i].thread, NULL);
	/* a reader's own error is the cause; "ingest stopped" only follows one */
	for (int i = 0; i < started && err->code == PROFDB_OK; i++)
		if (wk[i].rc != PROFDB_OK && profdb__qsink_sink(wk[i].qs)->err->code != PROFDB_OK &&
		    strcmp(profdb__qsink_sink(wk[i].qs)->err->msg, "ingest stopped") != 0)
			*err = *profdb__qsink_sink(wk[i].qs)->err;
	for (int i = 0; i < nworkers; i++) {
		if (wk[i].rc != PROFDB_OK && rc == PROFDB_OK)
			rc = wk[i].rc;
		profdb__qsink_free(wk[i].qs);
	}
	if (rc == PROFDB_OK && err->code != PROFDB_OK)
		rc = err->code;
	pthread_mutex_destroy(&p.mu);
	profdb__queue_free(p.q);
	return rc;
}

/* The digests file_digests.c makes for w's units whose reader leaves them
 * to the caller (NULL paths for the others); NULL if none or no memory. */
static struct profdb__digests *digests_for(const struct profdb__walk *w)
{
	struct profdb__digests *g = NULL;
	const char **paths = calloc(w->n ? w->n : 1, sizeof *paths);
	size_t k = 0;
	if (!paths)
		return NULL;
	for (size_t i = 0; i < w->n; i++)
		if (w->items[i].reader->flags & PROFDB_READER_HASH_ELSEWHERE) {
			paths[i] = w->items[i].path;
			k++;
		}
	if (k && profdb__digests_new(&g, paths, w->n) != PROFDB_OK)
		g = NULL;
	free(paths);
	return g;
}

static int next_piece(void *arg)
{
	return profdb__digests_step(arg);
}

/* The files of a walk and their digests, for profdb__store_fill_digests. */
struct digest_lookup {
	const struct profdb__walk *w;
	struct profdb__digests *g;
	size_t next;               /* where the next path is looked for first */
};

static int digest_of(void *arg, const char *path, uint64_t size, char hex[65])
{
	struct digest_lookup *d = arg;
	/* the store asks in the order its rows went in, the walk's: a cursor
	 * finds each path at once */
	for (size_t k = 0; k < d->w->n; k++) {
		size_t i = (d->next + k) % d->w->n;
		if ((d->w->items[i].reader->flags & PROFDB_READER_HASH_ELSEWHERE) &&
		    strcmp(d->w->items[i].path, path) == 0) {
			d->next = i + 1;
			return profdb__digests_get(d->g, i, size, hex) == PROFDB_OK ? 0 : -1;
		}
	}
	return 1;
}

/*
 * -j2 over several files: this thread reads them one after the other, as
 * -j1 does, and the insert thread runs the INSERTs beside it.  A reader
 * thread on top would make three busy threads share the two cores, each
 * handing over to the next through a queue: ranks8 took 3-8% longer that
 * way, with ten times the context switches (bench/results.md).  This
 * thread then bounds the ingest, so the files' SHA-256 are made apart
 * (file_digests.c): by the insert thread while it waits for rows, and by
 * this one while the insert thread writes the last file's.  One file keeps
 * its reader thread: there the parse overlapping the store's passes over
 * the file is what -j2 gains.
 */
static int read_beside_inserts(profdb *db, struct profdb__walk *w, struct profdb_store *st,
                               struct profdb__progress *prog)
{
	struct profdb__digests *g = digests_for(w);
	int rc = profdb__store_async_begin(st), end;
	if (rc == PROFDB_OK && g)
		profdb__store_set_filler(st, next_piece, g);
	if (rc == PROFDB_OK)
		rc = read_serial(w, profdb__store_sink(st), prog, &db->limits, g != NULL);
	while (rc == PROFDB_OK && g && profdb__digests_step(g))
		;
	/* the INSERTs in flight go in (or fail) before anything else runs */
	end = profdb__store_async_end(st);
	if (rc == PROFDB_OK)
		rc = end;
	if (rc == PROFDB_OK && g) {
		struct digest_lookup d = { w, g, 0 };
		rc = profdb__store_fill_digests(st, digest_of, &d);
	}
	profdb__digests_free(g);
	return rc;
}

int profdb__ingest_read_units(profdb *db, struct profdb__walk *w, struct profdb_store *st, int jobs,
                              struct profdb__progress *prog, struct profdb_err *err)
{
	if (jobs == 2 && w->n > 1)
		return read_beside_inserts(db, w, st, prog);
	if (jobs > 1)
		return read_parallel(w, st, jobs - 1, prog, &db->limits, err);
	return read_serial(w, profdb__store_sink(st), prog, &db->limits, 0);
}
