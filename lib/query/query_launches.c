/*
 * query_launches.c - profdb launches: launch latency and queueing from the
 * launch table (Kineto runtime calls, joined to device activities by
 * correlation id on the same run and rank).  Only the calls that launch
 * (launch_class.c) count: those of one kernel, copy or set in the delay
 * and queue figures, graph launches and blocking copies in rows of their
 * own (by name) and a note (the other views).
 *
 *  - by name (and one "(all)" row per run): the host launch call's duration
 *    and the delay from the launch call's start to the device start, with
 *    exact median / p90 / p99 (stats.c), and how many delays are outliers:
 *    above p75 + 3 * (p75 - p25) of the run's delays (Tukey's far-out fence).
 *  - by stream (query_launches_stream.c): the queue, i.e. the number of
 *    kernels launched and not yet finished, over the stream's window (first
 *    launch to last end): time-weighted mean, maximum and % of the window
 *    with at least one.
 *  - by step: over the step's device span, host_wait = time nothing of the
 *    rank was launched-and-unfinished (the device waited on the host),
 *    queued = time some kernel was launched but not started (the host ran
 *    ahead of the device), host_sync = duration of the step's
 *    *Synchronize runtime calls (the host waited on the device), and bound
 *    "host" when host_wait > queued, else "device".
 * Device activities without a launch row (Ascend, unlinked memcpy) are left
 * out and counted in a note.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "analyses.h"
#include "util/interval.h"
#include "util/stats.h"
#include "banned.h"

enum launches_by { BY_NAME, BY_STREAM, BY_STEP };

/* d (analyses.h): the join is the main cost of every view but by name, so
 * each view reads it once; lc has the names of the calls that launch one
 * kernel, copy or set (a scan of the few distinct names, not a call per
 * launch row). */
void profdb__launch_acts_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, "WITH lc AS MATERIALIZED (SELECT id FROM str WHERE profdb_launch_class(value) = 1),\n"
	         " d AS (SELECT k.run_id, k.rank, k.step, k.stream, k.name_id,"
	         " k.start_ns AS ks, k.start_ns + k.dur_ns AS ke, l.start_ns AS ls, l.dur_ns AS ld,"
	         " k.start_ns - l.start_ns AS delay FROM kernel k JOIN launch l ON l.run_id = k.run_id"
	         " AND l.rank = k.rank AND l.correlation = k.correlation JOIN lc ON lc.id = l.name_id WHERE 1");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, ")\n");
}

void profdb__launch_calls_drop(profdb *db)
{
	sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.profdb_lcalls", NULL, NULL, NULL);
}

int profdb__launch_calls_make(profdb *db, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	profdb__launch_calls_drop(db);
	/* min() is the only min/max aggregate: SQLite takes the bare kname
	 * from the row of the first start, the call's first activity */
	profdb__qbuf_add(&b, "CREATE TEMP TABLE profdb_lcalls AS WITH lc AS MATERIALIZED (SELECT id, cls FROM"
	         " (SELECT id, profdb_launch_class(value) AS cls FROM str) WHERE cls > 0),\n"
	         " c0 AS (SELECT k.run_id, k.rank, lc.cls, k.name_id AS kname, l.name_id AS lname, count(*) AS n,"
	         " min(k.start_ns) AS ks, l.start_ns AS ls, l.dur_ns AS ld FROM kernel k JOIN launch l"
	         " ON l.run_id = k.run_id AND l.rank = k.rank AND l.correlation = k.correlation"
	         " JOIN lc ON lc.id = l.name_id WHERE 1");
	profdb__qfilter_where(&b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(&b, " GROUP BY k.run_id, k.rank, k.correlation)\n"
	         "SELECT run_id, rank, cls, CASE cls WHEN 1 THEN kname ELSE lname END AS gname, n, ls, ld, ks,"
	         " ks - ls AS delay, max(0, ks - ls - ld) AS edelay FROM c0");
	rc = profdb__query_prepare(db, &b, &st, "cannot read launches");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	rc = sqlite3_step(st) == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot read launches");
	sqlite3_finalize(st);
	return rc;
}

/* ---------------------------------------------------------------- by step */

enum { T_RUN_ID, T_S0, T_S1, T_RUN, T_RANK, T_STEP, T_SPAN, T_KERNELS, T_HWAIT, T_HWAIT_PCT, T_QUEUED,
       T_QUEUED_PCT, T_SYNC, T_BOUND, T_COUNT };
static const enum profdb_coltype step_types[T_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT,
	PROFDB_COL_NS, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_PCT, PROFDB_COL_NS, PROFDB_COL_PCT,
	PROFDB_COL_NS, PROFDB_COL_TEXT
};

static void step_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__launch_acts_sql(b, f);
	/* the few sync calls first, then their steps: a per-step scan of the
	 * launch table would read millions of rows per step */
	profdb__qbuf_add(b, ", g AS (SELECT run_id, rank, step, min(ks) AS s0, max(ke) AS s1, count(*) AS n FROM d"
	         " GROUP BY run_id, rank, step),\n"
	         " sy AS (SELECT l.run_id, l.rank, sp.step, sum(l.dur_ns) AS t FROM launch l"
	         "  JOIN step sp ON sp.run_id = l.run_id AND sp.rank = l.rank"
	         "  AND l.start_ns >= sp.start_ns AND l.start_ns < sp.end_ns"
	         "  WHERE l.name_id IN (SELECT id FROM str WHERE value GLOB '*Synchronize*')"
	         "  GROUP BY l.run_id, l.rank, sp.step)\n"
	         "SELECT g.run_id, g.s0, g.s1, r.name AS run, g.rank, g.step, g.s1 - g.s0 AS span,"
	         " g.n AS kernels, NULL AS host_wait, NULL AS host_wait_pct, NULL AS queued,"
	         " NULL AS queued_pct, coalesce(sy.t, 0) AS host_sync, NULL AS bound"
	         " FROM g JOIN run r ON r.id = g.run_id LEFT JOIN sy ON sy.run_id = g.run_id"
	         " AND sy.rank = g.rank AND sy.step = g.step ORDER BY g.run_id, g.rank, g.s0");
}

/* The step rows being filled: the statement's rows of one (run, rank) at
 * a time in r, spooled once filled. */
struct groups {
	sqlite3_stmt *st;          /* the group statement, ordered by run, rank */
	profdb_result *r;          /* the rows of the (run, rank) being filled */
	size_t cap;
	struct profdb__spool sp;
	int64_t linked;            /* the kernels' sum: the note's count */
};

/* Spool the rows of g->r and empty it. */
static int groups_flush(struct groups *g)
{
	for (size_t i = 0; i < g->r->nrows; i++) {
		int rc;
		g->linked += profdb_result_int(g->r, i, T_KERNELS);
		if ((rc = profdb__spool_put_from(&g->sp, g->r, i)) != PROFDB_OK)
			return rc;
	}
	for (size_t i = 0; i < g->r->nrows * g->r->ncols; i++)
		free(g->r->cells[i].text);
	g->r->nrows = 0;
	return PROFDB_OK;
}

/* Whether column col of st (a step) is in f's steps: the step view reads
 * every step of a rank, its notes count those asked for. */
static int in_steps(const struct profdb_filter *f, sqlite3_stmt *st, int col)
{
	int64_t s;
	if (f->step_lo == PROFDB_NULL && f->step_hi == PROFDB_NULL)
		return 1;
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return 0;
	s = sqlite3_column_int64(st, col);
	return (f->step_lo == PROFDB_NULL || s >= f->step_lo) && (f->step_hi == PROFDB_NULL || s <= f->step_hi);
}

/* One ordered scan of the launches: rows (run, rank, 0, t, ...) in order;
 * key the first three. */
struct tscan {
	sqlite3_stmt *st;
	int on, rc;
	int64_t key[3];
	struct profdb__launch_counts *counts; /* the launch scan counts its rows */
	const struct profdb_filter *steps;    /* ... those of these steps (column 6) */
};

static void tscan_read(struct tscan *s)
{
	s->rc = sqlite3_step(s->st);
	s->on = s->rc == SQLITE_ROW;
	if (!s->on)
		return;
	s->key[0] = sqlite3_column_int64(s->st, 0);
	s->key[1] = sqlite3_column_int64(s->st, 1);
	s->key[2] = sqlite3_column_type(s->st, 2) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(s->st, 2);
	if (s->counts && (!s->steps || in_steps(s->steps, s->st, 6))) {
		s->counts->calls++;
		s->counts->negative += sqlite3_column_int64(s->st, 4) < sqlite3_column_int64(s->st, 3);
	}
}

static int key_cmp(const int64_t *a, const int64_t *b)
{
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Whether s is on a row of key (rows before it skipped). */
static int tscan_at(struct tscan *s, const int64_t *key)
{
	while (s->on && key_cmp(s->key, key) < 0)
		tscan_read(s);
	return s->on && key_cmp(s->key, key) == 0;
}

static int tscan_open(profdb *db, struct tscan *s, const struct profdb_filter *f, const char *sel)
{
	struct profdb__qbuf b = { 0 };
	int rc;
	profdb__launch_acts_sql(&b, f);
	profdb__qbuf_add(&b, sel);
	rc = profdb__query_prepare(db, &b, &s->st, "cannot read launches");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(s->st, f);
	tscan_read(s);
	return PROFDB_OK;
}

/*
 * The covered length of the union of intervals [a, b) of a (run, rank)
 * before time t, for t that never decreases: the intervals come in start
 * order and are merged as read, nothing held.
 */
struct cover {
	int64_t done, cs, ce;
	int cur;
};

static void cover_add(struct cover *c, int64_t a, int64_t b)
{
	if (b <= a)
		return;
	if (c->cur && a <= c->ce) {
		c->ce = b > c->ce ? b : c->ce;
	} else {
		c->done += c->cur ? c->ce - c->cs : 0;
		c->cs = a, c->ce = b, c->cur = 1;
	}
}

static int64_t cover_before(const struct cover *c, int64_t t)
{
	return c->done + (c->cur ? (t < c->ce ? t : c->ce) - c->cs : 0);
}

/* A step span whose start the sweep has passed and whose end it has not:
 * its spooled row and the covers at its start. */
struct open_span {
	int64_t rowid, s0, s1, q0, p0;
};

/*
 * The step sweep of one query: the step rows come in start order per
 * (run, rank) and are spooled as read; a span's figures are known once the
 * sweep reaches its end, and written into its spooled row then.  Only the
 * spans open at the sweep's time are held (a heap on their ends): steps
 * follow one another, so a handful, however many steps a rank has.
 */
struct step_sweep {
	profdb *db;
	struct tscan *S;           /* the launches in launch order (ls, ks, ke at 3, 4, 5) */
	struct cover q, p;         /* launched-and-unfinished [ls, ke), launched-not-started [ls, ks) */
	int64_t key[3];
	struct open_span *heap;
	size_t n, cap;
	sqlite3_stmt *upd;         /* the figures into a spooled row */
};

static void heap_swap(struct open_span *h, size_t i, size_t j)
{
	struct open_span t = h[i];
	h[i] = h[j];
	h[j] = t;
}

static int heap_push(struct step_sweep *w, struct open_span o)
{
	size_t i;
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 16;
		struct open_span *h = realloc(w->heap, cap * sizeof *h);
		if (!h)
			return profdb__error(w->db, PROFDB_ERROR, "out of memory");
		w->heap = h;
		w->cap = cap;
	}
	for (i = w->n++, w->heap[i] = o; i > 0 && w->heap[(i - 1) / 2].s1 > w->heap[i].s1; i = (i - 1) / 2)
		heap_swap(w->heap, i, (i - 1) / 2);
	return PROFDB_OK;
}

static struct open_span heap_pop(struct step_sweep *w)
{
	struct open_span top = w->heap[0];
	size_t i = 0;
	w->heap[0] = w->heap[--w->n];
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < w->n && w->heap[l].s1 < w->heap[m].s1)
			m = l;
		if (l + 1 < w->n && w->heap[l + 1].s1 < w->heap[m].s1)
			m = l + 1;
		if (m == i)
			return top;
		heap_swap(w->heap, i, m);
		i = m;
	}
}

/* Both covers of the (run, rank) key fed the launches before t: one
 * scan feeds the two, as they are read at the same times. */
static void sweep_to(struct step_sweep *w, const int64_t *key, int64_t t)
{
	while (tscan_at(w->S, key) && sqlite3_column_int64(w->S->st, 3) < t) {
		int64_t ls = sqlite3_column_int64(w->S->st, 3);
		cover_add(&w->q, ls, sqlite3_column_int64(w->S->st, 5));
		cover_add(&w->p, ls, sqlite3_column_int64(w->S->st, 4));
		tscan_read(w->S);
	}
}

/* Close the open spans that end before t (all: t INT64_MAX): host_wait =
 * span - launched-and-unfinished cover, queued = launched-not-started
 * cover, written into their rows. */
static int sweep_close(struct step_sweep *w, int64_t t)
{
	while (w->n && w->heap[0].s1 <= t) {
		struct open_span o = heap_pop(w);
		int64_t len = o.s1 - o.s0, at = o.s1 > o.s0 ? o.s1 : o.s0;
		int64_t hw, qd;
		sweep_to(w, w->key, at);
		hw = len - (cover_before(&w->q, at) - o.q0);
		qd = cover_before(&w->p, at) - o.p0;
		sqlite3_stmt *u = w->upd;
		sqlite3_bind_int64(u, 1, hw);
		sqlite3_bind_int64(u, 3, qd);
		if (len > 0) {
			sqlite3_bind_double(u, 2, 100.0 * (double)hw / (double)len);
			sqlite3_bind_double(u, 4, 100.0 * (double)qd / (double)len);
		} else {
			sqlite3_bind_null(u, 2);
			sqlite3_bind_null(u, 4);
		}
		sqlite3_bind_text(u, 5, hw > qd ? "host" : "device", -1, SQLITE_STATIC);
		sqlite3_bind_int64(u, 6, o.rowid);
		if (sqlite3_step(u) != SQLITE_DONE) {
			sqlite3_reset(u);
			return profdb__sqlerror(w->db, "cannot write the step rows");
		}
		sqlite3_reset(u);
	}
	return PROFDB_OK;
}

/* The step row just read from g->st into the sweep: the spans of earlier
 * (run, rank)s and those ended before it closed, the row spooled. */
static int sweep_row(struct step_sweep *w, struct groups *g)
{
	int64_t key[3] = { sqlite3_column_int64(g->st, T_RUN_ID), sqlite3_column_int64(g->st, T_RANK), 0 };
	struct open_span o = { 0, sqlite3_column_int64(g->st, T_S0), sqlite3_column_int64(g->st, T_S1), 0, 0 };
	int err;
	if (key_cmp(key, w->key) != 0) {
		if ((err = sweep_close(w, INT64_MAX)) != PROFDB_OK)
			return err;
		memcpy(w->key, key, sizeof key);
		w->q.done = w->q.cur = w->p.done = w->p.cur = 0;
	}
	if ((err = sweep_close(w, o.s0)) != PROFDB_OK)
		return err;
	sweep_to(w, key, o.s0);
	o.q0 = cover_before(&w->q, o.s0);
	o.p0 = cover_before(&w->p, o.s0);
	if (profdb__result_add_row(g->r, g->st, &g->cap) != PROFDB_OK)
		return profdb__error(w->db, PROFDB_ERROR, "out of memory");
	if ((err = groups_flush(g)) != PROFDB_OK)
		return err;
	o.rowid = sqlite3_last_insert_rowid(w->db->sql);
	return heap_push(w, o);
}

/* The step rows: read in start order per (run, rank) and swept against one
 * ordered scan of every step's launches (a kernel of the previous step
 * still queued keeps the device from waiting on the host). */
static int step_fill(profdb *db, struct groups *g, const struct profdb_filter *f,
                     struct profdb__launch_counts *counts)
{
	struct profdb_filter all = *f;
	struct tscan Q = { .counts = counts, .steps = f };
	struct step_sweep w = { .db = db, .S = &Q, .key = { INT64_MIN, INT64_MIN, 0 } };
	int rc = SQLITE_DONE, err;

	all.step_lo = all.step_hi = PROFDB_NULL;
	if ((err = tscan_open(db, &Q, &all, "SELECT run_id, rank, 0, ls, ks, ke, step FROM d"
	                      " ORDER BY run_id, rank, ls")) != PROFDB_OK)
		goto out;
	if (sqlite3_prepare_v2(db->sql, "UPDATE temp.profdb_spool SET host_wait = ?1, host_wait_pct = ?2,"
	                       " queued = ?3, queued_pct = ?4, bound = ?5 WHERE rowid = ?6", -1, &w.upd,
	                       NULL) != SQLITE_OK) {
		err = profdb__sqlerror(db, "cannot write the step rows");
		goto out;
	}
	while (err == PROFDB_OK && (rc = sqlite3_step(g->st)) == SQLITE_ROW)
		err = sweep_row(&w, g);
	if (err == PROFDB_OK && rc != SQLITE_DONE)
		err = profdb__sqlerror(db, "cannot query launches");
	if (err == PROFDB_OK)
		err = sweep_close(&w, INT64_MAX);
	while (err == PROFDB_OK && Q.on)
		tscan_read(&Q); /* the notes count every launch of the steps asked */
	if (err == PROFDB_OK && Q.rc != SQLITE_DONE)
		err = profdb__sqlerror(db, "cannot read launches");
out:
	sqlite3_finalize(w.upd);
	sqlite3_finalize(Q.st);
	free(w.heap);
	return err;
}

/* By step: the group statement's rows, their figures filled in C one
 * (run, rank) at a time, through a spool (streamed when armed). */
static int by_step(profdb *db, profdb_result **out, const struct profdb_filter *f,
                   struct profdb__launch_counts *counts)
{
	struct profdb__qbuf b = { 0 };
	struct groups g;
	uint64_t drop = ((uint64_t)1 << T_RUN_ID) | ((uint64_t)1 << T_S0) | ((uint64_t)1 << T_S1) |
	                (profdb__qfilter_run_column(f) ? 0 : (uint64_t)1 << T_RUN);
	int rc;

	memset(&g, 0, sizeof g);
	step_sql(&b, f);
	rc = profdb__query_prepare(db, &b, &g.st, "cannot query launches");
	profdb__qbuf_free(&b);
	if (rc == PROFDB_OK) {
		profdb__qfilter_bind(g.st, f);
		rc = profdb__result_for_stmt(db, &g.r, g.st, step_types);
	}
	if (rc == PROFDB_OK &&
	    (rc = profdb__spool_open(db, &g.sp, (const char *const *)g.r->names, step_types, g.r->ncols)) == PROFDB_OK)
		rc = step_fill(db, &g, f, counts);
	sqlite3_finalize(g.st);
	if (rc == PROFDB_OK)
		rc = profdb__spool_answer(&g.sp, out, drop, "run_id, rank, step");
	profdb__spool_close(&g.sp);
	profdb_result_free(g.r);
	counts->linked += g.linked;
	return rc;
}

/* The graph launches and blocking copies of f (calls and activities) for
 * the views that leave them out: from the launch rows of those few names,
 * not a second join of every activity.  CROSS JOIN keeps the join in this order: the few names
 * outermost, each call's activities by correlation.  Left to choose, with
 * a --steps range SQLite scanned every launch and searched its activities
 * by step, a product of the launches and the steps asked. */
static int apart_counts(profdb *db, const struct profdb_filter *f, struct profdb__launch_counts *n)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	profdb__qbuf_add(&b, "WITH lc AS MATERIALIZED (SELECT id, cls FROM"
	         " (SELECT id, profdb_launch_class(value) AS cls FROM str) WHERE cls > 1)"
	         " SELECT lc.cls, count(DISTINCT l.rowid), count(*) FROM lc CROSS JOIN launch l ON l.name_id = lc.id"
	         " CROSS JOIN kernel k ON k.run_id = l.run_id AND k.rank = l.rank AND k.correlation = l.correlation"
	         " WHERE 1");
	profdb__qfilter_where(&b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(&b, " GROUP BY lc.cls");
	rc = profdb__query_prepare(db, &b, &st, "cannot count launches");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int graph = sqlite3_column_int(st, 0) == PROFDB__LAUNCH_GRAPH;
		*(graph ? &n->graph_calls : &n->blocking_calls) += sqlite3_column_int64(st, 1);
		*(graph ? &n->graph_acts : &n->blocking_acts) += sqlite3_column_int64(st, 2);
		n->linked += sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot count launches");
}

static int add_note(profdb *db, profdb_result *r, const char *note)
{
	return profdb__result_add_note(r, note) == PROFDB_OK ? PROFDB_OK :
	       profdb__error(db, PROFDB_ERROR, "out of memory");
}

/* Notes on what the figures leave out or cannot vouch for. */
static int counts_notes(profdb *db, profdb_result *r, const struct profdb__launch_counts *n, int by_name)
{
	char note[320];
	int rc = PROFDB_OK;
	if (n->negative > 0) {
		snprintf(note, sizeof note, "%lld of %lld %s start on the device before their launch call starts"
		         " (negative start delay: the host and device clocks disagree); they are kept in the figures",
		         (long long)n->negative, (long long)n->calls, by_name ? "launch calls" : "launched activities");
		rc = add_note(db, r, note);
	}
	if (rc == PROFDB_OK && n->graph_calls > 0) {
		snprintf(note, sizeof note, "%lld graph launch calls launched %lld device activities: %s",
		         (long long)n->graph_calls, (long long)n->graph_acts,
		         by_name ? "rows `graph`, each call counted once, delays to its first activity, not in (all)" :
		                   "left out of these figures (launches --by name lists them)");
		rc = add_note(db, r, note);
	}
	if (rc == PROFDB_OK && n->blocking_calls > 0) {
		snprintf(note, sizeof note, "%lld blocking copy calls (the host waits for the copy) launched %lld device"
		         " activities: %s", (long long)n->blocking_calls, (long long)n->blocking_acts,
		         by_name ? "rows `blocking`, not in (all)" :
		                   "left out of these figures (launches --by name lists them)");
		rc = add_note(db, r, note);
	}
	return rc;
}

/* A note when device activities of the filter have no launch call: linked
 * is the count of those that have one (the by-name scan counts them, the
 * other views sum their rows' kernels and the counts of the calls apart),
 * so only the activities are counted here, not joined a second time. */
static int unlinked_note(profdb *db, profdb_result *r, const struct profdb_filter *f, int64_t linked)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	profdb__qbuf_add(&b, "SELECT count(*) FROM kernel k WHERE 1");
	profdb__qfilter_where(&b, f, "k", QF_KERNEL, 0);
	rc = profdb__query_prepare(db, &b, &st, "cannot count launches");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > linked) {
		char note[240];
		snprintf(note, sizeof note, "%lld of %lld device activities have no launch call (no runtime call with"
		         " their correlation id, or one that launches nothing: synchronize, event record or wait, ...)"
		         " and are left out",
		         (long long)(sqlite3_column_int64(st, 0) - linked),
		         (long long)sqlite3_column_int64(st, 0));
		rc = add_note(db, r, note);
	}
	sqlite3_finalize(st);
	return rc;
}

static void launch_class_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	(void)argc;
	sqlite3_result_int(ctx, profdb__launch_class(s));
}

/* A narrow terminal keeps calls and the median start delay (by stream:
 * the queue; by step: the host's wait; format_table.c). */
static const char *const headline_cols[] = {
	"calls", "start_delay_median", "queue_mean", "host_wait", "bound", NULL
};
static const char *const hide_cols[] = {
	"start_delay_p99", "end_delay_p90", "launch_max", "start_delay_p90", "end_delay_max",
	"launch_total", "launch_avg", "per_call", "outliers", "queue_max", "host_sync",
	"queued", NULL
};

int profdb_query_launches(profdb *db, profdb_result **out, const struct profdb_launch_query *q)
{
	struct profdb__launch_counts n = { 0 };
	enum launches_by by;
	int rc;

	*out = NULL;
	if (!q->by || strcmp(q->by, "name") == 0)
		by = BY_NAME;
	else if (strcmp(q->by, "stream") == 0)
		by = BY_STREAM;
	else if (strcmp(q->by, "step") == 0)
		by = BY_STEP;
	else {
		static const char *const names[] = { "name", "stream", "step" };
		char hint[96];
		return profdb__error(db, PROFDB_EUSAGE, "launches: --by is name, stream or step, not '%s'%s", q->by,
		                     profdb__did_you_mean(hint, sizeof hint, q->by, names, 3));
	}
	if ((rc = profdb__qfilter_check(db, &q->filter)) != PROFDB_OK)
		return rc;
	if (q->filter.kind)
		return profdb__error(db, PROFDB_EUSAGE, "launches takes no kind filter");
	if (by != BY_NAME && q->filter.name_glob)
		return profdb__error(db, PROFDB_EUSAGE, "launches: --name only with --by name");
	if (sqlite3_create_function(db->sql, "profdb_launch_class", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
	                            launch_class_fn, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot read launches");
	/* every view streams: *out holds the last rows; the notes count from
	 * the scans, not from the rows */
	if (by == BY_NAME)
		rc = profdb__launches_by_name(db, out, &q->filter, &n);
	else if ((rc = by == BY_STREAM ? profdb__launches_by_stream(db, out, &q->filter, &n) :
	               by_step(db, out, &q->filter, &n)) == PROFDB_OK)
		rc = apart_counts(db, &q->filter, &n);
	if (rc == PROFDB_OK)
		rc = counts_notes(db, *out, &n, by == BY_NAME);
	if (rc == PROFDB_OK)
		rc = unlinked_note(db, *out, &q->filter, n.linked);
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}
