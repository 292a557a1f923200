/*
 * verify.c - check a stored run against the profiler's own summaries: find
 * the run, read its stored summaries and collect one result row per check
 * (the checks: verify_op_statistic.c, verify_step_trace.c).
 *
 * The Ascend CSV reader keeps op_statistic.csv and step_trace_time.csv whole
 * in source_file.content (roles 'op_statistic', 'step_trace_time'), so a
 * run can be verified later without its folder.  Each figure of those files
 * is recomputed from the stored kernels of the same rank (and device, when
 * the file has Device_id) and reported with its difference.  Keys read
 * "rank R / [device D /] OP Type / Core Type" and "rank R / step S" (no
 * commas, so any CSV writer keeps them one field).
 *
 * Definitions, checked on the corpus (Ascend-msinsight text level0/1/2):
 *  - op_statistic: per (OP Type, Core Type) the count, total, min, avg and
 *    max of kernel durations, communication rows excluded (op_statistic has
 *    none).  A (type, core) of the stored kernels that the file lacks fails.
 *  - step_trace_time: per step, Computing = the length of the UNION of the
 *    step's non-communication kernel intervals [start, start + dur);
 *    Communication = the union of its communication intervals; Overlapped =
 *    the length of their intersection; Communication(Not Overlapped) =
 *    Communication - Overlapped.  All four reproduce the files to < 0.001%.
 *    Stage, Free, Bubble and Preparing need the device step span, which no
 *    stored table holds: not checked.
 *
 * Tolerance: a check fails when |actual - expected| exceeds both 0.01% of
 * expected and the rounding of the printed inputs: kernel_details prints
 * each duration and start to 0.001 us while the profiler summed unrounded
 * values, so n kernels may differ by n x 0.0005 us, plus 0.0005 us for the
 * summary's own rounding.  Counts must be equal.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "banned.h"

/* ---------------------------------------------------------------- output rows */

/*
 * Values are shown to the nanosecond (0.001 us), the resolution of the
 * inputs (kernel_details.csv prints 3 decimals; our sums are whole ns):
 * the summaries' extra digits (8873.756000000001) are float noise of the
 * profiler's own sums, and ours (653.026333...) say nothing the inputs do.
 * The cell holds the rounded value, so every format prints the same digits;
 * a zero is +0, never "-0".
 */
static double to_ns_precision(double v)
{
	double r = round(v * 1000.0) / 1000.0;
	return r == 0 ? 0.0 : r;
}

/* Add one check; tol is the absolute allowance in the values' unit. */
int profdb__verify_add_check(struct profdb__verify *v, const char *check, const char *key,
                     double expected, double actual, double tol)
{
	profdb_result *r = v->r;
	struct profdb__cell *row;
	size_t i;
	double diff = actual - expected;
	int ok = fabs(diff) <= fmax(REL_TOL * fabs(expected), tol);
	int rc;

	if (r->nrows == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		struct profdb__cell *c = realloc(r->cells, cap * r->ncols * sizeof *c);
		if (!c)
			return profdb__error(v->db, PROFDB_ERROR, "out of memory");
		r->cells = c;
		v->cap = cap;
	}
	row = &r->cells[r->nrows * r->ncols];
	memset(row, 0, r->ncols * sizeof *row);
	r->nrows++;
	/* the diff shown is that of the values shown; ok was decided unrounded */
	expected = to_ns_precision(expected);
	actual = to_ns_precision(actual);
	i = r->nrows - 1;
	rc = profdb__result_set_text(r, i, 0, check) | profdb__result_set_text(r, i, 1, key) |
	     profdb__result_set_double(r, i, 2, expected) | profdb__result_set_double(r, i, 3, actual) |
	     profdb__result_set_double(r, i, 4, to_ns_precision(actual - expected)) |
	     profdb__result_set_text(r, i, 5, ok ? "ok" : "FAIL");
	if (rc != PROFDB_OK)
		return profdb__error(v->db, PROFDB_ERROR, "out of memory");
	if (!ok)
		v->failed++;
	return PROFDB_OK;
}

int profdb__verify_parse_num(const char *s, double *out)
{
	return profdb__parse_double(s, strlen(s), out);
}

/* ---------------------------------------------------------------- driver */

static int find_run(profdb *db, const char *run, int64_t *id)
{
	sqlite3_stmt *q = NULL;
	int n = 0;
	*id = 0;
	if (sqlite3_prepare_v2(db->sql, run ? "SELECT id FROM run WHERE name = ?1" : "SELECT id FROM run",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "verify: finding the run");
	if (run)
		sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		*id = sqlite3_column_int64(q, 0);
		n++;
	}
	sqlite3_finalize(q);
	if (run && n == 0)
		return profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s'", run);
	if (!run && n == 0)
		return profdb__error(db, PROFDB_ENOTFOUND, "the database holds no runs");
	if (!run && n > 1)
		return profdb__error(db, PROFDB_EUSAGE, "the database holds %d runs: name one", n);
	return PROFDB_OK;
}

/*
 * A rank with no kernels at all (its export had no kernel_details.csv or
 * db) cannot be checked: every figure would fail against 0, which says
 * nothing about profdb's arithmetic.  *has is 1 when it has kernels; else
 * 0, with a note on the result once per rank.
 */
static int rank_has_kernels(struct profdb__verify *v, int64_t rank, int *has)
{
	sqlite3_stmt *q = NULL;
	char note[128];
	int rc;
	*has = 1;
	if (sqlite3_prepare_v2(v->db->sql, "SELECT EXISTS (SELECT 1 FROM kernel WHERE run_id = ?1 AND rank = ?2)",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(v->db, "verify: reading kernels");
	sqlite3_bind_int64(q, 1, v->run_id);
	sqlite3_bind_int64(q, 2, rank);
	rc = sqlite3_step(q);
	*has = rc == SQLITE_ROW && sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW)
		return profdb__sqlerror(v->db, "verify: reading kernels");
	if (*has)
		return PROFDB_OK;
	snprintf(note, sizeof note, "rank %lld has no kernel data: its profiler summaries are not checked",
	         (long long)rank);
	for (size_t i = 0; i < profdb_result_nnotes(v->r); i++)
		if (strcmp(profdb_result_note(v->r, i), note) == 0)
			return PROFDB_OK;
	if (profdb__result_add_note(v->r, note) != PROFDB_OK)
		return profdb__error(v->db, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

int profdb_verify(profdb *db, profdb_result **out, int *out_failed, const char *run)
{
	static const char *const names[] = { "check", "key", "expected", "actual", "diff", "ok" };
	static const enum profdb_coltype types[] = {
		PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_TEXT
	};
	struct profdb__verify v = { 0 };
	sqlite3_stmt *q = NULL;
	int rc, nsrc = 0, noted = 1;

	*out = NULL;
	if (out_failed)
		*out_failed = 0;
	v.db = db;
	if ((rc = find_run(db, run, &v.run_id)) != PROFDB_OK)
		return rc;
	if (profdb__result_new(&v.r, 6) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < 6; i++) {
		v.r->types[i] = types[i];
		if (!(v.r->names[i] = strdup(names[i]))) {
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
			goto out;
		}
	}
	if (sqlite3_prepare_v2(db->sql, "SELECT role, coalesce(rank, 0), path, content FROM source_file"
	    " WHERE run_id = ?1 AND role IN ('op_statistic', 'step_trace_time') AND content IS NOT NULL"
	    " ORDER BY role, rank, id", -1, &q, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "verify: reading sources");
		goto out;
	}
	sqlite3_bind_int64(q, 1, v.run_id);
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		const char *role = (const char *)sqlite3_column_text(q, 0);
		int64_t rank = sqlite3_column_int64(q, 1);
		const char *path = (const char *)sqlite3_column_text(q, 2);
		const char *base = strrchr(path, '/');
		struct profdb__verify_table t;
		if (profdb__verify_table_parse(&t, (const char *)sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3)) != 0) {
			rc = profdb__error(db, PROFDB_ERROR, "cannot read the stored summary '%s' (not CSV, or out of memory)",
			                   path);
			break;
		}
		nsrc++;
		base = base ? base + 1 : path;
		if ((rc = rank_has_kernels(&v, rank, &noted)) != PROFDB_OK || noted == 0)
			; /* an error, or a rank with nothing to check (noted once) */
		else if (strcmp(role, "op_statistic") == 0)
			rc = profdb__verify_op_statistic(&v, &t, rank, base);
		else
			rc = profdb__verify_step_trace(&v, &t, rank, base);
		profdb__verify_table_free(&t);
	}
	sqlite3_finalize(q);
	if (rc == PROFDB_OK && nsrc == 0 &&
	    profdb__result_add_note(v.r, "the run holds no op_statistic.csv or step_trace_time.csv"
	                            " (kept at ingest from Ascend text exports): nothing to check") != PROFDB_OK)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
out:
	if (rc != PROFDB_OK) {
		profdb_result_free(v.r);
		return rc;
	}
	if (out_failed)
		*out_failed = v.failed;
	*out = v.r;
	return PROFDB_OK;
}

