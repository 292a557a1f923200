/*
 * query_breakdown.c - profdb breakdown: per run, rank and step (or per rank
 * over the whole run) where the device time went.  The device activities of
 * a rank are split into compute (kind kernel or other), communication
 * (kind communication) and memory (memcpy, memset); each class is merged
 * into its union across streams, and the figures (interval.c) are lengths
 * of those unions and their intersections.  span is first start to last
 * end of the group, idle = span - busy; the percentages are of span,
 * comm_overlap_pct of communication.  Definitions: doc/analyses.md "Analyses".
 *
 * One statement streams the intervals in group order; the group's figures,
 * span and count are made in C (a second statement grouping the same rows
 * doubled the time).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"

/* close_group: the spool failed and set the error (not memory) */
#define ESPOOL (-100)
#include "util/interval.h"
#include "banned.h"

/* Result columns before the helper run_id (and, --by rank, step) go. */
enum { C_RUN_ID, C_RUN, C_RANK, C_STEP, C_SPAN, C_BUSY, C_COMPUTE, C_COMM, C_MEMORY,
       C_OV_CC, C_OV_CY, C_OV_MY, C_EXP_COMM, C_EXP_MEM, C_IDLE, C_COMPUTE_PCT, C_COMM_PCT,
       C_MEMORY_PCT, C_EXP_COMM_PCT, C_IDLE_PCT, C_OVERLAP_PCT, C_KERNELS, C_COUNT };

static const enum profdb_coltype types[C_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_PCT, PROFDB_COL_PCT, PROFDB_COL_PCT,
	PROFDB_COL_PCT, PROFDB_COL_PCT, PROFDB_COL_PCT, PROFDB_COL_INT
};

static const char *const names[C_COUNT] = {
	"run_id", "run", "rank", "step", "span", "busy", "compute", "communication", "memory",
	"compute_comm_overlap", "compute_memory_overlap", "comm_memory_overlap", "exposed_communication",
	"exposed_memory", "idle", "compute_pct", "communication_pct", "memory_pct",
	"exposed_communication_pct", "idle_pct", "comm_overlap_pct", "kernels"
};

/* One group's figures, as it closes. */
struct bline {
	int64_t run, rank, step;   /* step INT64_MIN: NULL */
	int64_t span, kernels;
	struct profdb__breakdown b;
};

/* The three interval classes of the group being read, and the groups done. */
struct classes {
	struct profdb__interval *iv[3]; /* compute, communication, memory */
	size_t n[3], cap[3];
	struct profdb__interval *scratch;
	size_t scap;
	int64_t lo, hi, kernels;   /* the group's first start, last end, activities */
	struct profdb__spool *sp;  /* each group's row goes here as it closes */
	/* or to each (the rows of a profdb__query_breakdown_each), row 0 of one */
	int (*each)(void *arg, const profdb_result *row);
	void *each_arg;
	profdb_result *one;
	sqlite3_stmt *run_q;       /* (run name by id, for the spool's rows) */
};

static int fill_row(profdb_result *r, size_t row, const struct bline *l, sqlite3_stmt *q);

static int class_of(int kind)
{
	if (kind == PROFDB_KIND_COMM)
		return 1;
	if (kind == PROFDB_KIND_MEMCPY || kind == PROFDB_KIND_MEMSET)
		return 2;
	return 0;
}

static int class_add(struct classes *c, int k, int64_t s, int64_t e)
{
	if (c->n[k] == c->cap[k]) {
		size_t ncap = c->cap[k] ? c->cap[k] * 2 : 1024;
		struct profdb__interval *n = realloc(c->iv[k], ncap * sizeof *n);
		if (!n)
			return PROFDB_ERROR;
		c->iv[k] = n;
		c->cap[k] = ncap;
	}
	c->iv[k][c->n[k]].start = s;
	c->iv[k][c->n[k]].end = e;
	c->n[k]++;
	return PROFDB_OK;
}

static double pct(int64_t part, int64_t whole)
{
	return 100.0 * (double)part / (double)whole;
}

/* Merge the collected classes into the figures of a new line for group
 * (run, rank, step); empty the classes. */
static int close_group(struct classes *c, int64_t run, int64_t rank, int64_t step)
{
	struct bline one = { run, rank, step, c->hi - c->lo, c->kernels, { 0 } };
	profdb_result *r = c->sp ? c->sp->row : c->one;
	int rc;

	for (int k = 0; k < 3; k++)
		c->n[k] = profdb__ivals_merge(c->iv[k], c->n[k]);
	if (c->n[0] + c->n[1] > c->scap) {
		struct profdb__interval *s = realloc(c->scratch, (c->n[0] + c->n[1]) * sizeof *s);
		if (!s)
			return PROFDB_ERROR;
		c->scratch = s;
		c->scap = c->n[0] + c->n[1];
	}
	profdb__breakdown_figures(&one.b, c->iv[0], c->n[0], c->iv[1], c->n[1], c->iv[2], c->n[2], c->scratch);
	c->n[0] = c->n[1] = c->n[2] = 0;
	c->kernels = 0;
	if (fill_row(r, 0, &one, c->run_q) != PROFDB_OK)
		return PROFDB_ERROR;
	if (c->sp)
		return profdb__spool_put(c->sp) == PROFDB_OK ? PROFDB_OK : ESPOOL;
	rc = c->each(c->each_arg, r) == PROFDB_OK ? PROFDB_OK : ESPOOL;
	/* (a cell fill_row leaves, a NULL step or percentage, is NULL) */
	for (size_t k = 0; k < C_COUNT; k++)
		profdb__result_set_null(r, 0, k);
	return rc;
}

/* Line l into row of r; the run's name through q (run by id). */
static int fill_row(profdb_result *r, size_t row, const struct bline *l, sqlite3_stmt *q)
{
	const struct profdb__breakdown *b = &l->b;
	int64_t span = l->span;
	int rc = 0;

	sqlite3_bind_int64(q, 1, l->run);
	rc |= profdb__result_set_text(r, row, C_RUN, sqlite3_step(q) == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : "");
	sqlite3_reset(q);
	rc |= profdb__result_set_int(r, row, C_RUN_ID, l->run);
	rc |= profdb__result_set_int(r, row, C_RANK, l->rank);
	if (l->step != INT64_MIN)
		rc |= profdb__result_set_int(r, row, C_STEP, l->step);
	rc |= profdb__result_set_int(r, row, C_SPAN, span);
	rc |= profdb__result_set_int(r, row, C_KERNELS, l->kernels);
	rc |= profdb__result_set_int(r, row, C_BUSY, b->busy);
	rc |= profdb__result_set_int(r, row, C_COMPUTE, b->compute);
	rc |= profdb__result_set_int(r, row, C_COMM, b->comm);
	rc |= profdb__result_set_int(r, row, C_MEMORY, b->memory);
	rc |= profdb__result_set_int(r, row, C_OV_CC, b->compute_comm);
	rc |= profdb__result_set_int(r, row, C_OV_CY, b->compute_memory);
	rc |= profdb__result_set_int(r, row, C_OV_MY, b->comm_memory);
	rc |= profdb__result_set_int(r, row, C_EXP_COMM, b->exposed_comm);
	rc |= profdb__result_set_int(r, row, C_EXP_MEM, b->exposed_memory);
	rc |= profdb__result_set_int(r, row, C_IDLE, span - b->busy);
	if (span > 0) {
		rc |= profdb__result_set_double(r, row, C_COMPUTE_PCT, pct(b->compute, span));
		rc |= profdb__result_set_double(r, row, C_COMM_PCT, pct(b->comm, span));
		rc |= profdb__result_set_double(r, row, C_MEMORY_PCT, pct(b->memory, span));
		rc |= profdb__result_set_double(r, row, C_EXP_COMM_PCT, pct(b->exposed_comm, span));
		rc |= profdb__result_set_double(r, row, C_IDLE_PCT, pct(span - b->busy, span));
	}
	if (b->comm > 0)
		rc |= profdb__result_set_double(r, row, C_OVERLAP_PCT, pct(b->compute_comm, b->comm));
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

/* The one pass: kernels in group order, a line per group (span and count
 * too: a second statement grouping the same rows cost as much again). */
static int scan(profdb *db, struct classes *c, const struct profdb_breakdown_query *q)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int64_t run = 0, rank = 0, step = 0;
	int rc, have = 0, err = PROFDB_OK;

	profdb__qbuf_addf(&b, "SELECT k.run_id, k.rank, %s, k.kind, k.start_ns, k.start_ns + k.dur_ns"
	          " FROM kernel k WHERE 1", q->by_rank ? "NULL" : "k.step");
	profdb__qfilter_where(&b, &q->filter, "k", QF_KERNEL, 0);
	profdb__qbuf_addf(&b, " ORDER BY k.run_id, k.rank%s", q->by_rank ? "" : ", k.step");
	rc = profdb__query_prepare(db, &b, &st, "cannot read kernel intervals");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && err == PROFDB_OK) {
		int64_t krun = sqlite3_column_int64(st, 0), krank = sqlite3_column_int64(st, 1);
		int64_t kstep = sqlite3_column_type(st, 2) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(st, 2);
		int64_t s = sqlite3_column_int64(st, 4), e = sqlite3_column_int64(st, 5);
		if (have && (krun != run || krank != rank || kstep != step)) {
			err = close_group(c, run, rank, step);
			have = 0;
		}
		if (!have) {
			run = krun, rank = krank, step = kstep, have = 1;
			c->lo = s;
			c->hi = e;
		}
		c->lo = s < c->lo ? s : c->lo;
		c->hi = e > c->hi ? e : c->hi;
		c->kernels++;
		if (err == PROFDB_OK)
			err = class_add(c, class_of(sqlite3_column_int(st, 3)), s, e);
	}
	if (err == PROFDB_OK && rc == SQLITE_DONE && have)
		err = close_group(c, run, rank, step);
	sqlite3_finalize(st);
	if (err == ESPOOL) /* the spool said why */
		return PROFDB_ERROR;
	if (err != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return profdb__sqlerror(db, "cannot read kernel intervals");
	return PROFDB_OK;
}

static int check(profdb *db, const struct profdb_breakdown_query *q)
{
	int rc;
	if ((rc = profdb__qfilter_check(db, &q->filter)) != PROFDB_OK)
		return rc;
	if (q->filter.name_glob || q->filter.kind)
		return profdb__error(db, PROFDB_EUSAGE, "breakdown takes every kernel of a rank: no name or kind filter");
	return PROFDB_OK;
}

static void classes_free(struct classes *c)
{
	for (int k = 0; k < 3; k++)
		free(c->iv[k]);
	free(c->scratch);
}

/* Each group's row (every column, step NULL with by_rank) to each as the
 * scan closes it, nothing held: ranks (issue 20). */
int profdb__query_breakdown_each(profdb *db, const struct profdb_breakdown_query *q,
                                 int (*each)(void *arg, const profdb_result *row), void *arg)
{
	struct classes c = { 0 };
	int rc;

	if ((rc = check(db, q)) != PROFDB_OK)
		return rc;
	c.each = each;
	c.each_arg = arg;
	if (profdb__result_new_rows(&c.one, names, types, C_COUNT, 1) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	if (sqlite3_prepare_v2(db->sql, "SELECT name FROM run WHERE id = ?1", -1, &c.run_q, NULL) != SQLITE_OK)
		rc = profdb__sqlerror(db, "cannot read runs");
	if (rc == PROFDB_OK)
		rc = scan(db, &c, q);
	sqlite3_finalize(c.run_q);
	profdb_result_free(c.one);
	classes_free(&c);
	return rc;
}

/* ---------------------------------------------------------------- ranks without kernels */

/* The metrics of step_trace_time.csv / analysis.db StepTraceTime (µs). */
enum { M_COMPUTE, M_COMM, M_OVERLAP, M_EXPOSED, M_FREE, M_N };

static int64_t us_ns(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? INT64_MIN : llround(sqlite3_column_double(st, i) * 1000.0);
}

/* One step-table group into s->row: the figures the profiler gives
 * (Computing, Communication, Overlapped, Communication(Not Overlapped),
 * Free), span = Computing + Communication(Not Overlapped) + Free (its
 * Stage), busy = span - Free; memory and kernels unknown (NULL). */
static int step_table_row(struct profdb__spool *sp, sqlite3_stmt *st, sqlite3_stmt *run_q)
{
	profdb_result *r = sp->row;
	int64_t m[M_N], span;
	int rc = 0;
	const int cols[M_N] = { C_COMPUTE, C_COMM, C_OV_CC, C_EXP_COMM, C_IDLE };
	for (int i = 0; i < M_N; i++) {
		m[i] = us_ns(st, 3 + i);
		if (m[i] != INT64_MIN)
			rc |= profdb__result_set_int(r, 0, (size_t)cols[i], m[i]);
	}
	sqlite3_bind_int64(run_q, 1, sqlite3_column_int64(st, 0));
	rc |= profdb__result_set_text(r, 0, C_RUN, sqlite3_step(run_q) == SQLITE_ROW ?
	                              (const char *)sqlite3_column_text(run_q, 0) : "");
	sqlite3_reset(run_q);
	rc |= profdb__result_set_int(r, 0, C_RUN_ID, sqlite3_column_int64(st, 0));
	rc |= profdb__result_set_int(r, 0, C_RANK, sqlite3_column_int64(st, 1));
	if (sqlite3_column_type(st, 2) != SQLITE_NULL)
		rc |= profdb__result_set_int(r, 0, C_STEP, sqlite3_column_int64(st, 2));
	if (m[M_COMPUTE] != INT64_MIN && m[M_EXPOSED] != INT64_MIN && m[M_FREE] != INT64_MIN) {
		span = m[M_COMPUTE] + m[M_EXPOSED] + m[M_FREE];
		rc |= profdb__result_set_int(r, 0, C_SPAN, span);
		rc |= profdb__result_set_int(r, 0, C_BUSY, span - m[M_FREE]);
		if (span > 0) {
			rc |= profdb__result_set_double(r, 0, C_COMPUTE_PCT, pct(m[M_COMPUTE], span));
			if (m[M_COMM] != INT64_MIN)
				rc |= profdb__result_set_double(r, 0, C_COMM_PCT, pct(m[M_COMM], span));
			rc |= profdb__result_set_double(r, 0, C_EXP_COMM_PCT, pct(m[M_EXPOSED], span));
			rc |= profdb__result_set_double(r, 0, C_IDLE_PCT, pct(m[M_FREE], span));
		}
	}
	if (m[M_COMM] > 0 && m[M_OVERLAP] != INT64_MIN)
		rc |= profdb__result_set_double(r, 0, C_OVERLAP_PCT, pct(m[M_OVERLAP], m[M_COMM]));
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

/* The ranks with no kernel row at all but a step table of the profiler's
 * (an Ascend rank whose export holds only step_trace_time.csv or
 * analysis.db): a row per step (per rank with by_rank, summed) from that
 * table, after the kernel rows, and a note naming them. */
static int step_table(profdb *db, struct profdb__spool *sp, sqlite3_stmt *run_q,
                      const struct profdb_breakdown_query *q, char *note, size_t cap)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	size_t len = 0;
	int64_t last_run = INT64_MIN, last_rank = INT64_MIN;
	int rc, src;

	profdb__qbuf_addf(&b, "SELECT m.run_id, m.rank, %s,"
	    " sum(CASE WHEN m.metric = 'Computing' THEN m.value END),"
	    " sum(CASE WHEN m.metric = 'Communication' THEN m.value END),"
	    " sum(CASE WHEN m.metric = 'Overlapped' THEN m.value END),"
	    " sum(CASE WHEN m.metric = 'Communication(Not Overlapped)' THEN m.value END),"
	    " sum(CASE WHEN m.metric = 'Free' THEN m.value END)"
	    " FROM step_metric m WHERE NOT EXISTS (SELECT 1 FROM kernel x WHERE x.run_id = m.run_id"
	    " AND x.rank = m.rank)", q->by_rank ? "NULL" : "m.step");
	profdb__qfilter_where(&b, &q->filter, "m", QF_STEP, 0);
	profdb__qbuf_addf(&b, " GROUP BY m.run_id, m.rank%s ORDER BY m.run_id, m.rank%s",
	                  q->by_rank ? "" : ", m.step", q->by_rank ? "" : ", m.step");
	rc = profdb__query_prepare(db, &b, &st, "cannot read step metrics");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	while ((src = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0), rank = sqlite3_column_int64(st, 1);
		if (step_table_row(sp, st, run_q) != PROFDB_OK) {
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
			break;
		}
		if ((rc = profdb__spool_put(sp)) != PROFDB_OK)
			break;
		if ((run != last_run || rank != last_rank) && len + 32 < cap)
			len += (size_t)snprintf(note + len, cap - len, "%s%lld", len ? ", " : "", (long long)rank);
		last_run = run;
		last_rank = rank;
	}
	if (rc == PROFDB_OK && src != SQLITE_DONE)
		rc = profdb__sqlerror(db, "cannot read step metrics");
	sqlite3_finalize(st);
	return rc;
}

/* The note on the rows step_table added (ranks: "1, 3"). */
static int step_table_note(profdb *db, profdb_result *r, const char *ranks)
{
	char note[1400];
	if (!*ranks)
		return PROFDB_OK;
	snprintf(note, sizeof note, "rank %s: no kernel rows; its rows are the profiler's own step table"
	         " (step_trace_time / analysis.db StepTraceTime): memory and kernels unknown", ranks);
	return profdb__result_add_note(r, note) == PROFDB_OK ? PROFDB_OK : profdb__error(db, PROFDB_ERROR, "out of memory");
}

/* A narrow terminal keeps busy, compute, communication and idle time
 * (format_table.c); overlaps and shares go first. */
static const char *const headline_cols[] = {
	"busy", "compute", "communication", "idle", NULL
};
static const char *const hide_cols[] = {
	"comm_overlap_pct", "compute_memory_overlap|comm_memory_overlap",
	"compute_comm_overlap", "exposed_memory", "memory_pct",
	"compute_pct|communication_pct", "exposed_communication_pct", "idle_pct", "memory",
	"exposed_communication", "span", "kernels", NULL
};

/* Each group's row goes to a spool as the scan closes it: streamed when the
 * CLI armed db (issue 20). */
int profdb_query_breakdown(profdb *db, profdb_result **out, const struct profdb_breakdown_query *q)
{
	struct classes c = { 0 };
	struct profdb__spool sp;
	char ranks[1024] = "";
	uint64_t drop = ((uint64_t)1 << C_RUN_ID) | (q->by_rank ? (uint64_t)1 << C_STEP : 0) |
	                (profdb__qfilter_run_column(&q->filter) ? 0 : (uint64_t)1 << C_RUN);
	int rc;

	*out = NULL;
	memset(&sp, 0, sizeof sp);
	if ((rc = check(db, q)) != PROFDB_OK)
		return rc;
	c.sp = &sp;
	if ((rc = profdb__spool_open(db, &sp, names, types, C_COUNT)) == PROFDB_OK &&
	    sqlite3_prepare_v2(db->sql, "SELECT name FROM run WHERE id = ?1", -1, &c.run_q, NULL) != SQLITE_OK)
		rc = profdb__sqlerror(db, "cannot read runs");
	if (rc == PROFDB_OK)
		rc = scan(db, &c, q);
	if (rc == PROFDB_OK)
		rc = step_table(db, &sp, c.run_q, q, ranks, sizeof ranks);
	sqlite3_finalize(c.run_q);
	/* the scan's order (run, rank, step; NULL step first), step-table rows in place */
	if (rc == PROFDB_OK)
		rc = profdb__spool_answer(&sp, out, drop, "run_id, rank, step, rowid");
	if (rc == PROFDB_OK && (rc = step_table_note(db, *out, ranks)) != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	profdb__spool_close(&sp);
	classes_free(&c);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}
