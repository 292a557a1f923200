/*
 * report_md.c - a comparison as GitHub-flavoured Markdown sized for a
 * pull-request comment: a verdict count line, the warnings, the whole-run
 * figures, and the kernels whose verdict is not "unchanged" (capped, so a
 * big trace does not exceed a comment's size limit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "labels.h"
#include "banned.h"

#define MD_MAX_ROWS 50  /* kernel rows shown; the rest are counted */
#define MD_NAME_MAX 80  /* longer names are shortened (labels.h) */

/* A table cell: '|' escaped, newlines flattened. */
static void md_cell(FILE *out, const char *s)
{
	fputs(" `", out);
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '|')
			fputs("\\|", out);
		else if (s[i] == '`')
			fputc('\'', out);
		else if (s[i] == '\n' || s[i] == '\r')
			fputc(' ', out);
		else
			fputc(s[i], out);
	}
	fputs("` |", out);
}

/* s as one inline code span, delimited by one backtick more than its
 * longest run of them (CommonMark): a name's own backticks cannot close
 * the span and let raw HTML through; line breaks and controls are written
 * escaped (profdb_text_write), so a heading stays one line. */
static void md_code(FILE *out, const char *s)
{
	size_t run = 0, longest = 0;
	for (const char *p = s; *p; p++)
		if ((run = *p == '`' ? run + 1 : 0) > longest)
			longest = run;
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	fputs(longest ? " " : "", out);
	profdb_text_write(out, s);
	fputs(longest ? " " : "", out);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}

static const char *mark(enum profdb_verdict v)
{
	switch (v) {
	case PROFDB_VERDICT_REGRESSION: return ":red_circle: regression";
	case PROFDB_VERDICT_IMPROVEMENT: return ":green_circle: improvement";
	case PROFDB_VERDICT_INCONCLUSIVE: return ":grey_question: inconclusive";
	case PROFDB_VERDICT_NEW: return ":new: new";
	case PROFDB_VERDICT_GONE: return ":wastebasket: gone";
	default: return "unchanged";
	}
}

/* A row of the whole-run table (label NULL) or a kernel row under its
 * label. */
static void md_row(FILE *out, const struct profdb__cmp_line *l, const char *label)
{
	char a[64], b[64], d[64], pct[32], ci[80], p[32];
	profdb__fmt_value(a, sizeof a, l, l->base);
	profdb__fmt_value(b, sizeof b, l, l->next);
	profdb__fmt_value(d, sizeof d, l, l->delta);
	profdb__fmt_pct(pct, sizeof pct, l->rel);
	profdb__fmt_ci(ci, sizeof ci, l);
	profdb__fmt_p(p, sizeof p, l->p);
	fputc('|', out);
	if (label)
		md_cell(out, label);
	else
		fprintf(out, " %s%s |", l->key, l->is_count ? "" : " (µs)");
	fprintf(out, " %s | %s | %s | %s | %s | %s | %s |\n", a, b, d, pct, ci, p, mark(l->verdict));
}

/* The kernel rows shown: copies of the walk's lines (a line does not
 * outlive the next), their keys owned. */
struct shown {
	struct profdb__cmp_line l[MD_MAX_ROWS];
	const char *key[MD_MAX_ROWS];
	size_t n;
};

/* The kernel rows of verdict v kept while fewer than MD_MAX_ROWS are; the
 * rest of them counted in *hidden from the counts, not walked: a walk of
 * 1 M spooled lines per verdict would be most of the report's time. */
static int changed_rows(const profdb_comparison *c, enum profdb_verdict v, struct shown *s, size_t *hidden)
{
	size_t left = profdb_comparison_count(c, 1, v);
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	int rc = PROFDB_OK;
	profdb__cmp_walk_start(&w, c, 0);
	while (rc == PROFDB_OK && left && s->n < MD_MAX_ROWS && (l = profdb__cmp_walk_next(&w)) != NULL)
		if (l->verdict == v) {
			s->l[s->n] = *l;
			s->l[s->n].key = strdup(l->key);
			if (!s->l[s->n].key) {
				rc = PROFDB_ERROR;
			} else {
				s->key[s->n] = s->l[s->n].key;
				s->n++;
			}
			left--;
		}
	*hidden += left;
	return profdb__cmp_walk_end(&w) != PROFDB_OK ? PROFDB_ERROR : rc;
}

/* The kernel table: the changed kernels in verdict groups of interest,
 * each largest change first, under labels numbered where they read alike
 * as the html report's are (labels.h). */
static int kernel_rows(FILE *out, const profdb_comparison *c, size_t *hidden)
{
	static const enum profdb_verdict order[] = {
		PROFDB_VERDICT_REGRESSION, PROFDB_VERDICT_IMPROVEMENT, PROFDB_VERDICT_NEW,
		PROFDB_VERDICT_GONE, PROFDB_VERDICT_INCONCLUSIVE
	};
	struct shown *s = calloc(1, sizeof *s);
	char **lab = NULL;
	int rc = s ? PROFDB_OK : PROFDB_ERROR;
	for (size_t o = 0; rc == PROFDB_OK && o < sizeof order / sizeof order[0]; o++)
		rc = changed_rows(c, order[o], s, hidden);
	if (rc == PROFDB_OK)
		rc = profdb__labels_make(&lab, s->key, s->n, MD_NAME_MAX);
	if (rc == PROFDB_OK) {
		fprintf(out, "%s| %s | base µs | new µs | delta µs | change | CI | p | verdict |\n"
		        "|---|---:|---:|---:|---:|---|---:|---|\n", c->nruns ? "\n" : "", c->apis ? "API" : "kernel");
		for (size_t i = 0; i < s->n; i++)
			md_row(out, &s->l[i], lab[i]);
		if (!s->n)
			fprintf(out, "| *(no %s changed)* | | | | | | | |\n", c->apis ? "API" : "kernel");
	}
	profdb__labels_free(lab, s ? s->n : 0);
	for (size_t i = 0; s && i < s->n; i++)
		free(s->l[i].key);
	free(s);
	return rc;
}

int profdb__report_md(const profdb_comparison *c, FILE *out)
{
	char base[512], next[512], method[512];
	size_t hidden = 0;

	profdb__fmt_runs(base, sizeof base, c->base_runs, c->nbase);
	profdb__fmt_runs(next, sizeof next, c->new_runs, c->nnew);
	fputs("### profdb diff: ", out);
	md_code(out, base);
	fputs(" → ", out);
	md_code(out, next);
	fputs("\n\n", out);
	fprintf(out, "**%zu regressions**, %zu improvements, %zu unchanged, %zu inconclusive,"
	        " %zu new, %zu gone (%zu %s by %s).  ",
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_IMPROVEMENT),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_UNCHANGED),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_INCONCLUSIVE),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_NEW),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_GONE), c->nkernels, profdb__fmt_items(c), c->by);
	profdb__fmt_method(method, sizeof method, c);
	fprintf(out, "A change counts when it exceeds %g%% and the %s gives p < %g; %s.\n\n",
	        100 * c->threshold, profdb__test_title(c->test), c->alpha, method);
	for (size_t i = 0; i < c->nwarnings; i++)
		fprintf(out, "> :warning: **warning:** %s\n", c->warnings[i]);
	if (c->nwarnings)
		fputc('\n', out);
	/* a comparison of APIs has no whole-run figures */
	if (c->nruns)
		fputs("| whole run, per repeat | base | new | delta | change | CI | p | verdict |\n"
		      "|---|---:|---:|---:|---:|---|---:|---|\n", out);
	for (size_t i = 0; i < c->nruns; i++)
		md_row(out, &c->runs[i], NULL);
	if (kernel_rows(out, c, &hidden) != PROFDB_OK)
		return PROFDB_ERROR;
	fprintf(out, "\n%zu unchanged %s not listed", profdb_comparison_count(c, 1, PROFDB_VERDICT_UNCHANGED),
	        profdb__fmt_items(c));
	if (hidden)
		fprintf(out, "; %zu more changed %s cut (see the HTML or JSON report)", hidden, profdb__fmt_items(c));
	fputs(".\n", out);
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}
