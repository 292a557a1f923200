/*
 * report.c - a comparison as output: the format dispatch, the number text
 * every renderer shares, the CSV report, and the comparison as a
 * profdb_result so the generic formats (table, csv, json, md) print it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "escape.h"
#include "query/result.h"
#include "util/utf8.h"
#include "banned.h"

void profdb__fmt_us(char *out, size_t cap, double ns)
{
	if (isnan(ns))
		snprintf(out, cap, "%s", "");
	else
		snprintf(out, cap, "%.3f", ns / 1000);
}

void profdb__fmt_value(char *out, size_t cap, const struct profdb__cmp_line *l, double v)
{
	if (isnan(v))
		snprintf(out, cap, "%s", "");
	else if (l->is_count)
		snprintf(out, cap, "%.2f", v);
	else
		profdb__fmt_us(out, cap, v);
}

void profdb__fmt_pct(char *out, size_t cap, double frac)
{
	if (isnan(frac))
		snprintf(out, cap, "%s", "");
	else
		snprintf(out, cap, "%+.2f%%", 100 * frac);
}

void profdb__fmt_ci(char *out, size_t cap, const struct profdb__cmp_line *l)
{
	char lo[32], hi[32];
	profdb__fmt_pct(lo, sizeof lo, l->ci_lo);
	profdb__fmt_pct(hi, sizeof hi, l->ci_hi);
	if (lo[0] && hi[0])
		snprintf(out, cap, "[%s, %s]", lo, hi);
	else
		snprintf(out, cap, "%s", "");
}

void profdb__fmt_p(char *out, size_t cap, double p)
{
	if (isnan(p))
		snprintf(out, cap, "%s", "");
	else if (p < 1e-4)
		snprintf(out, cap, "%.2e", p);
	else
		snprintf(out, cap, "%.4f", p);
}

void profdb__fmt_runs(char *out, size_t cap, char *const *runs, size_t n)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? ", " : "", runs[i]);
}

/* The report writers, one row per format (a comparison's counterpart of
 * format.c's writer table). */
static const struct {
	enum profdb_format format;
	const char *name;          /* as --format names it */
	int (*write)(const profdb_comparison *c, FILE *out);
} reports[] = {
	{ PROFDB_FMT_MD, "md", profdb__report_md },
	{ PROFDB_FMT_HTML, "html", profdb__report_html },
	{ PROFDB_FMT_JSON, "json", profdb__report_json },
	{ PROFDB_FMT_JUNIT, "junit", profdb__report_junit },
	{ PROFDB_FMT_CSV, "csv", profdb__report_csv },
};

int profdb_report_format_parse(const char *s)
{
	for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++)
		if (strcmp(s, reports[i].name) == 0)
			return (int)reports[i].format;
	return -1;
}

int profdb_report_write(const profdb_comparison *c, FILE *out, enum profdb_format f)
{
	for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++)
		if (reports[i].format == f)
			return reports[i].write(c, out);
	return PROFDB_ERROR;
}

/* ---------------------------------------------------------------- csv */

static void csv_field(FILE *out, const char *text, int last)
{
	profdb__csv_field(out, text);
	fputc(last ? '\n' : ',', out);
}

static void csv_line(FILE *out, const char *scope, const struct profdb__cmp_line *l)
{
	char b[64];
	csv_field(out, scope, 0);
	csv_field(out, l->key, 0);
	csv_field(out, profdb__verdict_name(l->verdict), 0);
	csv_field(out, l->is_count ? "count" : "us", 0);
	profdb__fmt_value(b, sizeof b, l, l->base);
	csv_field(out, b, 0);
	profdb__fmt_value(b, sizeof b, l, l->next);
	csv_field(out, b, 0);
	profdb__fmt_value(b, sizeof b, l, l->delta);
	csv_field(out, b, 0);
	snprintf(b, sizeof b, "%.4f", 100 * l->rel);
	csv_field(out, isnan(l->rel) ? "" : b, 0);
	snprintf(b, sizeof b, "%.3f", l->base_calls);
	csv_field(out, isnan(l->base_calls) ? "" : b, 0);
	snprintf(b, sizeof b, "%.3f", l->next_calls);
	csv_field(out, isnan(l->next_calls) ? "" : b, 0);
	snprintf(b, sizeof b, "%.6g", l->p);
	csv_field(out, isnan(l->p) ? "" : b, 0);
	snprintf(b, sizeof b, "%.4f", 100 * l->ci_lo);
	csv_field(out, isnan(l->ci_lo) ? "" : b, 0);
	snprintf(b, sizeof b, "%.4f", 100 * l->ci_hi);
	csv_field(out, isnan(l->ci_hi) ? "" : b, 0);
	snprintf(b, sizeof b, "%zu", l->nbase);
	csv_field(out, b, 0);
	snprintf(b, sizeof b, "%zu", l->nnext);
	csv_field(out, b, 0);
	csv_field(out, l->why, 1);
}

/* One table: whole-run lines, then kernels.  The warnings are not rows:
 * a csv reader gets data only (issue 16); 'profdb report' prints them on
 * stderr. */
int profdb__report_csv(const profdb_comparison *c, FILE *out)
{
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	int rc;
	fputs("scope,key,verdict,unit,base,new,delta,change_pct,base_calls,new_calls,p_value,"
	      "ci_low_pct,ci_high_pct,n_base,n_new,why\n", out);
	for (size_t i = 0; i < c->nruns; i++)
		csv_line(out, "run", &c->runs[i]);
	profdb__cmp_walk_start(&w, c, 0);
	while ((l = profdb__cmp_walk_next(&w)) != NULL)
		csv_line(out, "kernel", l);
	rc = profdb__cmp_walk_end(&w);
	return rc != PROFDB_OK || ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

/* ---------------------------------------------------------------- result */

/* A figure that cannot be computed (NaN: no samples) is an empty cell. */
static int set_real(profdb_result *r, size_t row, size_t col, double v)
{
	return isnan(v) ? profdb__result_set_null(r, row, col) : profdb__result_set_double(r, row, col, v);
}

/* v to sig significant digits: what a person reads of a p-value or a mean
 * call count ("0.00216", not "0.00216450216450216"). */
static double round_sig(double v, int sig)
{
	char b[48];
	if (!isfinite(v) || v == 0)
		return v;
	snprintf(b, sizeof b, "%.*g", sig, v);
	return strtod(b, NULL);
}

enum { C_KEY, C_VERDICT, C_BASE, C_NEW, C_DELTA, C_CHANGE, C_CI_LO, C_CI_HI, C_P,
       C_BASE_CALLS, C_NEW_CALLS, C_NBASE, C_NNEW, C_WHY, C_COUNT };

/* The cells of one line of the table (see profdb_comparison_table). */
static int fill_row(profdb_result *r, size_t i, const struct profdb__cmp_line *l, int kernels,
                    unsigned flags)
{
	/* the whole-run figures are plain numbers in us or counts; kernel
	 * times are ns columns, rounded by their unit when shown */
	const double scale = !kernels && !l->is_count ? 1000 : 1;
	const int rd = (flags & PROFDB_CMP_ROUNDED) ? 6 : 0, rp = rd ? 3 : 0, rt = kernels ? 0 : rd;
	char key[256];
	int rc = 0;
	snprintf(key, sizeof key, "%s%s", l->key, scale != 1 ? " (us)" : "");
	rc |= profdb__result_set_text(r, i, C_KEY, kernels ? l->key : key);
	rc |= profdb__result_set_text(r, i, C_VERDICT, profdb__verdict_name(l->verdict));
	rc |= set_real(r, i, C_BASE, rt ? round_sig(l->base / scale, rt) : l->base / scale);
	rc |= set_real(r, i, C_NEW, rt ? round_sig(l->next / scale, rt) : l->next / scale);
	rc |= set_real(r, i, C_DELTA, rt ? round_sig(l->delta / scale, rt) : l->delta / scale);
	rc |= set_real(r, i, C_CHANGE, 100 * l->rel);
	rc |= set_real(r, i, C_CI_LO, 100 * l->ci_lo);
	rc |= set_real(r, i, C_CI_HI, 100 * l->ci_hi);
	rc |= set_real(r, i, C_P, rp ? round_sig(l->p, rp) : l->p);
	rc |= set_real(r, i, C_BASE_CALLS, rd ? round_sig(l->base_calls, rd) : l->base_calls);
	rc |= set_real(r, i, C_NEW_CALLS, rd ? round_sig(l->next_calls, rd) : l->next_calls);
	rc |= profdb__result_set_int(r, i, C_NBASE, (int64_t)l->nbase);
	rc |= profdb__result_set_int(r, i, C_NNEW, (int64_t)l->nnext);
	rc |= profdb__result_set_text(r, i, C_WHY, l->why);
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

size_t profdb__comparison_shown(const profdb_comparison *c, unsigned flags)
{
	size_t n = (flags & PROFDB_CMP_KERNELS) ? c->nkernels : c->nruns;
	if ((flags & PROFDB_CMP_KERNELS) && c->top && n > c->top)
		n = c->top; /* the lines are sorted by |delta|: the largest changes */
	return n;
}

int profdb_comparison_table(const profdb_comparison *c, profdb_result **out, unsigned flags)
{
	return profdb__comparison_part(c, out, flags, 0, SIZE_MAX, 1);
}

/* A narrow terminal keeps both figures and the change (format_table.c);
 * the counts behind them and the test's detail go first. */
static const char *const headline_cols[] = { "base", "new", "change", NULL };
static const char *const hide_cols[] = {
	"n_base|n_new", "base_calls|new_calls", "ci_low|ci_high", "p", "why", NULL
};

int profdb__comparison_part(const profdb_comparison *c, profdb_result **out, unsigned flags,
                            size_t from, size_t to, int last)
{
	const int kernels = (flags & PROFDB_CMP_KERNELS) != 0;
	static const char *const names[C_COUNT] = {
		NULL, "verdict", "base", "new", "delta", "change", "ci_low", "ci_high", "p",
		"base_calls", "new_calls", "n_base", "n_new", "why"
	};
	static const enum profdb_coltype types[C_COUNT] = {
		PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
		PROFDB_COL_PCT, PROFDB_COL_PCT, PROFDB_COL_PCT, PROFDB_COL_PROB, PROFDB_COL_REAL,
		PROFDB_COL_REAL, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT
	};
	struct profdb__cmp_walk w;
	size_t all = kernels ? c->nkernels : c->nruns, n = profdb__comparison_shown(c, flags);
	profdb_result *r = NULL;
	int rc = PROFDB_OK;

	*out = NULL;
	if (profdb__result_new(&r, C_COUNT) != PROFDB_OK)
		return PROFDB_ERROR;
	for (size_t i = 0; i < C_COUNT; i++) {
		r->names[i] = strdup(i == C_KEY ? (kernels ? c->by : "figure") : names[i]);
		r->types[i] = types[i];
		if (!r->names[i])
			rc = PROFDB_ERROR;
	}
	/* the whole-run table mixes times and counts: plain numbers there, the
	 * unit in the figure's name */
	if (!kernels)
		r->types[C_BASE] = r->types[C_NEW] = r->types[C_DELTA] = PROFDB_COL_REAL;
	if (to > n)
		to = n;
	if (from > to)
		from = to;
	r->cells = calloc(to > from ? (to - from) * C_COUNT : 1, sizeof *r->cells);
	if (!r->cells)
		rc = PROFDB_ERROR;
	/* the kernel lines from a walk (held or spooled), started at from */
	if (kernels)
		profdb__cmp_walk_start(&w, c, from);
	for (size_t i = from; i < to && rc == PROFDB_OK; i++) {
		const struct profdb__cmp_line *l = kernels ? profdb__cmp_walk_next(&w) : &c->runs[i];
		if (!l) {
			rc = PROFDB_ERROR;
			break;
		}
		r->nrows++;
		rc = fill_row(r, i - from, l, kernels, flags);
	}
	if (kernels && profdb__cmp_walk_end(&w) != PROFDB_OK)
		rc = PROFDB_ERROR;
	/* the warnings once, on the kernel table, so a format that prints
	 * notes does not repeat them under both tables; on the last part,
	 * where the formats write notes */
	for (size_t i = 0; last && kernels && !(flags & PROFDB_CMP_NO_WARNINGS) && i < c->nwarnings &&
	                   rc == PROFDB_OK; i++)
		rc = profdb__result_add_note(r, c->warnings[i]);
	if (rc == PROFDB_OK && last && n < all) {
		char note[128];
		snprintf(note, sizeof note, "%zu of %zu kernels shown: the largest changes (--top %zu)",
		         n, all, c->top);
		rc = profdb__result_add_note(r, note);
	}
	if (rc != PROFDB_OK) {
		profdb_result_free(r);
		return PROFDB_ERROR;
	}
	profdb__result_priority(r, headline_cols, hide_cols);
	*out = r;
	return PROFDB_OK;
}

int profdb_diff(profdb *db, profdb_result **out, const struct profdb_diff_opts *o)
{
	profdb_comparison *c = NULL;
	int rc;
	*out = NULL;
	if ((rc = profdb_compare(db, &c, o)) != PROFDB_OK)
		return rc;
	rc = profdb_comparison_table(c, out, PROFDB_CMP_KERNELS);
	profdb_comparison_free(c);
	if (rc != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}
