/*
 * cmd_push.c - profdb push: copy runs of the local database to a ClickHouse
 * server (lib/clickhouse/ch_push.c), one line per run pushed.  The local
 * database is opened read-only.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

enum { OPT_TO = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database (default $PROFDB_DB, else ./profdb.db)" },
	CLI_OPT_READ_TIMEOUT,
	{ "to", 1, OPT_TO, "URL", "clickhouse://[user[:password]@]host[:port]/database" },
	{ "run", 1, OPT_RUN, "NAME", "push this run (repeat for several; none: every run)" },
	{ "replace", 0, OPT_REPLACE, "", "replace a run of the same name on the server" },
	{ "quiet", 0, OPT_QUIET, "", "print nothing on success" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Copy runs (run, metadata, kernels, ops, steps, the stat tables) to a ClickHouse\n"
	"database over HTTP, creating its tables on first use.  The run row is written\n"
	"last, so readers never see part of a run; a push that failed half-way is\n"
	"cleaned up when the same run is pushed again.  A run whose content (or name)\n"
	"is already on the server is refused unless --replace.  The password comes\n"
	"from the URL, $PROFDB_CLICKHOUSE_PASSWORD or a netrc file ($NETRC, ~/.netrc)\n"
	"and is never printed.  Exit status: 0 all pushed, 1 an error, 2 usage.";

/* Every stored run's name, in id order, as a result; -1 after printing why. */
static int all_runs(profdb *db, profdb_result **r)
{
	int rc = profdb_sql(db, r, "SELECT name FROM run ORDER BY id", NULL);
	return rc == PROFDB_OK ? 0 : (cli_lib_error(db, rc), -1);
}

static int push_one(profdb *db, const char *url, const char *run, int replace, int quiet)
{
	struct profdb_push_stats st;
	int rc = profdb_run_push(db, &st, url, run, replace);
	if (rc != PROFDB_OK)
		return cli_lib_error(db, rc);
	if (!quiet)
		cli_visible(stdout, "pushed '%s': %lld kernels, %lld rows", run, (long long)st.kernels,
		            (long long)st.rows);
	return PROFDB_EXIT_OK;
}

int cmd_push(int argc, char **argv)
{
	const char *db_path = cli_default_db(), *url = NULL, *runs[256], *arg;
	size_t nruns = 0;
	int key, at = 1, replace = 0, quiet = 0, rc = PROFDB_EXIT_OK;
	profdb_result *all = NULL;

	while ((key = cli_next(argc, argv, opts, &arg, &at)) != -1) {
		switch (key) {
		case OPT_DB: db_path = arg; break;
		case OPT_READ_TIMEOUT:
			if (cli_read_timeout_opt("push", arg) != 0)
				return PROFDB_EXIT_USAGE;
			break;
		case OPT_TO: url = arg; break;
		case OPT_REPLACE: replace = 1; break;
		case OPT_QUIET: quiet = 1; break;
		case OPT_RUN:
			if (nruns == sizeof runs / sizeof runs[0])
				return cli_usage_error("push", "too many --run options");
			runs[nruns++] = arg;
			break;
		case 'h':
			cli_help(stdout, "push", "--to URL [OPTIONS]", desc, opts);
			return PROFDB_EXIT_OK;
		default:
			return PROFDB_EXIT_USAGE;
		}
	}
	if (at < argc)
		return cli_usage_error("push", "unexpected argument '%s'", argv[at]);
	if (!url)
		return cli_usage_error("push", "--to URL is required");
	profdb *db = cli_open_db(db_path, PROFDB_OPEN_READONLY | PROFDB_OPEN_NOCREATE);
	if (!db)
		return PROFDB_EXIT_ERROR;
	if (nruns == 0 && all_runs(db, &all) != 0) {
		profdb_close(db);
		return PROFDB_EXIT_ERROR;
	}
	size_t n = all ? profdb_result_nrows(all) : nruns;
	for (size_t i = 0; i < n && rc == PROFDB_EXIT_OK; i++)
		rc = push_one(db, url, all ? profdb_result_text(all, i, 0) : runs[i], replace, quiet);
	if (all && n == 0)
		rc = cli_error("'%s' holds no runs to push", /* a URL may hold a password */
		    profdb_is_remote(db_path) ? "the clickhouse database" : db_path);
	profdb_result_free(all);
	profdb_close(db);
	return rc;
}
