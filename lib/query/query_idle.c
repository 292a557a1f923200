/*
 * query_idle.c - profdb idle: per stream, the idle gaps between its device
 * activities split by what the stream waited for, as HTA's idle time
 * breakdown does:
 *
 *  - host_wait: the part of a gap before the next activity's launch call
 *    started, i.e. nothing was queued on the stream: the device waited on
 *    the host;
 *  - other_stream: the rest of the gap (the next activity was queued) while
 *    another stream of the rank was running something: waiting on another
 *    stream (an event or a dependency);
 *  - other: the rest (launch overhead, synchronisation, unknown).  A next
 *    activity without a launch record gives no host_wait.
 *
 * With gaps != 0 the result lists the longest gaps instead, with the next
 * activity and the innermost host operator running on the launching thread
 * when the gap began.  Definitions: doc/analyses.md "Analyses".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "idle_busy.h"
#include "banned.h"

/* Per-stream rows, before the helper run_id goes. */
enum { S_RUN_ID, S_RUN, S_RANK, S_STREAM, S_KERNELS, S_SPAN, S_IDLE, S_HOST, S_OTHER_STREAM, S_OTHER,
       S_HOST_PCT, S_OTHER_STREAM_PCT, S_OTHER_PCT, S_COUNT };
static const char *const stream_names[S_COUNT] = {
	"run_id", "run", "rank", "stream", "kernels", "span", "idle", "host_wait", "other_stream", "other",
	"host_wait_pct", "other_stream_pct", "other_pct"
};
static const enum profdb_coltype stream_types[S_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_PCT, PROFDB_COL_PCT,
	PROFDB_COL_PCT
};

/* Gap rows (named by gaps_answer's statement). */
enum { G_RUN, G_RANK, G_STREAM, G_AT, G_GAP, G_HOST, G_OTHER_STREAM, G_OTHER, G_NEXT, G_HOST_OP, G_COUNT };
static const enum profdb_coltype gap_types[G_COUNT] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_TEXT, PROFDB_COL_TEXT
};

struct act {
	int64_t stream, s, e;      /* stream (INT64_MIN: none), device start and end */
	int64_t ls, tid;           /* launch call start and thread; INT64_MIN: no launch */
	int64_t name_id;
};

/* One gap found, kept for the --gaps listing. */
struct gap {
	int64_t run, rank, stream, origin, a, b, host, other_stream, tid, name_id;
};

/* One stream's figures, a row of the answer. */
struct sline {
	int64_t run, rank, stream, kernels, span, idle, sums[3];
};

/* --gaps N past this: every gap goes to the spool as found, sorted there
 * (LIMIT N); up to it the longest N are kept in memory as the scan goes */
#define GAP_HOLD 65536

/* The gaps' spool: the figures of struct gap, the names looked up by the
 * answer's statement. */
enum { GS_RUN_ID, GS_RANK, GS_STREAM, GS_ORIGIN, GS_A, GS_B, GS_HOST, GS_OTHER_STREAM, GS_TID, GS_NAME_ID,
       GS_COUNT };
static const char *const gs_names[GS_COUNT] = {
	"run_id", "rank", "stream", "origin", "ga", "gb", "host", "other_stream", "tid", "name_id"
};
static const enum profdb_coltype gs_types[GS_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT,
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT
};

struct idle {
	profdb *db;
	struct profdb__spool sp;   /* the answer's rows: stream lines or gaps */
	sqlite3_stmt *run_name;    /* run name by id (stream lines) */
	int keep_streams;
	struct profdb__idle_busy busy; /* the ranks' busy time (idle_busy.c) */
	struct gap *g;             /* gaps (only when listing them) */
	size_t ng, gcap;
	int keep_gaps;
	size_t gap_limit;          /* > 0: only the longest this many gaps are wanted */
	int64_t run, rank, origin; /* the rank walked and its first start */
	struct sline l;            /* the stream walked: its figures so far */
	int64_t end;               /* its activities' latest end so far */
};

static int cmp_gap(const void *x, const void *y);

static int gap_put(struct idle *c, const struct gap *g)
{
	profdb_result *r = c->sp.row;
	int rc = profdb__result_set_int(r, 0, GS_RUN_ID, g->run) | profdb__result_set_int(r, 0, GS_RANK, g->rank) |
	         profdb__result_set_int(r, 0, GS_ORIGIN, g->origin) | profdb__result_set_int(r, 0, GS_A, g->a) |
	         profdb__result_set_int(r, 0, GS_B, g->b) | profdb__result_set_int(r, 0, GS_HOST, g->host) |
	         profdb__result_set_int(r, 0, GS_OTHER_STREAM, g->other_stream) |
	         profdb__result_set_int(r, 0, GS_NAME_ID, g->name_id);
	if (g->stream != INT64_MIN)
		rc |= profdb__result_set_int(r, 0, GS_STREAM, g->stream);
	if (g->tid != INT64_MIN)
		rc |= profdb__result_set_int(r, 0, GS_TID, g->tid);
	if (rc)
		return profdb__error(c->db, PROFDB_ERROR, "out of memory");
	return profdb__spool_put(&c->sp);
}

static int gap_add(struct idle *c, const struct gap *g)
{
	if (c->gap_limit > GAP_HOLD)
		return gap_put(c, g);
	/* only the top gap_limit are listed: trim now and then, so millions of
	 * gaps never pile up to be sorted at the end */
	if (c->gap_limit && c->ng >= 2 * c->gap_limit + 1024) {
		qsort(c->g, c->ng, sizeof *c->g, cmp_gap);
		c->ng = c->gap_limit;
	}
	if (c->ng == c->gcap) {
		size_t ncap = c->gcap ? c->gcap * 2 : 256;
		struct gap *n = realloc(c->g, ncap * sizeof *n);
		if (!n)
			return PROFDB_ERROR;
		c->g = n;
		c->gcap = ncap;
	}
	c->g[c->ng++] = *g;
	return PROFDB_OK;
}

/*
 * Split the gap [a, b) before next; add to sums[0..2] (host, other stream,
 * other).  No activity of next's stream lies in [a, b) (a is the latest
 * end of its earlier ones), so the rank's busy time there is the other
 * streams': one sweep's union serves every stream.
 */
static int classify(struct idle *c, int64_t a, int64_t b, const struct act *next, int64_t sums[3])
{
	struct gap g = { c->run, c->rank, next->stream, c->origin, a, b, 0, 0, next->tid, next->name_id };
	int64_t from = a, hi, lo;
	if (next->ls != INT64_MIN && next->ls > a) {
		from = next->ls < b ? next->ls : b;
		g.host = from - a;
	}
	if (from < b) {
		if ((lo = profdb__idle_busy_before(&c->busy, from)) < 0 ||
		    (hi = profdb__idle_busy_before(&c->busy, b)) < 0)
			return profdb__sqlerror(c->db, "cannot read the ranks' busy time");
		g.other_stream = hi - lo;
	}
	sums[0] += g.host;
	sums[1] += g.other_stream;
	sums[2] += (b - a) - g.host - g.other_stream;
	return c->keep_gaps ? gap_add(c, &g) : PROFDB_OK;
}

static int fill_stream_row(profdb_result *r, size_t row, const struct sline *l)
{
	const int64_t idle = l->idle, *sums = l->sums;
	int rc = profdb__result_set_int(r, row, S_RUN_ID, l->run) | profdb__result_set_int(r, row, S_RANK, l->rank) |
	         profdb__result_set_int(r, row, S_KERNELS, l->kernels) | profdb__result_set_int(r, row, S_SPAN, l->span) |
	         profdb__result_set_int(r, row, S_IDLE, idle) | profdb__result_set_int(r, row, S_HOST, sums[0]) |
	         profdb__result_set_int(r, row, S_OTHER_STREAM, sums[1]) | profdb__result_set_int(r, row, S_OTHER, sums[2]);
	if (l->stream != INT64_MIN)
		rc |= profdb__result_set_int(r, row, S_STREAM, l->stream);
	if (idle > 0)
		rc |= profdb__result_set_double(r, row, S_HOST_PCT, 100.0 * (double)sums[0] / (double)idle) |
		      profdb__result_set_double(r, row, S_OTHER_STREAM_PCT, 100.0 * (double)sums[1] / (double)idle) |
		      profdb__result_set_double(r, row, S_OTHER_PCT, 100.0 * (double)sums[2] / (double)idle);
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

static int set_lookup(profdb_result *r, size_t row, size_t col, sqlite3_stmt *st, int n, const int64_t *v);

/* A stream's line as the spool's next row (the answer is in scan order). */
static int sline_put(struct idle *c, const struct sline *l)
{
	if (fill_stream_row(c->sp.row, 0, l) != PROFDB_OK ||
	    set_lookup(c->sp.row, 0, S_RUN, c->run_name, 1, &l->run) != PROFDB_OK)
		return profdb__error(c->db, PROFDB_ERROR, "out of memory");
	return profdb__spool_put(&c->sp);
}

/* The stream walked ends: its line, when lines are the answer. */
static int stream_end(struct idle *c)
{
	c->l.span = c->end - c->l.span; /* l.span held the stream's first start */
	return c->keep_streams ? sline_put(c, &c->l) : PROFDB_OK;
}

/* The next activity of the walk (run, rank, stream, start order). */
static int walk_one(struct idle *c, int64_t run, int64_t rank, const struct act *a, int first)
{
	int rc;
	if (first || run != c->run || rank != c->rank || a->stream != c->l.stream) {
		if (!first && (rc = stream_end(c)) != PROFDB_OK)
			return rc;
		if (first || run != c->run || rank != c->rank) {
			c->run = run, c->rank = rank;
			c->origin = profdb__idle_busy_rank(&c->busy, run, rank, a->s);
		}
		c->l = (struct sline){ run, rank, a->stream, 1, a->s, 0, { 0, 0, 0 } };
		c->end = a->e;
		return PROFDB_OK;
	}
	if (a->s > c->end) {
		c->l.idle += a->s - c->end;
		if ((rc = classify(c, c->end, a->s, a, c->l.sums)) != PROFDB_OK)
			return rc;
	}
	if (a->e > c->end)
		c->end = a->e;
	c->l.kernels++;
	return PROFDB_OK;
}

static int64_t col_or_min(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(st, i);
}

/* Second sweep: each stream's activities in start order, with their launch. */
static int walk(struct idle *c, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc, have = 0, err = PROFDB_OK;

	profdb__qbuf_add(&b, "SELECT k.run_id, k.rank, k.stream, k.start_ns, k.start_ns + k.dur_ns, l.start_ns, l.tid,"
	         " k.name_id FROM kernel k LEFT JOIN launch l ON l.run_id = k.run_id AND l.rank = k.rank"
	         " AND l.correlation = k.correlation WHERE 1");
	profdb__qfilter_where(&b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(&b, " ORDER BY k.run_id, k.rank, k.stream, k.start_ns, k.start_ns + k.dur_ns");
	rc = profdb__query_prepare(c->db, &b, &st, "cannot read device activities");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	while (err == PROFDB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct act a = { col_or_min(st, 2), sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
		                 col_or_min(st, 5), col_or_min(st, 6), sqlite3_column_int64(st, 7) };
		err = walk_one(c, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), &a, !have);
		have = 1;
	}
	if (err == PROFDB_OK && rc == SQLITE_DONE && have)
		err = stream_end(c);
	sqlite3_finalize(st);
	if (err != PROFDB_OK)
		return err;
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(c->db, "cannot read device activities");
}

/*
 * The filter's activities into c's gaps and lines: two sweeps, whose
 * sorts SQLite does (its sorter spills to disk) and whose union
 * (idle_busy.c) is held up to idle_hold intervals, then kept in a
 * temporary table (on disk past SQLite's cache), so memory stays bounded
 * at any rank size; each gap costs two lookups of the union whatever the
 * number of streams.
 */
static int scan(profdb *db, struct idle *c, const struct profdb_filter *f)
{
	int rc = profdb__idle_busy_open(&c->busy, db, f);
	if (rc == PROFDB_OK)
		rc = walk(c, f);
	profdb__idle_busy_close(&c->busy);
	return rc;
}

static int cmp_gap(const void *x, const void *y)
{
	const struct gap *a = x, *b = y;
	int64_t la = a->b - a->a, lb = b->b - b->a;
	if (la != lb)
		return la > lb ? -1 : 1;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	return a->a < b->a ? -1 : a->a > b->a;
}

/* One text cell from a one-column lookup bound with up to 4 integers. */
static int set_lookup(profdb_result *r, size_t row, size_t col, sqlite3_stmt *st, int n, const int64_t *v)
{
	int rc = PROFDB_OK;
	sqlite3_reset(st);
	for (int i = 0; i < n; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		rc = profdb__result_set_text(r, row, col, (const char *)sqlite3_column_text(st, 0));
	return rc;
}

static const char run_name_sql[] = "SELECT name FROM run WHERE id = ?1";

/*
 * host_op: the innermost operator on the launching thread when a gap
 * began, as the answer's lookup always defined it (the latest start, then
 * the shortest, among the operators running then).  The op table has no
 * parent column, so the ordered scan back from the gap met every earlier
 * operator of the thread when none covered it (a thread idle between
 * steps: every gap a scan of the thread).  Bounded now: first the 64
 * latest operators that started by then (an index range); past them only
 * an operator starting within the thread's longest duration before the
 * gap can still cover it (that maximum looked up once per thread, a small
 * cache).  Each lookup is the same statement over a narrower range of the
 * same index, so ties resolve as before.
 */
#define HOST_PROBE 64
#define HOST_CACHE 256 /* threads whose longest operator is remembered */

struct host_cache {
	int64_t run, rank, tid, longest; /* longest INT64_MIN: empty */
};

struct host_lookup {
	sqlite3_stmt *nth, *op, *longest; /* the HOST_PROBE-th start; the lookup; a thread's longest */
	struct host_cache cache[HOST_CACHE];
};

/* The innermost operator of (run, rank, tid) running at t starting at or
 * after lo: its name id, or -1 (none), or -2 (an error). */
static int64_t host_op_from(struct host_lookup *h, const int64_t *k, int64_t t, int64_t lo)
{
	int64_t id = -1;
	int rc;
	sqlite3_reset(h->op);
	for (int i = 0; i < 3; i++)
		sqlite3_bind_int64(h->op, i + 1, k[i]);
	sqlite3_bind_int64(h->op, 4, t);
	sqlite3_bind_int64(h->op, 5, lo);
	if ((rc = sqlite3_step(h->op)) == SQLITE_ROW)
		id = sqlite3_column_int64(h->op, 0);
	else if (rc != SQLITE_DONE)
		id = -2;
	sqlite3_reset(h->op);
	return id;
}

/* One integer of a statement bound to k[0..3) and t (NULL or none: dflt). */
static int64_t host_int(sqlite3_stmt *st, const int64_t *k, int nk, int64_t t, int64_t dflt)
{
	int64_t v = dflt;
	sqlite3_reset(st);
	for (int i = 0; i < nk; i++)
		sqlite3_bind_int64(st, i + 1, k[i]);
	if (nk == 3 && sqlite3_bind_parameter_count(st) >= 4)
		sqlite3_bind_int64(st, 4, t);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return v;
}

/* SQL profdb_idle_host_op(run_id, rank, tid, t): the op's name id or NULL. */
static void host_op_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct host_lookup *h = sqlite3_user_data(ctx);
	int64_t k[3], t = sqlite3_value_int64(argv[3]), lo, id;
	struct host_cache *e;
	(void)argc;
	for (int i = 0; i < 3; i++)
		k[i] = sqlite3_value_int64(argv[i]);
	lo = host_int(h->nth, k, 3, t, INT64_MIN);
	id = host_op_from(h, k, t, lo);
	if (id == -1 && lo != INT64_MIN) {
		/* none among the latest: one starting within the longest may still cover t */
		e = &h->cache[(uint64_t)(k[0] * 1000003 + k[1] * 8191 + k[2]) % HOST_CACHE];
		if (e->longest == INT64_MIN || e->run != k[0] || e->rank != k[1] || e->tid != k[2])
			*e = (struct host_cache){ k[0], k[1], k[2], host_int(h->longest, k, 3, t, -1) };
		if (e->longest >= 0 && t - e->longest < lo)
			id = host_op_from(h, k, t, t - e->longest);
	}
	if (id == -2)
		sqlite3_result_error(ctx, "cannot look up the host operator", -1);
	else if (id >= 0)
		sqlite3_result_int64(ctx, id);
	else
		sqlite3_result_null(ctx);
}

static const char host_op_sql[] =
	"SELECT o.name_id FROM op o WHERE o.run_id = ?1 AND o.rank = ?2 AND o.tid = ?3 AND o.start_ns <= ?4"
	" AND o.start_ns >= ?5 AND o.start_ns + o.dur_ns > ?4 ORDER BY o.start_ns DESC, o.dur_ns LIMIT 1";
static const char host_nth_sql[] =
	"SELECT o.start_ns FROM op o WHERE o.run_id = ?1 AND o.rank = ?2 AND o.tid = ?3 AND o.start_ns <= ?4"
	" ORDER BY o.start_ns DESC LIMIT 1 OFFSET 63";
static const char host_longest_sql[] =
	"SELECT max(o.dur_ns) FROM op o WHERE o.run_id = ?1 AND o.rank = ?2 AND o.tid = ?3";

static int host_open(profdb *db, struct host_lookup *h)
{
	for (size_t i = 0; i < HOST_CACHE; i++)
		h->cache[i].longest = INT64_MIN;
	if (sqlite3_prepare_v2(db->sql, host_nth_sql, -1, &h->nth, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, host_op_sql, -1, &h->op, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, host_longest_sql, -1, &h->longest, NULL) != SQLITE_OK ||
	    sqlite3_create_function(db->sql, "profdb_idle_host_op", 4, SQLITE_UTF8, h, host_op_fn, NULL,
	                            NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot look up names");
	return PROFDB_OK;
}

static void host_close(profdb *db, struct host_lookup *h)
{
	sqlite3_finalize(h->nth);
	sqlite3_finalize(h->op);
	sqlite3_finalize(h->longest);
	sqlite3_create_function(db->sql, "profdb_idle_host_op", 4, SQLITE_UTF8, NULL, NULL, NULL, NULL);
}

/* The answer of the gaps' spool: the longest limit, names looked up as
 * set_lookup does (NULL where there is none). */
static int gaps_answer(struct idle *c, profdb_result **out, int run_col, int64_t limit)
{
	struct profdb__qbuf b = { 0 };
	struct host_lookup *h = calloc(1, sizeof *h);
	int rc;
	if (!h)
		return profdb__error(c->db, PROFDB_ERROR, "out of memory");
	profdb__qbuf_addf(&b, "SELECT %s g.rank AS rank, g.stream AS stream, g.ga - g.origin AS at, g.gb - g.ga AS gap,"
	         " g.host AS host_wait, g.other_stream AS other_stream, (g.gb - g.ga) - g.host - g.other_stream AS other,"
	         " (SELECT value FROM str WHERE id = g.name_id) AS next_kernel,"
	         " CASE WHEN g.tid IS NOT NULL THEN (SELECT s.value FROM str s"
	         "  WHERE s.id = profdb_idle_host_op(g.run_id, g.rank, g.tid, g.ga)) END AS host_op"
	         " FROM temp.profdb_spool g ORDER BY g.gb - g.ga DESC, g.run_id, g.rank, g.stream, g.ga LIMIT %lld",
	         run_col ? "(SELECT name FROM run WHERE id = g.run_id) AS run," : "", (long long)limit);
	rc = b.oom ? profdb__error(c->db, PROFDB_ERROR, "out of memory") : host_open(c->db, h);
	if (rc == PROFDB_OK)
		rc = profdb__spool_answer_sql(&c->sp, out, b.s, gap_types + !run_col);
	host_close(c->db, h);
	free(h);
	profdb__qbuf_free(&b);
	return rc;
}

/* The longest q->gaps gaps: kept in memory up to GAP_HOLD (trimmed as the
 * scan goes) and put in the spool at the end, or put there as found. */
static int top_gaps(profdb *db, profdb_result **out, const struct profdb_idle_query *q, struct idle *c)
{
	size_t n;
	int rc;

	c->keep_gaps = 1;
	c->gap_limit = (size_t)q->gaps;
	if ((rc = profdb__spool_open(db, &c->sp, gs_names, gs_types, GS_COUNT)) != PROFDB_OK ||
	    (rc = scan(db, c, &q->filter)) != PROFDB_OK)
		return rc;
	if (c->ng > 1)
		qsort(c->g, c->ng, sizeof *c->g, cmp_gap);
	n = (size_t)q->gaps < c->ng ? (size_t)q->gaps : c->ng;
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++)
		rc = gap_put(c, &c->g[i]);
	if (rc == PROFDB_OK)
		rc = gaps_answer(c, out, profdb__qfilter_run_column(&q->filter), q->gaps);
	return rc;
}

/*
 * Per stream: the rows are the scan's lines (kernels, span and the split
 * of idle), in the scan's (run, rank) order and stream order within, so no
 * GROUP BY sorts every activity a second time; they go to the spool as
 * they are found.
 */
static int per_stream(profdb *db, profdb_result **out, const struct profdb_filter *f, struct idle *c)
{
	uint64_t drop = ((uint64_t)1 << S_RUN_ID) | (profdb__qfilter_run_column(f) ? 0 : (uint64_t)1 << S_RUN);
	int rc;

	c->keep_streams = 1;
	if ((rc = profdb__spool_open(db, &c->sp, stream_names, stream_types, S_COUNT)) != PROFDB_OK)
		return rc;
	if (sqlite3_prepare_v2(db->sql, run_name_sql, -1, &c->run_name, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot look up names");
	if ((rc = scan(db, c, f)) != PROFDB_OK)
		return rc;
	return profdb__spool_answer(&c->sp, out, drop, "rowid");
}

/* A narrow terminal keeps idle time and the host's part of it
 * (format_table.c); shares of idle go first. */
static const char *const headline_cols[] = {
	"idle", "host_wait", NULL
};
static const char *const hide_cols[] = {
	"other_pct", "other_stream_pct", "host_wait_pct", "other", "other_stream", "kernels",
	"span", NULL
};

int profdb_query_idle(profdb *db, profdb_result **out, const struct profdb_idle_query *q)
{
	struct idle c = { 0 };
	int rc;

	*out = NULL;
	if ((rc = profdb__qfilter_check(db, &q->filter)) != PROFDB_OK)
		return rc;
	if (q->filter.name_glob || q->filter.kind)
		return profdb__error(db, PROFDB_EUSAGE, "idle takes every device activity: no name or kind filter");
	if (q->gaps < 0)
		return profdb__error(db, PROFDB_EUSAGE, "idle: the number of gaps must not be negative");
	c.db = db;
	rc = q->gaps ? top_gaps(db, out, q, &c) : per_stream(db, out, &q->filter, &c);
	sqlite3_finalize(c.run_name);
	profdb__spool_close(&c.sp);
	free(c.g);
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}
