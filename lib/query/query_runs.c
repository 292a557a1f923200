/*
 * query_runs.c - the run-level queries: the list of stored runs, the
 * summary of each run (the run_summary figures, in ns), and free SQL.
 * cmd_ingest reads runs columns 0 (id) and 1 (name) and the summary from
 * column 1 on; keep those positions.
 */
#include <stdio.h>

#include "query.h"
#include "source.h"
#include "banned.h"

int profdb__sql_collect(profdb *db, profdb_result **out, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (db->source->sql) /* the source's own SQL, answered there */
		return db->source->sql(db, out, sql);
	if ((rc = profdb__sql_prepare_one(db, &st, sql)) != PROFDB_OK)
		return rc;
	rc = profdb__result_from_stmt(db, out, st, NULL);
	sqlite3_finalize(st);
	return rc;
}

static const enum profdb_coltype runs_types[] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT,
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS,
	PROFDB_COL_TEXT, PROFDB_COL_TEXT
};

/*
 * ranks counts every rank a source file named, not only those with kernels
 * (run.ranks): a rank whose export holds no device data is still a rank of
 * the session, and no_kernel_ranks names it so a short table is explained.
 * Where the source has them grouped (krank and runfig, source.h) the
 * kernel and op figures come from there, per run and rank, in place of
 * the rows: one SQL, two sources, so the same bytes.
 */
static const char runs_sql[] =
	"SELECT r.id, r.name, r.format,"
	" max(r.ranks, (SELECT count(*) FROM (SELECT rank FROM source_file"
	"   WHERE run_id = r.id AND rank IS NOT NULL UNION SELECT DISTINCT rank FROM %s"
	"   WHERE run_id = r.id))) AS ranks,"
	" (SELECT group_concat(rank, ',') FROM (SELECT DISTINCT s.rank FROM source_file s"
	"   WHERE s.run_id = r.id AND s.rank IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %s k"
	"   WHERE k.run_id = r.id AND k.rank = s.rank) ORDER BY s.rank)) AS no_kernel_ranks,"
	" r.repeats, r.repeats_source, coalesce((SELECT %s FROM %s k WHERE k.run_id = r.id), 0) AS kernels,"
	" coalesce(%s, 0) AS ops,"
	" coalesce((SELECT %s FROM %s k WHERE k.run_id = r.id), 0) AS total_device,"
	" r.ingested_at, r.source_path FROM run r WHERE 1";

/* runs_sql's figures from the rows: the kernel rows' table, the count
 * and total over it, the op count; or from the source's groups. */
static int add_runs_sql(profdb *db, struct profdb__qbuf *b, const struct profdb__rel *rel)
{
	char ops[128];
	if (!rel->krank) {
		profdb__qbuf_addf(b, runs_sql, "kernel", "kernel", "count(*)", "kernel",
		                  "(SELECT count(*) FROM op o WHERE o.run_id = r.id)", "sum(k.dur_ns)", "kernel");
		return PROFDB_OK;
	}
	if ((size_t)snprintf(ops, sizeof ops, "(SELECT a.ops FROM %s a WHERE a.local_id = r.id)", rel->runfig) >= sizeof ops)
		return profdb__error(db, PROFDB_ERROR, "cannot list runs: relation name too long");
	profdb__qbuf_addf(b, runs_sql, rel->krank, rel->krank, "sum(k.kernels)", rel->krank, ops,
	                  "sum(k.total_device)", rel->krank);
	return PROFDB_OK;
}

/* A narrow terminal keeps what each run holds (format_table.c). */
static const char *const headline_cols[] = {
	"kernels", "total_device", NULL
};
static const char *const hide_cols[] = {
	"ingested_at", "repeats_source", "source_path", "no_kernel_ranks", NULL
};

int profdb_query_runs(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb_filter runs_only;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (f && (rc = profdb__version_check(db, f->version, PROFDB_FILTER_VERSION, "profdb_filter")) != PROFDB_OK)
		return rc;
	struct profdb__rel rel;
	if ((rc = profdb__source_prepare(db, PROFDB__NEED_RUN_FIGURES, NULL, &rel)) != PROFDB_OK)
		return rc;
	/* a run list is of whole runs: only the run names of f apply */
	profdb_filter_init(&runs_only);
	if (f) {
		runs_only.runs = f->runs;
		runs_only.nruns = f->nruns;
	}
	if ((rc = profdb__qfilter_check(db, &runs_only)) != PROFDB_OK)
		return rc;
	if ((rc = add_runs_sql(db, &b, &rel)) != PROFDB_OK) {
		profdb__qbuf_free(&b);
		return rc;
	}
	if (runs_only.nruns) {
		profdb__qbuf_add(&b, " AND r.name IN (");
		for (size_t i = 0; i < runs_only.nruns; i++)
			profdb__qbuf_addf(&b, "%s:run%zu", i ? ", " : "", i);
		profdb__qbuf_add(&b, ")");
	}
	profdb__qbuf_add(&b, " ORDER BY r.id");
	rc = profdb__query_prepare(db, &b, &st, "cannot list runs");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &runs_only);
	/* streamed when the CLI asked (profdb_result_stream): 100 000 runs */
	rc = profdb__result_from_stmt_stream(db, out, st, runs_types);
	sqlite3_finalize(st);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}

static const enum profdb_coltype summary_types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_INT, PROFDB_COL_NS
};

void profdb__summary_outside_cols(struct profdb__qbuf *b)
{
	profdb__qbuf_add(b, ", coalesce(o.n, 0) AS outside_kernels, coalesce(o.t, 0) AS outside_device");
}

void profdb__summary_outside_join(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, " LEFT JOIN (");
	profdb__outside_steps_sql(b, f);
	profdb__qbuf_add(b, ") o ON o.run_id = r.id");
}

/* The work outside every step, of the selected runs, noted on *out. */
static int summary_notes(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	int rc = profdb__outside_steps_notes(db, *out, f, "outside_kernels and outside_device count them apart");
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	return rc;
}

/* The summary of whole runs from the source's totals per run (runfig,
 * source.h): the columns, cell types and order of the rows' one. */
static int summary_of_totals(profdb *db, profdb_result **out, const struct profdb_filter *f, const char *runfig)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;
	profdb__qbuf_add(&b, "SELECT r.name AS run, r.repeats, coalesce(a.kernels, 0) AS kernels,"
	    " coalesce(a.total_device, 0) AS total_device, coalesce(a.elapsed, 0) AS elapsed,"
	    /* NULL for a run without host ops (no ops figure came): as below */
	    " a.total_cpu AS total_cpu");
	profdb__summary_outside_cols(&b);
	profdb__qbuf_addf(&b, " FROM run r LEFT JOIN %s a ON a.local_id = r.id", runfig);
	profdb__summary_outside_join(&b, f);
	profdb__qbuf_add(&b, " WHERE 1");
	if (f->nruns) {
		profdb__qbuf_add(&b, " AND r.name IN (");
		for (size_t i = 0; i < f->nruns; i++)
			profdb__qbuf_addf(&b, "%s:run%zu", i ? ", " : "", i);
		profdb__qbuf_add(&b, ")");
	}
	profdb__qbuf_add(&b, " ORDER BY r.id");
	rc = profdb__query_prepare(db, &b, &st, "cannot summarise");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	rc = profdb__result_from_stmt(db, out, st, summary_types);
	sqlite3_finalize(st);
	return rc == PROFDB_OK ? summary_notes(db, out, f) : rc;
}

int profdb_query_summary(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb__rel rel;
	struct profdb_filter sf, in_run;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (f && (rc = profdb__version_check(db, f->version, PROFDB_FILTER_VERSION, "profdb_filter")) != PROFDB_OK)
		return rc;
	/* a summary is of whole runs, or of their rank and steps: name and
	 * kind do not apply */
	profdb__qfilter_runs_of(&sf, f);
	if (f) {
		sf.rank = f->rank;
		sf.step_lo = f->step_lo;
		sf.step_hi = f->step_hi;
	}
	if ((rc = profdb__qfilter_check(db, &sf)) != PROFDB_OK)
		return rc;
	if ((rc = profdb__source_prepare(db, PROFDB__NEED_RUN_TOTALS, &sf, &rel)) != PROFDB_OK)
		return rc;
	if (rel.runfig)
		return summary_of_totals(db, out, &sf, rel.runfig);
	in_run = sf;
	in_run.runs = NULL;
	in_run.nruns = 0;
	in_run.tags = NULL; /* runs and tags select rows of run r, below */
	in_run.ntags = 0;
	profdb__qbuf_add(&b, "SELECT r.name AS run, ");
	profdb__qfilter_repeats(&b, &in_run, "r");
	profdb__qbuf_add(&b, " AS repeats, (SELECT count(*) FROM kernel k WHERE k.run_id = r.id");
	profdb__qfilter_where(&b, &in_run, "k", QF_KERNEL, 1);
	profdb__qbuf_add(&b, ") AS kernels, coalesce((SELECT sum(k.dur_ns) FROM kernel k WHERE k.run_id = r.id");
	profdb__qfilter_where(&b, &in_run, "k", QF_KERNEL, 1);
	profdb__qbuf_add(&b, "), 0) AS total_device, coalesce((SELECT max(span) FROM (SELECT"
	    " max(k.start_ns + k.dur_ns) - min(k.start_ns) AS span FROM kernel k WHERE k.run_id = r.id");
	profdb__qfilter_where(&b, &in_run, "k", QF_KERNEL, 1);
	/* total_cpu: unknown (NULL), not 0, for a run that stored no host op
	 * at all (a benchmark file, a device-only export) */
	profdb__qbuf_add(&b, " GROUP BY k.rank)), 0) AS elapsed,"
	    " CASE WHEN EXISTS (SELECT 1 FROM op o WHERE o.run_id = r.id) THEN"
	    " coalesce((SELECT sum(o.self_ns) FROM op o WHERE o.run_id = r.id");
	profdb__qfilter_where(&b, &in_run, "o", QF_OP, 1);
	profdb__qbuf_add(&b, "), 0) END AS total_cpu");
	/* the work outside every step, of the selected runs (sf) only */
	profdb__summary_outside_cols(&b);
	profdb__qbuf_add(&b, " FROM run r");
	profdb__summary_outside_join(&b, &sf);
	profdb__qbuf_add(&b, " WHERE 1");
	if (sf.nruns) {
		profdb__qbuf_add(&b, " AND r.name IN (");
		for (size_t i = 0; i < sf.nruns; i++)
			profdb__qbuf_addf(&b, "%s:run%zu", i ? ", " : "", i);
		profdb__qbuf_add(&b, ")");
	}
	profdb__tags_where(&b, &sf, "r.id");
	profdb__qbuf_add(&b, " ORDER BY r.id");
	rc = profdb__query_prepare(db, &b, &st, "cannot summarise");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &sf);
	rc = profdb__result_from_stmt_stream(db, out, st, summary_types);
	sqlite3_finalize(st);
	return rc == PROFDB_OK ? summary_notes(db, out, &sf) : rc;
}
