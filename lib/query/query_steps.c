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
 *    rank (overlapping kernels on several streams count once), by the
 *    aggregate union_ns (sqlfunc.c, stats.c profdb__union_ns) in the
 *    statement itself, so that its rows are the answer and stream
 *    (result_stream.c) instead of being held for a sweep.  busy_pct is
 *    busy / span: how much of its own stretch the device was working.
 *  - device_total: the plain sum of durations (>= busy when kernels overlap).
 *  - top_kernel: the name with the largest total in the step (A..Z on a tie).
 *  - kernels outside every step make a row with step NULL.
 *  - a rank with no kernel row at all (its export has only the
 *    profiler's step table) has busy, kernels and device_total NULL:
 *    unknown, not idle.
 */
#include "query.h"
#include "result.h"
#include "source.h"
#include "banned.h"

/* The columns' types; the run column (the first) only for several runs. */
static const enum profdb_coltype step_types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_PCT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_TEXT
};

/* kg and tk: the kernel groups and each group's top kernel, grouped here
 * or read from the source's groups (stepgroup, busy included: source.h) */
static void kernel_groups_sql(struct profdb__qbuf *b, const struct profdb_filter *f, const char *stepgroup)
{
	if (stepgroup) {
		profdb__qbuf_addf(b, "WITH kg AS (SELECT run_id, rank, step, n, tot, s0, s1, busy FROM %s),\n"
		    " tk AS (SELECT run_id, rank, step, top AS name, top_total AS t FROM %s),\n", stepgroup, stepgroup);
		return;
	}
	profdb__qbuf_add(b, "WITH f AS (SELECT k.* FROM kernel k WHERE 1");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, "),\n"
	    " kg AS (SELECT run_id, rank, step, count(*) AS n, sum(dur_ns) AS tot, min(start_ns) AS s0,"
	    "  max(start_ns + dur_ns) AS s1, union_ns(start_ns, start_ns + dur_ns) AS busy"
	    "  FROM f GROUP BY run_id, rank, step),\n"
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

static void main_sql(struct profdb__qbuf *b, const struct profdb_filter *f, const char *stepgroup)
{
	kernel_groups_sql(b, f, stepgroup);
	profdb__qbuf_add(b, " ks AS (SELECT run_id, rank, step FROM kg UNION SELECT s.run_id, s.rank, s.step"
	    "  FROM step s WHERE 1");
	profdb__qfilter_where(b, f, "s", QF_STEP, 0);
	/* kr: the ranks with kernel rows; on the others (an Ascend rank with
	 * only its step table) busy, kernels and device time are unknown,
	 * empty, not 0 */
	profdb__qbuf_add(b, "),\n kr AS (SELECT DISTINCT run_id, rank FROM kg)\nSELECT ");
	if (profdb__qfilter_run_column(f))
		profdb__qbuf_add(b, "r.name AS run, ");
	/* busy_pct: (100.0 * busy) / span in doubles, the operations (and so
	 * the digits) of the C that computed it before; steps without kernels
	 * are idle */
	profdb__qbuf_add(b, "ks.rank, ks.step,"
	    " CASE WHEN sp.start_ns IS NOT NULL AND sp.end_ns IS NOT NULL THEN sp.end_ns - sp.start_ns"
	    "  ELSE kg.s1 - kg.s0 END AS wall, kg.s1 - kg.s0 AS span,"
	    " CASE WHEN kr.rank IS NOT NULL THEN coalesce(kg.busy, 0) END AS busy,"
	    " CASE WHEN kg.s1 - kg.s0 > 0 THEN 100.0 * coalesce(kg.busy, 0) / (kg.s1 - kg.s0) END AS busy_pct,"
	    " CASE WHEN kr.rank IS NOT NULL THEN coalesce(kg.n, 0) END AS kernels,"
	    " CASE WHEN kr.rank IS NOT NULL THEN coalesce(kg.tot, 0) END AS device_total,"
	    " tk.t AS top_total, tk.name AS top_kernel"
	    " FROM ks JOIN run r ON r.id = ks.run_id"
	    " LEFT JOIN kr ON kr.run_id = ks.run_id AND kr.rank = ks.rank"
	    " LEFT JOIN step sp ON sp.run_id = ks.run_id AND sp.rank = ks.rank AND sp.step = ks.step"
	    " LEFT JOIN kg ON kg.run_id = ks.run_id AND kg.rank = ks.rank AND kg.step IS ks.step"
	    " LEFT JOIN tk ON tk.run_id = ks.run_id AND tk.rank = ks.rank AND tk.step IS ks.step"
	    " ORDER BY ks.run_id, ks.rank, ks.step");
}

/* A narrow terminal keeps each step's wall and busy time (format_table.c). */
static const char *const headline_cols[] = {
	"wall", "busy", NULL
};
static const char *const hide_cols[] = {
	"span", "top_total", "device_total", "kernels", "busy_pct", NULL
};

/* The answer, from the kernel rows or the source's groups (stepgroup). */
static int steps_answer(profdb *db, profdb_result **out, const struct profdb_filter *f, const char *stepgroup)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	main_sql(&b, f, stepgroup);
	rc = profdb__query_prepare(db, &b, &st, "cannot query steps");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	rc = profdb__result_from_stmt_stream(db, out, st, step_types + !profdb__qfilter_run_column(f));
	sqlite3_finalize(st);
	if (rc == PROFDB_OK && (rc = profdb__qfilter_explain_empty(db, *out, f, 0)) != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}

int profdb_query_steps(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	/* an empty first answer wrote nothing: the second streams in its place */
	FILE *stream_out = db->stream_out;
	const struct profdb_format_opts *stream_fmt = db->stream_fmt;
	struct profdb__rel rel;
	int rc;

	*out = NULL;
	if ((rc = profdb__qfilter_check(db, f)) != PROFDB_OK ||
	    (rc = profdb__source_prepare(db, PROFDB__NEED_STEP_GROUPS, f, &rel)) != PROFDB_OK)
		return rc;
	if (!rel.stepgroup)
		return steps_answer(db, out, f, NULL);
	if ((rc = steps_answer(db, out, f, rel.stepgroup)) != PROFDB_OK || profdb_result_nrows(*out) > 0)
		return rc;
	/* an empty answer's notes say what the runs' rows lack */
	profdb_result_free(*out);
	*out = NULL;
	db->stream_out = stream_out;
	db->stream_fmt = stream_fmt;
	if ((rc = profdb__source_prepare(db, PROFDB__NEED_ROWS, NULL, &rel)) != PROFDB_OK)
		return rc;
	return steps_answer(db, out, f, NULL);
}
