/*
 * compare.c - profdb_compare: pair the kernels of base runs and new runs by
 * a grouping key, build each kernel's per-step samples on both sides, and
 * decide a verdict from the threshold and a two-sample test.  Reads the
 * store tables directly (kernel, step, op, run, str) with bound parameters
 * only; renders nothing (report_*.c do).  This file checks the options and
 * drives one comparison; the samples are read in compare_samples.c, the
 * verdicts decided in compare_verdict.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "query/query.h"
#include "query/result.h"
#include "banned.h"

/* ---------------------------------------------------------------- public */

void profdb_diff_opts_init(struct profdb_diff_opts *o)
{
	const struct profdb_diff_opts d = PROFDB_DIFF_OPTS_INIT; /* the one list of defaults */
	*o = d;
}

int profdb_diff_test_parse(const char *s)
{
	return strcmp(s, "mwu") == 0 ? PROFDB_TEST_MWU : strcmp(s, "welch") == 0 ? PROFDB_TEST_WELCH : -1;
}

const char *profdb__test_name(enum profdb_diff_test t)
{
	return t == PROFDB_TEST_WELCH ? "welch" : "mwu";
}

const char *profdb__test_title(enum profdb_diff_test t)
{
	return t == PROFDB_TEST_WELCH ? "Welch's t-test" : "Mann-Whitney U test";
}

const char *profdb__verdict_name(enum profdb_verdict v)
{
	switch (v) {
	case PROFDB_VERDICT_REGRESSION: return "regression";
	case PROFDB_VERDICT_IMPROVEMENT: return "improvement";
	case PROFDB_VERDICT_INCONCLUSIVE: return "inconclusive";
	case PROFDB_VERDICT_NEW: return "new";
	case PROFDB_VERDICT_GONE: return "gone";
	default: return "unchanged";
	}
}

int profdb__compare_warn(profdb_comparison *c, const char *fmt, ...)
{
	char buf[512], **w;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	w = realloc(c->warnings, (c->nwarnings + 1) * sizeof *w);
	if (!w)
		return PROFDB_ERROR;
	c->warnings = w;
	if (!(w[c->nwarnings] = strdup(buf)))
		return PROFDB_ERROR;
	c->nwarnings++;
	return PROFDB_OK;
}

static char **copy_names(const char *const *names, size_t n)
{
	char **out = calloc(n ? n : 1, sizeof *out);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!(out[i] = strdup(names[i]))) {
			while (i--)
				free(out[i]);
			free(out);
			return NULL;
		}
	return out;
}

profdb_comparison *profdb__comparison_new(const profdb *db, const struct profdb_diff_opts *o, const char *by,
                                          const char *const *base, size_t nbase,
                                          const char *const *next, size_t nnext)
{
	profdb_comparison *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->hold_bytes = db->limits.hold_bytes;
	c->base_runs = copy_names(base, nbase);
	c->nbase = c->base_runs ? nbase : 0;
	c->new_runs = copy_names(next, nnext);
	c->nnew = c->new_runs ? nnext : 0;
	c->by = strdup(by);
	if (!c->base_runs || !c->new_runs || !c->by) {
		profdb_comparison_free(c);
		return NULL;
	}
	c->test = o->test;
	c->alpha = o->alpha;
	c->threshold = o->threshold;
	c->ci_level = o->ci_level;
	c->min_delta_ns = o->min_delta_ns;
	c->resamples = o->resamples;
	c->seed = o->seed;
	return c;
}

static int check_opts(profdb *db, const struct profdb_diff_opts *o)
{
	struct profdb_filter f = o->filter;
	int rc;
	f.runs = NULL; /* the sides name the runs */
	f.nruns = 0;
	/* the checks kernels makes: an unknown kind or an empty step range is
	 * a usage error, not an empty comparison */
	if ((rc = profdb__qfilter_check(db, &f)) != PROFDB_OK)
		return rc;
	if (!o->nbase || !o->nnew)
		return profdb__error(db, PROFDB_EUSAGE, "give at least one base run and one new run");
	if (!(o->threshold >= 0))
		return profdb__error(db, PROFDB_EUSAGE, "threshold must be 0 or more");
	if (!(o->alpha > 0 && o->alpha < 1))
		return profdb__error(db, PROFDB_EUSAGE, "alpha must be between 0 and 1");
	if (!(o->ci_level > 0 && o->ci_level < 1))
		return profdb__error(db, PROFDB_EUSAGE, "confidence level must be between 0 and 1");
	if (o->test != PROFDB_TEST_MWU && o->test != PROFDB_TEST_WELCH)
		return profdb__error(db, PROFDB_EUSAGE, "unknown test");
	if (o->min_delta_ns < 0 || o->resamples < 0 || o->top < 0)
		return profdb__error(db, PROFDB_EUSAGE, "min delta, resamples and top must be 0 or more");
	return PROFDB_OK;
}

/* --by op reads the stored op rows of a local database (doc/commands.md
 * "diff --by op"); a kernel's name or kind does not select operators. */
static int op_opts_check(profdb *db, const struct profdb_diff_opts *o)
{
	struct profdb__rel rel;
	int rc = profdb__source_prepare(db, PROFDB__NEED_OP_TREE, NULL, &rel);
	if (rc != PROFDB_OK)
		return rc;
	if (o->filter.name_glob || o->filter.kind)
		return profdb__error(db, PROFDB_EUSAGE, "--by op compares every operator: no --name or --kind");
	return PROFDB_OK;
}

int profdb_compare(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o)
{
	struct profdb__compare_state s;
	profdb_comparison *c = NULL;
	char keyexpr[512];
	const char *by = o->by ? o->by : "name";
	int rc, own_txn = 0;

	*out = NULL;
	if ((rc = profdb__version_check(db, o->version, PROFDB_DIFF_OPTS_VERSION, "profdb_diff_opts")) != PROFDB_OK)
		return rc;
	if (profdb__bench_diff_wanted(o)) { /* tag: sides or keys, bench_diff.c */
		/* they read kernel rows */
		if ((rc = profdb__source_prepare(db, PROFDB__NEED_ROWS, NULL, &s.rel)) != PROFDB_OK)
			return rc;
		return profdb__bench_compare(db, out, o);
	}
	memset(&s, 0, sizeof s);
	s.db = db;
	s.o = o;
	s.rows_left = profdb__compare_rows_budget(db);
	s.bytes_left = profdb__compare_bytes_budget(db);
	s.by_op = strcmp(by, "op") == 0;
	if ((rc = check_opts(db, o)) != PROFDB_OK || (!s.by_op && (rc = profdb__compare_key_sql(db, by, keyexpr,
	                                                   sizeof keyexpr, &s.key_in_step_stat)) != PROFDB_OK))
		return rc;
	if (s.by_op && (rc = op_opts_check(db, o)) != PROFDB_OK)
		return rc;
	if (!s.by_op && (rc = profdb__source_prepare(db, PROFDB__NEED_DIFF, &s.key_in_step_stat, &s.rel)) != PROFDB_OK)
		return rc;
	if (!(c = profdb__comparison_new(db, o, by, o->base_runs, o->nbase, o->new_runs, o->nnew)))
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	c->top = o->top > 0 ? (size_t)o->top : 0;
	/* one read transaction: both sides see the same store */
	own_txn = sqlite3_get_autocommit(db->sql) && sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	if ((rc = profdb__compare_side_init(db, &o->filter, &s.side[0], (const char *const *)c->base_runs, c->nbase)) != PROFDB_OK ||
	    (rc = profdb__compare_side_init(db, &o->filter, &s.side[1], (const char *const *)c->new_runs, c->nnew)) != PROFDB_OK)
		goto out;
	for (int si = 0; si < 2; si++)
		for (size_t i = 0; i < s.side[si].n; i++)
			if ((rc = profdb__compare_read_host(&s, si, i)) != PROFDB_OK)
				goto out;
	if ((rc = profdb__compare_merge_kernels(&s, c, keyexpr)) != PROFDB_OK || (rc = profdb__compare_build_runs(&s, c)) != PROFDB_OK)
		goto out;
	rc = profdb__compare_warnings(db, c, s.side[0].runs, s.side[0].n, s.side[1].runs, s.side[1].n,
	                              o->filter.rank);
	if (rc == PROFDB_OK && profdb__compare_warn_short(c) != PROFDB_OK)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	for (int si = 0; rc == PROFDB_OK && si < 2; si++)
		for (size_t i = 0; rc == PROFDB_OK && i < s.side[si].n; i++)
			if (s.side[si].out_n[i] > 0 &&
			    profdb__compare_warn(c, "run '%s': %lld device activities (%.3f us) ran outside every step;"
			                         " per_repeat is the per-step mean", s.side[si].runs[i].name,
			                         (long long)s.side[si].out_n[i], (double)s.side[si].out_ns[i] / 1000.0)
			    != PROFDB_OK)
				rc = profdb__error(db, PROFDB_ERROR, "out of memory");
out:
	if (own_txn)
		sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	profdb__compare_side_free(&s.side[0]);
	profdb__compare_side_free(&s.side[1]);
	if (rc != PROFDB_OK) {
		profdb_comparison_free(c);
		return rc;
	}
	*out = c;
	return PROFDB_OK;
}

void profdb_comparison_free(profdb_comparison *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nbase && c->base_runs; i++)
		free(c->base_runs[i]);
	for (size_t i = 0; i < c->nnew && c->new_runs; i++)
		free(c->new_runs[i]);
	free(c->base_runs);
	free(c->new_runs);
	free(c->by);
	for (size_t i = 0; c->kernels && i < c->nkernels; i++)
		free(c->kernels[i].key);
	free(c->kernels);
	profdb__cmp_spooled_free(c->spooled);
	for (size_t i = 0; i < c->nruns; i++)
		free(c->runs[i].key);
	free(c->runs);
	profdb_result_free(c->mem_timeline[0]);
	profdb_result_free(c->mem_timeline[1]);
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c);
}

size_t profdb_comparison_nwarnings(const profdb_comparison *c) { return c->nwarnings; }
const char *profdb_comparison_warning(const profdb_comparison *c, size_t i) { return c->warnings[i]; }

size_t profdb_comparison_count(const profdb_comparison *c, int kernels, enum profdb_verdict v)
{
	const struct profdb__cmp_line *l = kernels ? c->kernels : c->runs;
	if (kernels && c->spooled) /* counted as they were spooled */
		return profdb__cmp_spooled_count(c->spooled, v);
	size_t n = kernels ? c->nkernels : c->nruns, k = 0;
	for (size_t i = 0; i < n; i++)
		k += l[i].verdict == v;
	return k;
}

