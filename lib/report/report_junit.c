/*
 * report_junit.c - a comparison as JUnit XML for CI dashboards: one
 * testcase per compared kernel (a <failure> for a regression, <skipped>
 * for an inconclusive one), a second suite for the whole-run figures, and
 * the comparability warnings as suite properties and system-err.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compare/compare.h"
#include "escape.h"
#include "banned.h"

static void testcase(FILE *out, const char *cls, const struct profdb__cmp_line *l)
{
	char a[64], b[64], pct[32];
	profdb__fmt_value(a, sizeof a, l, l->base);
	profdb__fmt_value(b, sizeof b, l, l->next);
	profdb__fmt_pct(pct, sizeof pct, l->rel);
	fprintf(out, "    <testcase classname=\"%s\" name=\"", cls);
	profdb__xml_text(out, l->key);
	/* time: the new side's per-repeat time in seconds, what dashboards plot */
	fprintf(out, "\" time=\"%.9f\">\n", l->is_count || l->next != l->next ? 0.0 : l->next / 1e9);
	if (l->verdict == PROFDB_VERDICT_REGRESSION) {
		fprintf(out, "      <failure type=\"regression\" message=\"");
		profdb__xml_text(out, l->why);
		fprintf(out, "\">base %s, new %s %s (%s)</failure>\n", a, b, l->is_count ? "" : "us", pct);
	} else if (l->verdict == PROFDB_VERDICT_INCONCLUSIVE) {
		fprintf(out, "      <skipped message=\"");
		profdb__xml_text(out, l->why);
		fprintf(out, "\"/>\n");
	}
	fprintf(out, "      <system-out>%s: base %s, new %s %s; ", profdb__verdict_name(l->verdict),
	        a, b, l->is_count ? "" : "us");
	profdb__xml_text(out, l->why);
	fprintf(out, "</system-out>\n    </testcase>\n");
}

/* A suite's head: its counts, the settings and the warnings. */
static void suite_head(FILE *out, const profdb_comparison *c, const char *name, size_t n, size_t fail,
                       size_t skip)
{
	fprintf(out, "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
	        name, n, fail, skip);
	fprintf(out, "    <properties>\n      <property name=\"test\" value=\"%s\"/>\n"
	        "      <property name=\"alpha\" value=\"%g\"/>\n"
	        "      <property name=\"threshold_pct\" value=\"%g\"/>\n",
	        profdb__test_name(c->test), c->alpha, 100 * c->threshold);
	for (size_t i = 0; i < c->nwarnings; i++) {
		fprintf(out, "      <property name=\"warning\" value=\"");
		profdb__xml_text(out, c->warnings[i]);
		fprintf(out, "\"/>\n");
	}
	fprintf(out, "    </properties>\n");
}

static void suite_tail(FILE *out, const profdb_comparison *c)
{
	if (c->nwarnings) {
		fprintf(out, "    <system-err>");
		for (size_t i = 0; i < c->nwarnings; i++) {
			fprintf(out, "warning: ");
			profdb__xml_text(out, c->warnings[i]);
			fputc('\n', out);
		}
		fprintf(out, "</system-err>\n");
	}
	fprintf(out, "  </testsuite>\n");
}

/* The kernel suite: its counts from the comparison's, its cases from a
 * walk of the lines (held or spooled). */
static int kernel_suite(FILE *out, const profdb_comparison *c)
{
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	suite_head(out, c, "kernels", c->nkernels, profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION),
	           profdb_comparison_count(c, 1, PROFDB_VERDICT_INCONCLUSIVE));
	profdb__cmp_walk_start(&w, c, 0);
	while ((l = profdb__cmp_walk_next(&w)) != NULL)
		testcase(out, "profdb.kernel", l);
	suite_tail(out, c);
	return profdb__cmp_walk_end(&w);
}

static void run_suite(FILE *out, const profdb_comparison *c)
{
	suite_head(out, c, "whole run", c->nruns, profdb_comparison_count(c, 0, PROFDB_VERDICT_REGRESSION),
	           profdb_comparison_count(c, 0, PROFDB_VERDICT_INCONCLUSIVE));
	for (size_t i = 0; i < c->nruns; i++)
		testcase(out, "profdb.run", &c->runs[i]);
	suite_tail(out, c);
}

int profdb__report_junit(const profdb_comparison *c, FILE *out)
{
	size_t fail = profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION) +
	              profdb_comparison_count(c, 0, PROFDB_VERDICT_REGRESSION);
	char base[512], next[512];
	profdb__fmt_runs(base, sizeof base, c->base_runs, c->nbase);
	profdb__fmt_runs(next, sizeof next, c->new_runs, c->nnew);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"profdb diff ");
	profdb__xml_text(out, base);
	fprintf(out, " vs ");
	profdb__xml_text(out, next);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\">\n", c->nkernels + c->nruns, fail);
	if (kernel_suite(out, c) != PROFDB_OK)
		return PROFDB_ERROR;
	run_suite(out, c);
	fprintf(out, "</testsuites>\n");
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}
