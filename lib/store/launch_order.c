/*
 * launch_order.c - a file's launch rows go into their batch in
 * correlation order, through a window of the last LAUNCH_WINDOW: the one
 * with the lowest (rank, correlation) leaves when the window is full, the
 * rest when the file ends.  Ids are given as rows leave, so the launch
 * table's rowids ascend with correlation too.
 *
 * Why: launch_corr indexes (run, rank, correlation).  A trace lists each
 * host thread's launches in order, but the threads' runs interleave and a
 * few calls come far from their place (one with a late correlation early
 * in the file is enough), so nearly every entry would go inside the index
 * instead of at its end, where SQLite splits full pages in two and leaves
 * them half used.  The window gives the insert thread, the one a parallel
 * ingest waits for, most of what a full sort would, in bounded memory
 * (the sizes compared: bench/results.md).
 *
 * Memory: 64 bytes a launch, LAUNCH_WINDOW of them (1 MB) per file being
 * read.  A launch's step through its kernel is placed as it arrives
 * (store.c); nothing reads a file's launch rows before it ends or its
 * rank is fixed up, when the window is drained first.
 */
#include <stdlib.h>

#include "internal.h"
#include "store_impl.h"
#include "store_batch.h"
#include "banned.h"

#define LAUNCH_WINDOW 16384

struct profdb__launch_item {
	int64_t rank, correlation, seq; /* the order: seq is the arrival */
	int64_t tid, start_ns, dur_ns, external_id, name_id;
};

static int before(const struct profdb__launch_item *a, const struct profdb__launch_item *b)
{
	if (a->rank != b->rank)
		return a->rank < b->rank;
	if (a->correlation != b->correlation)
		return a->correlation < b->correlation;
	return a->seq < b->seq;
}

static void sift_up(struct profdb__launch_item *v, size_t i)
{
	struct profdb__launch_item x = v[i];
	while (i > 0 && before(&x, &v[(i - 1) / 2])) {
		v[i] = v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	v[i] = x;
}

static void sift_down(struct profdb__launch_item *v, size_t n, size_t i)
{
	struct profdb__launch_item x = v[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&v[c + 1], &v[c]))
			c++;
		if (!before(&v[c], &x))
			break;
		v[i] = v[c];
		i = c;
	}
	v[i] = x;
}

/* The lowest launch of the window into the batch. */
static int send_lowest(struct profdb_store *st, struct profdb__launch_window *w)
{
	struct profdb__launch_item it = w->v[0];
	struct profdb_launch_rec l = { .rank = it.rank, .correlation = it.correlation, .tid = it.tid,
	                               .start_ns = it.start_ns, .dur_ns = it.dur_ns,
	                               .external_id = it.external_id };
	w->v[0] = w->v[--w->n];
	if (w->n)
		sift_down(w->v, w->n, 0);
	return profdb__store_launch_row(st, &l, it.name_id);
}

int profdb__launches_add(struct profdb_store *st, const struct profdb_launch_rec *l)
{
	struct profdb__launch_window *w = &st->src.lwin;
	int64_t name_id = 0;
	if (l->name && !(name_id = profdb__intern(st->str, l->name)))
		return st->err.code;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 1024;
		struct profdb__launch_item *v;
		if (cap > LAUNCH_WINDOW + 1) /* one over: it comes in before the lowest goes */
			cap = LAUNCH_WINDOW + 1;
		v = realloc(w->v, cap * sizeof *v);
		if (!v)
			return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
		w->v = v;
		w->cap = cap;
	}
	w->v[w->n] = (struct profdb__launch_item){ .rank = l->rank, .correlation = l->correlation,
	                                           .seq = w->seq++, .tid = l->tid, .start_ns = l->start_ns,
	                                           .dur_ns = l->dur_ns, .external_id = l->external_id,
	                                           .name_id = name_id };
	sift_up(w->v, w->n++);
	return w->n > LAUNCH_WINDOW ? send_lowest(st, w) : PROFDB_OK;
}

int profdb__launches_drain(struct profdb_store *st)
{
	struct profdb__launch_window *w = &st->src.lwin;
	int rc = PROFDB_OK;
	/* the window in one set of the batch (2.4 MB at most), which the
	 * caller sends on: a set at a time, the store's thread waited for the
	 * insert thread to take each one, at the end of the first file too,
	 * where nothing else can go on.  Not for a file whose ops went in as
	 * they closed (past ops_held_bytes): its memory peaks at its end, and
	 * the set would add to it (the 1 GB trace's limit, doc/limits.md) */
	if (!st->src.opn.hold_off)
		profdb__batch_hold_rows(st->launches, profdb__batch_pending(st->launches) + w->n);
	profdb__store_window(st, 1); /* full sets to the flusher, when there is one */
	while (w->n && rc == PROFDB_OK)
		rc = send_lowest(st, w);
	profdb__store_window(st, 0);
	profdb__batch_hold(st->launches, 0);
	w->seq = 0;
	return rc;
}

void profdb__launch_window_free(struct profdb__launch_window *w)
{
	free(w->v);
	*w = (struct profdb__launch_window){ 0 };
}
