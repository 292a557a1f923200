/*
 * outside_steps.c - device work outside every profiler step.  Where a
 * run's repeats are its profiler steps, a repeat is a step: per_repeat is
 * the mean of the per-step totals, and the activities no step holds (most
 * often launched before the profiler's runtime capture began, so with no
 * launch record) are no part of any repeat.  They are counted here and
 * shown apart, in a note and in summary's columns.
 */
#include <stdio.h>

#include "query.h"
#include "banned.h"

void profdb__outside_steps_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	/* kernel_step_stat's rows without a step (a few per run) where the
	 * ingest wrote it, else the kernel rows; of the selected runs only */
	profdb__qbuf_add(b, "SELECT x.run_id, sum(x.calls) AS n, sum(x.total_ns) AS t FROM kernel_step_stat x"
	                 " WHERE x.step IS NULL AND x.run_id IN (SELECT id FROM run WHERE name_stats = 1"
	                 " AND repeats_source = 'steps')");
	profdb__qfilter_where(b, f, "x", QF_KERNEL, 1);
	profdb__qbuf_add(b, " GROUP BY x.run_id UNION ALL SELECT k.run_id, count(*), sum(k.dur_ns) FROM kernel k"
	                 " WHERE k.step IS NULL AND k.run_id IN (SELECT id FROM run WHERE name_stats = 0"
	                 " AND repeats_source = 'steps')");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 1);
	profdb__qbuf_add(b, " GROUP BY k.run_id");
}

int profdb__outside_steps_notes(profdb *db, profdb_result *r, const struct profdb_filter *f, const char *what)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	if (profdb__qfilter_has_steps(f)) /* a step range leaves them out already */
		return PROFDB_OK;
	profdb__qbuf_add(&b, "SELECT r.name, o.n, o.t FROM (");
	profdb__outside_steps_sql(&b, f);
	profdb__qbuf_add(&b, ") o JOIN run r ON r.id = o.run_id WHERE o.n > 0 ORDER BY r.id");
	rc = profdb__query_prepare(db, &b, &st, "cannot count the work outside steps");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char note[PROFDB_ERRMAX], t[PROFDB__NOTE_TIME_CAP];
		profdb__note_time(t, sizeof t, sqlite3_column_int64(st, 2));
		snprintf(note, sizeof note, "run '%s': %lld device activities (%s) ran outside every step;"
		         " %s", (const char *)sqlite3_column_text(st, 0), (long long)sqlite3_column_int64(st, 1),
		         t, what);
		if (profdb__result_add_note(r, note) != PROFDB_OK) {
			sqlite3_finalize(st);
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot count the work outside steps");
}
