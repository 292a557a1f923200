/*
 * cmd_diff.c - profdb diff and profdb report: compare base runs with new
 * runs kernel by kernel.  diff prints the tables in the generic formats
 * (table, csv, json, md); report writes one document (md, html, json,
 * junit, csv).  Both share the options below, parsed by the query
 * commands' one parser (query_cli.c) for the filter and output options;
 * cmd_report.c is the entry of the second.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query_cli.h"

enum {
	OPT_BASE = OPT_FIRST_FREE, OPT_NEW, OPT_THRESHOLD, OPT_MIN_DELTA, OPT_TEST, OPT_ALPHA,
	OPT_FAIL, OPT_RESAMPLES, OPT_SEED, OPT_RFORMAT, OPT_TABLE
};

#define DIFF_OPTS(format_rows) \
	QCLI_OPT_DB, \
	{ "base", 1, OPT_BASE, "RUNS", "base runs, comma-separated, or tag:KEY=VALUE (instead of BASE)" }, \
	{ "new", 1, OPT_NEW, "RUNS", "new runs, comma-separated, or tag:KEY=VALUE (instead of NEW)" }, \
	{ "by", 1, OPT_BY, "KEY", "pair kernels by name (default), base-name, type, shape, kind, core; join with +; tag:api pairs APIs; op compares operators" }, \
	{ "threshold", 1, OPT_THRESHOLD, "PCT", "smallest relative change that counts (default 5%)" }, \
	{ "min-delta", 1, OPT_MIN_DELTA, "TIME", "ignore per-repeat changes below TIME (us, or 5ms, 200ns, 1s)" }, \
	{ "test", 1, OPT_TEST, "TEST", "mwu (Mann-Whitney U, default) or welch (Welch's t)" }, \
	{ "alpha", 1, OPT_ALPHA, "P", "significance level of the test (default 0.01)" }, \
	{ "resamples", 1, OPT_RESAMPLES, "N", "bootstrap resamples for the CI (default 2000, 0: none)" }, \
	{ "seed", 1, OPT_SEED, "N", "bootstrap seed (default fixed: same input, same output)" }, \
	{ "table", 1, OPT_TABLE, "TABLE", "compare an analysis table, not kernels: breakdown, collectives or memory" }, \
	QCLI_OPT_STEPS, \
	QCLI_OPT_RANK, \
	QCLI_OPT_NAME, \
	QCLI_OPT_KIND, \
	{ "min-total", 1, OPT_MIN_TOTAL, "TIME", "drop kernels whose total is below TIME on both sides" }, \
	format_rows, \
	{ "output", 1, 'o', "FILE", "write to FILE instead of standard output" }, \
	{ "fail-on-regression", 0, OPT_FAIL, "", "exit 3 when any regression is found" }, \
	QCLI_OPT_HELP, \
	{ NULL, 0, 0, NULL, NULL }

#define DIFF_FORMAT_ROWS QCLI_OPT_FORMAT, QCLI_OPT_UNIT, QCLI_OPT_WIDE, \
	{ "top", 1, OPT_TOP, "N", "show the N largest kernel changes (the verdicts count all)" }
static const struct cli_opt diff_opts[] = {
	DIFF_OPTS(DIFF_FORMAT_ROWS),
};
#define REPORT_FORMAT_ROW { "format", 1, OPT_RFORMAT, "FMT", "md (default), html, json, junit or csv" }
/* report's --format is the document's: a key of its own, so the shared
 * parser leaves it to parse_own */
static const struct cli_opt report_opts[] = {
	DIFF_OPTS(REPORT_FORMAT_ROW),
};

static const char desc_diff[] =
	"Compare the kernels of BASE and NEW (run names; several runs per side with --base and\n"
	"--new).  Kernels are paired by --by; those on one side only are 'new' or 'gone'.  A\n"
	"kernel's samples are its per-step totals (a step it did not run in counts 0; a run\n"
	"without steps gives one sample: total / repeats), pooled over the runs of a side;\n"
	"per-repeat times divide by the repeats, or with --steps by the selected steps.  A\n"
	"change is a regression only if it exceeds --threshold (and --min-delta) AND the test\n"
	"gives p < --alpha; too few samples is 'inconclusive'.  A side given as\n"
	"tag:KEY=VALUE is every run with that tag; --by tag:api compares operator\n"
	"benchmarks per API (doc/benchmarks.md).  Exit status: 0 ok, 1 error,\n"
	"2 usage, 3 regression found with --fail-on-regression.";

static const char desc_report[] =
	"Write a comparison report of BASE and NEW (see 'profdb diff --help' for the method):\n"
	"md for a pull-request comment, html (one self-contained file with a chart), json\n"
	"(schemas/diff.schema.json), junit (one testcase per kernel, failures = regressions)\n"
	"or csv.  Exit status: 0 ok, 1 error, 2 usage, 3 regression with --fail-on-regression.";

/* Split a comma list into a NULL-free array of pointers into s (modified). */
static int split_runs(char *s, const char ***out, size_t *n)
{
	size_t cap = 1;
	for (const char *p = s; *p; p++)
		cap += *p == ',';
	*out = calloc(cap, sizeof **out);
	if (!*out)
		return -1;
	*n = 0;
	for (char *p = s; p;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (*p)
			(*out)[(*n)++] = p;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* One diff or report invocation: what the options and operands said. */
struct diff_cli {
	struct qcli q;             /* db, filter (steps, rank, name, kind, min-total), format */
	struct profdb_diff_opts o; /* method; o.filter is q.filter once parsed */
	int report;                /* 1: profdb report */
	enum profdb_format rfmt;   /* report's format */
	int fail;                  /* --fail-on-regression */
	const char *output;        /* -o FILE, or NULL */
	const char *base_arg;      /* --base list */
	const char *new_arg;       /* --new list */
	const char *table;         /* --table: an analysis table, or NULL (kernels) */
	const char *operand[2];    /* BASE NEW */
	size_t nops;
};

static int parse_double(const char *name, const char *opt, const char *arg, double *out, int pct)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(arg, &end);
	if (pct && *end == '%')
		end++;
	if (errno || *end || end == arg || v != v || strpbrk(arg, "xX")) {
		cli_usage_error(name, "%s needs a number, not '%s'", opt, arg);
		return -1;
	}
	*out = pct ? v / 100 : v;
	return 0;
}

static int parse_count(const char *name, const char *opt, const char *arg, int64_t lo, int64_t *out)
{
	if (cli_parse_i64(name, opt, arg, out) != 0)
		return -1;
	if (*out < lo) {
		cli_usage_error(name, "%s needs a number of at least %lld, not '%s'", opt, (long long)lo, arg);
		return -1;
	}
	return 0;
}

/* The options of diff/report that the shared parser does not know. */
static int parse_own(void *arg, int key, const char *val)
{
	struct diff_cli *d = arg;
	const char *name = d->q.name;
	int64_t i64;
	int v;
	switch (key) {
	case QCLI_OPERAND:
		if (d->nops == 2)
			return cli_usage_error(name, "too many runs at '%s' (--base/--new take lists)", val);
		d->operand[d->nops++] = val;
		return 0;
	case OPT_BASE: d->base_arg = val; return 0;
	case OPT_NEW: d->new_arg = val; return 0;
	case OPT_TABLE: d->table = val; return 0;
	case OPT_BY: d->o.by = val; return 0;
	case 'o': d->output = val; return 0;
	case OPT_FAIL: d->fail = 1; return 0;
	case OPT_THRESHOLD:
		return parse_double(name, "--threshold", val, &d->o.threshold, 1) ? PROFDB_EXIT_USAGE : 0;
	case OPT_ALPHA:
		return parse_double(name, "--alpha", val, &d->o.alpha, 0) ? PROFDB_EXIT_USAGE : 0;
	case OPT_MIN_DELTA:
		return qcli_parse_time(&d->q, "--min-delta", val, &d->o.min_delta_ns) ? PROFDB_EXIT_USAGE : 0;
	case OPT_RESAMPLES:
		if (parse_count(name, "--resamples", val, 0, &i64) != 0)
			return PROFDB_EXIT_USAGE;
		d->o.resamples = i64 > 1000000 ? 1000000 : (int)i64;
		return 0;
	case OPT_SEED:
		if (cli_parse_i64(name, "--seed", val, &i64) != 0)
			return PROFDB_EXIT_USAGE;
		d->o.seed = (uint64_t)i64;
		return 0;
	case OPT_TEST:
		if ((v = profdb_diff_test_parse(val)) < 0)
			return cli_usage_error(name, "unknown test '%s' (mwu, welch)", val);
		d->o.test = (enum profdb_diff_test)v;
		return 0;
	case OPT_RFORMAT:
		if ((v = profdb_report_format_parse(val)) < 0)
			return cli_usage_error(name, "unknown format '%s' (md, html, json, junit, csv)", val);
		d->rfmt = (enum profdb_format)v;
		return 0;
	default:
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	}
}

/* Parse argv into d.  -1 when the comparison should run, else the exit code. */
static int diff_parse(struct diff_cli *d, int argc, char **argv, int report)
{
	int rc;
	memset(d, 0, sizeof *d);
	d->report = report;
	d->rfmt = PROFDB_FMT_MD;
	qcli_init(&d->q, report ? "report" : "diff");
	d->q.operands = 1;
	profdb_diff_opts_init(&d->o);
	rc = qcli_parse(&d->q, argc, argv, report ? report_opts : diff_opts,
	                "[OPTIONS] BASE NEW | --base RUNS --new RUNS", report ? desc_report : desc_diff,
	                parse_own, d, NULL);
	if (rc >= 0)
		return rc;
	if (d->nops == 2 && !d->base_arg && !d->new_arg) {
		d->base_arg = d->operand[0];
		d->new_arg = d->operand[1];
	} else if (d->nops != 0 || !d->base_arg || !d->new_arg) {
		return cli_usage_error(d->q.name, "give BASE and NEW, or --base RUNS and --new RUNS");
	}
	d->o.filter = d->q.filter;
	d->o.top = d->q.top;
	return -1;
}

/* The comparability warnings, before any table: a person reads the top of
 * a long table first, and a pipe of csv/json keeps them out of the data. */
static void write_warnings(const profdb_comparison *c, FILE *out, enum profdb_format f)
{
	size_t n = profdb_comparison_nwarnings(c);
	for (size_t i = 0; i < n; i++) {
		const char *w = profdb_comparison_warning(c, i);
		if (f == PROFDB_FMT_TABLE)
			fprintf(out, "warning: %s\n", w);
		else if (f == PROFDB_FMT_MD) /* one block quote each: no blank line joins them */
			fprintf(out, "> :warning: **warning:** %s\n\n", w);
		else
			fprintf(stderr, "profdb: warning: %s\n", w);
	}
	if (n && f == PROFDB_FMT_TABLE)
		fputc('\n', out);
}

/* diff: the generic formats; table and md show the whole-run table too. */
static int write_diff(const profdb_comparison *c, FILE *out, const struct profdb_format_opts *fmt)
{
	profdb_result *runs = NULL;
	int rc = PROFDB_ERROR;
	/* people read table and md: numbers rounded for reading */
	unsigned human = fmt->format == PROFDB_FMT_TABLE || fmt->format == PROFDB_FMT_MD ?
	                 PROFDB_CMP_ROUNDED : 0;
	if (profdb_comparison_table(c, &runs, human) != PROFDB_OK)
		goto out;
	write_warnings(c, out, fmt->format);
	/* a comparison of APIs has no whole-run figures: no empty table */
	if ((fmt->format == PROFDB_FMT_TABLE || fmt->format == PROFDB_FMT_MD) && profdb_result_nrows(runs)) {
		if (profdb_result_write(runs, out, fmt) != PROFDB_OK)
			goto out;
		fputc('\n', out);
	}
	/* the kernel table a part at a time when long (100 k keys held as
	 * one result took 57 MB) */
	rc = profdb_comparison_write(c, out, fmt, human | PROFDB_CMP_KERNELS | PROFDB_CMP_NO_WARNINGS);
out:
	profdb_result_free(runs);
	return rc;
}

/* diff --table: the analysis lines are the comparison's whole-run
 * figures, the one table in every format (profdb_compare_analysis). */
static int write_table_diff(const profdb_comparison *c, FILE *out, const struct profdb_format_opts *fmt)
{
	profdb_result *lines = NULL;
	unsigned human = fmt->format == PROFDB_FMT_TABLE || fmt->format == PROFDB_FMT_MD ?
	                 PROFDB_CMP_ROUNDED : 0;
	int rc = profdb_comparison_table(c, &lines, human);
	if (rc == PROFDB_OK)
		rc = profdb_result_write(lines, out, fmt);
	profdb_result_free(lines);
	return rc;
}

/* Write the comparison where -o says, in d's format. */
static int diff_write(const struct diff_cli *d, const profdb_comparison *c)
{
	FILE *out = stdout;
	int v;
	/* diff's json is report's json: one document (schemas/diff.schema.json),
	 * one writer, whichever command asked for it; an analysis table's json
	 * (--table) is that table's, as its other formats */
	int doc = d->report || (!d->table && d->q.fmt.format == PROFDB_FMT_JSON);
	enum profdb_format rfmt = d->report ? d->rfmt : PROFDB_FMT_JSON;
	if (d->output && !(out = fopen(d->output, "w")))
		return cli_error("cannot write '%s': %s", d->output, strerror(errno));
	if (doc) {
		/* the report holds the warnings; with -o the terminal should see
		 * them too, and csv has data rows only: stderr has them */
		int say = d->output || rfmt == PROFDB_FMT_CSV;
		for (size_t i = 0; say && i < profdb_comparison_nwarnings(c); i++)
			fprintf(stderr, "profdb: warning: %s\n", profdb_comparison_warning(c, i));
		v = profdb_report_write(c, out, rfmt);
	} else if (d->table) {
		v = write_table_diff(c, out, &d->q.fmt);
	} else {
		v = write_diff(c, out, &d->q.fmt);
	}
	if (out != stdout ? fclose(out) != 0 : fflush(out) != 0)
		v = PROFDB_ERROR;
	if (v != PROFDB_OK)
		return cli_write_error(d->output ? d->output : "the output");
	return PROFDB_EXIT_OK;
}

/* The database; a remote one with only the two sides' runs fetched (all
 * of them when a side is tag:KEY=VALUE, which names none), their run rows
 * only: the comparison fetches what its samples read. */
static profdb *open_sides(const struct diff_cli *d)
{
	const char *runs[128];
	size_t n = 0;
	for (size_t i = 0; i < d->o.nbase + d->o.nnew && n < 128; i++) {
		const char *r = i < d->o.nbase ? d->o.base_runs[i] : d->o.new_runs[i - d->o.nbase];
		if (strncmp(r, "tag:", 4) == 0 || d->o.nbase + d->o.nnew > 128) {
			n = 0;
			break;
		}
		runs[n++] = r;
	}
	return cli_open_runs(d->q.db, PROFDB_OPEN_READONLY | PROFDB_OPEN_NOCREATE | PROFDB_OPEN_LAZY,
	                     n ? runs : NULL, n);
}

/* Run the comparison d describes.  Returns the exit code. */
static int diff_run(struct diff_cli *d)
{
	const char **base = NULL, **next = NULL;
	char *base_s = strdup(d->base_arg), *next_s = strdup(d->new_arg);
	profdb *db = NULL;
	profdb_comparison *c = NULL;
	int rc, v;

	if (!base_s || !next_s || split_runs(base_s, &base, &d->o.nbase) < 0 ||
	    split_runs(next_s, &next, &d->o.nnew) < 0) {
		rc = cli_error("out of memory");
		goto out;
	}
	d->o.base_runs = base;
	d->o.new_runs = next;
	if (!(db = open_sides(d))) {
		rc = PROFDB_EXIT_ERROR;
		goto out;
	}
	v = d->table ? profdb_compare_analysis(db, &c, &d->o, d->table) : profdb_compare(db, &c, &d->o);
	if (v != PROFDB_OK) {
		rc = cli_lib_error(db, v);
		goto out;
	}
	if ((rc = diff_write(d, c)) != PROFDB_EXIT_OK)
		goto out;
	rc = d->fail && (profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION) ||
	                 profdb_comparison_count(c, 0, PROFDB_VERDICT_REGRESSION)) ?
	     PROFDB_EXIT_REGRESSION : PROFDB_EXIT_OK;
out:
	profdb_comparison_free(c);
	profdb_close(db);
	free(base);
	free(next);
	free(base_s);
	free(next_s);
	return rc;
}

int cmd_diff_main(int argc, char **argv, int report)
{
	struct diff_cli d;
	int rc = diff_parse(&d, argc, argv, report);
	return rc >= 0 ? rc : diff_run(&d);
}

int cmd_diff(int argc, char **argv)
{
	return cmd_diff_main(argc, argv, 0);
}
