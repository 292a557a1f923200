/*
 * main.c - profdb's entry point: dispatch argv[1] to a subcommand from the
 * table below.  Each subcommand parses its own options and prints its own
 * errors; this file only routes and prints the overview.
 */
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
	{ "bandwidth", cmd_bandwidth, "Memcpy/memset bytes and GB/s per rank, step and direction" },
	{ "breakdown", cmd_breakdown, "Per rank and step: compute, communication, memory, overlap, exposed, idle" },
	{ "collectives", cmd_collectives, "Communication kernels per collective and rank; per step skew across ranks" },
	{ "diff", cmd_diff, "Compare runs kernel by kernel: regressions, improvements, noise" },
	{ "flops", cmd_flops, "GEMM/attention FLOPs, TFLOP/s, bytes, intensity per operator and shape" },
	{ "idle", cmd_idle, "Per stream: idle time waiting on the host, on another stream, other; longest gaps" },
	{ "ingest", cmd_ingest, "Read profiler dumps into the database as one run" },
	{ "kernels", cmd_kernels, "Device time per kernel: share, total, calls, mean, median, p90/p99, stddev" },
	{ "launches", cmd_launches, "Kernel launch delay per name, queue length per stream, host- or device-bound steps" },
	{ "ops", cmd_ops, "Host operators: calls, host and device time, the kernels they launched" },
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
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		fprintf(out, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(out, "\n'profdb COMMAND --help' describes a command.  The database is --db FILE,\n"
	             "else $PROFDB_DB, else ./profdb.db.\n");
}

int main(int argc, char **argv)
{
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
	if (argc < 2) {
		overview(stderr);
		return PROFDB_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		overview(stdout);
		return PROFDB_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("profdb %s (schema %d)\n", PROFDB_VERSION, profdb_schema_version());
		return PROFDB_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "profdb: unknown command '%s'\n\n", argv[1]);
	overview(stderr);
	return PROFDB_EXIT_USAGE;
}
