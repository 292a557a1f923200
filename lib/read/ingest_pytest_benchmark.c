/*
 * ingest_pytest_benchmark.c - a pytest-benchmark result file
 * (--benchmark-json, or a file saved under .benchmarks/): {"machine_info", "commit_info",
 * "benchmarks": [{"name", "stats": {"min", "max", "mean", "stddev",
 * "rounds", "median", ..., "data"?}}]}, times in seconds.
 *
 * With "data" (--benchmark-save-data) every round is one wall-clock repeat
 * of the benchmark's name (the value is the round's time per iteration,
 * as pytest-benchmark computes its statistics).  Without it only the
 * summary exists: it is kept as such (bench_summary), never turned into
 * made-up repeats.  Numbers are parsed from their text, exactly to ns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "banned.h"

#define SECONDS 9 /* scale_exp of seconds */

/* machine_info.node, python_version, cpu.brand_raw; commit_info.id, branch */
static int file_tags(struct profdb__bench_out *o, const struct profdb__jval *top, const char *buf)
{
	static const struct { const char *obj, *sub, *key, *tag; } picks[] = {
		{ "machine_info", NULL, "node", "host" },
		{ "machine_info", NULL, "python_version", "python_version" },
		{ "machine_info", "cpu", "brand_raw", "cpu" },
		{ "commit_info", NULL, "id", "commit" },
		{ "commit_info", NULL, "branch", "branch" },
	};
	for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
		struct profdb__jval a, b, v;
		char *text;
		int oom = 0, rc;
		if (profdb__bench_jget(top, picks[i].obj, &a, NULL) != 1)
			continue;
		if (picks[i].sub && profdb__bench_jget(&a, picks[i].sub, &b, NULL) == 1)
			a = b;
		else if (picks[i].sub)
			continue;
		if (profdb__bench_jget(&a, picks[i].key, &v, NULL) != 1)
			continue;
		text = profdb__bench_jtext(&v, &oom);
		if (oom)
			return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
		if (!text)
			continue;
		rc = profdb__bench_tag(o, picks[i].tag, text, (int64_t)(v.p - buf), "byte");
		free(text);
		if (rc != PROFDB_OK)
			return rc;
	}
	return PROFDB_OK;
}

/* A stats member in seconds as ns (PROFDB_NULL if absent or bad). */
static int64_t stat_ns(const struct profdb__jval *stats, const char *key)
{
	struct profdb__jval v;
	int64_t ns;
	if (profdb__bench_jget(stats, key, &v, NULL) != 1 || v.type != PROFDB_J_NUMBER ||
	    profdb__bench_parse_ns(v.p, v.n, SECONDS, &ns) != 0)
		return PROFDB_NULL;
	return ns;
}

/* The stats object without data: summary statistics. */
static int summary(struct profdb__bench_out *o, const char *api, const struct profdb__jval *stats,
                   int64_t where)
{
	struct profdb__bench_stats s = { PROFDB_NULL, 0, -1, PROFDB_NULL, PROFDB_NULL, -1,
	                         "pytest-benchmark stats" };
	struct profdb__jval v;
	double d;
	int64_t mean = stat_ns(stats, "mean"), sd = stat_ns(stats, "stddev"), med = stat_ns(stats, "median");
	if (mean == PROFDB_NULL)
		return profdb__bench_skip(o, "benchmark without data or a mean", where);
	if (profdb__bench_jget(stats, "rounds", &v, NULL) == 1 && profdb__bench_jdouble(&v, &d) == 0 &&
	    d >= 1 && d < 9e18)
		s.rounds = (int64_t)d;
	s.mean_ns = (double)mean;
	s.stddev_ns = sd != PROFDB_NULL ? (double)sd : -1;
	s.median_ns = med != PROFDB_NULL ? (double)med : -1;
	s.min_ns = stat_ns(stats, "min");
	s.max_ns = stat_ns(stats, "max");
	return profdb__bench_summary(o, api, &s);
}

/* The rounds of "data": one repeat each. */
static int rounds(struct profdb__bench_out *o, const char *api, const struct profdb__jval *data,
                  const char *buf)
{
	struct profdb__jval v;
	size_t pos = 0;
	int rc, e;
	while ((e = profdb__json_element(data->p, data->n, &pos, &v)) == 1) {
		int64_t ns;
		int p = v.type == PROFDB_J_NUMBER ? profdb__bench_parse_ns(v.p, v.n, SECONDS, &ns) : -1;
			if (p == -1)
			rc = profdb__bench_skip(o, "round time is not a number in range", (int64_t)(v.p - buf));
		else if (p == -2)
			rc = profdb__bench_skip(o, "negative round time", (int64_t)(v.p - buf));
		else
			rc = profdb__bench_repeat(o, api, PROFDB_NULL, ns, (int64_t)(v.p - buf));
		if (rc != PROFDB_OK)
			return rc;
	}
	if (e < 0)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %lld: malformed \"data\" array",
		                       o->path, (long long)(data->p + pos - buf));
	return PROFDB_OK;
}

static int one_benchmark(struct profdb__bench_out *o, const struct profdb__jval *b, const char *buf)
{
	struct profdb__jval name, stats, data;
	int64_t where = (int64_t)(b->p - buf);
	char *api;
	int oom = 0, rc;
	if (b->type != PROFDB_J_OBJECT)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %lld: a benchmark is not an object",
		                       o->path, (long long)where);
	if (profdb__bench_jget(b, "name", &name, NULL) != 1 || name.type != PROFDB_J_STRING)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %lld: benchmark without a \"name\"",
		                       o->path, (long long)where);
	if (profdb__bench_jget(b, "stats", &stats, NULL) != 1 || stats.type != PROFDB_J_OBJECT) {
			return profdb__bench_skip(o, "benchmark without stats", where);
	}
	api = profdb__bench_jtext(&name, &oom);
	if (!api)
		return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
	if (!*api) { /* no API to file it under, as a CSV row with an empty api */
		free(api);
		return profdb__bench_skip(o, "empty name", where);
	}
	if (profdb__bench_jget(&stats, "data", &data, NULL) == 1 && data.type == PROFDB_J_ARRAY &&
	    data.n > 2)
		rc = rounds(o, api, &data, buf);
	else
		rc = summary(o, api, &stats, where);
	free(api);
	return rc;
}

/* one_benchmark as profdb__bench_jeach calls it: the output and the file. */
struct bench_file {
	struct profdb__bench_out *o;
	const char *buf;
};

static int one_benchmark_fn(void *arg, const struct profdb__jval *b)
{
	const struct bench_file *f = arg;
	return one_benchmark(f->o, b, f->buf);
}

static int read_results(const struct profdb_reader_ctx *ctx)
{
	struct profdb__bench_out o;
	struct profdb_input *in = NULL;
	struct profdb__jval top, list;
	struct bench_file f;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if ((rc = profdb__bench_begin(&o, ctx, "pytest_benchmark", &in, &buf, &len)) != PROFDB_OK)
		return rc;
	f = (struct bench_file){ &o, buf };
	if ((rc = profdb__bench_jlist(&o, buf, len, &top, &list)) == PROFDB_OK &&
	    (rc = file_tags(&o, &top, buf)) == PROFDB_OK)
		rc = profdb__bench_jeach(&o, buf, &list, one_benchmark_fn, &f);
	free(buf);
	return profdb__bench_end(&o, in, rc);
}

/* A pytest-benchmark JSON result (ingest_bench.c tells the four wall-clock forms apart). */
static int sniff(const struct profdb_sniff *s)
{
	return profdb__bench_sniff(s, &profdb__reader_pytest_benchmark);
}

const struct profdb_reader profdb__reader_pytest_benchmark = {
	.name = "pytest_benchmark", .label = "pytest_benchmark", .sniff = sniff,
	.read = read_results,
	.flags = PROFDB_READER_WALK,
};
