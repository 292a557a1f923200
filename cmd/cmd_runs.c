/*
 * cmd_runs.c - profdb runs: the stored runs with their format, ranks,
 * repeats, row counts and total device time (profdb_query_runs); and the two
 * changes a stored run takes: a new repeat count, or deletion.
 */
#include <stdio.h>

#include "query_cli.h"

enum { OPT_SET_REPEATS = OPT_FIRST_FREE, OPT_DELETE };

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	{ "set-repeats", 1, OPT_SET_REPEATS, "N", "set the repeat count of the --run run (no re-ingest)" },
	{ "delete", 0, OPT_DELETE, "", "delete the --run run and everything it holds" },
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"The stored runs in ingest order: id, name, format, ranks, repeats (and where\n"
	"the count came from: user, steps or default), kernels, ops, total device time,\n"
	"when and from where they were ingested.  With --run NAME and --set-repeats N\n"
	"or --delete, change that run instead (per-repeat times divide by the count).";

/* --set-repeats / --delete: one run, opened for writing. */
static int change_run(const struct qcli *q, int64_t repeats, int del)
{
	profdb *db;
	int rc;
	if (q->filter.nruns != 1)
		return cli_usage_error("runs", "--set-repeats and --delete need exactly one --run");
	if (!(db = cli_open_db(q->db, PROFDB_OPEN_NOCREATE)))
		return PROFDB_EXIT_ERROR;
	rc = del ? profdb_run_delete(db, q->filter.runs[0])
	         : profdb_run_set_repeats(db, q->filter.runs[0], repeats);
	if (rc != PROFDB_OK)
		rc = cli_lib_error(db, rc);
	profdb_close(db);
	return rc;
}

/* What --set-repeats / --delete ask for. */
struct change {
	int64_t repeats;           /* --set-repeats, 0 if not given */
	int del;                   /* --delete */
};

static int own_opt(void *arg, int key, const char *val)
{
	struct change *c = arg;
	if (key == OPT_DELETE) {
		c->del = 1;
		return 0;
	}
	if (key == OPT_SET_REPEATS) {
		if (cli_parse_i64("runs", "--set-repeats", val, &c->repeats) != 0)
			return PROFDB_EXIT_USAGE;
		if (c->repeats <= 0)
			return cli_usage_error("runs", "--set-repeats needs a positive count");
		return 0;
	}
	return PROFDB_EXIT_USAGE;
}

int cmd_runs(int argc, char **argv)
{
	struct qcli q;
	struct change c = { 0, 0 };
	int rc;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "runs");
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, own_opt, &c, NULL)) >= 0)
		return rc;
	if (c.repeats > 0 && c.del)
		return cli_usage_error("runs", "give --set-repeats or --delete, not both");
	if (c.repeats > 0 || c.del)
		return change_run(&q, c.repeats, c.del);
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	rc = profdb_query_runs_filter(db, &r, &q.filter);
	return qcli_finish(&q, db, rc, r);
}
