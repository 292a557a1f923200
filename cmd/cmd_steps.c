/*
 * cmd_steps.c - profdb steps: one row per step and rank with its wall time,
 * device busy time and top kernel (profdb_query_steps).
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
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"One row per run, rank and step:\n"
	"  wall          the step's host span (ProfilerStep#N) when known, else first\n"
	"                kernel start to last kernel end in the step\n"
	"  span          first kernel start to last kernel end in the step (kernels\n"
	"                often run after the host span of their step)\n"
	"  busy          device busy time: the union of the step's kernel intervals\n"
	"                (overlapping kernels count once)\n"
	"  busy (%)      busy / span\n"
	"  kernels, device_total  count and plain sum of kernel durations\n"
	"  top_total, top_kernel  the kernel name with the largest total in the step\n"
	"Kernels outside every step make a row with no step number.";

int cmd_steps(int argc, char **argv)
{
	struct qcli q;
	int rc;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "steps");
	q.open_flags = PROFDB_OPEN_LAZY; /* its query fetches what it reads */
	q.order = QCLI_ORDER_PER_RUN;
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, NULL, NULL, NULL)) >= 0)
		return rc;
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	/* rows written as they come: memory stays flat however many steps */
	qcli_stream(&q, db);
	rc = profdb_query_steps(db, &r, &q.filter);
	return qcli_finish(&q, db, rc, r);
}
