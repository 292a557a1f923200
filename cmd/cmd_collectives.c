/*
 * cmd_collectives.c - profdb collectives: communication kernels per
 * collective and rank, or per step across ranks with the skew and the rank
 * the others waited for (profdb_query_collectives).
 */
#include <stdio.h>
#include <string.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	QCLI_OPT_NAME,
	{ "by", 1, OPT_BY, "KEY", "rank (default: per collective and rank), step (per step across ranks) or link (Ascend)" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Collectives: the communication kernels (Ascend HCCL / hcom_*, NCCL / RCCL)\n"
	"per collective, named from the kernel name (all_reduce, all_gather,\n"
	"reduce_scatter, all_to_all, broadcast, send_recv, send, recv, reduce,\n"
	"barrier, other):\n"
	"  --by rank   per collective, process group and rank: calls, total, avg,\n"
	"              median, max; from NCCL kernel args: group_size, dtype, bytes\n"
	"              (max(in, out nelems) x dtype size), avg_msg_bytes, algbw_gbps\n"
	"              (bytes / time) and busbw_gbps (algbw x 2(n-1)/n all_reduce,\n"
	"              (n-1)/n all_gather / reduce_scatter / all_to_all, 1 others);\n"
	"              from Ascend communication.json: the group, transit_bytes\n"
	"              (RDMA + SDMA, MB = 10^6 bytes), transit_gbps (bytes / their\n"
	"              transit time), wait and sync (wait / synchronization time)\n"
	"  --by step   per step and collective across ranks: ranks, calls, min,\n"
	"              median and max of the ranks' totals; skew = max - min, the\n"
	"              time ranks waited inside the collective; waited_on_rank = the\n"
	"              rank with the least collective time (it arrived last), when\n"
	"              median - least is at least 10 % of the median (the\n"
	"              straggler rule of profdb ranks), else empty;\n"
	"              Ascend: wait_max, the largest rank's summed wait time\n"
	"  --by link   Ascend communication_matrix.json: per step, group, op\n"
	"              (allreduce-top1 ... -total) and link src_rank -> dst_rank:\n"
	"              transport, op_name, bytes, transit time, bandwidth_gbps\n"
	"Examples:\n"
	"  profdb collectives --run r1\n"
	"  profdb collectives --run r1 --by step --format csv";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_collective_query *cq = arg;
	if (key != OPT_BY)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	cq->by_step = strcmp(val, "step") == 0;
	cq->by_link = strcmp(val, "link") == 0;
	if (!cq->by_step && !cq->by_link && strcmp(val, "rank") != 0) {
		static const char *const names[] = { "rank", "step", "link" };
		char hint[96];
		return cli_usage_error("collectives", "--by: 'rank', 'step' or 'link', not '%s'%s", val,
		                       cli_did_you_mean(hint, sizeof hint, val, names, 3));
	}
	return 0;
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_collectives(db, out, query);
}

int cmd_collectives(int argc, char **argv)
{
	struct profdb_collective_query cq = PROFDB_COLLECTIVE_QUERY_INIT;
	return qcli_run_analysis("collectives", argc, argv, opts, desc, own_opt, &cq, &cq.filter, run);
}
