/*
 * main.c - profdb's entry point: dispatch argv[1] to a subcommand from the
 * table below.  Each subcommand parses its own options and prints its own
 * errors; this file only routes and prints the overview.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cmd.h"

struct profdb_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* Keep alphabetized. */
static const struct profdb_cmd cmds[] = {
	{ "apis", cmd_apis, "Per API and backend: elapsed per repeat, device and CPU time, and its source" },
	{ "bandwidth", cmd_bandwidth, "Memcpy/memset bytes and GB/s per rank, step and direction" },
	{ "breakdown", cmd_breakdown, "Per rank and step: compute, communication, memory, overlap, exposed, idle" },
	{ "collectives", cmd_collectives, "Communication kernels per collective and rank; per step skew across ranks" },
	{ "diff", cmd_diff, "Compare runs kernel by kernel: regressions, improvements, noise" },
	{ "flops", cmd_flops, "GEMM/attention/conv FLOPs, TFLOP/s, bytes, intensity per operator and shape" },
	{ "idle", cmd_idle, "Per stream: idle time waiting on the host, on another stream, other; longest gaps" },
	{ "ingest", cmd_ingest, "Read profiler dumps into the database as one run" },
	{ "kernels", cmd_kernels, "Device time per kernel: share, total, calls, mean, median, p90/p99, stddev" },
	{ "launches", cmd_launches, "Kernel launch delay per name, queue length per stream, host- or device-bound steps" },
	{ "memory", cmd_memory, "Per device: peak allocated and reserved bytes, when; per step, curve, per operator" },
	{ "ops", cmd_ops, "Host operators: calls, host and device time, the kernels they launched" },
	{ "pull", cmd_pull, "Copy runs from a ClickHouse server into the database" },
	{ "push", cmd_push, "Copy runs to a ClickHouse server (clickhouse://host/db)" },
	{ "ranks", cmd_ranks, "Stragglers: per step each rank's compute, communication, wait, robust z-score" },
	{ "report", cmd_report, "Write a comparison report (md, html, json, junit, csv)" },
	{ "runs", cmd_runs, "List the stored runs" },
	{ "schema", cmd_schema, "Print the embedded SQL schema" },
	{ "sql", cmd_sql, "Run SQL against the database (read-only unless --write)" },
	{ "steps", cmd_steps, "One row per step: wall time, device busy time, top kernel" },
	{ "summary", cmd_summary, "Per run: repeats, kernels, device, elapsed and CPU time" },
	{ "verify", cmd_verify, "Check a run against the profiler's own summaries (op_statistic, step_trace_time)" },
};

static void overview(FILE *out)
{
	fprintf(out, "usage: profdb COMMAND [OPTIONS] [ARGS]\n\n"
	             "profdb ingests ML profiler dumps (torch_npu / msprof Ascend exports, PyTorch\n"
	             "Kineto traces) into one SQLite file and answers kernel, operator and step\n"
	             "questions about them.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char line[256];
		int n = snprintf(line, sizeof line, "  %-10s %s", cmds[i].name, cmds[i].summary);
		cli_wrap_line(out, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, 13,
		              cli_help_width());
	}
	fprintf(out, "\n'profdb COMMAND --help' describes a command.  The database is --db FILE,\n"
	             "else $PROFDB_DB, else ./profdb.db.  --no-pager (anywhere before --) prints\n"
	             "without the pager.\n\n");
	cli_env_help(out, cli_help_width());
}

/* A command that succeeded but whose output did not reach stdout (a full
 * disk, /dev/full, a closed pipe) fails: a caller must not take a cut
 * report for a whole one. */
static int output_written(int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (status == PROFDB_EXIT_OK)
		return cli_write_error("the output");
	return status;
}

/*
 * --no-pager is taken wherever it stands before "--" (profdb --no-pager
 * kernels, or profdb kernels ... --no-pager) and removed, so that no
 * command's option table needs a row for it.  Returns 1 when it was there.
 */
static int take_no_pager(int *argc, char **argv)
{
	int found = 0, out = 1;

	for (int i = 1; i < *argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--no-pager") == 0)
			found = 1;
		else
			argv[out++] = argv[i];
	}
	argv[out] = NULL;
	*argc = out;
	return found;
}

static int run_command(const struct profdb_cmd *c, int argc, char **argv, int paged)
{
	int rc;

	if (paged)
		cli_pager_start(c->name);
	rc = output_written(c->fn(argc, argv));
	cli_pager_finish();
	return rc;
}

/* One line, as git does: the nearest command when there is one, then where
 * the list is; the whole overview would bury the mistake. */
static int unknown_command(const char *given)
{
	const char *names[sizeof cmds / sizeof cmds[0]];
	const char *near;

	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		names[i] = cmds[i].name;
	near = profdb_name_nearest(given, names, sizeof cmds / sizeof cmds[0]);
	if (near)
		fprintf(stderr, "profdb: unknown command '%s'; did you mean '%s'? Try 'profdb --help'.\n",
		        given, near);
	else
		fprintf(stderr, "profdb: unknown command '%s'. Try 'profdb --help'.\n", given);
	return PROFDB_EXIT_USAGE;
}

/* profdb(1): the overview, from the same table. */
static void overview_man(FILE *out)
{
	fprintf(out, ".TH PROFDB 1 \"\" \"profdb %s\" \"profdb manual\"\n.SH NAME\n"
	             "profdb \\- one SQLite file of ML profiler dumps, and exact answers from it\n"
	             ".SH SYNOPSIS\n.B profdb\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n"
	             ".br\n.B profdb \\-\\-version\n.SH DESCRIPTION\n"
	             "profdb ingests ML profiler dumps (torch_npu / msprof Ascend exports, PyTorch\n"
	             "Kineto traces) into one SQLite file and answers kernel, operator and step\n"
	             "questions about them.\n.SH COMMANDS\n", PROFDB_VERSION);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		fprintf(out, ".TP\n.BR profdb\\-%s (1)\n", cmds[i].name);
		cli_roff(out, cmds[i].summary);
		fputc('\n', out);
	}
	cli_env_man(out);
	fputs(".SH EXIT STATUS\n0 success, 1 error, 2 usage, 3 a regression "
	      "found by \\-\\-fail\\-on\\-regression.\n.SH SEE ALSO\n", out);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		fprintf(out, ".BR profdb\\-%s (1)%s\n", cmds[i].name, i + 1 < sizeof cmds / sizeof cmds[0] ? "," : "");
	fputs(".PP\nIn the profdb source tree: README.md (the user guide) and doc/ (the reference:\n"
	      "commands.md, definitions.md, inputs.md, schema.md, clickhouse.md, limits.md).\n", out);
}

/*
 * `profdb help [--man|--complete] [CMD]`: CMD's help as text, a man page
 * (the build writes every page this way) or the option list the shell
 * completions read; without CMD the overview, profdb(1) or the commands.
 */
static int help(int argc, char **argv)
{
	enum cli_help_mode mode = CLI_HELP_TEXT;
	char help_opt[] = "--help";
	int a = 1;
	if (a < argc && strcmp(argv[a], "--man") == 0)
		mode = CLI_HELP_MAN, a++;
	else if (a < argc && strcmp(argv[a], "--complete") == 0)
		mode = CLI_HELP_COMPLETE, a++;
	if (a == argc) {
		if (mode == CLI_HELP_MAN)
			overview_man(stdout);
		else if (mode == CLI_HELP_COMPLETE)
			for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
				printf("%s\t%s\n", cmds[i].name, cmds[i].summary);
		else
			overview(stdout);
		return PROFDB_EXIT_OK;
	}
	for (size_t i = 0; a + 1 == argc && i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(argv[a], cmds[i].name) == 0) {
			char *sub[] = { argv[a], help_opt, NULL };
			cli_help_set_mode(mode, cmds[i].summary);
			return cmds[i].fn(2, sub);
		}
	if (a + 1 == argc)
		fprintf(stderr, "profdb help: unknown command '%s'\n", argv[a]);
	else
		fprintf(stderr, "usage: profdb help [--man|--complete] [COMMAND]\n");
	return PROFDB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int paged;

#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	/*
	 * Large blocks (an ingest's per-name durations, tens of MB) from mmap
	 * and back to the system when freed.  glibc raises its threshold after
	 * the first such free, so the next ones came from the heap and stayed:
	 * a 10 M-row ingest peaked at 106 MB instead of 92.  A process-wide
	 * choice, so the program makes it, not the library.
	 */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
	cli_writeback_early();
	paged = !take_no_pager(&argc, argv);
	if (argc < 2) {
		overview(stderr);
		return PROFDB_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		overview(stdout);
		return PROFDB_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0)
		return help(argc - 1, argv + 1);
	if (strcmp(argv[1], "--version") == 0) {
		printf("profdb %s (schema %d)\n", PROFDB_VERSION, profdb_schema_version());
		return PROFDB_EXIT_OK;
	}
	/* past `ulimit -f` a write fails with EFBIG and is reported like any
	 * write error (disk full), instead of SIGXFSZ killing the process */
	signal(SIGXFSZ, SIG_IGN);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return run_command(&cmds[i], argc - 1, argv + 1, paged);
	return unknown_command(argv[1]);
}
