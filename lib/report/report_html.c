/*
 * report_html.c - a comparison as one self-contained HTML page: inline CSS,
 * an inline SVG bar chart of the largest changes, no scripts, fonts or
 * network references, so it can be attached to a CI run and opened
 * anywhere.  Summary, warnings, whole-run figures, top regressions and
 * improvements, and every kernel in a collapsed table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "escape.h"
#include "query/result.h"
#include "banned.h"

#define TOP_ROWS 20     /* rows of the top-regressions/improvements tables */
#define CHART_BARS 20   /* bars of the chart */
#define LABEL_MAX 56    /* chart label length before it is shortened */
#define NAME_MAX 40     /* table name length before it is shortened: the tables fit 1200 px */
#define LABEL_CAP (LABEL_MAX + 24) /* a label, its " #k" and the NUL */
#define BAR_REGRESSION "#cf222e" /* bar colours, named in the chart's legend */
#define BAR_IMPROVEMENT "#1a7f37"
#define BAR_NEW_GONE "#0969da"
#define BAR_OTHER "#8c959f"

static const char style[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#1f2328}"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}"
	".runs{color:#59636e;margin:0 0 16px}"
	".cards{display:flex;gap:10px;flex-wrap:wrap}"
	".card{border:1px solid #d1d9e0;border-radius:6px;padding:8px 14px;min-width:90px}"
	".card b{display:block;font-size:22px}"
	".regression{color:#cf222e}.improvement{color:#1a7f37}.inconclusive{color:#9a6700}"
	".new,.gone{color:#0550ae}.unchanged{color:#59636e}"
	".warn{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:8px 12px;margin:6px 0}"
	"table{border-collapse:collapse;font-size:12px}"
	"th,td{border-bottom:1px solid #d1d9e0;padding:4px 5px;text-align:right;white-space:nowrap}"
	"th{background:#f6f8fa}td.k{text-align:left}"
	"td.why{text-align:left;color:#59636e;white-space:normal;min-width:120px}"
	".legend{font-size:12px;color:#59636e;margin:0 0 4px}"
	".legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px;vertical-align:-1px}"
	".method{color:#59636e;max-width:900px}";

static void h(FILE *out, const char *s)
{
	profdb__xml_text(out, s);
}

static void row(FILE *out, const struct profdb__cmp_line *l, const char *label, int kernel)
{
	char a[64], b[64], d[64], pct[32], ci[80];
	const char *v = profdb__verdict_name(l->verdict);
	profdb__fmt_value(a, sizeof a, l, l->base);
	profdb__fmt_value(b, sizeof b, l, l->next);
	profdb__fmt_value(d, sizeof d, l, l->delta);
	profdb__fmt_pct(pct, sizeof pct, l->rel);
	profdb__fmt_ci(ci, sizeof ci, l);
	fputs("<tr><td class=\"k\" title=\"", out);
	h(out, l->key);
	fputs("\">", out);
	h(out, label ? label : l->key);
	if (!kernel)
		fputs(l->is_count ? "" : " (µs)", out);
	fprintf(out, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
	        a, b, d, pct, ci);
	if (kernel) { /* calls per repeat, one column: the table fits 1200 px */
		char c1[32] = "-", c2[32] = "-";
		if (!isnan(l->base_calls))
			snprintf(c1, sizeof c1, "%.2f", l->base_calls);
		if (!isnan(l->next_calls))
			snprintf(c2, sizeof c2, "%.2f", l->next_calls);
		fprintf(out, "<td>%s → %s</td>", c1, c2);
	}
	/* p is in the reason ("mwu p = 0.00216 < 0.01"): no column of its own,
	 * so the tables fit 1200 px */
	fprintf(out, "<td>%zu / %zu</td><td class=\"%s\">%s</td><td class=\"why\">",
	        l->nbase, l->nnext, v, v);
	h(out, l->why);
	fputs("</td></tr>\n", out);
}

static void table_head(FILE *out, const char *first, int kernel)
{
	fprintf(out, "<table><tr><th style=\"text-align:left\">%s</th><th>base%s</th><th>new%s</th>"
	        "<th>delta%s</th><th>change</th><th>CI</th>%s<th>samples</th>"
	        "<th>verdict</th><th style=\"text-align:left\">why</th></tr>\n", first,
	        kernel ? " µs" : "", kernel ? " µs" : "", kernel ? " µs" : "",
	        kernel ? "<th>calls base → new</th>" : "");
}

static int make_labels(char (*lab)[LABEL_CAP], const struct profdb__cmp_line *const *lines, size_t n,
                       size_t max);

/* A kernel table of n lines, names shortened to NAME_MAX and numbered
 * where they would read alike.  PROFDB_ERROR when out of memory. */
static int kernel_table(FILE *out, const struct profdb__cmp_line *const *lines, size_t n)
{
	char (*lab)[LABEL_CAP] = calloc(n ? n : 1, sizeof *lab);
	if (!lab || make_labels(lab, lines, n, NAME_MAX) != PROFDB_OK) {
		free(lab);
		return PROFDB_ERROR;
	}
	table_head(out, "kernel", 1);
	for (size_t i = 0; i < n; i++)
		row(out, lines[i], lab[i], 1);
	fputs("</table>\n", out);
	free(lab);
	return PROFDB_OK;
}

/* Lines of a walk kept past it: copies, their keys owned. */
struct kept {
	struct profdb__cmp_line *l;
	const struct profdb__cmp_line **ptr; /* &l[i], as kernel_table takes them */
	size_t n;
};

static void kept_free(struct kept *k)
{
	for (size_t i = 0; k->l && i < k->n; i++)
		free(k->l[i].key);
	free(k->l);
	free(k->ptr);
}

/* Verdict v, or any when v is -1 (all_table); nonzero delta when v is -2
 * (the chart's bars). */
static int wanted(const struct profdb__cmp_line *l, int v)
{
	return v == -1 || (v == -2 ? !isnan(l->delta) && l->delta != 0 : (int)l->verdict == v);
}

/* Up to max lines that wanted(v) keeps, in order, copied into k (a
 * walk's line does not outlive the next).  PROFDB_ERROR: out of memory or
 * the lines unreadable. */
static int keep_lines(const profdb_comparison *c, int v, size_t max, struct kept *k)
{
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	size_t cap = max < c->nkernels ? max : c->nkernels;
	int rc = PROFDB_OK;
	memset(k, 0, sizeof *k);
	k->l = calloc(cap ? cap : 1, sizeof *k->l);
	k->ptr = calloc(cap ? cap : 1, sizeof *k->ptr);
	if (!k->l || !k->ptr)
		return PROFDB_ERROR;
	profdb__cmp_walk_start(&w, c, 0);
	while (k->n < cap && (l = profdb__cmp_walk_next(&w)) != NULL) {
		if (!wanted(l, v))
			continue;
		k->l[k->n] = *l;
		if (!(k->l[k->n].key = strdup(l->key))) {
			rc = PROFDB_ERROR;
			break;
		}
		k->ptr[k->n] = &k->l[k->n];
		k->n++;
	}
	return profdb__cmp_walk_end(&w) != PROFDB_OK ? PROFDB_ERROR : rc;
}

/* Up to TOP_ROWS lines with verdict v, largest change first (kernels are
 * sorted). */
static int top_table(FILE *out, const profdb_comparison *c, enum profdb_verdict v, const char *title)
{
	struct kept k;
	int rc = keep_lines(c, (int)v, TOP_ROWS, &k);
	if (rc == PROFDB_OK) {
		fprintf(out, "<h2>%s</h2>\n", title);
		if (!k.n)
			fputs("<p class=\"unchanged\">none</p>\n", out);
		else
			rc = kernel_table(out, k.ptr, k.n);
	}
	kept_free(&k);
	return rc;
}

static int spooled_table(FILE *out, const profdb_comparison *c);

/* Every kernel, collapsed.  Held lines are labelled in memory; spooled
 * ones (past the hold budget: 1 M lines) in a spool (spooled_table). */
static int all_table(FILE *out, const profdb_comparison *c)
{
	struct kept k;
	int rc;
	if (c->spooled) {
		fprintf(out, "<h2>All kernels</h2>\n<details><summary>%zu kernels, largest change first</summary>\n",
		        c->nkernels);
		rc = spooled_table(out, c);
		fputs("</details>\n", out);
		return rc;
	}
	rc = keep_lines(c, -1, c->nkernels, &k);
	if (rc == PROFDB_OK) {
		fprintf(out, "<h2>All kernels</h2>\n<details><summary>%zu kernels, largest change first</summary>\n",
		        c->nkernels);
		rc = kernel_table(out, k.ptr, k.n);
		fputs("</details>\n", out);
	}
	kept_free(&k);
	return rc;
}

/* Shorten a label in the middle to max bytes so both the start and the
 * template tail show; never inside a UTF-8 sequence. */
static void shorten_label(char *buf, size_t cap, const char *s, size_t max)
{
	size_t n = strlen(s), head = max / 2 - 2, tail = max / 2 - 1;
	if (n <= max) {
		snprintf(buf, cap, "%s", s);
		return;
	}
	while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
		head--;
	while (tail > 0 && ((unsigned char)s[n - tail] & 0xc0) == 0x80)
		tail--;
	snprintf(buf, cap, "%.*s...%s", (int)head, s, s + n - tail);
}

struct label_ref {
	const char *text;          /* the shortened label */
	size_t pos;                /* its line's place in the table or chart */
};

static int cmp_label_ref(const void *a, const void *b)
{
	const struct label_ref *x = a, *y = b;
	int d = strcmp(x->text, y->text);
	return d ? d : (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * The labels of n lines, in lab[n][LABEL_CAP]: each key shortened to max
 * bytes, and where different keys shorten alike, numbered in line order
 * ("void spli...long) #2") so no two read the same; the title attribute
 * has the whole key.  Sorted, not pairwise: a table may hold every kernel.
 * PROFDB_ERROR when out of memory.
 */
static int make_labels(char (*lab)[LABEL_CAP], const struct profdb__cmp_line *const *lines, size_t n,
                       size_t max)
{
	struct label_ref *ref = calloc(n ? n : 1, sizeof *ref);
	if (!ref)
		return PROFDB_ERROR;
	for (size_t j = 0; j < n; j++) {
		shorten_label(lab[j], LABEL_CAP, lines[j]->key, max);
		ref[j] = (struct label_ref){ lab[j], j };
	}
	qsort(ref, n, sizeof *ref, cmp_label_ref);
	/* keys are distinct within a comparison: a run of equal labels is
	 * different kernels that read alike */
	for (size_t i = 0, e; i < n; i = e) {
		for (e = i + 1; e < n && strcmp(ref[e].text, ref[i].text) == 0; e++)
			;
		for (size_t k = i; e - i > 1 && k < e; k++) {
			char *t = lab[ref[k].pos];
			size_t len = strlen(t);
			snprintf(t + len, LABEL_CAP - len, " #%zu", k - i + 1);
		}
	}
	free(ref);
	return PROFDB_OK;
}

/* Each spooled line's label (pos, label) put in spool sp, in line order. */
static int spool_labels(const profdb_comparison *c, struct profdb__spool *sp)
{
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	char lab[LABEL_CAP];
	int64_t pos = 0;
	int rc = PROFDB_OK;
	profdb__cmp_walk_start(&w, c, 0);
	while (rc == PROFDB_OK && (l = profdb__cmp_walk_next(&w)) != NULL) {
		shorten_label(lab, sizeof lab, l->key, NAME_MAX);
		if (profdb__result_set_int(sp->row, 0, 0, pos++) != PROFDB_OK ||
		    profdb__result_set_text(sp->row, 0, 1, lab) != PROFDB_OK)
			rc = PROFDB_ERROR;
		else
			rc = profdb__spool_put(sp);
	}
	return profdb__cmp_walk_end(&w) != PROFDB_OK ? PROFDB_ERROR : rc;
}

/*
 * kernel_table over spooled lines: make_labels's numbering (" #k", k the
 * line's place among those whose labels read alike) from SQL over a spool
 * of the labels, read beside a second walk of the lines, so memory holds
 * neither every line nor every label.
 */
static int spooled_table(FILE *out, const profdb_comparison *c)
{
	static const char *const names[2] = { "pos", "label" };
	static const enum profdb_coltype types[2] = { PROFDB_COL_INT, PROFDB_COL_TEXT };
	struct profdb__spool sp;
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	sqlite3_stmt *q = NULL;
	char lab[LABEL_CAP];
	int rc = profdb__spool_open(profdb__cmp_spooled_db(c->spooled), &sp, names, types, 2);
	if (rc == PROFDB_OK && (rc = spool_labels(c, &sp)) == PROFDB_OK)
		rc = profdb__spool_prepare(&sp, "SELECT row_number() OVER (PARTITION BY label ORDER BY pos),"
		                           " count(*) OVER (PARTITION BY label) FROM temp.profdb_spool"
		                           " ORDER BY pos", &q);
	if (rc == PROFDB_OK) {
		table_head(out, "kernel", 1);
		profdb__cmp_walk_start(&w, c, 0);
		while ((l = profdb__cmp_walk_next(&w)) != NULL) {
			if (sqlite3_step(q) != SQLITE_ROW) {
				rc = PROFDB_ERROR;
				break;
			}
			shorten_label(lab, sizeof lab, l->key, NAME_MAX);
			if (sqlite3_column_int64(q, 1) > 1) {
				size_t len = strlen(lab);
				snprintf(lab + len, LABEL_CAP - len, " #%lld", (long long)sqlite3_column_int64(q, 0));
			}
			row(out, l, lab, 1);
		}
		if (profdb__cmp_walk_end(&w) != PROFDB_OK)
			rc = PROFDB_ERROR;
		fputs("</table>\n", out);
	}
	sqlite3_finalize(q);
	profdb__spool_close(&sp);
	return rc == PROFDB_OK ? PROFDB_OK : PROFDB_ERROR;
}

/* Horizontal bars of the per-repeat change (µs) of the largest changes,
 * under a legend of the bar colours.  PROFDB_ERROR when out of memory. */
static int chart(FILE *out, const profdb_comparison *c)
{
	const int W = 1100, LBL = 420, ROW = 22, TOP = 24;
	size_t n;
	struct kept k;
	char lab[CHART_BARS][LABEL_CAP];
	double maxd = 0, x0, half;
	if (keep_lines(c, -2, CHART_BARS, &k) != PROFDB_OK) {
		kept_free(&k);
		return PROFDB_ERROR;
	}
	n = k.n;
	for (size_t j = 0; j < n; j++)
		if (fabs(k.l[j].delta) > maxd)
			maxd = fabs(k.l[j].delta);
	fputs("<h2>Largest changes (µs per repeat)</h2>\n", out);
	if (!n) {
		fputs("<p class=\"unchanged\">no kernel changed</p>\n", out);
		kept_free(&k);
		return PROFDB_OK;
	}
	if (make_labels(lab, k.ptr, n, LABEL_MAX) != PROFDB_OK) {
		kept_free(&k);
		return PROFDB_ERROR;
	}
	fprintf(out, "<p class=\"legend\">bar colour: <i style=\"background:%s\"></i>regression"
	        "<i style=\"background:%s\"></i>improvement<i style=\"background:%s\"></i>new or gone"
	        "<i style=\"background:%s\"></i>unchanged or inconclusive</p>\n",
	        BAR_REGRESSION, BAR_IMPROVEMENT, BAR_NEW_GONE, BAR_OTHER);
	half = (W - LBL - 20) / 2.0;
	x0 = LBL + 10 + half;
	fprintf(out, "<svg width=\"%d\" height=\"%zu\" "
	        "viewBox=\"0 0 %d %zu\" role=\"img\" aria-label=\"largest changes\" "
	        "font-family=\"sans-serif\" font-size=\"12\">\n", W, TOP + n * ROW + 10, W, TOP + n * ROW + 10);
	fprintf(out, "<text x=\"%.1f\" y=\"14\" text-anchor=\"end\" fill=\"#1a7f37\">faster</text>"
	        "<text x=\"%.1f\" y=\"14\" fill=\"#cf222e\">slower</text>\n", x0 - 6, x0 + 6);
	for (size_t j = 0; j < n; j++) {
		const struct profdb__cmp_line *l = k.ptr[j];
		double w = fabs(l->delta) / maxd * (half - 140), y = TOP + (double)j * ROW;
		const char *col = l->verdict == PROFDB_VERDICT_REGRESSION ? BAR_REGRESSION :
		                  l->verdict == PROFDB_VERDICT_IMPROVEMENT ? BAR_IMPROVEMENT :
		                  l->verdict == PROFDB_VERDICT_NEW || l->verdict == PROFDB_VERDICT_GONE ?
		                  BAR_NEW_GONE : BAR_OTHER;
		char val[64], pct[32];
		profdb__fmt_us(val, sizeof val, l->delta);
		profdb__fmt_pct(pct, sizeof pct, l->rel);
		fprintf(out, "<g><title>");
		h(out, l->key);
		fprintf(out, ": %s us (%s), %s</title>", val, pct[0] ? pct : "n/a",
		        profdb__verdict_name(l->verdict));
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LBL, y + 15);
		h(out, lab[j]);
		fprintf(out, "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
		        l->delta > 0 ? x0 : x0 - w, y + 4, w < 1 ? 1 : w, ROW - 8, col);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#59636e\">%s%s%s%s</text></g>\n",
		        l->delta > 0 ? x0 + w + 4 : x0 - w - 4, y + 15, l->delta > 0 ? "start" : "end",
		        val, pct[0] ? " (" : "", pct, pct[0] ? ")" : "");
	}
	fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%zu\" stroke=\"#1f2328\"/>\n</svg>\n",
	        x0, TOP - 4, x0, TOP + n * ROW);
	kept_free(&k);
	return PROFDB_OK;
}

/* Column col of r by name; -1 when absent. */
static int col_of(const profdb_result *r, const char *name)
{
	for (size_t i = 0; i < profdb_result_ncols(r); i++)
		if (strcmp(profdb_result_colname(r, i), name) == 0)
			return (int)i;
	return -1;
}

/* Whether rows i and j of r are points of one curve (run, rank, device,
 * component). */
static int same_series(const profdb_result *r, size_t i, size_t j)
{
	static const char *const keys[] = { "run", "rank", "device_type", "device_id", "component" };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		int c = col_of(r, keys[k]);
		const char *a, *b;
		if (c < 0)
			continue;
		a = profdb_result_text(r, i, (size_t)c);
		b = profdb_result_text(r, j, (size_t)c);
		if (strcmp(a ? a : "", b ? b : "") != 0)
			return 0;
	}
	return 1;
}

/* One curve of side si from row *i: an SVG polyline whose data-values
 * attribute holds the points as memory --timeline gives them ("at_ns,bytes"
 * separated by ';'), so the drawing can be checked against the csv. */
static void memory_curve(FILE *out, const profdb_result *r, size_t *i, int si, double maxt, double maxb)
{
	static const char *const colour[2] = { "#8c959f", "#0969da" };
	const int W = 1100, H = 260, L = 60;
	int at = col_of(r, "at"), b = col_of(r, "allocated_bytes"), dt = col_of(r, "device_type");
	int di = col_of(r, "device_id"), cp = col_of(r, "component"), rk = col_of(r, "rank");
	size_t j, first = *i;
	const char *sep;
	const char *comp = cp >= 0 ? profdb_result_text(r, first, (size_t)cp) : NULL;
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" data-side=\"%s\""
	        " data-series=\"rank %lld ", colour[si], si ? "new" : "base",
	        rk >= 0 ? (long long)profdb_result_int(r, first, (size_t)rk) : 0LL);
	h(out, dt >= 0 ? profdb_result_text(r, first, (size_t)dt) : "");
	fprintf(out, ":%lld", di >= 0 ? (long long)profdb_result_int(r, first, (size_t)di) : -1LL);
	if (comp && comp[0]) {
		fputc(' ', out);
		h(out, comp);
	}
	fputs("\" data-values=\"", out);
	for (j = first, sep = ""; j < profdb_result_nrows(r) && same_series(r, first, j); j++)
		if (!profdb_result_isnull(r, j, (size_t)b)) {
			fprintf(out, "%s%lld,%lld", sep, (long long)profdb_result_int(r, j, (size_t)at),
			        (long long)profdb_result_int(r, j, (size_t)b));
			sep = ";";
		}
	fputs("\" points=\"", out);
	for (j = first; j < profdb_result_nrows(r) && same_series(r, first, j); j++)
		if (!profdb_result_isnull(r, j, (size_t)b))
			fprintf(out, "%.1f,%.1f ", L + (W - L - 10) * (double)profdb_result_int(r, j, (size_t)at) / maxt,
			        10 + (H - 30) * (1 - (double)profdb_result_int(r, j, (size_t)b) / maxb));
	fputs("\"/>\n", out);
	*i = j;
}

/* --table memory: each side's allocated bytes over time (memory
 * --timeline), base grey and new blue, one line per device; inline SVG. */
static void memory_chart(FILE *out, const profdb_comparison *c)
{
	double maxt = 1, maxb = 1;
	for (int si = 0; si < 2; si++) {
		const profdb_result *r = c->mem_timeline[si];
		int at = r ? col_of(r, "at") : -1, b = r ? col_of(r, "allocated_bytes") : -1;
		if (at < 0 || b < 0)
			return;
		for (size_t i = 0; i < profdb_result_nrows(r); i++) {
			if ((double)profdb_result_int(r, i, (size_t)at) > maxt)
				maxt = (double)profdb_result_int(r, i, (size_t)at);
			if (!profdb_result_isnull(r, i, (size_t)b) && (double)profdb_result_int(r, i, (size_t)b) > maxb)
				maxb = (double)profdb_result_int(r, i, (size_t)b);
		}
	}
	fputs("<h2>Memory allocated over time</h2>\n<p class=\"legend\">line colour: "
	      "<i style=\"background:#8c959f\"></i>base<i style=\"background:#0969da\"></i>new"
	      " &nbsp;·&nbsp; time from each rank's first memory event; ", out);
	fprintf(out, "top: %.0f bytes, right: %.0f µs</p>\n", maxb, maxt / 1000.0);
	fputs("<svg width=\"1100\" height=\"260\" viewBox=\"0 0 1100 260\" role=\"img\""
	      " aria-label=\"memory allocated over time\" font-family=\"sans-serif\" font-size=\"12\">\n"
	      "<line x1=\"60\" y1=\"240\" x2=\"1090\" y2=\"240\" stroke=\"#1f2328\"/>"
	      "<line x1=\"60\" y1=\"10\" x2=\"60\" y2=\"240\" stroke=\"#1f2328\"/>\n", out);
	for (int si = 0; si < 2; si++)
		for (size_t i = 0; i < profdb_result_nrows(c->mem_timeline[si]);)
			memory_curve(out, c->mem_timeline[si], &i, si, maxt, maxb);
	fputs("</svg>\n", out);
}

int profdb__report_html(const profdb_comparison *c, FILE *out)
{
	static const enum profdb_verdict cards[] = {
		PROFDB_VERDICT_REGRESSION, PROFDB_VERDICT_IMPROVEMENT, PROFDB_VERDICT_UNCHANGED,
		PROFDB_VERDICT_INCONCLUSIVE, PROFDB_VERDICT_NEW, PROFDB_VERDICT_GONE
	};
	char base[512], next[512];

	profdb__fmt_runs(base, sizeof base, c->base_runs, c->nbase);
	profdb__fmt_runs(next, sizeof next, c->new_runs, c->nnew);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>profdb diff: ", out);
	h(out, base);
	fputs(" vs ", out);
	h(out, next);
	fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n<h1>profdb diff</h1>\n"
	        "<p class=\"runs\">base: <b>", style);
	h(out, base);
	fputs("</b> &nbsp;→&nbsp; new: <b>", out);
	h(out, next);
	fprintf(out, "</b> &nbsp;·&nbsp; %zu kernels by ", c->nkernels);
	h(out, c->by);
	fputs("</p>\n<div class=\"cards\">", out);
	for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
		fprintf(out, "<div class=\"card %s\"><b>%zu</b>%s</div>", profdb__verdict_name(cards[i]),
		        profdb_comparison_count(c, 1, cards[i]), profdb__verdict_name(cards[i]));
	fprintf(out, "</div>\n<p class=\"method\">A kernel regressed (improved) when its per-repeat"
	        " time changed by more than %g%%%s and the %s of its per-step totals gives p &lt; %g."
	        " A step in which a kernel did not run counts as 0; a run without steps gives one"
	        " sample. Fewer than 3 samples per side, or too few for the test to reach p &lt; alpha,"
	        " is inconclusive. CI: %g%% bootstrap (%d resamples, fixed seed) of the relative"
	        " change; from 1000 samples a side, the normal approximation it converges to.</p>\n", 100 * c->threshold, c->min_delta_ns ? " and the minimum delta" : "",
	        profdb__test_title(c->test), c->alpha, 100 * c->ci_level, c->resamples);
	for (size_t i = 0; i < c->nwarnings; i++) {
		fputs("<div class=\"warn\">⚠ warning: ", out);
		h(out, c->warnings[i]);
		fputs("</div>\n", out);
	}
	fputs("<h2>Whole run, per repeat</h2>\n", out);
	table_head(out, "figure", 0);
	for (size_t i = 0; i < c->nruns; i++)
		row(out, &c->runs[i], NULL, 0);
	fputs("</table>\n", out);
	if (c->mem_timeline[0] && c->mem_timeline[1])
		memory_chart(out, c);
	if (chart(out, c) != PROFDB_OK ||
	    top_table(out, c, PROFDB_VERDICT_REGRESSION, "Top regressions") != PROFDB_OK ||
	    top_table(out, c, PROFDB_VERDICT_IMPROVEMENT, "Top improvements") != PROFDB_OK ||
	    all_table(out, c) != PROFDB_OK)
		return PROFDB_ERROR;
	fprintf(out, "<p class=\"method\">profdb %s</p>\n</body></html>\n", PROFDB_VERSION);
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}
