/*
 * cmd_runs.c - profdb runs: the stored runs with their format, ranks,
 * repeats, row counts and total device time (profdb_query_runs).
 */
#include <stdio.h>

#include "query_cli.h"

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"The stored runs in ingest order: id, name, format, ranks, repeats (and where\n"
	"the count came from: user, steps or default), kernels, ops, total device time,\n"
	"when and from where they were ingested.";

int cmd_runs(int argc, char **argv)
{
	struct qcli q;
	const char *arg;
	int key, first = 1, rc;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "runs");
	while ((key = cli_next(argc, argv, opts, &arg, &first)) != -1) {
		int f = qcli_opt(&q, key, arg);
		if (f < 0)
			return PROFDB_EXIT_USAGE;
		if (f == 0)
			continue;
		if (key == 'h') {
			cli_help(stdout, "runs", "[OPTIONS]", desc, opts);
			return PROFDB_EXIT_OK;
		}
		return PROFDB_EXIT_USAGE;
	}
	if (first < argc)
		return cli_usage_error("runs", "unexpected argument '%s'", argv[first]);
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	rc = profdb_query_runs(db, &r);
	return qcli_finish(&q, db, rc, r);
}
