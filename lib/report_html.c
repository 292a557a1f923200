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

#include "compare.h"
#include "escape.h"
#include "banned.h"

#define TOP_ROWS 20     /* rows of the top-regressions/improvements tables */
#define CHART_BARS 20   /* bars of the chart */
#define LABEL_MAX 56    /* chart label length before it is shortened */

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
	"table{border-collapse:collapse;font-size:13px}"
	"th,td{border-bottom:1px solid #d1d9e0;padding:4px 8px;text-align:right;white-space:nowrap}"
	"th{background:#f6f8fa}td.k{text-align:left;max-width:520px;overflow:hidden;text-overflow:ellipsis}"
	"td.why{text-align:left;color:#59636e}"
	".method{color:#59636e;max-width:900px}";

static void h(FILE *out, const char *s)
{
	profdb__xml_text(out, s);
}

static void row(FILE *out, const struct profdb_cmp_line *l, int kernel)
{
	char a[64], b[64], d[64], pct[32], ci[80], p[32];
	const char *v = profdb__verdict_name(l->verdict);
	profdb__fmt_value(a, sizeof a, l, l->base);
	profdb__fmt_value(b, sizeof b, l, l->next);
	profdb__fmt_value(d, sizeof d, l, l->delta);
	profdb__fmt_pct(pct, sizeof pct, l->rel);
	profdb__fmt_ci(ci, sizeof ci, l);
	profdb__fmt_p(p, sizeof p, l->p);
	fputs("<tr><td class=\"k\" title=\"", out);
	h(out, l->key);
	fputs("\">", out);
	h(out, l->key);
	if (!kernel)
		fputs(l->is_count ? "" : " (µs)", out);
	fprintf(out, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
	        a, b, d, pct, ci);
	if (kernel) {
		char c1[32], c2[32];
		snprintf(c1, sizeof c1, "%.2f", l->base_calls);
		snprintf(c2, sizeof c2, "%.2f", l->next_calls);
		fprintf(out, "<td>%s</td><td>%s</td>", c1, c2);
	}
	fprintf(out, "<td>%s</td><td>%zu / %zu</td><td class=\"%s\">%s</td><td class=\"why\">", p,
	        l->nbase, l->nnext, v, v);
	h(out, l->why);
	fputs("</td></tr>\n", out);
}

static void table_head(FILE *out, const char *first, int kernel)
{
	fprintf(out, "<table><tr><th style=\"text-align:left\">%s</th><th>base%s</th><th>new%s</th>"
	        "<th>delta%s</th><th>change</th><th>CI</th>%s<th>p</th><th>samples</th>"
	        "<th>verdict</th><th style=\"text-align:left\">why</th></tr>\n", first,
	        kernel ? " µs" : "", kernel ? " µs" : "", kernel ? " µs" : "",
	        kernel ? "<th>calls base</th><th>calls new</th>" : "");
}

/* Up to n lines with verdict v, largest change first (kernels are sorted). */
static void top_table(FILE *out, const profdb_comparison *c, enum profdb_verdict v, const char *title)
{
	size_t shown = 0;
	fprintf(out, "<h2>%s</h2>\n", title);
	for (size_t i = 0; i < c->nkernels && shown < TOP_ROWS; i++) {
		if (c->kernels[i].verdict != v)
			continue;
		if (!shown++)
			table_head(out, "kernel", 1);
		row(out, &c->kernels[i], 1);
	}
	if (shown)
		fputs("</table>\n", out);
	else
		fputs("<p class=\"unchanged\">none</p>\n", out);
}

/* Shorten a label in the middle so both the start and the template tail show. */
static void shorten_label(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (n <= LABEL_MAX)
		snprintf(buf, cap, "%s", s);
	else
		snprintf(buf, cap, "%.*s...%s", LABEL_MAX / 2 - 2, s, s + n - (LABEL_MAX / 2 - 1));
}

/*
 * The chart labels of the n bars: shortened, and where two different keys
 * shorten alike, numbered in bar order ("void spli...long) #2") so no two
 * bars read the same; the bar's title has the whole key.
 */
static void bar_labels(char (*lab)[LABEL_MAX + 16], const profdb_comparison *c, const size_t *idx,
                       size_t n)
{
	for (size_t j = 0; j < n; j++)
		shorten_label(lab[j], LABEL_MAX + 16, c->kernels[idx[j]].key);
	size_t num[CHART_BARS] = { 0 };
	for (size_t j = 0; j < n; j++) {
		size_t before = 0, same = 0;
		for (size_t k = 0; k < n; k++)
			if (k != j && strcmp(lab[k], lab[j]) == 0 &&
			    strcmp(c->kernels[idx[k]].key, c->kernels[idx[j]].key) != 0) {
				same++;
				before += k < j;
			}
		num[j] = same ? before + 1 : 0;
	}
	for (size_t j = 0; j < n; j++)
		if (num[j]) {
			size_t len = strlen(lab[j]);
			snprintf(lab[j] + len, LABEL_MAX + 16 - len, " #%zu", num[j]);
		}
}

/* Horizontal bars of the per-repeat change (µs) of the largest changes. */
static void chart(FILE *out, const profdb_comparison *c)
{
	const int W = 1100, LBL = 420, ROW = 22, TOP = 24;
	size_t idx[CHART_BARS], n = 0;
	char lab[CHART_BARS][LABEL_MAX + 16];
	double maxd = 0, x0, half;
	for (size_t i = 0; i < c->nkernels && n < CHART_BARS; i++)
		if (!isnan(c->kernels[i].delta) && c->kernels[i].delta != 0) {
			idx[n++] = i;
			if (fabs(c->kernels[i].delta) > maxd)
				maxd = fabs(c->kernels[i].delta);
		}
	fputs("<h2>Largest changes (µs per repeat)</h2>\n", out);
	if (!n) {
		fputs("<p class=\"unchanged\">no kernel changed</p>\n", out);
		return;
	}
	bar_labels(lab, c, idx, n);
	half = (W - LBL - 20) / 2.0;
	x0 = LBL + 10 + half;
	fprintf(out, "<svg width=\"%d\" height=\"%zu\" "
	        "viewBox=\"0 0 %d %zu\" role=\"img\" aria-label=\"largest changes\" "
	        "font-family=\"sans-serif\" font-size=\"12\">\n", W, TOP + n * ROW + 10, W, TOP + n * ROW + 10);
	fprintf(out, "<text x=\"%.1f\" y=\"14\" text-anchor=\"end\" fill=\"#1a7f37\">faster</text>"
	        "<text x=\"%.1f\" y=\"14\" fill=\"#cf222e\">slower</text>\n", x0 - 6, x0 + 6);
	for (size_t j = 0; j < n; j++) {
		const struct profdb_cmp_line *l = &c->kernels[idx[j]];
		double w = fabs(l->delta) / maxd * (half - 140), y = TOP + (double)j * ROW;
		const char *col = l->verdict == PROFDB_VERDICT_REGRESSION ? "#cf222e" :
		                  l->verdict == PROFDB_VERDICT_IMPROVEMENT ? "#1a7f37" :
		                  l->verdict == PROFDB_VERDICT_NEW || l->verdict == PROFDB_VERDICT_GONE ?
		                  "#0969da" : "#8c959f";
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
		row(out, &c->runs[i], 0);
	fputs("</table>\n", out);
	chart(out, c);
	top_table(out, c, PROFDB_VERDICT_REGRESSION, "Top regressions");
	top_table(out, c, PROFDB_VERDICT_IMPROVEMENT, "Top improvements");
	fprintf(out, "<h2>All kernels</h2>\n<details><summary>%zu kernels, largest change first</summary>\n",
	        c->nkernels);
	table_head(out, "kernel", 1);
	for (size_t i = 0; i < c->nkernels; i++)
		row(out, &c->kernels[i], 1);
	fprintf(out, "</table>\n</details>\n<p class=\"method\">profdb %s</p>\n</body></html>\n",
	        PROFDB_VERSION);
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}
