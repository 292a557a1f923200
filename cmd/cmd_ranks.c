/*
 * cmd_ranks.c - profdb ranks: each rank's compute, communication and wait
 * per step, and the ranks whose compute is an outlier across ranks
 * (profdb_query_ranks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query_cli.h"

enum { OPT_THRESHOLD = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	{ "by", 1, OPT_BY, "KEY", "step (default: per rank and step) or rank (per rank over the run)" },
	{ "threshold", 1, OPT_THRESHOLD, "PCT", "least wait a straggler causes, % of the median communication (default 10)" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Stragglers: per run, rank and step (or per rank with --by rank)\n"
	"  compute, communication, exposed_communication   as profdb breakdown\n"
	"  wait            communication minus the least of the step's ranks:\n"
	"                  time spent waiting for the last rank to arrive\n"
	"  compute_median  of the step's ranks\n"
	"  compute_z       robust z-score 0.6745 (compute - median) / MAD (median\n"
	"                  absolute deviation; when MAD is 0, 1.253314 x the mean\n"
	"                  absolute deviation); empty with fewer than 3 ranks;\n"
	"                  descriptive only\n"
	"  straggler       yes for the rank the others wait on (least\n"
	"                  communication) when the median wait is at least\n"
	"                  --threshold % (default 10) of the median communication\n"
	"Examples:\n"
	"  profdb ranks --run r1\n"
	"  profdb ranks --run r1 --by rank --threshold 5";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_ranks_query *rq = arg;
	char *end = NULL;
	if (key == OPT_THRESHOLD) {
		rq->threshold = strtod(val, &end);
		if (end == val || *end || !(rq->threshold > 0))
			return cli_usage_error("ranks", "--threshold: a number above 0, not '%s'", val);
		return 0;
	}
	if (key != OPT_BY)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	return qcli_by_choice("ranks", val, "step", "rank", &rq->by_rank);
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_ranks(db, out, query);
}

int cmd_ranks(int argc, char **argv)
{
	struct profdb_ranks_query rq = PROFDB_RANKS_QUERY_INIT;
	return qcli_run_analysis("ranks", argc, argv, opts, desc, own_opt, &rq, &rq.filter, run);
}
