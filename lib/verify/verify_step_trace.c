/*
 * verify_step_trace.c - verify's step_trace_time check: per step the union of
 * the computing and the communication kernel intervals and their overlap
 * against the file (definitions and tolerance: verify.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "util/interval.h"
#include "banned.h"

/* Step figures recomputed from the stored kernels, in ns. */
struct step_fig {
	int64_t computing, comm, overlapped;
	size_t ncompute, ncomm;    /* kernels behind each figure */
};

static int step_figures(struct profdb__verify *v, int64_t rank, const char *step, int64_t device,
                        struct step_fig *f)
{
	sqlite3_stmt *q = NULL;
	struct profdb__interval *c = NULL, *m = NULL;
	size_t nc = 0, nm = 0, capc = 0, capm = 0;
	int64_t sn = 0;
	int rc = PROFDB_OK, has_step = *step && profdb__parse_i64(step, strlen(step), &sn) == 0;

	memset(f, 0, sizeof *f);
	if (sqlite3_prepare_v2(v->db->sql, "SELECT start_ns, start_ns + dur_ns, kind = 3 FROM kernel"
	    " WHERE run_id = ?1 AND rank = ?2 AND (?3 IS NULL OR step = ?3) AND (?4 IS NULL OR device = ?4)"
	    " ORDER BY start_ns", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(v->db, "verify: reading kernels");
	sqlite3_bind_int64(q, 1, v->run_id);
	sqlite3_bind_int64(q, 2, rank);
	if (has_step)
		sqlite3_bind_int64(q, 3, sn);
	else
		sqlite3_bind_null(q, 3); /* no step numbers: the whole capture is one step */
	if (device == PROFDB_NULL)
		sqlite3_bind_null(q, 4);
	else
		sqlite3_bind_int64(q, 4, device);
	while (sqlite3_step(q) == SQLITE_ROW) {
		int comm = sqlite3_column_int(q, 2);
		struct profdb__interval **a = comm ? &m : &c;
		size_t *n = comm ? &nm : &nc, *cap = comm ? &capm : &capc;
		if (*n == *cap) {
			struct profdb__interval *na = realloc(*a, (*cap = *cap ? *cap * 2 : 256) * sizeof *na);
			if (!na) {
				rc = profdb__error(v->db, PROFDB_ERROR, "out of memory");
				break;
			}
			*a = na;
		}
		(*a)[(*n)++] = (struct profdb__interval){ sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1) };
	}
	sqlite3_finalize(q);
	if (rc == PROFDB_OK) {
		f->ncompute = nc;
		f->ncomm = nm;
		/* the same definitions as profdb breakdown's compute / communication */
		nc = profdb__ivals_merge(c, nc);
		nm = profdb__ivals_merge(m, nm);
		f->computing = profdb__ivals_length(c, nc);
		f->comm = profdb__ivals_length(m, nm);
		f->overlapped = profdb__ivals_overlap(c, nc, m, nm);
	}
	free(c);
	free(m);
	return rc;
}

int profdb__verify_step_trace(struct profdb__verify *v, const struct profdb__verify_table *t, int64_t rank, const char *label)
{
	int cs = profdb__verify_table_col(t, "Step"), cc = profdb__verify_table_col(t, "Computing"), cdev = profdb__verify_table_col(t, "Device_id");
	int co = profdb__verify_table_col(t, "Overlapped"), cm = profdb__verify_table_col(t, "Communication");
	int cn = profdb__verify_table_col(t, "Communication(Not Overlapped)");
	int rc = PROFDB_OK;

	if (cc < 0)
		return profdb__error(v->db, PROFDB_EFORMAT, "%s: not a step_trace_time table (no 'Computing' column)",
		                     label);
	for (size_t row = 1; row < t->nrows && rc == PROFDB_OK; row++) {
		const char *step = profdb__verify_cell(t, row, cs), *dev = profdb__verify_cell(t, row, cdev);
		int64_t device = PROFDB_NULL;
		struct step_fig f;
		double want;
		char key[256];
		size_t nall;

		if (cdev >= 0 && profdb__parse_i64(dev, strlen(dev), &device) != 0)
			device = PROFDB_NULL;
		if ((rc = step_figures(v, rank, step, device, &f)) != PROFDB_OK)
			break;
		nall = f.ncompute + f.ncomm;
		if (*dev)
			snprintf(key, sizeof key, "rank %lld / device %s / step %s", (long long)rank, dev,
			         *step ? step : "(none)");
		else
			snprintf(key, sizeof key, "rank %lld / step %s", (long long)rank, *step ? step : "(none)");
		if (profdb__verify_parse_num(profdb__verify_cell(t, row, cc), &want) != 0) {
			rc = profdb__error(v->db, PROFDB_EFORMAT, "%s:%zu: Computing: a number was expected", label, row + 1);
			break;
		}
		/* each interval end may move by the rounding of a start and a duration */
		rc = profdb__verify_add_check(v, "step_trace_time Computing", key, want, f.computing / 1000.0,
		               2 * ROUND_US * (double)(f.ncompute + 1));
		if (rc == PROFDB_OK && cm >= 0 && profdb__verify_parse_num(profdb__verify_cell(t, row, cm), &want) == 0)
			rc = profdb__verify_add_check(v, "step_trace_time Communication", key, want, f.comm / 1000.0,
			               2 * ROUND_US * (double)(f.ncomm + 1));
		if (rc == PROFDB_OK && co >= 0 && profdb__verify_parse_num(profdb__verify_cell(t, row, co), &want) == 0)
			rc = profdb__verify_add_check(v, "step_trace_time Overlapped", key, want, f.overlapped / 1000.0,
			               2 * ROUND_US * (double)(nall + 1));
		if (rc == PROFDB_OK && cn >= 0 && profdb__verify_parse_num(profdb__verify_cell(t, row, cn), &want) == 0)
			rc = profdb__verify_add_check(v, "step_trace_time Communication(Not Overlapped)", key, want,
			               (f.comm - f.overlapped) / 1000.0, 2 * ROUND_US * (double)(nall + 1));
	}
	return rc;
}

