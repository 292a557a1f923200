/*
 * cmd_launches.c - profdb launches: kernel launch latency per kernel name,
 * queue length per stream, and per step whether the device waited on the
 * host or the host on the device (profdb_query_launches).
 */
#include <stdio.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	QCLI_OPT_NAME,
	{ "by", 1, OPT_BY, "KEY", "name (default: per kernel name and overall), stream (queue length) or step (host- or device-bound)" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Launch latency and queueing, from the runtime calls of Kineto traces (a device\n"
	"activity is joined to the call with its correlation id; delay = device start -\n"
	"launch call start):\n"
	"  --by name    per kernel name, first '(all)': calls, launch call duration\n"
	"               (total, avg, max), delay median/p90/p99/max, outliers = delays\n"
	"               above p75 + 3 * (p75 - p25) of the run\n"
	"  --by stream  queue = kernels launched and not finished: time-weighted mean,\n"
	"               max, % of the stream's window (first launch to last end) with >= 1\n"
	"  --by step    over the step's device span: host_wait (nothing launched and\n"
	"               unfinished: the device waited on the host), queued (a kernel\n"
	"               launched, not started: the host ran ahead), host_sync (the step's\n"
	"               *Synchronize calls: the host waited on the device); bound is\n"
	"               'host' when host_wait > queued, else 'device'\n"
	"Examples:\n"
	"  profdb launches --run r1\n"
	"  profdb launches --run r1 --by step --format csv";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_launch_query *lq = arg;
	if (key != OPT_BY)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	lq->by = val;
	return 0;
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_launches(db, out, query);
}

int cmd_launches(int argc, char **argv)
{
	struct profdb_launch_query lq = PROFDB_LAUNCH_QUERY_INIT;
	return qcli_run_analysis("launches", argc, argv, opts, desc, own_opt, &lq, &lq.filter, run);
}
