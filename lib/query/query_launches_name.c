/*
 * query_launches_name.c - profdb launches --by name (query_launches.c has
 * the command and the other views), one line per launch call (doc/analyses.md
 * "launches"): per name of the first activity of the calls that launch
 * one kernel, copy or set, and one "(all)" row per run of them; per graph
 * launch call name and per blocking copy call name apart, as their delays
 * are not queueing.  The call's duration counts once, whatever it
 * launched; delays from the call's start and (clipped at 0) from its end
 * to the first activity's start (median, p90, p99, max), and the outliers
 * above the run's p75 + 3 (p75 - p25) of the start delays.
 *
 * Nothing grows with the run past the hold budget (struct profdb_limits):
 * the "(all)" figures come from the runs' delays held and sorted in memory
 * while they fit it (16 bytes a call: sorting the call table twice more
 * was most of the cost), past it from ordered scans of the run's delays
 * that keep only the values at the ranks its percentiles need (the run's
 * count read first); the per-name figures from a scan ordered by (name,
 * delay) that holds one name's delays, and the rows go to a spool
 * (result_stream.c) that sorts them and streams them out.  Same
 * definitions (stats.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "analyses.h"
#include "util/stats.h"
#include "banned.h"

static const enum profdb_coltype name_types[N_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT,
	PROFDB_COL_REAL, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_INT
};

static const char *const name_cols[N_COUNT] = {
	"run_id", "ord", "run", "launch", "name", "calls", "per_call", "launch_total", "launch_avg", "launch_max",
	"start_delay_median", "start_delay_p90", "start_delay_p99", "start_delay_max", "end_delay_median",
	"end_delay_p90", "end_delay_max", "outliers"
};

static const char *const launch_word[] = { "", "async", "graph", "blocking" };

/* One row of the by-name table: a name of a run, or the run's "(all)". */
struct nline {
	int64_t run_id, cls, name_id, calls, acts, ltotal, lmax, dmax, emax, out;
	double lavg, dmed, dp90, dp99, emed, ep90;
	const char *name;          /* NULL: "(all)" */
};

/* One percentile of n sorted values, picked as an ordered scan passes:
 * the values at ranks lo and hi (lo + 1, or lo at the end). */
struct pick {
	double h, vlo, vhi;
	size_t lo, hi;
};

enum { P25, P50, P75, P90, P99, NPICK };
static const double pick_pct[NPICK] = { 25, 50, 75, 90, 99 };

static void pick_init(struct pick *k, double p, size_t n)
{
	k->h = (double)(n - 1) * p / 100.0;
	k->lo = (size_t)floor(k->h);
	if (k->lo >= n - 1)
		k->lo = n - 1;
	k->hi = k->lo + (k->lo < n - 1);
	k->vlo = k->vhi = 0;
}

/* profdb__percentile_sorted's value (0 < p < 100) from the two it reads. */
static double pick_value(const struct pick *k, size_t n)
{
	double frac;
	if (k->lo >= n - 1)
		return k->vlo;
	frac = k->h - (double)k->lo;
	return k->vlo + frac * (k->vhi - k->vlo);
}

/* Statements the scans share: names of runs and of kernels, by id. */
struct nctx {
	profdb *db;
	const struct profdb_filter *f;
	struct profdb__spool sp;
	sqlite3_stmt *run_name, *str_name;
	int64_t *fence_run;        /* the runs in id order and their fences */
	double *fence;
	size_t nruns, rcap;
	double *d, *e;             /* one name's start and end delays (the by-name scan) */
	size_t dcap;
	struct profdb__launch_counts *counts;
};

static const char *text_of(sqlite3_stmt *q, int64_t id)
{
	const char *t;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, id);
	t = sqlite3_step(q) == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
	return t ? t : "";
}

/* Line l as the spool's next row. */
static int put_line(struct nctx *c, const struct nline *l)
{
	profdb_result *r = c->sp.row;
	int rc = 0;
	rc |= profdb__result_set_int(r, 0, N_RUN_ID, l->run_id);
	rc |= profdb__result_set_int(r, 0, N_ORD, l->name ? l->cls : 0);
	rc |= profdb__result_set_text(r, 0, N_RUN, text_of(c->run_name, l->run_id));
	rc |= profdb__result_set_text(r, 0, N_LAUNCH, launch_word[l->cls]);
	rc |= profdb__result_set_text(r, 0, N_NAME, l->name ? l->name : "(all)");
	rc |= profdb__result_set_int(r, 0, N_CALLS, l->calls);
	rc |= profdb__result_set_double(r, 0, N_PER_CALL, (double)l->acts / (double)l->calls);
	rc |= profdb__result_set_int(r, 0, N_LTOTAL, l->ltotal);
	rc |= profdb__result_set_double(r, 0, N_LAVG, l->lavg);
	rc |= profdb__result_set_int(r, 0, N_LMAX, l->lmax);
	rc |= profdb__result_set_double(r, 0, N_DMED, l->dmed);
	rc |= profdb__result_set_double(r, 0, N_DP90, l->dp90);
	rc |= profdb__result_set_double(r, 0, N_DP99, l->dp99);
	rc |= profdb__result_set_int(r, 0, N_DMAX, l->dmax);
	rc |= profdb__result_set_double(r, 0, N_EMED, l->emed);
	rc |= profdb__result_set_double(r, 0, N_EP90, l->ep90);
	rc |= profdb__result_set_int(r, 0, N_EMAX, l->emax);
	/* the fence is of the run's one-launch delays: no measure of the others */
	if (l->cls == PROFDB__LAUNCH_ASYNC)
		rc |= profdb__result_set_int(r, 0, N_OUT, l->out);
	if (rc)
		return profdb__error(c->db, PROFDB_ERROR, "out of memory");
	return profdb__spool_put(&c->sp);
}

/* "SELECT <cols> FROM temp.profdb_lcalls <tail>". */
static int calls_stmt(struct nctx *c, const char *cols, const char *tail, sqlite3_stmt **st)
{
	struct profdb__qbuf b = { 0 };
	int rc;
	profdb__qbuf_addf(&b, "SELECT %s FROM temp.profdb_lcalls %s", cols, tail);
	rc = profdb__query_prepare(c->db, &b, st, "cannot read launches");
	profdb__qbuf_free(&b);
	return rc;
}

static int add_fence(struct nctx *c, int64_t run, double fence)
{
	if (c->nruns == c->rcap) {
		size_t ncap = c->rcap ? 2 * c->rcap : 64;
		int64_t *r = realloc(c->fence_run, ncap * sizeof *r);
		double *f = r ? realloc(c->fence, ncap * sizeof *f) : NULL;
		if (r)
			c->fence_run = r;
		if (!f)
			return profdb__error(c->db, PROFDB_ERROR, "out of memory");
		c->fence = f;
		c->rcap = ncap;
	}
	c->fence_run[c->nruns] = run;
	c->fence[c->nruns++] = fence;
	return PROFDB_OK;
}

/* The end delays' median, p90 and max of one run's n calls into l, from
 * est, ordered by (run, end delay), on the run's first row (left on the
 * next run's). */
static int run_end_delays(struct nctx *c, sqlite3_stmt *est, struct nline *l, size_t n)
{
	struct pick k[2];
	double v = 0;
	size_t i = 0;
	pick_init(&k[0], 50, n);
	pick_init(&k[1], 90, n);
	while (i < n && sqlite3_column_int64(est, 0) == l->run_id) {
		v = (double)sqlite3_column_int64(est, 1);
		for (int p = 0; p < 2; p++) {
			k[p].vlo = i == k[p].lo ? v : k[p].vlo;
			k[p].vhi = i == k[p].hi ? v : k[p].vhi;
		}
		i++;
		if (sqlite3_step(est) != SQLITE_ROW)
			break;
	}
	if (i != n)
		return profdb__error(c->db, PROFDB_ERROR, "launches: the run's rows changed while read");
	l->emed = pick_value(&k[0], n);
	l->ep90 = pick_value(&k[1], n);
	l->emax = (int64_t)v;
	return PROFDB_OK;
}

/* The "(all)" line of one run from its n delays in ascending order (st on
 * the run's first row): its percentiles and the fence p75 + 3 (p75 - p25),
 * which every later delay is compared to (those before rank p75's hi are
 * at most p75, never above it).  Leaves st on the next run's first row. */
static int run_line(struct nctx *c, sqlite3_stmt *st, sqlite3_stmt *est, int64_t run, size_t n, int *rc)
{
	struct nline l = { .run_id = run, .cls = PROFDB__LAUNCH_ASYNC, .calls = (int64_t)n };
	struct pick k[NPICK];
	double fence = 0, v = 0;
	size_t i = 0;

	for (int p = 0; p < NPICK; p++)
		pick_init(&k[p], pick_pct[p], n);
	do {
		int64_t ld = sqlite3_column_int64(st, 1);
		v = (double)sqlite3_column_int64(st, 2);
		l.ltotal += ld;
		l.acts += sqlite3_column_int64(st, 3);
		l.lmax = i == 0 || ld > l.lmax ? ld : l.lmax;
		for (int p = 0; p < NPICK; p++) {
			k[p].vlo = i == k[p].lo ? v : k[p].vlo;
			k[p].vhi = i == k[p].hi ? v : k[p].vhi;
		}
		if (i == k[P75].hi) {
			double q1 = pick_value(&k[P25], n), q3 = pick_value(&k[P75], n);
			fence = q3 + 3 * (q3 - q1);
		}
		l.out += i >= k[P75].hi && v > fence;
		i++;
	} while ((*rc = sqlite3_step(st)) == SQLITE_ROW && sqlite3_column_int64(st, 0) == run);
	if (i != n)
		return profdb__error(c->db, PROFDB_ERROR, "launches: the run's rows changed while read");
	l.lavg = (double)l.ltotal / (double)n;
	l.dmed = pick_value(&k[P50], n);
	l.dp90 = pick_value(&k[P90], n);
	l.dp99 = pick_value(&k[P99], n);
	l.dmax = (int64_t)v;
	if (run_end_delays(c, est, &l, n) != PROFDB_OK)
		return PROFDB_ERROR;
	return add_fence(c, run, fence) != PROFDB_OK ? PROFDB_ERROR : put_line(c, &l);
}

/* The "(all)" lines of the one-activity launches: each run's count, then
 * its start delays and its end delays in order. */
static int all_pass(struct nctx *c)
{
	sqlite3_stmt *cnt = NULL, *st = NULL, *est = NULL;
	int rc, err;

	if ((err = calls_stmt(c, "run_id, count(*)", "WHERE cls = 1 GROUP BY run_id ORDER BY run_id", &cnt)) !=
	            PROFDB_OK ||
	    (err = calls_stmt(c, "run_id, ld, delay, n", "WHERE cls = 1 ORDER BY run_id, delay", &st)) != PROFDB_OK ||
	    (err = calls_stmt(c, "run_id, edelay", "WHERE cls = 1 ORDER BY run_id, edelay", &est)) != PROFDB_OK)
		goto out;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_step(est) != SQLITE_ROW)
		err = profdb__error(c->db, PROFDB_ERROR, "launches: the run's rows changed while read");
	while (err == PROFDB_OK && rc == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		if (sqlite3_step(cnt) != SQLITE_ROW || sqlite3_column_int64(cnt, 0) != run ||
		    sqlite3_column_int64(cnt, 1) <= 0) {
			err = profdb__error(c->db, PROFDB_ERROR, "launches: the run's rows changed while read");
			break;
		}
		err = run_line(c, st, est, run, (size_t)sqlite3_column_int64(cnt, 1), &rc);
	}
	if (err == PROFDB_OK && rc != SQLITE_DONE)
		err = profdb__sqlerror(c->db, "cannot read launches");
out:
	sqlite3_finalize(cnt);
	sqlite3_finalize(st);
	sqlite3_finalize(est);
	return err;
}

/* One run's one-activity calls held for its "(all)" line: their start and
 * end delays, launch durations and activities. */
struct held_run {
	int64_t run, ltotal, lmax, acts;
	double *d, *e;
	size_t n, cap;
};

/* The runs held, in run order, and the bytes of their delays. */
struct held {
	struct held_run *r;
	size_t nr, rcap;
	uint64_t bytes;
};

static void held_free(struct held *h)
{
	for (size_t i = 0; i < h->nr; i++) {
		free(h->r[i].d);
		free(h->r[i].e);
	}
	free(h->r);
}

/* The held run of id run, added in run order if new; NULL: out of memory. */
static struct held_run *held_run_of(struct held *h, int64_t run, size_t *last)
{
	size_t lo = 0, hi = h->nr;
	if (*last < h->nr && h->r[*last].run == run)
		return &h->r[*last];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->r[mid].run < run)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == h->nr || h->r[lo].run != run) {
		if (h->nr == h->rcap) {
			size_t ncap = h->rcap ? 2 * h->rcap : 16;
			struct held_run *r = realloc(h->r, ncap * sizeof *r);
			if (!r)
				return NULL;
			h->r = r;
			h->rcap = ncap;
		}
		memmove(&h->r[lo + 1], &h->r[lo], (h->nr - lo) * sizeof *h->r);
		h->r[lo] = (struct held_run){ .run = run };
		h->nr++;
	}
	*last = lo;
	return &h->r[lo];
}

static int held_add(struct held_run *r, int64_t ld, double delay, double edelay, int64_t acts)
{
	if (r->n == r->cap) {
		size_t ncap = r->cap ? 2 * r->cap : 1024;
		double *d = realloc(r->d, ncap * sizeof *d);
		double *e = d ? realloc(r->e, ncap * sizeof *e) : NULL;
		if (d)
			r->d = d;
		if (!e)
			return PROFDB_ERROR;
		r->e = e;
		r->cap = ncap;
	}
	r->lmax = r->n == 0 || ld > r->lmax ? ld : r->lmax;
	r->d[r->n] = delay;
	r->e[r->n++] = edelay;
	r->ltotal += ld;
	r->acts += acts;
	return PROFDB_OK;
}

/*
 * The one-activity calls of every run into h, in the table's order (no
 * sort), while their delays fit the hold budget (16 bytes a call): the
 * ordered scans of all_pass are most of the by-name cost.  *fit 0: past
 * the budget, h emptied.
 */
static int held_read(struct nctx *c, struct held *h, int *fit)
{
	sqlite3_stmt *st = NULL;
	size_t last = 0;
	int rc = SQLITE_DONE, err = calls_stmt(c, "run_id, ld, delay, edelay, n", "WHERE cls = 1", &st);

	*fit = 1;
	while (err == PROFDB_OK && *fit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct held_run *r = held_run_of(h, sqlite3_column_int64(st, 0), &last);
		h->bytes += 2 * sizeof(double);
		*fit = h->bytes <= c->db->limits.hold_bytes;
		if (!r || (*fit && held_add(r, sqlite3_column_int64(st, 1), (double)sqlite3_column_int64(st, 2),
		                            (double)sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4)) !=
		                           PROFDB_OK))
			err = profdb__error(c->db, PROFDB_ERROR, "out of memory");
	}
	if (err == PROFDB_OK && *fit && rc != SQLITE_DONE)
		err = profdb__sqlerror(c->db, "cannot read launches");
	sqlite3_finalize(st);
	if (err != PROFDB_OK || !*fit) {
		held_free(h);
		*h = (struct held){ 0 };
	}
	return err;
}

/* The "(all)" line and fence of each held run, as run_line makes them from
 * its ordered scans (the same ranks and interpolation: stats.c). */
static int held_lines(struct nctx *c, struct held *h)
{
	for (size_t i = 0; i < h->nr; i++) {
		struct held_run *r = &h->r[i];
		struct nline l = { .run_id = r->run, .cls = PROFDB__LAUNCH_ASYNC, .calls = (int64_t)r->n,
		                   .ltotal = r->ltotal, .lmax = r->lmax, .acts = r->acts };
		double q1, q3, fence;
		profdb__sort_doubles(r->d, r->n);
		profdb__sort_doubles(r->e, r->n);
		q1 = profdb__percentile_sorted(r->d, r->n, 25);
		q3 = profdb__percentile_sorted(r->d, r->n, 75);
		fence = q3 + 3 * (q3 - q1);
		for (size_t k = r->n; k > 0 && r->d[k - 1] > fence; k--)
			l.out++;
		l.lavg = (double)l.ltotal / (double)r->n;
		l.dmed = profdb__percentile_sorted(r->d, r->n, 50);
		l.dp90 = profdb__percentile_sorted(r->d, r->n, 90);
		l.dp99 = profdb__percentile_sorted(r->d, r->n, 99);
		l.dmax = (int64_t)r->d[r->n - 1];
		l.emed = profdb__percentile_sorted(r->e, r->n, 50);
		l.ep90 = profdb__percentile_sorted(r->e, r->n, 90);
		l.emax = (int64_t)r->e[r->n - 1];
		if (add_fence(c, r->run, fence) != PROFDB_OK || put_line(c, &l) != PROFDB_OK)
			return PROFDB_ERROR;
	}
	return PROFDB_OK;
}

/* The "(all)" lines: from the held delays when they fit, else all_pass. */
static int all_lines(struct nctx *c)
{
	struct held h = { 0 };
	int fit, rc = held_read(c, &h, &fit);
	if (rc == PROFDB_OK)
		rc = fit ? held_lines(c, &h) : all_pass(c);
	held_free(&h);
	return rc;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The line of one name: its n start delays sorted in c->d, end delays in c->e. */
static int name_line(struct nctx *c, struct nline *l, size_t n, double fence)
{
	for (size_t i = 0; i < n; i++)
		l->out += c->d[i] > fence;
	qsort(c->e, n, sizeof *c->e, cmp_double);
	l->calls = (int64_t)n;
	l->lavg = (double)l->ltotal / (double)n;
	l->dmed = profdb__percentile_sorted(c->d, n, 50);
	l->dp90 = profdb__percentile_sorted(c->d, n, 90);
	l->dp99 = profdb__percentile_sorted(c->d, n, 99);
	l->dmax = (int64_t)c->d[n - 1];
	l->emed = profdb__percentile_sorted(c->e, n, 50);
	l->ep90 = profdb__percentile_sorted(c->e, n, 90);
	l->emax = (int64_t)c->e[n - 1];
	if (l->cls == PROFDB__LAUNCH_GRAPH) {
		c->counts->graph_calls += l->calls;
		c->counts->graph_acts += l->acts;
	} else if (l->cls == PROFDB__LAUNCH_BLOCKING) {
		c->counts->blocking_calls += l->calls;
		c->counts->blocking_acts += l->acts;
	}
	return put_line(c, l);
}

static int hold_delay(struct nctx *c, size_t n, double v, double e)
{
	if (n == c->dcap) {
		size_t ncap = c->dcap ? 2 * c->dcap : 1024;
		double *d = realloc(c->d, ncap * sizeof *d);
		double *ne = d ? realloc(c->e, ncap * sizeof *ne) : NULL;
		if (d)
			c->d = d;
		if (!ne)
			return profdb__error(c->db, PROFDB_ERROR, "out of memory");
		c->e = ne;
		c->dcap = ncap;
	}
	c->d[n] = v;
	c->e[n] = e;
	return PROFDB_OK;
}

/* The fence of run (from all_pass: same runs, same order; a run of graph
 * launches or blocking copies only has none, and needs none). */
static double run_fence(struct nctx *c, size_t *ri, int64_t run)
{
	while (*ri < c->nruns && c->fence_run[*ri] < run)
		(*ri)++;
	return *ri < c->nruns && c->fence_run[*ri] == run ? c->fence[*ri] : 0;
}

/* The per-name lines: the calls ordered by (run, class, name, delay), one
 * name's delays held at a time. */
static int name_pass(struct nctx *c)
{
	sqlite3_stmt *st = NULL;
	struct nline l = { 0 };
	size_t n = 0, ri = 0;
	double fence = 0;
	int rc = SQLITE_DONE, err;

	if ((err = calls_stmt(c, "run_id, cls, gname, ld, delay, edelay, n", "ORDER BY run_id, cls, gname, delay",
	                      &st)) != PROFDB_OK)
		return err;
	while (err == PROFDB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t krun = sqlite3_column_int64(st, 0), kcls = sqlite3_column_int64(st, 1);
		int64_t kname = sqlite3_column_int64(st, 2), ld = sqlite3_column_int64(st, 3);
		int64_t delay = sqlite3_column_int64(st, 4);
		if (n && (krun != l.run_id || kcls != l.cls || kname != l.name_id)) {
			l.name = text_of(c->str_name, l.name_id);
			err = name_line(c, &l, n, fence);
			n = 0;
		}
		if (n == 0) {
			fence = run_fence(c, &ri, krun);
			l = (struct nline){ .run_id = krun, .cls = kcls, .name_id = kname };
		}
		l.ltotal += ld;
		l.acts += sqlite3_column_int64(st, 6);
		l.lmax = n == 0 || ld > l.lmax ? ld : l.lmax;
		c->counts->calls++;
		c->counts->negative += delay < 0;
		c->counts->linked += sqlite3_column_int64(st, 6);
		if (err == PROFDB_OK)
			err = hold_delay(c, n++, (double)delay, (double)sqlite3_column_int64(st, 5));
	}
	if (err == PROFDB_OK && rc != SQLITE_DONE)
		err = profdb__sqlerror(c->db, "cannot read launches");
	if (err == PROFDB_OK && n) {
		l.name = text_of(c->str_name, l.name_id);
		err = name_line(c, &l, n, fence);
	}
	sqlite3_finalize(st);
	return err;
}

int profdb__launches_by_name(profdb *db, profdb_result **out, const struct profdb_filter *f,
                             struct profdb__launch_counts *counts)
{
	struct nctx c = { .db = db, .f = f, .counts = counts };
	/* helpers go: run_id and ord, and run with one run */
	uint64_t drop = (1u << N_RUN_ID) | (1u << N_ORD) | (profdb__qfilter_run_column(f) ? 0 : 1u << N_RUN);
	int rc = profdb__spool_open(db, &c.sp, name_cols, name_types, N_COUNT);

	*out = NULL;
	if (rc == PROFDB_OK && (sqlite3_prepare_v2(db->sql, "SELECT name FROM run WHERE id = ?1", -1, &c.run_name,
	                                           NULL) != SQLITE_OK ||
	                        sqlite3_prepare_v2(db->sql, "SELECT value FROM str WHERE id = ?1", -1, &c.str_name,
	                                           NULL) != SQLITE_OK))
		rc = profdb__sqlerror(db, "cannot read names");
	if (rc == PROFDB_OK)
		rc = profdb__launch_calls_make(db, f);
	if (rc == PROFDB_OK)
		rc = all_lines(&c);
	if (rc == PROFDB_OK)
		rc = name_pass(&c);
	sqlite3_finalize(c.run_name);
	sqlite3_finalize(c.str_name);
	profdb__launch_calls_drop(db);
	if (rc == PROFDB_OK)
		rc = profdb__spool_answer(&c.sp, out, drop,
		                          "\"run_id\", \"ord\", \"launch_total\" DESC, \"name\"");
	profdb__spool_close(&c.sp);
	free(c.fence_run);
	free(c.fence);
	free(c.d);
	free(c.e);
	return rc;
}
