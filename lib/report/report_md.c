/*
 * report_md.c - a comparison as GitHub-flavoured Markdown sized for a
 * pull-request comment: a verdict count line, the warnings, the whole-run
 * figures, and the kernels whose verdict is not "unchanged" (capped, so a
 * big trace does not exceed a comment's size limit).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "banned.h"

#define MD_MAX_ROWS 50  /* kernel rows shown; the rest are counted */
#define MD_NAME_MAX 80  /* longer names are shortened in the middle */

/* A table cell: '|' escaped, newlines flattened, long text shortened. */
static void md_cell(FILE *out, const char *s)
{
	size_t n = strlen(s), i;
	fputs(" `", out);
	for (i = 0; i < n; i++) {
		if (n > MD_NAME_MAX && i == MD_NAME_MAX / 2) {
			fputs("...", out);
			i = n - MD_NAME_MAX / 2;
		}
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

static void md_row(FILE *out, const struct profdb__cmp_line *l, int kernel)
{
	char a[64], b[64], d[64], pct[32], ci[80], p[32];
	profdb__fmt_value(a, sizeof a, l, l->base);
	profdb__fmt_value(b, sizeof b, l, l->next);
	profdb__fmt_value(d, sizeof d, l, l->delta);
	profdb__fmt_pct(pct, sizeof pct, l->rel);
	profdb__fmt_ci(ci, sizeof ci, l);
	profdb__fmt_p(p, sizeof p, l->p);
	fputc('|', out);
	if (kernel)
		md_cell(out, l->key);
	else
		fprintf(out, " %s%s |", l->key, l->is_count ? "" : " (µs)");
	fprintf(out, " %s | %s | %s | %s | %s | %s | %s |\n", a, b, d, pct, ci, p, mark(l->verdict));
}

/* The kernel rows of verdict v while fewer than MD_MAX_ROWS are shown; the
 * rest of them counted in *hidden from the counts, not walked: a walk of
 * 1 M spooled lines per verdict would be most of the report's time. */
static int changed_rows(FILE *out, const profdb_comparison *c, enum profdb_verdict v, size_t *shown,
                        size_t *hidden)
{
	size_t left = profdb_comparison_count(c, 1, v);
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	profdb__cmp_walk_start(&w, c, 0);
	while (left && *shown < MD_MAX_ROWS && (l = profdb__cmp_walk_next(&w)) != NULL)
		if (l->verdict == v) {
			md_row(out, l, 1);
			(*shown)++;
			left--;
		}
	*hidden += left;
	return profdb__cmp_walk_end(&w);
}

int profdb__report_md(const profdb_comparison *c, FILE *out)
{
	char base[512], next[512];
	size_t shown = 0, hidden = 0;
	static const enum profdb_verdict order[] = {
		PROFDB_VERDICT_REGRESSION, PROFDB_VERDICT_IMPROVEMENT, PROFDB_VERDICT_NEW,
		PROFDB_VERDICT_GONE, PROFDB_VERDICT_INCONCLUSIVE
	};

	profdb__fmt_runs(base, sizeof base, c->base_runs, c->nbase);
	profdb__fmt_runs(next, sizeof next, c->new_runs, c->nnew);
	fputs("### profdb diff: ", out);
	md_code(out, base);
	fputs(" → ", out);
	md_code(out, next);
	fputs("\n\n", out);
	fprintf(out, "**%zu regressions**, %zu improvements, %zu unchanged, %zu inconclusive,"
	        " %zu new, %zu gone (%zu kernels by %s).  ",
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_IMPROVEMENT),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_UNCHANGED),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_INCONCLUSIVE),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_NEW),
	        profdb_comparison_count(c, 1, PROFDB_VERDICT_GONE), c->nkernels, c->by);
	fprintf(out, "A change counts when it exceeds %g%% and the %s gives p < %g;"
	        " samples are per-step totals; CI: %g%% bootstrap of the relative change"
	        " (normal approximation from 1000 samples a side).\n\n",
	        100 * c->threshold, profdb__test_title(c->test), c->alpha, 100 * c->ci_level);
	for (size_t i = 0; i < c->nwarnings; i++)
		fprintf(out, "> :warning: **warning:** %s\n", c->warnings[i]);
	if (c->nwarnings)
		fputc('\n', out);
	fputs("| whole run, per repeat | base | new | delta | change | CI | p | verdict |\n"
	      "|---|---:|---:|---:|---:|---|---:|---|\n", out);
	for (size_t i = 0; i < c->nruns; i++)
		md_row(out, &c->runs[i], 0);
	fputs("\n| kernel | base µs | new µs | delta µs | change | CI | p | verdict |\n"
	      "|---|---:|---:|---:|---:|---|---:|---|\n", out);
	/* verdict groups in order of interest, each largest change first */
	for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
		if (changed_rows(out, c, order[o], &shown, &hidden) != PROFDB_OK)
			return PROFDB_ERROR;
	if (!shown)
		fputs("| *(no kernel changed)* | | | | | | | |\n", out);
	fprintf(out, "\n%zu unchanged kernels not listed", profdb_comparison_count(c, 1, PROFDB_VERDICT_UNCHANGED));
	if (hidden)
		fprintf(out, "; %zu more changed kernels cut (see the HTML or JSON report)", hidden);
	fputs(".\n", out);
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}
