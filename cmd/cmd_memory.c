/*
 * cmd_memory.c - profdb memory: peak allocated and reserved bytes per run,
 * rank and device, per step, as a curve, or per operator
 * (profdb_query_memory).
 */
#include <stdio.h>
#include <string.h>

#include "query_cli.h"

enum { OPT_TIMELINE = OPT_FIRST_FREE, OPT_POINTS, OPT_OPS };

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	{ "by", 1, OPT_BY, "KEY", "device (default) or step (a row per device and step)" },
	{ "timeline", 0, OPT_TIMELINE, "", "the allocated and reserved bytes over time, down-sampled" },
	{ "points", 1, OPT_POINTS, "N", "--timeline: slices of time per device (default 200)" },
	{ "ops", 0, OPT_OPS, "", "per operator: bytes allocated, freed, held, live at the device's peak" },
	{ "name", 1, OPT_NAME, "GLOB", "--ops: only operators matching GLOB (SQLite GLOB, case-sensitive)" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Memory per run, rank and device (and Ascend component), from the allocator's\n"
	"record: Kineto [memory] events (torch.profiler profile_memory=True) and\n"
	"Ascend memory_record.csv and npu_module_mem.csv (component module:<name>:\n"
	"reserved only).  Sizes in bytes.\n"
	"  allocations, frees      events with Bytes > 0 and < 0 (empty for Ascend)\n"
	"  allocated/freed_bytes   their sums\n"
	"  peak_allocated_bytes    the most allocated at once: Total Allocated when the\n"
	"                          profiler writes it, else the running sum of Bytes from\n"
	"                          the start of the trace (memory allocated before the\n"
	"                          profiler started is unknown)\n"
	"  peak_step, peak_at      the step and time (from the rank's first memory event)\n"
	"                          of the first event at the peak\n"
	"  peak_reserved_bytes     the most reserved by the allocator (empty if unknown)\n"
	"  end_allocated_bytes     allocated after the last event\n"
	"  capacity_bytes          the device's memory (Kineto deviceProperties\n"
	"                          totalGlobalMem); empty where unknown\n"
	"  peak_pct_of_capacity    peak_allocated_bytes as % of capacity_bytes\n"
	"--ops: per operator (the innermost op holding the event on its thread):\n"
	"  held_bytes              allocated by it and not freed by the end of the trace\n"
	"  live_at_peak_bytes      allocated by it and live at the device's peak\n"
	"  (both need the events' Addr; empty without)\n"
	"  Ascend runs: per Name of operator_memory.csv (a block is freed when it\n"
	"  has a Release Time; the peak is the highest Allocation Total Allocated)\n"
	"Examples:\n"
	"  profdb memory --run r1\n"
	"  profdb memory --run r1 --timeline --format csv\n"
	"  profdb memory --run r1 --ops";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_memory_query *mq = arg;
	switch (key) {
	case OPT_BY:
		if (strcmp(val, "device") != 0 && strcmp(val, "step") != 0) {
			static const char *const names[] = { "device", "step" };
			char hint[96];
			return cli_usage_error("memory", "--by: device or step, not '%s'%s", val,
			                       cli_did_you_mean(hint, sizeof hint, val, names, 2));
		}
		mq->by_step = strcmp(val, "step") == 0;
		return 0;
	case OPT_TIMELINE:
		mq->timeline = 1;
		return 0;
	case OPT_OPS:
		mq->ops = 1;
		return 0;
	case OPT_POINTS:
		if (cli_parse_i64("memory", "--points", val, &mq->points) != 0 || mq->points <= 0)
			return cli_usage_error("memory", "--points: a positive number, not '%s'", val);
		return 0;
	default:
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	}
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_memory(db, out, query);
}

int cmd_memory(int argc, char **argv)
{
	struct profdb_memory_query mq = PROFDB_MEMORY_QUERY_INIT;
	return qcli_run_analysis("memory", argc, argv, opts, desc, own_opt, &mq, &mq.filter, run);
}
