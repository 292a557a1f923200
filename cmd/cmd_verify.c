/*
 * cmd_verify.c - profdb verify: check a stored run against the profiler's
 * own summaries (op_statistic.csv, step_trace_time.csv) kept at ingest, and
 * exit 1 when a figure differs beyond rounding.
 */
#include <stdio.h>

#include "query_cli.h"

/* not the shared --run: one run, the last one given */
enum { OPT_ONE_RUN = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database file (default $PROFDB_DB, else ./profdb.db)" },
	CLI_OPT_READ_TIMEOUT,
	{ "run", 1, OPT_ONE_RUN, "NAME", "the run to check (default: the only run)" },
	{ "format", 1, OPT_FORMAT, "FMT", "table, csv, json or md" },
	{ "wide", 0, OPT_WIDE, "", "never shorten long values in tables" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Recompute the profiler's own summaries from the stored kernels and print each\n"
	"check with its difference (values in microseconds):\n"
	"  op_statistic     per OP Type and Core Type: Count, Total, Min, Avg, Max of the\n"
	"                   kernel durations (communication excluded);\n"
	"  step_trace_time  per step: Computing = the union of the non-communication\n"
	"                   kernel intervals, Communication = the union of the\n"
	"                   communication intervals, Overlapped = their intersection,\n"
	"                   Communication(Not Overlapped) = the difference.\n"
	"A check fails when it differs by more than 0.01% and more than the rounding of\n"
	"the printed inputs (0.0005 us per kernel).  Exit status: 0 all checks pass,\n"
	"1 a check failed (or an error), 2 usage.  The output ends with one line,\n"
	"`N checks: N ok` (with the failures' count when some failed).";

static int own_opt(void *arg, int key, const char *val)
{
	const char **run = arg;
	if (key != OPT_ONE_RUN)
		return cli_usage_error("verify", "bad option");
	*run = val;
	return 0;
}

/* The one closing line: "N checks: N ok", or with the failures' count.  It
 * follows a table or md on stdout, where a reader looks for it; csv and json
 * stay rows alone, so there it goes to stderr. */
static void print_tally(const struct profdb_format_opts *fmt, size_t checks, size_t failed)
{
	int human = fmt->format == PROFDB_FMT_TABLE || fmt->format == PROFDB_FMT_MD;
	FILE *f = human ? stdout : stderr;
	fprintf(f, "%s%zu check%s: %zu ok", human ? (fmt->format == PROFDB_FMT_MD ? "\n" : "") : "profdb: verify: ",
	        checks, checks == 1 ? "" : "s", checks - failed);
	if (failed > 0)
		fprintf(f, ", %zu failed", failed);
	fputc('\n', f);
}

int cmd_verify(int argc, char **argv)
{
	struct qcli q;
	const char *run = NULL;
	int first, rc, failed = 0;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "verify");
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, own_opt, &run, &first)) >= 0)
		return rc;
	if (first < argc)
		return cli_usage_error("verify", "unexpected argument '%s' (name the run with --run)", argv[first]);
	db = cli_open_db(q.db, PROFDB_OPEN_READONLY);
	if (!db)
		return PROFDB_EXIT_ERROR;
	rc = profdb_verify(db, &r, &failed, run);
	if (rc != PROFDB_OK) {
		int status = cli_lib_error(db, rc);
		profdb_close(db);
		return rc == PROFDB_EUSAGE ? PROFDB_EXIT_USAGE : status;
	}
	rc = profdb_result_write(r, stdout, &q.fmt) == PROFDB_OK ? PROFDB_EXIT_OK : cli_write_error("the output");
	if (rc == PROFDB_EXIT_OK) {
		print_tally(&q.fmt, profdb_result_nrows(r), (size_t)failed);
		if (failed > 0)
			rc = PROFDB_EXIT_ERROR;
	}
	profdb_result_free(r);
	profdb_close(db);
	return rc;
}
