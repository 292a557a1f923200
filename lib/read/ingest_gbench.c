/*
 * ingest_gbench.c - a Google Benchmark result file (--benchmark_format=json
 * or --benchmark_out): {"context": {...}, "benchmarks": [{"name",
 * "run_name", "run_type": "iteration" | "aggregate", "repetitions",
 * "repetition_index", "iterations", "real_time", "cpu_time", "time_unit",
 * "aggregate_name"?, "error_occurred"?}]}.
 *
 * Each "iteration" entry is one repeat of its run_name: real_time (wall
 * clock, per iteration, in time_unit).  An API with no iteration entries
 * (--benchmark_report_aggregates_only) keeps its "mean", "median" and
 * "stddev" aggregates as summary statistics over "repetitions" repeats.
 * Other aggregates (cv, user-defined, BigO) repeat what the repeats say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "banned.h"

/* context members kept as tags */
static const struct { const char *key, *tag; } context_tags[] = {
	{ "host_name", "host" }, { "executable", "executable" },
	{ "library_build_type", "build_type" }, { "library_version", "gbench_version" },
};

static int file_tags(struct profdb__bench_out *o, const struct profdb__jval *top, const char *buf)
{
	struct profdb__jval ctxv, v;
	if (profdb__bench_jget(top, "context", &ctxv, NULL) != 1)
		return PROFDB_OK;
	for (size_t i = 0; i < sizeof context_tags / sizeof context_tags[0]; i++) {
		char *text;
		int oom = 0, rc;
		if (profdb__bench_jget(&ctxv, context_tags[i].key, &v, NULL) != 1)
			continue;
		if (!(text = profdb__bench_jtext(&v, &oom)))
			if (oom)
				return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
		if (!text)
			continue;
		rc = profdb__bench_tag(o, context_tags[i].tag, text, (int64_t)(v.p - buf), "byte");
		free(text);
		if (rc != PROFDB_OK)
			return rc;
	}
	return PROFDB_OK;
}

/* scale_exp of a time_unit (absent: ns, Google Benchmark's default); -1 unknown. */
static int unit_scale(const struct profdb__jval *b)
{
	static const struct { const char *u; int e; } units[] = { { "ns", 0 }, { "us", 3 }, { "ms", 6 }, { "s", 9 } };
	struct profdb__jval v;
	if (profdb__bench_jget(b, "time_unit", &v, NULL) != 1)
		return 0;
	for (size_t i = 0; i < 4; i++)
		if (profdb__json_str_is(&v, units[i].u))
			return units[i].e;
	return -1;
}

/* One entry's text member (decoded) or NULL; *oom set on failure. */
static char *text_of(const struct profdb__jval *b, const char *key, int *oom)
{
	struct profdb__jval v;
	return profdb__bench_jget(b, key, &v, NULL) == 1 ? profdb__bench_jtext(&v, oom) : NULL;
}

/* An aggregates-only API: its mean/median/stddev entries, in stats. */
struct agg {
	char *api;                 /* owned */
	struct profdb__bench_stats s;
	int have_mean;
	int64_t where;
};

struct gb {
	struct profdb__bench_out *o;
	const char *buf;
	struct agg *aggs;
	size_t naggs;
};

static struct agg *agg_of(struct gb *g, const char *api, int64_t where)
{
	struct agg *a;
	for (size_t i = 0; i < g->naggs; i++)
		if (strcmp(g->aggs[i].api, api) == 0)
			return &g->aggs[i];
	a = realloc(g->aggs, (g->naggs + 1) * sizeof *a);
	if (!a)
		return NULL;
	g->aggs = a;
	a += g->naggs;
	memset(a, 0, sizeof *a);
	if (!(a->api = strdup(api)))
		return NULL;
	a->s = (struct profdb__bench_stats){ PROFDB_NULL, 0, -1, PROFDB_NULL, PROFDB_NULL, -1,
	                             "Google Benchmark aggregates" };
	a->where = where;
	g->naggs++;
	return a;
}

static int aggregate(struct gb *g, const struct profdb__jval *b, const char *api, int64_t ns, int64_t where)
{
	struct profdb__jval v;
	struct agg *a = agg_of(g, api, where);
	double d;
	if (!a)
		return profdb__err_set(g->o->ctx->err, PROFDB_ERROR, "out of memory");
	if (profdb__bench_jget(b, "repetitions", &v, NULL) == 1 && profdb__bench_jdouble(&v, &d) == 0 &&
	    d >= 1 && d < 9e18)
		a->s.rounds = (int64_t)d;
	if (profdb__bench_jget(b, "aggregate_name", &v, NULL) != 1)
		return PROFDB_OK;
	if (profdb__json_str_is(&v, "mean")) {
		a->s.mean_ns = (double)ns;
		a->have_mean = 1;
	} else if (profdb__json_str_is(&v, "median")) {
		a->s.median_ns = (double)ns;
	} else if (profdb__json_str_is(&v, "stddev")) {
		a->s.stddev_ns = (double)ns;
	}
	return PROFDB_OK;
}

/* One entry of "benchmarks". */
static int entry(struct gb *g, const struct profdb__jval *b);

/* entry as profdb__bench_jeach calls it. */
static int entry_fn(void *arg, const struct profdb__jval *b)
{
	return entry(arg, b);
}

static int entry(struct gb *g, const struct profdb__jval *b)
{
	struct profdb__bench_out *o = g->o;
	struct profdb__jval v;
	int64_t where = (int64_t)(b->p - g->buf), ns = 0;
	char *api;
	int oom = 0, rc = PROFDB_OK, scale, p = -1;

	if (b->type != PROFDB_J_OBJECT)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %lld: a benchmark is not an object",
		                       o->path, (long long)where);
	api = text_of(b, "run_name", &oom);
	if (!api && !oom)
		api = text_of(b, "name", &oom);
	if (!api)
		return oom ? profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory") :
		       profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %lld: benchmark without a \"name\"",
		                       o->path, (long long)where);
	scale = unit_scale(b);
	if (profdb__bench_jget(b, "real_time", &v, NULL) == 1 && v.type == PROFDB_J_NUMBER && scale >= 0)
		p = profdb__bench_parse_ns(v.p, v.n, scale, &ns);
	if (profdb__bench_jget(b, "error_occurred", &v, NULL) == 1 && v.type == PROFDB_J_TRUE)
		rc = profdb__bench_skip(o, "benchmark reported an error", where);
	else if (scale < 0)
		rc = profdb__bench_skip(o, "unknown time_unit", where);
	else if (p == -1)
		rc = profdb__bench_skip(o, "real_time is not a number in range", where);
	else if (p == -2)
		rc = profdb__bench_skip(o, "negative real_time", where);
	else if ((profdb__bench_jget(b, "run_type", &v, NULL) == 1 && profdb__json_str_is(&v, "aggregate")) ||
	         profdb__bench_jget(b, "aggregate_name", &v, NULL) == 1)
		/* files before run_type (library 1.4) mark aggregates by aggregate_name only */
		rc = aggregate(g, b, api, ns, where);
	else
		rc = profdb__bench_repeat(o, api, PROFDB_NULL, ns, where);
	free(api);
	return rc;
}

/* Aggregates of APIs that have no repeats become their summaries. */
static int flush_aggregates(struct gb *g)
{
	int rc = PROFDB_OK;
	for (size_t i = 0; i < g->naggs && rc == PROFDB_OK; i++) {
		int has_repeats = 0;
		for (size_t j = 0; j < g->o->napis; j++)
			has_repeats |= strcmp(g->o->apis[j].name, g->aggs[i].api) == 0;
		if (has_repeats)
			continue;
		if (!g->aggs[i].have_mean)
			rc = profdb__bench_skip(g->o, "aggregates without a mean", g->aggs[i].where);
		else
			rc = profdb__bench_summary(g->o, g->aggs[i].api, &g->aggs[i].s);
	}
	return rc;
}

static void gb_free(struct gb *g)
{
	for (size_t i = 0; i < g->naggs; i++)
		free(g->aggs[i].api);
	free(g->aggs);
}

static int read_results(const struct profdb_reader_ctx *ctx)
{
	struct profdb__bench_out o;
	struct gb g = { 0 };
	struct profdb_input *in = NULL;
	struct profdb__jval top, list;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if ((rc = profdb__bench_begin(&o, ctx, "gbench", &in, &buf, &len)) != PROFDB_OK)
		return rc;
	g.o = &o;
	g.buf = buf;
	if ((rc = profdb__bench_jlist(&o, buf, len, &top, &list)) == PROFDB_OK &&
	    (rc = file_tags(&o, &top, buf)) == PROFDB_OK &&
	    (rc = profdb__bench_jeach(&o, buf, &list, entry_fn, &g)) == PROFDB_OK)
		rc = flush_aggregates(&g);
	gb_free(&g);
	free(buf);
	return profdb__bench_end(&o, in, rc);
}

/* A Google Benchmark JSON result (ingest_bench.c tells the four wall-clock forms apart). */
static int sniff(const struct profdb_sniff *s)
{
	return profdb__bench_sniff(s, &profdb__reader_gbench);
}

const struct profdb_reader profdb__reader_gbench = {
	.name = "gbench", .label = "gbench", .sniff = sniff, .read = read_results,
	.flags = PROFDB_READER_WALK,
};
