/*
 * cmd_idle.c - profdb idle: per stream, idle time split into waiting on
 * the host, on another stream, and other; or the longest gaps with the host
 * operator running at the time (profdb_query_idle).
 */
#include <stdio.h>

#include "query_cli.h"

enum { OPT_GAPS = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	{ "gaps", 1, OPT_GAPS, "N", "list the N longest idle gaps instead, with the next kernel and the host op" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Idle time per run, rank and stream: the gaps between a stream's device\n"
	"activities (idle = span - busy of that stream), each split as HTA's idle\n"
	"time breakdown does:\n"
	"  host_wait     before the next activity's launch call started: nothing was\n"
	"                queued, the device waited on the host\n"
	"  other_stream  the next activity was queued while another stream of the\n"
	"                rank ran: waiting on another stream\n"
	"  other         the rest (launch overhead, synchronisation, no launch record)\n"
	"With --gaps N: the N longest gaps, where they start (from the rank's first\n"
	"device start), the next kernel, and the innermost host operator on the\n"
	"launching thread when the gap began.\n"
	"Examples:\n"
	"  profdb idle --run r1\n"
	"  profdb idle --run r1 --gaps 10";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_idle_query *iq = arg;
	if (key != OPT_GAPS)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	if (cli_parse_i64("idle", "--gaps", val, &iq->gaps) != 0 || iq->gaps <= 0)
		return cli_usage_error("idle", "--gaps: a positive number, not '%s'", val);
	return 0;
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_idle(db, out, query);
}

int cmd_idle(int argc, char **argv)
{
	struct profdb_idle_query iq = PROFDB_IDLE_QUERY_INIT;
	return qcli_run_analysis("idle", argc, argv, opts, desc, own_opt, &iq, &iq.filter, run);
}
