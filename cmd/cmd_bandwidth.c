/*
 * cmd_bandwidth.c - profdb bandwidth: memcpy and memset bytes and GB/s per
 * rank, step and direction (profdb_query_bandwidth).
 */
#include <stdio.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	QCLI_OPT_NAME,
	{ "by", 1, OPT_BY, "KEY", "step (default: per rank, step and direction) or rank (per rank and direction)" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Memory traffic: memcpy and memset per run, rank, step and direction.\n"
	"  direction  HtoD, DtoH, DtoD, PtoP (from the name: 'Memcpy HtoD ...',\n"
	"             ROCm 'CopyHostToDevice' ...), memset, or other\n"
	"  transfers  count; sized: those with a byte count (Kineto args \"bytes\")\n"
	"  bytes, total  sum of bytes and of durations\n"
	"  gbps       bytes / duration over the sized transfers (GB = 10^9 bytes)\n"
	"  max_gbps   the fastest single transfer\n"
	"Examples:\n"
	"  profdb bandwidth --run r1\n"
	"  profdb bandwidth --run r1 --by rank --format csv";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_bandwidth_query *bq = arg;
	if (key != OPT_BY)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	return qcli_by_choice("bandwidth", val, "step", "rank", &bq->by_rank);
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_bandwidth(db, out, query);
}

int cmd_bandwidth(int argc, char **argv)
{
	struct profdb_bandwidth_query bq = PROFDB_BANDWIDTH_QUERY_INIT;
	return qcli_run_analysis("bandwidth", argc, argv, opts, desc, own_opt, &bq, &bq.filter, run);
}
