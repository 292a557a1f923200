/*
 * cmd_breakdown.c - profdb breakdown: where each rank's device time went
 * per step (or per rank with --by rank): compute, communication, memory,
 * their overlaps, exposed communication and idle (profdb_query_breakdown).
 */
#include <stdio.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	{ "by", 1, OPT_BY, "KEY", "step (default: one row per rank and step) or rank (one row per rank)" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Per run, rank and step, where the device time went.  Device activities are\n"
	"compute (kernels), communication (kind communication: HCCL/hcom, NCCL/RCCL)\n"
	"or memory (memcpy, memset); each class is the union of its intervals over\n"
	"all streams of the rank, so overlapping kernels count once:\n"
	"  span          first start to last end of the group's device activities\n"
	"  busy          union of all of them; idle = span - busy\n"
	"  compute, communication, memory   the union of each class\n"
	"  *_overlap     time two classes run at once\n"
	"  exposed_communication  communication with no compute under it\n"
	"  exposed_memory         memcpy/memset with no compute or communication\n"
	"  *_pct         of span; comm_overlap_pct: compute_comm_overlap / communication\n"
	"Kernels outside every step make a row with no step number.\n"
	"Examples:\n"
	"  profdb breakdown --run r1 --steps 3..\n"
	"  profdb breakdown --run r1 --by rank --format csv";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_breakdown_query *bq = arg;
	if (key != OPT_BY)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	return qcli_by_choice("breakdown", val, "step", "rank", &bq->by_rank);
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_breakdown(db, out, query);
}

int cmd_breakdown(int argc, char **argv)
{
	struct profdb_breakdown_query bq = PROFDB_BREAKDOWN_QUERY_INIT;
	return qcli_run_analysis("breakdown", argc, argv, opts, desc, own_opt, &bq, &bq.filter, run);
}
