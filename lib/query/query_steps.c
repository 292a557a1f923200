/*
 * query_steps.c - one row per (run, rank, step) (profdb steps): the step's
 * wall time, device busy time, kernel count, device time and its top
 * kernel.
 *
 *  - wall: the step's host span (Kineto ProfilerStep#N) when stored, else
 *    first kernel start to last kernel end of that step.
 *  - span: first kernel start to last kernel end of the step (the device's
 *    view of it: kernels of a step often run after its host span ended).
 *  - busy: the length of the UNION of the step's kernel intervals on that
 *    rank (overlapping kernels on several streams count once), computed in
 *    C by sorting the intervals (stats.c profdb__union_ns).  busy_pct is
 *    busy / span: how much of its own stretch the device was working.
 *  - device_total: the plain sum of durations (>= busy when kernels overlap).
 *  - top_kernel: the name with the largest total in the step (A..Z on a tie).
 *  - kernels outside every step make a row with step NULL.
 */
#include <stdlib.h>

#include "query.h"
#include "stats.h"
#include "banned.h"

/* Columns of the main statement, before the helper run_id is dropped. */
enum { C_RUN_ID, C_RUN, C_RANK, C_STEP, C_WALL, C_SPAN, C_BUSY, C_BUSY_PCT, C_KERNELS, C_DEVICE,
       C_TOP_TOTAL, C_TOP, C_COUNT };

static const enum profdb_coltype step_types[C_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_PCT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_TEXT
};

/* kg and tk: the kernel groups (busy filled later) and each group's top
 * kernel, grouped here or, on a clickhouse:// snapshot, by the server
 * (lib/clickhouse/ch_steps.c, busy included) */
static void kernel_groups_sql(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f)
{
	if (db->ch_steps) {
		profdb__qbuf_add(b, "WITH kg AS (SELECT run_id, rank, step, n, tot, s0, s1, busy FROM temp.ch_kg),\n"
		    " tk AS (SELECT run_id, rank, step, top AS name, top_total AS t FROM temp.ch_kg),\n");
		return;
	}
	profdb__qbuf_add(b, "WITH f AS (SELECT k.* FROM kernel k WHERE 1");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, "),\n"
	    " kg AS (SELECT run_id, rank, step, count(*) AS n, sum(dur_ns) AS tot, min(start_ns) AS s0,"
	    "  max(start_ns + dur_ns) AS s1, NULL AS busy FROM f GROUP BY run_id, rank, step),\n"
	    /* the top kernel by plain aggregates, not a row_number() window:
	     * SQLite gives a window's result no automatic index, so joining it
	     * scanned it once per step (17 406 steps: 492 s) */
	    " pn AS (SELECT run_id, rank, step, name_id, sum(dur_ns) AS t FROM f"
	    "  GROUP BY run_id, rank, step, name_id),\n"
	    " pm AS (SELECT run_id, rank, step, max(t) AS t FROM pn GROUP BY run_id, rank, step),\n"
	    " tk AS (SELECT p.run_id, p.rank, p.step, min(s.value) AS name, p.t FROM pn p"
	    "  JOIN pm m ON m.run_id = p.run_id AND m.rank = p.rank AND m.step IS p.step AND m.t = p.t"
	    "  JOIN str s ON s.id = p.name_id GROUP BY p.run_id, p.rank, p.step),\n");
}

static void main_sql(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f)
{
	kernel_groups_sql(db, b, f);
	profdb__qbuf_add(b, " ks AS (SELECT run_id, rank, step FROM kg UNION SELECT s.run_id, s.rank, s.step"
	    "  FROM step s WHERE 1");
	profdb__qfilter_where(b, f, "s", QF_STEP, 0);
	profdb__qbuf_add(b, ")\n"
	    "SELECT ks.run_id, r.name AS run, ks.rank, ks.step,"
	    " CASE WHEN sp.start_ns IS NOT NULL AND sp.end_ns IS NOT NULL THEN sp.end_ns - sp.start_ns"
	    "  ELSE kg.s1 - kg.s0 END AS wall, kg.s1 - kg.s0 AS span,"
	    " kg.busy AS busy, NULL AS busy_pct, coalesce(kg.n, 0) AS kernels,"
	    " coalesce(kg.tot, 0) AS device_total, tk.t AS top_total, tk.name AS top_kernel"
	    " FROM ks JOIN run r ON r.id = ks.run_id"
	    " LEFT JOIN step sp ON sp.run_id = ks.run_id AND sp.rank = ks.rank AND sp.step = ks.step"
	    " LEFT JOIN kg ON kg.run_id = ks.run_id AND kg.rank = ks.rank AND kg.step IS ks.step"
	    " LEFT JOIN tk ON tk.run_id = ks.run_id AND tk.rank = ks.rank AND tk.step IS ks.step"
	    " ORDER BY ks.run_id, ks.rank, ks.step");
}

/* (run_id, rank, step) with NULL step as INT64_MIN: SQLite sorts NULL first too. */
struct gkey {
	int64_t run, rank, step;
};

static int key_cmp(const struct gkey *a, const struct gkey *b)
{
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return 0;
}

static struct gkey row_key(const profdb_result *r, size_t row)
{
	struct gkey k;
	k.run = profdb_result_int(r, row, C_RUN_ID);
	k.rank = profdb_result_int(r, row, C_RANK);
	k.step = profdb_result_isnull(r, row, C_STEP) ? INT64_MIN : profdb_result_int(r, row, C_STEP);
	return k;
}

struct sweep {
	profdb_result *r;
	size_t row;                /* next result row to match */
	struct profdb__interval *iv;
	size_t n, cap;
	struct gkey key;           /* group of the collected intervals */
};

/* Store the union of the collected intervals in the row of their group. */
static int flush(struct sweep *s)
{
	struct gkey rk = { 0, 0, 0 };
	if (s->n == 0)
		return PROFDB_OK;
	while (s->row < s->r->nrows) {
		rk = row_key(s->r, s->row);
		if (key_cmp(&rk, &s->key) >= 0)
			break;
		s->row++;
	}
	if (s->row < s->r->nrows && key_cmp(&rk, &s->key) == 0 &&
	    profdb__result_set_int(s->r, s->row, C_BUSY, profdb__union_ns(s->iv, s->n)) != PROFDB_OK)
		return PROFDB_ERROR;
	s->n = 0;
	return PROFDB_OK;
}

static int add_interval(struct sweep *s, int64_t start, int64_t end)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024;
		struct profdb__interval *niv = realloc(s->iv, ncap * sizeof *niv);
		if (!niv)
			return PROFDB_ERROR;
		s->iv = niv;
		s->cap = ncap;
	}
	s->iv[s->n].start = start;
	s->iv[s->n].end = end;
	s->n++;
	return PROFDB_OK;
}

/* The busy column from one pass over the filtered kernels in group order. */
static int sweep_busy(profdb *db, profdb_result *r, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	struct sweep s = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	s.r = r;
	profdb__qbuf_add(&b, "SELECT k.run_id, k.rank, k.step, k.start_ns, k.start_ns + k.dur_ns FROM kernel k WHERE 1");
	profdb__qfilter_where(&b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(&b, " ORDER BY k.run_id, k.rank, k.step");
	rc = profdb__query_prepare(db, &b, &st, "cannot read kernel intervals");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gkey k;
		k.run = sqlite3_column_int64(st, 0);
		k.rank = sqlite3_column_int64(st, 1);
		k.step = sqlite3_column_type(st, 2) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(st, 2);
		if (s.n && key_cmp(&k, &s.key) != 0 && flush(&s) != PROFDB_OK)
			break;
		s.key = k;
		if (add_interval(&s, sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4)) != PROFDB_OK)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || flush(&s) != PROFDB_OK) {
		free(s.iv);
		return rc == SQLITE_ROW || rc == SQLITE_DONE ? profdb__error(db, PROFDB_ERROR, "out of memory") :
		       profdb__sqlerror(db, "cannot read kernel intervals");
	}
	free(s.iv);
	return PROFDB_OK;
}

/* Fill the busy column (computed by the server on a clickhouse://
 * snapshot: ch_steps.c) and the share of the device span. */
static int fill_busy(profdb *db, profdb_result *r, const struct profdb_filter *f)
{
	int rc;
	if (!db->ch_steps && (rc = sweep_busy(db, r, f)) != PROFDB_OK)
		return rc;
	/* steps without kernels are idle; then the share of the device span */
	for (size_t row = 0; row < r->nrows; row++) {
		int64_t busy, span;
		if (profdb_result_isnull(r, row, C_BUSY) && profdb__result_set_int(r, row, C_BUSY, 0) != PROFDB_OK)
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		busy = profdb_result_int(r, row, C_BUSY);
		span = profdb_result_isnull(r, row, C_SPAN) ? 0 : profdb_result_int(r, row, C_SPAN);
		if (span > 0 && profdb__result_set_double(r, row, C_BUSY_PCT, 100.0 * (double)busy / (double)span) != PROFDB_OK)
			return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	return PROFDB_OK;
}

int profdb_query_steps(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (db->remote) /* a clickhouse:// snapshot: grouped by the server */
		return profdb__ch_query_steps(db, out, f);
	if ((rc = profdb__qfilter_check(db, f)) != PROFDB_OK)
		return rc;
	main_sql(db, &b, f);
	rc = profdb__query_prepare(db, &b, &st, "cannot query steps");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	rc = profdb__result_from_stmt(db, out, st, step_types);
	sqlite3_finalize(st);
	if (rc == PROFDB_OK)
		rc = fill_busy(db, *out, f);
	if (rc == PROFDB_OK)
		rc = profdb__qfilter_explain_empty(db, *out, f, 0);
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
		return rc;
	}
	if (!profdb__qfilter_run_column(f))
		profdb__result_drop_column(*out, C_RUN);
	profdb__result_drop_column(*out, C_RUN_ID);
	return PROFDB_OK;
}
