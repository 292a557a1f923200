/*
 * cmd_summary.c - profdb summary: per run its repeats, device activity
 * count, total device time, elapsed device time and total host CPU time
 * (profdb_query_summary).  JSON: one object when one run is selected (one
 * --run, or a database holding one run), else an array of such objects.
 */
#include <stdio.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_TAG,
	{ "by", 1, OPT_BY, "tag:KEY", "sum the figures of the runs per value of tag KEY" },
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	QCLI_OPT_ORDER_WHOLE,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Per run: repeats, kernels (device activities), total_device (sum of their\n"
	"durations), elapsed (longest per-rank span from the first device start to the\n"
	"last device end) and total_cpu (sum of host operators' self time).\n"
	"outside_kernels and outside_device: the device activities outside every profiler\n"
	"step of a run whose repeats are its steps, and their time (no part of any\n"
	"repeat: kernels' per_repeat is the per-step mean; 0 under --steps).\n"
	"--rank and --steps restrict all of them to that rank and those steps; with\n"
	"--steps, repeats is the number of selected steps (the divisor of kernels'\n"
	"per_repeat and of diff's per-repeat times under the same --steps).\n"
	"--format json prints one object when one run is selected (one --run, or the\n"
	"database holds one run) and an array of objects otherwise; each object has\n"
	"the keys run, repeats, kernels, total_device_us, elapsed_us, total_cpu_us,\n"
	"outside_kernels, outside_device_us.\n"
	"--by tag:KEY: one row per value of the run tag KEY, the runs' figures summed\n"
	"(per-API benchmark results: profdb apis).";

static int own_opt(void *arg, int key, const char *val)
{
	if (key != OPT_BY)
		return PROFDB_EXIT_USAGE;
	*(const char **)arg = val;
	return 0;
}

int cmd_summary(int argc, char **argv)
{
	struct qcli q;
	int rc;
	profdb *db;
	profdb_result *r = NULL;
	const char *by = NULL;

	qcli_init(&q, "summary");
	q.open_flags = PROFDB_OPEN_LAZY; /* its query fetches what it reads */
	q.order = QCLI_ORDER_WHOLE;
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, own_opt, &by, NULL)) >= 0)
		return rc;
	/* several --run: always an array, even if it held one row */
	q.fmt.json_object = q.filter.nruns <= 1;
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	/* rows written as they come: one per run, however many runs */
	qcli_stream(&q, db);
	rc = by ? profdb_query_summary_by(db, &r, &q.filter, by) : profdb_query_summary(db, &r, &q.filter);
	return qcli_finish(&q, db, rc, r);
}
