/*
 * query_apis.c - per-API results as an operator benchmark harness reports
 * them (profdb apis), one row per run and API:
 *
 *  source       profiler: the run's device activity (one run is one API:
 *               its 'api' tag, else the run's name); wallclock: the timed
 *               repeats of a benchmark file (the API is the row's name);
 *               summary: a benchmark with summary statistics only
 *  repeats      profiler: the run's repeat count; wallclock: rows of the
 *               API; summary: the file's rounds
 *  per_repeat   profiler: total device time / repeats, where the repeats
 *               are the profiler's steps the time inside them (the mean of
 *               the per-step totals: work outside every step is noted
 *               apart, outside_steps.c); wallclock: mean
 *               elapsed (elapsed / repeats); summary: the file's mean
 *  stddev       of the per-repeat samples (profiler: of the per-step device
 *               totals, when there are two steps or more); summary: the
 *               file's
 *  median       wallclock: exact; summary: the file's own (not computed
 *               here: see the note); profiler: of the per-step totals
 *  total_device, total_cpu, kernels: profiler runs only (device time of
 *               their kernels, host self time of their ops, kernel rows)
 *  backend      the run's 'backend' tag
 * Runs are selected by the filter's runs and tags; name_glob selects APIs.
 *
 * Also the summary grouped by a tag (profdb summary --by tag:KEY): the
 * run_summary figures of the runs with each value of KEY, summed (SQL's
 * GROUP BY, its rows streamed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "store/tags.h"
#include "banned.h"

static const enum profdb_coltype apis_types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_INT
};

static const char apis_sql[] =
	" tg AS (SELECT s.run_id, s.name, s.repeats, s.repeats_source,"
	"  (SELECT value FROM run_tag_all t WHERE t.run_id = s.run_id AND t.key = 'api') AS api,"
	"  (SELECT value FROM run_tag_all t WHERE t.run_id = s.run_id AND t.key = 'backend') AS backend"
	"  FROM sel s),\n"
	" pk AS (SELECT k.run_id, count(*) AS n, sum(k.dur_ns) AS total,"
	"  sum(CASE WHEN k.step IS NULL THEN k.dur_ns ELSE 0 END) AS outside FROM kernel k"
	"  WHERE k.run_id IN (SELECT run_id FROM sel) AND k.kind <> 5 GROUP BY k.run_id),\n"
	" ps AS (SELECT run_id, stddev(t) AS sd, median(t) AS med FROM (SELECT k.run_id, k.step,"
	"  sum(k.dur_ns) AS t FROM kernel k WHERE k.run_id IN (SELECT run_id FROM sel) AND k.kind <> 5"
	"  AND k.step IS NOT NULL GROUP BY k.run_id, k.step) GROUP BY run_id),\n"
	" cpu AS (SELECT o.run_id, sum(o.self_ns) AS t FROM op o"
	"  WHERE o.run_id IN (SELECT run_id FROM sel) GROUP BY o.run_id),\n"
	" wc AS (SELECT k.run_id, k.name_id, count(*) AS n, avg(k.dur_ns) AS mean,"
	"  stddev(k.dur_ns) AS sd, median(k.dur_ns) AS med FROM kernel k"
	"  WHERE k.run_id IN (SELECT run_id FROM sel) AND k.kind = 5 GROUP BY k.run_id, k.name_id),\n"
	" rows AS ("
	"  SELECT tg.run_id, coalesce(tg.api, tg.name) AS api, tg.backend, tg.name AS run,"
	"   'profiler' AS source, tg.repeats AS repeats, CASE WHEN tg.repeats_source = 'steps'"
	"   THEN (pk.total - pk.outside) * 1.0 / tg.repeats ELSE pk.total * 1.0 / tg.repeats END AS per_repeat,"
	"   ps.sd AS stddev, ps.med AS median, pk.total AS total_device,"
	"   coalesce(cpu.t, 0) AS total_cpu, pk.n AS kernels"
	"   FROM tg JOIN pk ON pk.run_id = tg.run_id LEFT JOIN ps ON ps.run_id = tg.run_id"
	"   LEFT JOIN cpu ON cpu.run_id = tg.run_id"
	"  UNION ALL"
	"  SELECT tg.run_id, s.value, tg.backend, tg.name, 'wallclock', wc.n, wc.mean, wc.sd, wc.med,"
	"   NULL, NULL, NULL FROM wc JOIN tg ON tg.run_id = wc.run_id JOIN str s ON s.id = wc.name_id"
	"  UNION ALL"
	"  SELECT tg.run_id, b.api, tg.backend, tg.name, 'summary', b.rounds, b.mean_ns, b.stddev_ns,"
	"   b.median_ns, NULL, NULL, NULL FROM bench_summary b JOIN tg ON tg.run_id = b.run_id)\n"
	"SELECT api, backend, run, source, repeats, per_repeat, stddev, median, total_device,"
	" total_cpu, kernels FROM rows WHERE (:glob IS NULL OR api GLOB :glob)"
	" ORDER BY api, backend IS NULL, backend, run_id, source";

/* A note per summary-only row (row 0 of r, as it is spooled): its median
 * is the file's, not computed.  The notes are kept on the result arg until
 * the answer's result exists. */
static int note_row(profdb_result *r, void *arg)
{
	char note[PROFDB_ERRMAX];
	if (strcmp(profdb_result_text(r, 0, 3), "summary") != 0)
		return PROFDB_OK;
	snprintf(note, sizeof note, "API '%.100s' of run '%.100s': summary statistics only (the"
	         " file's mean, stddev, median over its rounds): the repeats are not stored, so"
	         " no median or percentile here can be exact", profdb_result_text(r, 0, 0),
	         profdb_result_text(r, 0, 2));
	return profdb__result_add_note(arg, note);
}

/* A narrow terminal keeps each API's time per repeat and its spread
 * (format_table.c); the stored totals and where they came from go first. */
static const char *const headline_cols[] = {
	"per_repeat", "stddev", "median", NULL
};
static const char *const hide_cols[] = {
	"kernels", "total_cpu", "total_device", "source", "repeats", "backend", NULL
};

int profdb_query_apis(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb_filter only;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	profdb_result *notes = NULL;
	int rc, k;

	*out = NULL;
	profdb__qfilter_runs_of(&only, f);
	if ((rc = profdb__qfilter_check(db, &only)) != PROFDB_OK)
		return rc;
	profdb__qbuf_add(&b, "WITH sel AS (SELECT r.* FROM (SELECT id AS run_id, name, repeats, repeats_source FROM run) r WHERE 1");
	profdb__qfilter_where(&b, &only, "r", QF_STEP, 1);
	profdb__qbuf_add(&b, "),\n");
	profdb__qbuf_add(&b, apis_sql);
	rc = profdb__query_prepare(db, &b, &st, "cannot list APIs");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &only);
	if (f && f->name_glob && (k = sqlite3_bind_parameter_index(st, ":glob")) > 0)
		sqlite3_bind_text(st, k, f->name_glob, -1, SQLITE_STATIC);
	/* streamed (issue 20), the notes gathered as the rows pass */
	if (profdb__result_new(&notes, 1) != PROFDB_OK)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	else
		rc = profdb__spool_stmt(db, st, apis_types, note_row, notes, 0, out);
	sqlite3_finalize(st);
	for (size_t i = 0; rc == PROFDB_OK && i < notes->nnotes; i++)
		if (profdb__result_add_note(*out, notes->notes[i]) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	profdb_result_free(notes);
	if (rc == PROFDB_OK)
		rc = profdb__outside_steps_notes(db, *out, &only, "per_repeat is the per-step mean");
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}

static const enum profdb_coltype by_types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS
};

int profdb_query_summary_by(profdb *db, profdb_result **out, const struct profdb_filter *f,
                            const char *by)
{
	struct profdb_filter only;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	char key[PROFDB_TAG_KEY_MAX + 1];
	int rc;

	*out = NULL;
	if (by && (rc = profdb__tags_by_key(db, by, strlen(by), key)) < 0)
		return rc;
	if (!by || !rc)
		return profdb__error(db, PROFDB_EUSAGE, "summary groups by tag:KEY only, not '%s'",
		                     by ? by : "");
	profdb__qfilter_runs_of(&only, f);
	if ((rc = profdb__qfilter_check(db, &only)) != PROFDB_OK)
		return rc;
	/* the run_summary figures per run, summed per value of the tag */
	profdb__qbuf_add(&b, "WITH sel AS (SELECT r.* FROM (SELECT id AS run_id, repeats FROM run) r WHERE 1");
	profdb__qfilter_where(&b, &only, "r", QF_STEP, 1);
	/* the tag's values once, joined (profdb__tags_by_cte says why) */
	profdb__qbuf_add(&b, "),\n ");
	profdb__tags_by_cte(&b, 0);
	profdb__qbuf_add(&b, ",\n rs AS (SELECT s.run_id, s.repeats, tagv0.value AS tag0");
	profdb__qbuf_add(&b, ", (SELECT count(*) FROM kernel k WHERE k.run_id = s.run_id) AS kernels,"
	    " coalesce((SELECT sum(k.dur_ns) FROM kernel k WHERE k.run_id = s.run_id), 0) AS total_device,"
	    " coalesce((SELECT max(span) FROM (SELECT max(k.start_ns + k.dur_ns) - min(k.start_ns) AS span"
	    "  FROM kernel k WHERE k.run_id = s.run_id GROUP BY k.rank)), 0) AS elapsed,"
	    " (SELECT sum(o.self_ns) FROM op o WHERE o.run_id = s.run_id) AS total_cpu"
	    " FROM sel s LEFT JOIN tagv0 ON tagv0.run_id = s.run_id)\n"
	    "SELECT tag0, count(*) AS runs, sum(repeats) AS repeats, sum(kernels) AS kernels,"
	    " sum(total_device) AS total_device, sum(elapsed) AS elapsed, sum(total_cpu) AS total_cpu"
	    " FROM rs GROUP BY tag0 ORDER BY tag0 IS NULL, tag0");
	rc = profdb__query_prepare(db, &b, &st, "cannot summarise");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &only);
	profdb__tags_by_bind(st, 0, key);
	/* streamed (issue 20): a row per tag value, however many; the first
	 * column is named after the tag, a name, so not SQL text */
	rc = profdb__result_from_stmt_stream_named(db, out, st, by_types, key);
	sqlite3_finalize(st);
	return rc;
}
