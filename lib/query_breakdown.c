/*
 * query_breakdown.c - profdb breakdown: per run, rank and step (or per rank
 * over the whole run) where the device time went.  The device activities of
 * a rank are split into compute (kind kernel or other), communication
 * (kind communication) and memory (memcpy, memset); each class is merged
 * into its union across streams, and the figures (interval.c) are lengths
 * of those unions and their intersections.  span is first start to last
 * end of the group, idle = span - busy; the percentages are of span,
 * comm_overlap_pct of communication.  Definitions: README "## Analyses".
 *
 * Two statements: one makes the group rows (span and count in SQL), one
 * streams the intervals in the same group order and fills the figures.
 */
#include <stdlib.h>

#include "query.h"
#include "interval.h"
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

static void groups_sql(struct qbuf *b, const struct profdb_breakdown_query *q)
{
	const char *step = q->by_rank ? "NULL" : "k.step";
	qbuf_addf(b, "SELECT k.run_id, r.name AS run, k.rank, %s AS step,"
	          " max(k.start_ns + k.dur_ns) - min(k.start_ns) AS span, NULL AS busy, NULL AS compute,"
	          " NULL AS communication, NULL AS memory, NULL AS compute_comm_overlap,"
	          " NULL AS compute_memory_overlap, NULL AS comm_memory_overlap,"
	          " NULL AS exposed_communication, NULL AS exposed_memory, NULL AS idle,"
	          " NULL AS compute_pct, NULL AS communication_pct, NULL AS memory_pct,"
	          " NULL AS exposed_communication_pct, NULL AS idle_pct, NULL AS comm_overlap_pct,"
	          " count(*) AS kernels FROM kernel k JOIN run r ON r.id = k.run_id WHERE 1", step);
	qfilter_where(b, &q->filter, "k", QF_KERNEL, 0);
	qbuf_addf(b, " GROUP BY k.run_id, k.rank%s ORDER BY k.run_id, k.rank%s",
	          q->by_rank ? "" : ", k.step", q->by_rank ? "" : ", k.step");
}

/* The three interval classes of the group being read. */
struct classes {
	struct profdb_interval *iv[3]; /* compute, communication, memory */
	size_t n[3], cap[3];
	struct profdb_interval *scratch;
	size_t scap;
};

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
		struct profdb_interval *n = realloc(c->iv[k], ncap * sizeof *n);
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

/* Merge the collected classes, write the figures into row, empty the classes. */
static int fill_row(struct classes *c, profdb_result *r, size_t row)
{
	struct profdb_breakdown b;
	int64_t span = profdb_result_int(r, row, C_SPAN);
	int rc = PROFDB_OK;

	for (int k = 0; k < 3; k++)
		c->n[k] = profdb__ivals_merge(c->iv[k], c->n[k]);
	if (c->n[0] + c->n[1] > c->scap) {
		struct profdb_interval *s = realloc(c->scratch, (c->n[0] + c->n[1]) * sizeof *s);
		if (!s)
			return PROFDB_ERROR;
		c->scratch = s;
		c->scap = c->n[0] + c->n[1];
	}
	profdb__breakdown_figures(&b, c->iv[0], c->n[0], c->iv[1], c->n[1], c->iv[2], c->n[2], c->scratch);
	rc |= qresult_set_int(r, row, C_BUSY, b.busy);
	rc |= qresult_set_int(r, row, C_COMPUTE, b.compute);
	rc |= qresult_set_int(r, row, C_COMM, b.comm);
	rc |= qresult_set_int(r, row, C_MEMORY, b.memory);
	rc |= qresult_set_int(r, row, C_OV_CC, b.compute_comm);
	rc |= qresult_set_int(r, row, C_OV_CY, b.compute_memory);
	rc |= qresult_set_int(r, row, C_OV_MY, b.comm_memory);
	rc |= qresult_set_int(r, row, C_EXP_COMM, b.exposed_comm);
	rc |= qresult_set_int(r, row, C_EXP_MEM, b.exposed_memory);
	rc |= qresult_set_int(r, row, C_IDLE, span - b.busy);
	if (span > 0) {
		rc |= qresult_set_double(r, row, C_COMPUTE_PCT, pct(b.compute, span));
		rc |= qresult_set_double(r, row, C_COMM_PCT, pct(b.comm, span));
		rc |= qresult_set_double(r, row, C_MEMORY_PCT, pct(b.memory, span));
		rc |= qresult_set_double(r, row, C_EXP_COMM_PCT, pct(b.exposed_comm, span));
		rc |= qresult_set_double(r, row, C_IDLE_PCT, pct(span - b.busy, span));
	}
	if (b.comm > 0)
		rc |= qresult_set_double(r, row, C_OVERLAP_PCT, pct(b.compute_comm, b.comm));
	c->n[0] = c->n[1] = c->n[2] = 0;
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

/* Whether row holds the group (run, rank, step); step INT64_MIN is NULL. */
static int row_is(const profdb_result *r, size_t row, int64_t run, int64_t rank, int64_t step)
{
	int64_t rs = profdb_result_isnull(r, row, C_STEP) ? INT64_MIN : profdb_result_int(r, row, C_STEP);
	return profdb_result_int(r, row, C_RUN_ID) == run && profdb_result_int(r, row, C_RANK) == rank &&
	       rs == step;
}

/* The interval pass: kernels in group order, one row filled per group. */
static int fill(profdb *db, profdb_result *r, const struct profdb_breakdown_query *q)
{
	struct qbuf b = { 0 };
	struct classes c = { 0 };
	sqlite3_stmt *st = NULL;
	int64_t run = 0, rank = 0, step = 0;
	size_t row = 0;
	int rc, have = 0, err = PROFDB_OK;

	qbuf_addf(&b, "SELECT k.run_id, k.rank, %s, k.kind, k.start_ns, k.start_ns + k.dur_ns"
	          " FROM kernel k WHERE 1", q->by_rank ? "NULL" : "k.step");
	qfilter_where(&b, &q->filter, "k", QF_KERNEL, 0);
	qbuf_addf(&b, " ORDER BY k.run_id, k.rank%s", q->by_rank ? "" : ", k.step");
	rc = qprepare(db, &b, &st, "cannot read kernel intervals");
	qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	qfilter_bind(st, &q->filter);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && err == PROFDB_OK) {
		int64_t krun = sqlite3_column_int64(st, 0), krank = sqlite3_column_int64(st, 1);
		int64_t kstep = sqlite3_column_type(st, 2) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(st, 2);
		if (have && (krun != run || krank != rank || kstep != step)) {
			err = fill_row(&c, r, row++);
			have = 0;
		}
		if (!have) {
			run = krun, rank = krank, step = kstep, have = 1;
			/* both statements group and order alike: anything else is a bug */
			if (row >= r->nrows || !row_is(r, row, run, rank, step))
				err = PROFDB_EUSAGE;
		}
		if (err == PROFDB_OK)
			err = class_add(&c, class_of(sqlite3_column_int(st, 3)), sqlite3_column_int64(st, 4),
			                sqlite3_column_int64(st, 5));
	}
	if (err == PROFDB_OK && rc == SQLITE_DONE && have)
		err = fill_row(&c, r, row);
	sqlite3_finalize(st);
	for (int k = 0; k < 3; k++)
		free(c.iv[k]);
	free(c.scratch);
	if (err == PROFDB_EUSAGE)
		return profdb__error(db, PROFDB_ERROR, "breakdown: the kernel groups changed while reading");
	if (err != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return profdb__sqlerror(db, "cannot read kernel intervals");
	return PROFDB_OK;
}

int profdb__query_breakdown_full(profdb *db, profdb_result **out, const struct profdb_breakdown_query *q)
{
	struct qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if ((rc = qfilter_check(db, &q->filter)) != PROFDB_OK)
		return rc;
	if (q->filter.name_glob || q->filter.kind)
		return profdb__error(db, PROFDB_EUSAGE, "breakdown takes every kernel of a rank: no name or kind filter");
	groups_sql(&b, q);
	rc = qprepare(db, &b, &st, "cannot query the breakdown");
	qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	qfilter_bind(st, &q->filter);
	rc = profdb__result_from_stmt(db, out, st, types);
	sqlite3_finalize(st);
	if (rc == PROFDB_OK)
		rc = fill(db, *out, q);
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	return rc;
}

int profdb_query_breakdown(profdb *db, profdb_result **out, const struct profdb_breakdown_query *q)
{
	int rc = profdb__query_breakdown_full(db, out, q);
	if (rc != PROFDB_OK)
		return rc;
	if (q->by_rank)
		qresult_drop_column(*out, C_STEP);
	if (!qfilter_run_column(&q->filter))
		qresult_drop_column(*out, C_RUN);
	qresult_drop_column(*out, C_RUN_ID);
	return PROFDB_OK;
}
