/*
 * query_launches_stream.c - profdb launches --by stream (query_launches.c
 * has the command and the other views): per stream, the queue (kernels
 * launched and not yet finished) over the stream's window, first launch
 * to last end (time-weighted mean, maximum, % of the window with at least
 * one), and the start delays' median and maximum (doc/analyses.md
 * "launches").  One scan of the stream's launched activities in launch
 * order: the join of kernels to their launch calls is the cost, so it is
 * made once; what is held is the queue itself (a heap of the ends of the
 * activities launched and unfinished) and one stream's delays for the
 * median (8 bytes an activity).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "analyses.h"
#include "util/stats.h"
#include "banned.h"

enum { S_RUN_ID, S_RUN, S_RANK, S_STREAM, S_KERNELS, S_QMEAN, S_QMAX, S_QPCT, S_DMED, S_DMAX, S_COUNT };
static const char *const stream_cols[S_COUNT] = {
	"run_id", "run", "rank", "stream", "kernels", "queue_mean", "queue_max", "queued_pct",
	"start_delay_median", "start_delay_max"
};
static const enum profdb_coltype stream_types[S_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_REAL,
	PROFDB_COL_INT, PROFDB_COL_PCT, PROFDB_COL_NS, PROFDB_COL_NS
};

/*
 * The queue of one stream as a step function walked event by event: +1 at
 * a launch, -1 at an end.  At one time the ends come first (a kernel
 * ending at t and one launched at t never coexist), those of activities
 * launched at that very time (zero length) too, so the launches of one
 * time are gathered (batch) before they count.
 */
struct queue {
	int64_t q, qmax, area, some, t0, prev;
	int any;
	int64_t *ends;             /* min-heap: ends of the launched and unfinished */
	size_t nends, cap;
	int64_t bt;                /* the batch's launch time */
	int64_t bm, bz;            /* its launches; those ending at bt */
};

/* One event at t: the time since the last one weighted by the queue before it. */
static void queue_at(struct queue *u, int64_t t)
{
	if (u->any) {
		u->area += u->q * (t - u->prev);
		u->some += u->q > 0 ? t - u->prev : 0;
	} else {
		u->t0 = t, u->any = 1;
	}
	u->prev = t;
}

static void heap_down(int64_t *h, size_t n)
{
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		int64_t t;
		if (l < n && h[l] < h[m])
			m = l;
		if (l + 1 < n && h[l + 1] < h[m])
			m = l + 1;
		if (m == i)
			return;
		t = h[i], h[i] = h[m], h[m] = t;
		i = m;
	}
}

static int heap_push(struct queue *u, int64_t e)
{
	size_t i;
	if (u->nends == u->cap) {
		size_t cap = u->cap ? 2 * u->cap : 64;
		int64_t *h = realloc(u->ends, cap * sizeof *h);
		if (!h)
			return PROFDB_ERROR;
		u->ends = h;
		u->cap = cap;
	}
	for (i = u->nends++; i > 0 && u->ends[(i - 1) / 2] > e; i = (i - 1) / 2)
		u->ends[i] = u->ends[(i - 1) / 2];
	u->ends[i] = e;
	return PROFDB_OK;
}

/* The ends up to t (all: INT64_MAX), in end order. */
static void queue_ends(struct queue *u, int64_t t)
{
	while (u->nends && u->ends[0] <= t) {
		queue_at(u, u->ends[0]);
		u->q--;
		u->ends[0] = u->ends[--u->nends];
		heap_down(u->ends, u->nends);
	}
}

/* The batch's launches: their own zero-length ends first, then each +1. */
static void queue_batch(struct queue *u)
{
	if (u->bm == 0)
		return;
	queue_at(u, u->bt);
	u->q += u->bm - u->bz;
	u->qmax = u->q > u->qmax ? u->q : u->qmax;
	u->bm = u->bz = 0;
}

/* An activity launched at ls that ends at ke (launch order).  One that
 * ends before its launch is no queue entry. */
static int queue_launch(struct queue *u, int64_t ls, int64_t ke)
{
	if (ke < ls)
		return PROFDB_OK;
	if (u->bm && ls != u->bt)
		queue_batch(u);
	if (u->bm == 0) {
		queue_ends(u, ls);
		u->bt = ls;
	}
	u->bm++;
	if (ke == ls) {
		u->bz++;
		return PROFDB_OK;
	}
	return heap_push(u, ke);
}

/* The stream being read: its key, delays and queue. */
struct sstream {
	profdb *db;
	struct profdb__spool sp;
	sqlite3_stmt *run_name;
	int64_t run, rank, stream;   /* stream INT64_MIN: none */
	int64_t n, dmax;
	double *d;                 /* the start delays */
	size_t dcap;
	struct queue u;
	struct profdb__launch_counts *counts;
};

static const char *run_text(struct sstream *s)
{
	const char *t;
	sqlite3_reset(s->run_name);
	sqlite3_bind_int64(s->run_name, 1, s->run);
	t = sqlite3_step(s->run_name) == SQLITE_ROW ? (const char *)sqlite3_column_text(s->run_name, 0) : NULL;
	return t ? t : "";
}

/* The row of the stream read, spooled; the stream emptied. */
static int stream_put(struct sstream *s)
{
	profdb_result *r = s->sp.row;
	struct queue *u = &s->u;
	int rc = 0;

	queue_batch(u);
	queue_ends(u, INT64_MAX);
	profdb__sort_doubles(s->d, (size_t)s->n);
	rc |= profdb__result_set_int(r, 0, S_RUN_ID, s->run);
	rc |= profdb__result_set_text(r, 0, S_RUN, run_text(s));
	rc |= profdb__result_set_int(r, 0, S_RANK, s->rank);
	if (s->stream != INT64_MIN)
		rc |= profdb__result_set_int(r, 0, S_STREAM, s->stream);
	rc |= profdb__result_set_int(r, 0, S_KERNELS, s->n);
	rc |= profdb__result_set_int(r, 0, S_QMAX, u->qmax);
	if (u->prev > u->t0) {
		rc |= profdb__result_set_double(r, 0, S_QMEAN, (double)u->area / (double)(u->prev - u->t0));
		rc |= profdb__result_set_double(r, 0, S_QPCT, 100.0 * (double)u->some / (double)(u->prev - u->t0));
	}
	rc |= profdb__result_set_double(r, 0, S_DMED, profdb__percentile_sorted(s->d, (size_t)s->n, 50));
	rc |= profdb__result_set_int(r, 0, S_DMAX, s->dmax);
	if (rc)
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	s->counts->linked += s->n;
	s->n = 0;
	memset(u, 0, offsetof(struct queue, ends));
	u->nends = u->bm = u->bz = 0;
	return profdb__spool_put(&s->sp);
}

/* One row of the scan (run, rank, stream, ls, ks, ke) into the stream. */
static int stream_row(struct sstream *s, sqlite3_stmt *st)
{
	int64_t run = sqlite3_column_int64(st, 0), rank = sqlite3_column_int64(st, 1);
	int64_t stream = sqlite3_column_type(st, 2) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(st, 2);
	int64_t ls = sqlite3_column_int64(st, 3), ks = sqlite3_column_int64(st, 4), ke = sqlite3_column_int64(st, 5);
	int rc;

	if (s->n && (run != s->run || rank != s->rank || stream != s->stream) && (rc = stream_put(s)) != PROFDB_OK)
		return rc;
	s->run = run, s->rank = rank, s->stream = stream;
	if ((size_t)s->n == s->dcap) {
		size_t cap = s->dcap ? 2 * s->dcap : 1024;
		double *d = realloc(s->d, cap * sizeof *d);
		if (!d)
			return profdb__error(s->db, PROFDB_ERROR, "out of memory");
		s->d = d;
		s->dcap = cap;
	}
	s->d[s->n] = (double)(ks - ls);
	s->dmax = s->n == 0 || ks - ls > s->dmax ? ks - ls : s->dmax;
	s->n++;
	s->counts->calls++;
	s->counts->negative += ks < ls;
	if (queue_launch(&s->u, ls, ke) != PROFDB_OK)
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

int profdb__launches_by_stream(profdb *db, profdb_result **out, const struct profdb_filter *f,
                               struct profdb__launch_counts *counts)
{
	struct profdb__qbuf b = { 0 };
	struct sstream s = { .db = db, .counts = counts };
	sqlite3_stmt *st = NULL;
	uint64_t drop = ((uint64_t)1 << S_RUN_ID) | (profdb__qfilter_run_column(f) ? 0 : (uint64_t)1 << S_RUN);
	int rc = profdb__spool_open(db, &s.sp, stream_cols, stream_types, S_COUNT), step = SQLITE_DONE;

	*out = NULL;
	if (rc == PROFDB_OK && sqlite3_prepare_v2(db->sql, "SELECT name FROM run WHERE id = ?1", -1, &s.run_name,
	                                          NULL) != SQLITE_OK)
		rc = profdb__sqlerror(db, "cannot read names");
	if (rc == PROFDB_OK) {
		profdb__launch_acts_sql(&b, f);
		profdb__qbuf_add(&b, "SELECT run_id, rank, stream, ls, ks, ke FROM d ORDER BY run_id, rank, stream, ls");
		rc = profdb__query_prepare(db, &b, &st, "cannot read launches");
		profdb__qbuf_free(&b);
	}
	if (rc == PROFDB_OK) {
		profdb__qfilter_bind(st, f);
		while (rc == PROFDB_OK && (step = sqlite3_step(st)) == SQLITE_ROW)
			rc = stream_row(&s, st);
		if (rc == PROFDB_OK && step != SQLITE_DONE)
			rc = profdb__sqlerror(db, "cannot read launches");
		if (rc == PROFDB_OK && s.n)
			rc = stream_put(&s);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(s.run_name);
	if (rc == PROFDB_OK)
		rc = profdb__spool_answer(&s.sp, out, drop, "rowid");
	profdb__spool_close(&s.sp);
	free(s.d);
	free(s.u.ends);
	return rc;
}
