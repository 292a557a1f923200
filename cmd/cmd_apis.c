/*
 * cmd_apis.c - profdb apis: per API and backend the fields an operator
 * benchmark harness reports (profdb_query_apis): elapsed per repeat, its
 * spread, device and host time, kernel count, and which source gave the
 * number (profiler, wall clock, or summary statistics only).
 */
#include <stdio.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_TAG,
	{ "name", 1, OPT_NAME, "GLOB", "only APIs matching GLOB" },
	QCLI_OPT_ORDER_WHOLE,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"One row per run and API, as an operator benchmark harness reports it:\n"
	"  source      profiler (device time of a profiled run; the run is one API: its\n"
	"              'api' tag, else its name), wallclock (timed repeats of a benchmark\n"
	"              file, per API) or summary (the file holds only mean/stddev/rounds)\n"
	"  repeats     profiler: the run's repeat count; wallclock: timed repeats\n"
	"  per_repeat  profiler: total device time / repeats (the per-step mean where the\n"
	"              repeats are the steps: work outside every step is noted apart);\n"
	"              wallclock: elapsed / repeats\n"
	"  stddev, median  of the per-repeat samples (profiler: per-step device totals)\n"
	"  total_device, total_cpu, kernels  profiled runs only\n"
	"backend is the run's 'backend' tag.  Examples:\n"
	"  profdb apis --tag backend=npu\n"
	"  profdb apis --name 'torch.mat*' --format csv";

int cmd_apis(int argc, char **argv)
{
	struct qcli q;
	int rc;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "apis");
	q.order = QCLI_ORDER_WHOLE;
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, NULL, NULL, NULL)) >= 0)
		return rc;
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	/* rows written as they come (one per run and API) */
	qcli_stream(&q, db);
	rc = profdb_query_apis(db, &r, &q.filter);
	return qcli_finish(&q, db, rc, r);
}
