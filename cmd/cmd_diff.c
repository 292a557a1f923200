/*
 * cmd_diff.c - profdb diff and profdb report: compare base runs with new
 * runs kernel by kernel.  diff prints the tables in the generic formats
 * (table, csv, json, md); report writes one document (md, html, json,
 * junit, csv).  Both share the options below; cmd_report.c is the entry
 * of the second.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

enum {
	OPT_BASE = OPT_FIRST_FREE, OPT_NEW, OPT_THRESHOLD, OPT_MIN_DELTA, OPT_TEST, OPT_ALPHA,
	OPT_FAIL, OPT_RESAMPLES, OPT_SEED
};

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database file (default $PROFDB_DB, else ./profdb.db)" },
	{ "base", 1, OPT_BASE, "RUNS", "base runs, comma-separated (instead of BASE)" },
	{ "new", 1, OPT_NEW, "RUNS", "new runs, comma-separated (instead of NEW)" },
	{ "by", 1, OPT_BY, "KEY", "pair kernels by name (default), base-name, type, type+shape, ..." },
	{ "threshold", 1, OPT_THRESHOLD, "PCT", "smallest relative change that counts (default 5%)" },
	{ "min-delta", 1, OPT_MIN_DELTA, "US", "ignore per-repeat changes below this many us" },
	{ "test", 1, OPT_TEST, "TEST", "mwu (Mann-Whitney U, default) or welch (Welch's t)" },
	{ "alpha", 1, OPT_ALPHA, "P", "significance level of the test (default 0.01)" },
	{ "resamples", 1, OPT_RESAMPLES, "N", "bootstrap resamples for the CI (default 2000, 0: none)" },
	{ "seed", 1, OPT_SEED, "N", "bootstrap seed (default fixed: same input, same output)" },
	{ "steps", 1, OPT_STEPS, "A..B", "only steps A to B (A.., ..B, A)" },
	{ "rank", 1, OPT_RANK, "N", "only rank N" },
	{ "name", 1, OPT_NAME, "GLOB", "only kernels whose name matches GLOB" },
	{ "kind", 1, OPT_KIND, "KIND", "only kernel, memcpy, memset or communication" },
	{ "format", 1, OPT_FORMAT, "FMT", "diff: table, csv, json, md; report: md, html, json, junit, csv" },
	{ "unit", 1, OPT_UNIT, "UNIT", "ns, us, ms or s (diff tables)" },
	{ "wide", 0, OPT_WIDE, "", "never shorten long names in tables" },
	{ "output", 1, 'o', "FILE", "write to FILE instead of standard output" },
	{ "fail-on-regression", 0, OPT_FAIL, "", "exit 3 when any regression is found" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc_diff[] =
	"Compare the kernels of BASE and NEW (run names; several runs per side with --base and\n"
	"--new).  Kernels are paired by --by; those on one side only are 'new' or 'gone'.  A\n"
	"kernel's samples are its per-step totals (a step it did not run in counts 0; a run\n"
	"without steps gives one sample: total / repeats), pooled over the runs of a side.  A\n"
	"change is a regression only if it exceeds --threshold (and --min-delta) AND the test\n"
	"gives p < --alpha; too few samples is 'inconclusive'.  Exit status: 0 ok, 1 error,\n"
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

static int parse_double(const char *name, const char *opt, const char *arg, double *out, int pct)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(arg, &end);
	if (pct && *end == '%')
		end++;
	if (errno || *end || end == arg || v != v) {
		cli_usage_error(name, "%s needs a number, not '%s'", opt, arg);
		return -1;
	}
	*out = pct ? v / 100 : v;
	return 0;
}

/* "A..B", "A..", "..B" or "A". */
static int parse_steps(const char *name, const char *arg, struct profdb_filter *f)
{
	const char *dots = strstr(arg, "..");
	char lo[32], *end;
	if (!dots) {
		if (cli_parse_i64(name, "--steps", arg, &f->step_lo) < 0)
			return -1;
		f->step_hi = f->step_lo;
		return 0;
	}
	if ((size_t)(dots - arg) >= sizeof lo)
		return cli_usage_error(name, "bad --steps '%s'", arg), -1;
	memcpy(lo, arg, (size_t)(dots - arg));
	lo[dots - arg] = '\0';
	if (lo[0]) {
		f->step_lo = strtoll(lo, &end, 10);
		if (*end)
			return cli_usage_error(name, "bad --steps '%s' (A..B)", arg), -1;
	}
	if (dots[2]) {
		f->step_hi = strtoll(dots + 2, &end, 10);
		if (*end)
			return cli_usage_error(name, "bad --steps '%s' (A..B)", arg), -1;
	}
	return 0;
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
	profdb_result *runs = NULL, *kernels = NULL;
	int rc = PROFDB_ERROR;
	if (profdb_comparison_table(c, &runs, 0) != PROFDB_OK ||
	    profdb_comparison_table(c, &kernels, PROFDB_CMP_KERNELS | PROFDB_CMP_NO_WARNINGS) != PROFDB_OK)
		goto out;
	write_warnings(c, out, fmt->format);
	if (fmt->format == PROFDB_FMT_TABLE || fmt->format == PROFDB_FMT_MD) {
		if (profdb_result_write(runs, out, fmt) != PROFDB_OK)
			goto out;
		fputc('\n', out);
	}
	rc = profdb_result_write(kernels, out, fmt);
out:
	profdb_result_free(runs);
	profdb_result_free(kernels);
	return rc;
}

int cmd_diff_main(int argc, char **argv, int report)
{
	const char *name = report ? "report" : "diff", *dbpath = cli_default_db(), *arg;
	const char *output = NULL;
	const char **base = NULL, **next = NULL;
	char *base_s = NULL, *next_s = NULL;
	struct profdb_diff_opts o;
	struct profdb_format_opts fmt;
	int key, first = 1, fail = 0, rfmt = PROFDB_REPORT_MD, rc = PROFDB_EXIT_USAGE, v;
	int64_t i64;
	double d;
	const char *operand[2];
	size_t nops = 0;
	profdb *db = NULL;
	profdb_comparison *c = NULL;
	FILE *out = stdout;

	profdb_diff_opts_init(&o);
	cli_format_init(&fmt);
	for (;;) {
		key = cli_next(argc, argv, opts, &arg, &first);
		if (key == -1) {
			/* operands may come before options (diff A B --format md):
			 * take one and go on parsing; after "--" all are operands */
			int dashes = first > 1 && strcmp(argv[first - 1], "--") == 0;
			if (first >= argc)
				break;
			if (nops == 2) {
				cli_usage_error(name, "too many runs at '%s' (--base/--new take lists)", argv[first]);
				goto out;
			}
			operand[nops++] = argv[first];
			optind = first + 1;
			if (dashes) {
				first++;
				while (first < argc && nops < 2)
					operand[nops++] = argv[first++];
				if (first < argc) {
					cli_usage_error(name, "too many runs at '%s'", argv[first]);
					goto out;
				}
				break;
			}
			continue;
		}
		switch (key) {
		case 'h':
			cli_help(stdout, name, "[OPTIONS] BASE NEW | --base RUNS --new RUNS",
			         report ? desc_report : desc_diff, opts);
			rc = PROFDB_EXIT_OK;
			goto out;
		case OPT_DB: dbpath = arg; break;
		case OPT_BASE: free(base_s); base_s = strdup(arg); break;
		case OPT_NEW: free(next_s); next_s = strdup(arg); break;
		case OPT_BY: o.by = arg; break;
		case OPT_THRESHOLD:
			if (parse_double(name, "--threshold", arg, &o.threshold, 1) < 0)
				goto out;
			break;
		case OPT_MIN_DELTA:
			if (parse_double(name, "--min-delta", arg, &d, 0) < 0)
				goto out;
			o.min_delta_ns = (int64_t)(d * 1000 + 0.5);
			break;
		case OPT_TEST:
			if ((v = profdb_diff_test_parse(arg)) < 0) {
				cli_usage_error(name, "unknown test '%s' (mwu, welch)", arg);
				goto out;
			}
			o.test = (enum profdb_diff_test)v;
			break;
		case OPT_ALPHA:
			if (parse_double(name, "--alpha", arg, &o.alpha, 0) < 0)
				goto out;
			break;
		case OPT_RESAMPLES:
			if (cli_parse_i64(name, "--resamples", arg, &i64) < 0)
				goto out;
			o.resamples = i64 > 1000000 ? 1000000 : (int)i64;
			break;
		case OPT_SEED:
			if (cli_parse_i64(name, "--seed", arg, &i64) < 0)
				goto out;
			o.seed = (uint64_t)i64;
			break;
		case OPT_STEPS:
			if (parse_steps(name, arg, &o.filter) < 0)
				goto out;
			break;
		case OPT_RANK:
			if (cli_parse_i64(name, "--rank", arg, &o.filter.rank) < 0)
				goto out;
			break;
		case OPT_NAME: o.filter.name_glob = arg; break;
		case OPT_KIND: o.filter.kind = arg; break;
		case 'o': output = arg; break;
		case OPT_FAIL: fail = 1; break;
		case OPT_FORMAT:
			if (report) {
				if ((rfmt = profdb_report_format_parse(arg)) < 0) {
					cli_usage_error(name, "unknown format '%s' (md, html, json, junit, csv)", arg);
					goto out;
				}
				break;
			}
			/* fall through */
		default:
			if ((v = cli_format_opt(&fmt, key, arg)) != 0) {
				if (v > 0)
					cli_usage_error(name, "bad option");
				goto out;
			}
		}
	}
	if (nops == 2 && !base_s && !next_s) {
		base_s = strdup(operand[0]);
		next_s = strdup(operand[1]);
	} else if (nops != 0 || !base_s || !next_s) {
		cli_usage_error(name, "give BASE and NEW, or --base RUNS and --new RUNS");
		goto out;
	}
	if (!base_s || !next_s || split_runs(base_s, &base, &o.nbase) < 0 ||
	    split_runs(next_s, &next, &o.nnew) < 0) {
		rc = cli_error("out of memory");
		goto out;
	}
	o.base_runs = base;
	o.new_runs = next;
	db = cli_open_db(dbpath, PROFDB_OPEN_READONLY | PROFDB_OPEN_NOCREATE);
	if (!db) {
		rc = PROFDB_EXIT_ERROR;
		goto out;
	}
	if ((v = profdb_compare(db, &c, &o)) != PROFDB_OK) {
		rc = cli_lib_error(db, v);
		goto out;
	}
	if (output && !(out = fopen(output, "w"))) {
		out = stdout;
		rc = cli_error("cannot write '%s': %s", output, strerror(errno));
		goto out;
	}
	if (report) {
		/* the report holds the warnings; with -o the terminal should see them too */
		for (size_t i = 0; output && i < profdb_comparison_nwarnings(c); i++)
			fprintf(stderr, "profdb: warning: %s\n", profdb_comparison_warning(c, i));
		v = profdb_report_write(c, out, (enum profdb_report_format)rfmt);
	} else {
		v = write_diff(c, out, &fmt);
	}
	if (out != stdout && fclose(out) != 0)
		v = PROFDB_ERROR;
	out = stdout;
	if (v != PROFDB_OK) {
		rc = cli_error("cannot write %s", output ? output : "output");
		goto out;
	}
	rc = fail && (profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION) ||
	              profdb_comparison_count(c, 0, PROFDB_VERDICT_REGRESSION)) ?
	     PROFDB_EXIT_REGRESSION : PROFDB_EXIT_OK;
out:
	if (out != stdout)
		fclose(out);
	profdb_comparison_free(c);
	profdb_close(db);
	free(base);
	free(next);
	free(base_s);
	free(next_s);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	return cmd_diff_main(argc, argv, 0);
}
