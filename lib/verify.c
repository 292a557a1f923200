/*
 * verify.c - check a stored run against the profiler's own summaries.
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

#include "internal.h"
#include "result.h"
#include "banned.h"

#define REL_TOL 1e-4          /* 0.01 % */
#define ROUND_US 0.0005       /* half of the 0.001 us the CSV files print */

/* ---------------------------------------------------------------- a small CSV parser */

/* One parsed CSV table (fields owned, rows of ncols fields). */
struct table {
	char **f;                  /* nrows * ncols fields (header is row 0) */
	size_t nrows, ncols;
};

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->f[i]);
	free(t->f);
	memset(t, 0, sizeof *t);
}

/*
 * Parse RFC 4180 text (quotes, doubled quotes, CR/LF or LF) into t.  Rows
 * shorter than the header are padded with "", longer ones cut.  Returns 0,
 * or -1 when out of memory.
 */
static int table_parse(struct table *t, const char *s, size_t n)
{
	char *field = NULL, **row = NULL;
	size_t flen = 0, fcap = 0, rn = 0, rcap = 0, tcap = 0, i = 0;
	int quoted = 0, end_row = 0, rc = -1;

	memset(t, 0, sizeof *t);
	while (i <= n) {
		int c = i < n ? (unsigned char)s[i] : -1;
		int end_field = 0;
		i++;
		if (quoted) {
			if (c == '"' && i < n && s[i] == '"') {
				i++;
			} else if (c == '"') {
				quoted = 0;
				continue;
			} else if (c == -1) {
				end_field = end_row = 1;
			}
		} else if (c == '"' && flen == 0) {
			quoted = 1;
			continue;
		} else if (c == ',') {
			end_field = 1;
		} else if (c == '\n' || c == -1) {
			end_field = end_row = 1;
		} else if (c == '\r' && i < n && s[i] == '\n') {
			continue;
		}
		if (!end_field) {
			if (flen + 2 > fcap) {
				char *nf = realloc(field, fcap = fcap ? fcap * 2 : 64);
				if (!nf)
					goto out;
				field = nf;
			}
			field[flen++] = (char)c;
			continue;
		}
		if (rn == rcap) {
			char **nr = realloc(row, (rcap = rcap ? rcap * 2 : 16) * sizeof *nr);
			if (!nr)
				goto out;
			row = nr;
		}
		row[rn] = malloc(flen + 1);
		if (!row[rn])
			goto out;
		if (flen)
			memcpy(row[rn], field, flen);
		row[rn++][flen] = '\0';
		flen = 0;
		if (!end_row)
			continue;
		end_row = 0;
		/* a blank line (or the end after a final newline) is no row */
		if (!(rn == 1 && row[0][0] == '\0')) {
			size_t nc = t->nrows == 0 ? rn : t->ncols;
			if (t->nrows == 0)
				t->ncols = nc;
			if ((t->nrows + 1) * nc > tcap) {
				size_t ncap = tcap ? tcap * 2 : nc * 16;
				char **nf;
				while (ncap < (t->nrows + 1) * nc)
					ncap *= 2;
				nf = realloc(t->f, ncap * sizeof *nf);
				if (!nf)
					goto out;
				t->f = nf;
				tcap = ncap;
			}
			for (size_t k = 0; k < nc; k++) {
				t->f[t->nrows * nc + k] = k < rn ? row[k] : strdup("");
				if (k < rn)
					row[k] = NULL;
				if (!t->f[t->nrows * nc + k]) {
					for (size_t j = 0; j < k; j++)
						free(t->f[t->nrows * nc + j]);
					goto out;
				}
			}
			t->nrows++;
		}
		for (size_t k = 0; k < rn; k++)
			free(row[k]);
		rn = 0;
	}
	rc = 0;
out:
	for (size_t k = 0; k < rn; k++)
		free(row[k]);
	free(row);
	free(field);
	if (rc != 0)
		table_free(t);
	return rc;
}

static int table_col(const struct table *t, const char *name)
{
	for (size_t c = 0; t->nrows > 0 && c < t->ncols; c++)
		if (strcmp(t->f[c], name) == 0)
			return (int)c;
	return -1;
}

static const char *cell(const struct table *t, size_t row, int col)
{
	return col < 0 ? "" : t->f[row * t->ncols + (size_t)col];
}

/* ---------------------------------------------------------------- output rows */

struct verify {
	profdb *db;
	profdb_result *r;
	size_t cap;                /* rows allocated */
	int64_t run_id;
	int failed;
};

static int set_text(struct profdb_cell *c, const char *s)
{
	c->type = SQLITE_TEXT;
	c->text = strdup(s);
	return c->text ? PROFDB_OK : PROFDB_ERROR;
}

static int set_real(struct profdb_cell *c, double v)
{
	char buf[64];
	c->type = SQLITE_FLOAT;
	c->d = v;
	/* the shortest text that reads back as v */
	snprintf(buf, sizeof buf, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof buf, "%.17g", v);
	c->text = strdup(buf);
	return c->text ? PROFDB_OK : PROFDB_ERROR;
}

/* Add one check; tol is the absolute allowance in the values' unit. */
static int add_check(struct verify *v, const char *check, const char *key,
                     double expected, double actual, double tol)
{
	profdb_result *r = v->r;
	struct profdb_cell *row;
	double diff = actual - expected;
	int ok = fabs(diff) <= fmax(REL_TOL * fabs(expected), tol);
	int rc;

	if (r->nrows == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		struct profdb_cell *c = realloc(r->cells, cap * r->ncols * sizeof *c);
		if (!c)
			return profdb__error(v->db, PROFDB_ERROR, "out of memory");
		r->cells = c;
		v->cap = cap;
	}
	row = &r->cells[r->nrows * r->ncols];
	memset(row, 0, r->ncols * sizeof *row);
	r->nrows++;
	/* shown to 1e-6 us: the inputs have ns resolution, finer digits are float noise */
	rc = set_text(&row[0], check) | set_text(&row[1], key) | set_real(&row[2], expected) |
	     set_real(&row[3], actual) | set_real(&row[4], round(diff * 1e6) / 1e6) |
	     set_text(&row[5], ok ? "ok" : "FAIL");
	if (rc != PROFDB_OK)
		return profdb__error(v->db, PROFDB_ERROR, "out of memory");
	if (!ok)
		v->failed++;
	return PROFDB_OK;
}

static int parse_num(const char *s, double *out)
{
	return profdb_parse_double(s, strlen(s), out);
}

/* ---------------------------------------------------------------- op_statistic */

/* Stored kernel aggregate of one (type, core). */
struct agg {
	char *type, *core;         /* owned; "" for NULL */
	int64_t n, sum, min, max;
	int seen;                  /* matched by a row of the file */
};

static void aggs_free(struct agg *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].type);
		free(a[i].core);
	}
	free(a);
}

static int load_aggs(struct verify *v, int64_t rank, int64_t device, struct agg **out, size_t *nout)
{
	sqlite3_stmt *q = NULL;
	struct agg *a = NULL;
	size_t n = 0, cap = 0;
	int rc = PROFDB_OK;

	*out = NULL;
	*nout = 0;
	if (sqlite3_prepare_v2(v->db->sql,
	    "SELECT coalesce(t.value, ''), coalesce(c.value, ''), count(*), sum(k.dur_ns),"
	    " min(k.dur_ns), max(k.dur_ns) FROM kernel k LEFT JOIN str t ON t.id = k.type_id"
	    " LEFT JOIN str c ON c.id = k.core_id WHERE k.run_id = ?1 AND k.rank = ?2"
	    " AND k.kind <> 3 AND (?3 IS NULL OR k.device = ?3) GROUP BY 1, 2 ORDER BY 1, 2",
	    -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(v->db, "verify: reading kernels");
	sqlite3_bind_int64(q, 1, v->run_id);
	sqlite3_bind_int64(q, 2, rank);
	if (device == PROFDB_NULL)
		sqlite3_bind_null(q, 3);
	else
		sqlite3_bind_int64(q, 3, device);
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (n == cap) {
			struct agg *na = realloc(a, (cap = cap ? cap * 2 : 32) * sizeof *na);
			if (!na) {
				rc = profdb__error(v->db, PROFDB_ERROR, "out of memory");
				break;
			}
			a = na;
		}
		a[n].type = strdup((const char *)sqlite3_column_text(q, 0));
		a[n].core = strdup((const char *)sqlite3_column_text(q, 1));
		a[n].n = sqlite3_column_int64(q, 2);
		a[n].sum = sqlite3_column_int64(q, 3);
		a[n].min = sqlite3_column_int64(q, 4);
		a[n].max = sqlite3_column_int64(q, 5);
		a[n].seen = 0;
		n++;
		if (!a[n - 1].type || !a[n - 1].core) {
			rc = profdb__error(v->db, PROFDB_ERROR, "out of memory");
			break;
		}
	}
	sqlite3_finalize(q);
	if (rc != PROFDB_OK) {
		aggs_free(a, n);
		return rc;
	}
	*out = a;
	*nout = n;
	return PROFDB_OK;
}

static void key_of(char *buf, size_t cap, int64_t rank, const char *device, const char *a, const char *b)
{
	if (device && *device)
		snprintf(buf, cap, "rank %lld / device %s / %s / %s", (long long)rank, device, a, b);
	else
		snprintf(buf, cap, "rank %lld / %s / %s", (long long)rank, a, b);
}

/* The checks of one op_statistic file (the rows of one device, or all). */
static int check_op_statistic(struct verify *v, const struct table *t, int64_t rank, const char *label)
{
	int ct = table_col(t, "OP Type"), cc = table_col(t, "Core Type"), cn = table_col(t, "Count");
	int ctot = table_col(t, "Total Time(us)"), cmin = table_col(t, "Min Time(us)");
	int cavg = table_col(t, "Avg Time(us)"), cmax = table_col(t, "Max Time(us)");
	int cdev = table_col(t, "Device_id");
	int rc = PROFDB_OK;

	if (ct < 0 || cc < 0 || cn < 0 || ctot < 0 || cmin < 0 || cmax < 0)
		return profdb__error(v->db, PROFDB_EFORMAT, "%s: not an op_statistic table (columns"
		                     " 'OP Type', 'Core Type', 'Count', 'Total Time(us)', 'Min Time(us)',"
		                     " 'Max Time(us)' expected)", label);
	/* one pass per device of the file (one pass when it has no Device_id) */
	for (size_t first = 1; first < t->nrows && rc == PROFDB_OK; first++) {
		const char *dev = cell(t, first, cdev);
		int64_t device = PROFDB_NULL;
		struct agg *a = NULL;
		size_t na = 0;
		int done = 0;

		for (size_t j = 1; j < first; j++) /* this device was handled already */
			done |= strcmp(cell(t, j, cdev), dev) == 0;
		if (done)
			continue;
		if (cdev >= 0 && profdb_parse_i64(dev, strlen(dev), &device) != 0)
			device = PROFDB_NULL;
		if ((rc = load_aggs(v, rank, device, &a, &na)) != PROFDB_OK)
			return rc;
		for (size_t row = first; row < t->nrows && rc == PROFDB_OK; row++) {
			const char *type = cell(t, row, ct), *core = cell(t, row, cc);
			double count, total, mn, avg = 0, mx;
			struct agg zero = { NULL, NULL, 0, 0, 0, 0, 0 }, *g = &zero;
			char key[512], line[64];
			if (strcmp(cell(t, row, cdev), dev) != 0)
				continue;
			snprintf(line, sizeof line, "%s:%zu", label, row + 1);
			if (parse_num(cell(t, row, cn), &count) || parse_num(cell(t, row, ctot), &total) ||
			    parse_num(cell(t, row, cmin), &mn) || parse_num(cell(t, row, cmax), &mx) ||
			    (cavg >= 0 && parse_num(cell(t, row, cavg), &avg))) {
				rc = profdb__error(v->db, PROFDB_EFORMAT, "%s: a number was expected", line);
				break;
			}
			for (size_t i = 0; i < na; i++)
				if (strcmp(a[i].type, type) == 0 && strcmp(a[i].core, core) == 0)
					g = &a[i];
			g->seen = 1;
			key_of(key, sizeof key, rank, dev, type, core);
			rc = add_check(v, "op_statistic Count", key, count, (double)g->n, 0);
			if (rc == PROFDB_OK)
				rc = add_check(v, "op_statistic Total Time(us)", key, total, g->sum / 1000.0,
				               ROUND_US * (double)(g->n + 1));
			if (rc == PROFDB_OK)
				rc = add_check(v, "op_statistic Min Time(us)", key, mn, g->min / 1000.0, 2 * ROUND_US);
			if (rc == PROFDB_OK && cavg >= 0)
				rc = add_check(v, "op_statistic Avg Time(us)", key, avg,
				               g->n ? g->sum / 1000.0 / (double)g->n : 0, 2 * ROUND_US);
			if (rc == PROFDB_OK)
				rc = add_check(v, "op_statistic Max Time(us)", key, mx, g->max / 1000.0, 2 * ROUND_US);
		}
		/* stored kernels of a (type, core) the profiler did not list */
		for (size_t i = 0; i < na && rc == PROFDB_OK; i++) {
			char key[512];
			if (a[i].seen)
				continue;
			key_of(key, sizeof key, rank, dev, a[i].type, a[i].core);
			rc = add_check(v, "op_statistic Count", key, 0, (double)a[i].n, 0);
		}
		aggs_free(a, na);
	}
	return rc;
}

/* ---------------------------------------------------------------- step_trace_time */

struct ival {
	int64_t s, e;
};

/* Merge sorted-by-start intervals in place; returns the new count. */
static size_t merge(struct ival *iv, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m > 0 && iv[i].s <= iv[m - 1].e) {
			if (iv[i].e > iv[m - 1].e)
				iv[m - 1].e = iv[i].e;
		} else {
			iv[m++] = iv[i];
		}
	}
	return m;
}

static int64_t length(const struct ival *iv, size_t n)
{
	int64_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += iv[i].e - iv[i].s;
	return t;
}

/* Length of the intersection of two merged interval lists. */
static int64_t overlap(const struct ival *a, size_t na, const struct ival *b, size_t nb)
{
	size_t i = 0, j = 0;
	int64_t t = 0;
	while (i < na && j < nb) {
		int64_t lo = a[i].s > b[j].s ? a[i].s : b[j].s;
		int64_t hi = a[i].e < b[j].e ? a[i].e : b[j].e;
		if (hi > lo)
			t += hi - lo;
		if (a[i].e < b[j].e)
			i++;
		else
			j++;
	}
	return t;
}

/* Step figures recomputed from the stored kernels, in ns. */
struct step_fig {
	int64_t computing, comm, overlapped;
	size_t ncompute, ncomm;    /* kernels behind each figure */
};

static int step_figures(struct verify *v, int64_t rank, const char *step, int64_t device,
                        struct step_fig *f)
{
	sqlite3_stmt *q = NULL;
	struct ival *c = NULL, *m = NULL;
	size_t nc = 0, nm = 0, capc = 0, capm = 0;
	int64_t sn = 0;
	int rc = PROFDB_OK, has_step = *step && profdb_parse_i64(step, strlen(step), &sn) == 0;

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
		struct ival **a = comm ? &m : &c;
		size_t *n = comm ? &nm : &nc, *cap = comm ? &capm : &capc;
		if (*n == *cap) {
			struct ival *na = realloc(*a, (*cap = *cap ? *cap * 2 : 256) * sizeof *na);
			if (!na) {
				rc = profdb__error(v->db, PROFDB_ERROR, "out of memory");
				break;
			}
			*a = na;
		}
		(*a)[(*n)++] = (struct ival){ sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1) };
	}
	sqlite3_finalize(q);
	if (rc == PROFDB_OK) {
		f->ncompute = nc;
		f->ncomm = nm;
		nc = merge(c, nc);
		nm = merge(m, nm);
		f->computing = length(c, nc);
		f->comm = length(m, nm);
		f->overlapped = overlap(c, nc, m, nm);
	}
	free(c);
	free(m);
	return rc;
}

static int check_step_trace(struct verify *v, const struct table *t, int64_t rank, const char *label)
{
	int cs = table_col(t, "Step"), cc = table_col(t, "Computing"), cdev = table_col(t, "Device_id");
	int co = table_col(t, "Overlapped"), cm = table_col(t, "Communication");
	int cn = table_col(t, "Communication(Not Overlapped)");
	int rc = PROFDB_OK;

	if (cc < 0)
		return profdb__error(v->db, PROFDB_EFORMAT, "%s: not a step_trace_time table (no 'Computing' column)",
		                     label);
	for (size_t row = 1; row < t->nrows && rc == PROFDB_OK; row++) {
		const char *step = cell(t, row, cs), *dev = cell(t, row, cdev);
		int64_t device = PROFDB_NULL;
		struct step_fig f;
		double want;
		char key[256];
		size_t nall;

		if (cdev >= 0 && profdb_parse_i64(dev, strlen(dev), &device) != 0)
			device = PROFDB_NULL;
		if ((rc = step_figures(v, rank, step, device, &f)) != PROFDB_OK)
			break;
		nall = f.ncompute + f.ncomm;
		if (*dev)
			snprintf(key, sizeof key, "rank %lld / device %s / step %s", (long long)rank, dev,
			         *step ? step : "(none)");
		else
			snprintf(key, sizeof key, "rank %lld / step %s", (long long)rank, *step ? step : "(none)");
		if (parse_num(cell(t, row, cc), &want) != 0) {
			rc = profdb__error(v->db, PROFDB_EFORMAT, "%s:%zu: Computing: a number was expected", label, row + 1);
			break;
		}
		/* each interval end may move by the rounding of a start and a duration */
		rc = add_check(v, "step_trace_time Computing", key, want, f.computing / 1000.0,
		               2 * ROUND_US * (double)(f.ncompute + 1));
		if (rc == PROFDB_OK && cm >= 0 && parse_num(cell(t, row, cm), &want) == 0)
			rc = add_check(v, "step_trace_time Communication", key, want, f.comm / 1000.0,
			               2 * ROUND_US * (double)(f.ncomm + 1));
		if (rc == PROFDB_OK && co >= 0 && parse_num(cell(t, row, co), &want) == 0)
			rc = add_check(v, "step_trace_time Overlapped", key, want, f.overlapped / 1000.0,
			               2 * ROUND_US * (double)(nall + 1));
		if (rc == PROFDB_OK && cn >= 0 && parse_num(cell(t, row, cn), &want) == 0)
			rc = add_check(v, "step_trace_time Communication(Not Overlapped)", key, want,
			               (f.comm - f.overlapped) / 1000.0, 2 * ROUND_US * (double)(nall + 1));
	}
	return rc;
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

int profdb_verify(profdb *db, profdb_result **out, const char *run, int *out_failed)
{
	static const char *const names[] = { "check", "key", "expected", "actual", "diff", "ok" };
	static const enum profdb_coltype types[] = {
		PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_TEXT
	};
	struct verify v = { 0 };
	sqlite3_stmt *q = NULL;
	int rc, nsrc = 0;

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
		struct table t;
		if (table_parse(&t, (const char *)sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3)) != 0) {
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
			break;
		}
		nsrc++;
		base = base ? base + 1 : path;
		if (strcmp(role, "op_statistic") == 0)
			rc = check_op_statistic(&v, &t, rank, base);
		else
			rc = check_step_trace(&v, &t, rank, base);
		table_free(&t);
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
