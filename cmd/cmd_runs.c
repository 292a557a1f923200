/*
 * cmd_runs.c - profdb runs: the stored runs with their format, ranks,
 * repeats, row counts and total device time (profdb_query_runs); and the two
 * changes a stored run takes: a new repeat count, or deletion.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "query_cli.h"

enum { OPT_SET_REPEATS = OPT_FIRST_FREE, OPT_DELETE, OPT_SET_TAG, OPT_UNSET_TAG, OPT_TAGS };

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_TAG,
	{ "set-repeats", 1, OPT_SET_REPEATS, "N", "set the repeat count of the --run run (no re-ingest)" },
	{ "delete", 0, OPT_DELETE, "", "delete the --run run and everything it holds" },
	{ "set-tag", 1, OPT_SET_TAG, "KEY=VALUE", "tag the --run run (replaces its KEY tag)" },
	{ "unset-tag", 1, OPT_UNSET_TAG, "KEY", "remove the --run run's KEY tag" },
	{ "tags", 0, OPT_TAGS, "", "list the tags of the runs instead: run key value origin" },
	QCLI_OPT_ORDER_WHOLE,
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
	"or --delete, change that run instead (per-repeat times divide by the count).\n"
	"--set-tag KEY=VALUE / --unset-tag KEY change the --run run's tags; --tags lists\n"
	"the tags (user, file, and read-only meta ones such as torch/CANN/CUDA versions).";

/* The value of column name in row 0 of r, or -1. */
static int64_t run_field(const profdb_result *r, const char *name)
{
	for (size_t c = 0; r && profdb_result_nrows(r) > 0 && c < profdb_result_ncols(r); c++)
		if (strcmp(profdb_result_colname(r, c), name) == 0)
			return profdb_result_int(r, 0, c);
	return -1;
}

/* --set-repeats / --delete: one run, opened for writing.  Says what it
 * changed, from the run's row as it was, since neither can be seen after. */
static int change_run(const struct qcli *q, int64_t repeats, int del)
{
	profdb_result *was = NULL;
	const char *run = q->filter.runs ? q->filter.runs[0] : NULL;
	profdb *db;
	int rc;
	if (q->filter.nruns != 1)
		return cli_usage_error("runs", "--set-repeats and --delete need exactly one --run");
	if (!(db = cli_open_db(q->db, PROFDB_OPEN_NOCREATE)))
		return PROFDB_EXIT_ERROR;
	rc = profdb_query_runs(db, &was, &q->filter);
	if (rc == PROFDB_OK)
		rc = del ? profdb_run_delete(db, run) : profdb_run_set_repeats(db, run, repeats);
	if (rc != PROFDB_OK)
		rc = cli_lib_error(db, rc);
	else if (del)
		cli_visible(stdout, "deleted run '%s' (%" PRId64 " kernels, %" PRId64 " ops)", run,
		            run_field(was, "kernels"), run_field(was, "ops"));
	else
		cli_visible(stdout, "run '%s': repeats %" PRId64 " -> %" PRId64 " (per-repeat times now divide by %"
		            PRId64 ")", run, run_field(was, "repeats"), repeats, repeats);
	profdb_result_free(was);
	profdb_close(db);
	return rc;
}

/* What --set-repeats / --delete / --set-tag / --unset-tag / --tags ask for. */
struct change {
	int64_t repeats;           /* --set-repeats, 0 if not given */
	int del;                   /* --delete */
	const char *set_tag;       /* --set-tag KEY=VALUE */
	const char *unset_tag;     /* --unset-tag KEY */
	int list_tags;             /* --tags */
};

/* --set-tag / --unset-tag: one run, opened for writing. */
static int change_tag(const struct qcli *q, const struct change *c)
{
	char key[256];
	const char *value = NULL;
	profdb *db;
	int rc;
	if (q->filter.nruns != 1)
		return cli_usage_error("runs", "--set-tag and --unset-tag need exactly one --run");
	if (c->set_tag && c->unset_tag)
		return cli_usage_error("runs", "give --set-tag or --unset-tag, not both");
	if (c->set_tag) {
		const char *eq = strchr(c->set_tag, '=');
		if (!eq || eq == c->set_tag || (size_t)(eq - c->set_tag) >= sizeof key)
			return cli_usage_error("runs", "--set-tag takes KEY=VALUE, not '%s'", c->set_tag);
		snprintf(key, sizeof key, "%.*s", (int)(eq - c->set_tag), c->set_tag);
		value = eq + 1;
	} else {
		snprintf(key, sizeof key, "%s", c->unset_tag);
	}
	if (!(db = cli_open_db(q->db, PROFDB_OPEN_NOCREATE)))
		return PROFDB_EXIT_ERROR;
	rc = profdb_run_set_tag(db, q->filter.runs[0], key, value);
	if (rc != PROFDB_OK)
		rc = cli_lib_error(db, rc);
	profdb_close(db);
	return rc;
}

static int own_opt(void *arg, int key, const char *val)
{
	struct change *c = arg;
	if (key == OPT_DELETE) {
		c->del = 1;
		return 0;
	}
	if (key == OPT_SET_TAG) {
		c->set_tag = val;
		return 0;
	}
	if (key == OPT_UNSET_TAG) {
		c->unset_tag = val;
		return 0;
	}
	if (key == OPT_TAGS) {
		c->list_tags = 1;
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
	struct change c = { 0, 0, NULL, NULL, 0 };
	int rc;
	profdb *db;
	profdb_result *r = NULL;

	qcli_init(&q, "runs");
	q.open_flags = PROFDB_OPEN_LAZY; /* its query fetches what it reads */
	q.order = QCLI_ORDER_WHOLE;
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, own_opt, &c, NULL)) >= 0)
		return rc;
	if (c.repeats > 0 && c.del)
		return cli_usage_error("runs", "give --set-repeats or --delete, not both");
	if (c.repeats > 0 || c.del)
		return change_run(&q, c.repeats, c.del);
	if (c.set_tag || c.unset_tag)
		return change_tag(&q, &c);
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	if (q.filter.ntags && !c.list_tags) {
		profdb_close(db);
		return cli_usage_error("runs", "--tag selects runs for --tags here");
	}
	/* rows written as they come: one per run, however many runs */
	qcli_stream(&q, db);
	rc = c.list_tags ? profdb_query_tags(db, &r, &q.filter) : profdb_query_runs(db, &r, &q.filter);
	return qcli_finish(&q, db, rc, r);
}
