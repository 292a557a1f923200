/*
 * cmd_ops.c - profdb ops: host operators with their host and device times
 * and the kernels they launched (profdb_query_ops).
 */
#include <stdio.h>

#include "query_cli.h"

enum { OPT_BY_SHAPE = OPT_FIRST_FREE, OPT_STEP_ROWS };

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_TAG,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	QCLI_OPT_NAME,
	{ "by-shape", 0, OPT_BY_SHAPE, "", "one row per operator and input shapes" },
	{ "step-rows", 0, OPT_STEP_ROWS, "", "one row per ProfilerStep#N (default: one ProfilerStep* row)" },
	{ "min-total", 1, OPT_MIN_TOTAL, "TIME", "drop operators whose host total is below TIME (us, or 5ms, 200ns, 1s)" },
	QCLI_OPT_TOP,
	{ "sort", 1, OPT_SORT, "COL", "host_self (default), host_total, host_avg, device_self, device_total, calls, name, shape" },
	QCLI_OPT_ASC,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Host operators, one row per operator name (and input shapes with --by-shape)\n"
	"and run: calls, host self/total/mean time, device self/total time (kernels\n"
	"the operator launched itself / with its children; empty where the source has\n"
	"no such figure), and top_kernels: up to three kernels it launched with their\n"
	"share of its kernel time.  Kernels are linked to operators by the Kineto\n"
	"External id (same run and rank; in traces that wrote correlation ids there,\n"
	"through the launch call: doc/definitions.md) or a\n"
	"MindSpore launch op name; Ascend operator_details has no link, so\n"
	"top_kernels is empty there.  An operator whose kernels its children\n"
	"launched (aten::conv2d) has device_self 0 and no top_kernels; a note names\n"
	"such rows.  ProfilerStep#N spans are one row, ProfilerStep*, as in torch's\n"
	"key_averages (--step-rows: one per step).";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_op_query *oq = arg;
	(void)val;
	if (key == OPT_STEP_ROWS) {
		oq->step_rows = 1;
		return 0;
	}
	if (key != OPT_BY_SHAPE)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	oq->by_shape = 1;
	return 0;
}

int cmd_ops(int argc, char **argv)
{
	struct qcli q;
	struct profdb_op_query oq = PROFDB_OP_QUERY_INIT;
	int rc;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "ops");
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, own_opt, &oq, NULL)) >= 0)
		return rc;
	oq.filter = q.filter;
	oq.sort = q.sort;
	oq.ascending = q.asc;
	oq.top = q.top;
	/* json: top_kernels as objects; csv, table and md keep the flat text */
	oq.top_json = q.fmt.format == PROFDB_FMT_JSON;
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	/* rows go out as they come (a table in two passes past its budget) */
	(void)profdb_result_stream(db, stdout, &q.fmt);
	rc = profdb_query_ops(db, &r, &oq);
	return qcli_finish(&q, db, rc, r);
}
