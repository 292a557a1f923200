/*
 * cmd_kernels.c - profdb kernels: per-kernel device time statistics
 * (profdb_query_kernels), grouped by name or other keys, or per step.
 */
#include <stdio.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_TAG,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	QCLI_OPT_NAME,
	QCLI_OPT_KIND,
	{ "by", 1, OPT_BY, "KEYS", "group by: name (default), base-name, type, core, kind, shape, rank, device, stream, step; comma-separated" },
	{ "per-step", 0, OPT_PER_STEP, "", "per group: mean and stddev of its total per step, and the step of the maximum" },
	QCLI_OPT_MIN_TOTAL,
	QCLI_OPT_TOP,
	{ "sort", 1, OPT_SORT, "COL", "total (default), share, calls, avg, median, min, max, stddev, p90, p99, name or a --by key; --per-step: mean (default), stddev, min, max, steps, calls, max_step" },
	QCLI_OPT_ASC,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Device time per kernel (every device activity: kernels, memcpy, memset,\n"
	"communication, other; wallclock repeats of benchmark runs), one row per\n"
	"group and run:\n"
	"  share    % of the run's device time (after --run/--rank/--steps; --name and\n"
	"           --kind do not change the denominator)\n"
	"  total, calls, avg, median, min, max\n"
	"  stddev   sample standard deviation (n - 1); empty for a single call\n"
	"  p90, p99 exact percentiles, linear interpolation between closest ranks\n"
	"           (numpy's default)\n"
	"  per_repeat  total / the run's repeat count; with --steps, total / the\n"
	"           number of selected steps (--repeats is then not used);\n"
	"           where the repeats are the profiler steps, the time inside the\n"
	"           steps / the steps (the per-step mean; work outside every step\n"
	"           is noted apart)\n"
	"With --per-step: per group, its total in each selected step of the run (0\n"
	"where it did not run): steps it ran in, calls, mean, stddev, min, max, max_step.\n"
	"Examples:\n"
	"  profdb kernels --run r1 --by name --steps 3.. --top 20\n"
	"  profdb kernels --run r1 --by type,shape --format md\n"
	"  profdb kernels --run r1 --per-step";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_kernel_query *kq = arg;
	switch (key) {
	case OPT_BY: kq->by = val; return 0;
	case OPT_PER_STEP: kq->per_step = 1; return 0;
	default: return PROFDB_EXIT_USAGE; /* cli_next printed why */
	}
}

int cmd_kernels(int argc, char **argv)
{
	struct qcli q;
	struct profdb_kernel_query kq = PROFDB_KERNEL_QUERY_INIT;
	int rc;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "kernels");
	q.open_flags = PROFDB_OPEN_LAZY; /* its query fetches what it reads */
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, own_opt, &kq, NULL)) >= 0)
		return rc;
	kq.filter = q.filter;
	kq.sort = q.sort;
	kq.ascending = q.asc;
	kq.top = q.top;
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	/* csv and json rows go out as they come: a million names, flat memory */
	(void)profdb_result_stream(db, stdout, &q.fmt);
	rc = profdb_query_kernels(db, &r, &kq);
	return qcli_finish(&q, db, rc, r);
}
