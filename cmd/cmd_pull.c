/*
 * cmd_pull.c - profdb pull: copy a run from a ClickHouse server into the
 * local database (lib/clickhouse/ch_pull.c), so verify, sql and every
 * local command work on it.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd.h"

enum { OPT_FROM = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database (default $PROFDB_DB, else ./profdb.db)" },
	CLI_OPT_READ_TIMEOUT,
	{ "from", 1, OPT_FROM, "URL", "clickhouse://[user[:password]@]host[:port]/database" },
	{ "run", 1, OPT_RUN, "NAME", "the run to copy (repeat for several)" },
	{ "replace", 0, OPT_REPLACE, "", "replace a local run of the same name" },
	{ "quiet", 0, OPT_QUIET, "", "print nothing on success" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

/* A pull that copied nothing into a database file it created removes the
 * file (and SQLite's side files), so a failure leaves no empty database
 * behind; a file that was there before is never removed. */
static void remove_created(const char *path)
{
	static const char *const side[] = { "", "-wal", "-shm", "-journal" };
	char name[4096];
	for (size_t i = 0; i < sizeof side / sizeof side[0]; i++)
		if ((size_t)snprintf(name, sizeof name, "%s%s", path, side[i]) < sizeof name)
			unlink(name);
}

static const char desc[] =
	"Copy runs from a ClickHouse database (written by profdb push) into the local\n"
	"database under the same name, each in one transaction: on an error the local\n"
	"database is as before.  Exit status: 0 all copied, 1 an error, 2 usage.";

int cmd_pull(int argc, char **argv)
{
	const char *db_path = cli_default_db(), *url = NULL, *runs[256], *arg;
	size_t nruns = 0;
	int key, at = 1, replace = 0, quiet = 0, rc = PROFDB_EXIT_OK;

	while ((key = cli_next(argc, argv, opts, &arg, &at)) != -1) {
		switch (key) {
		case OPT_DB: db_path = arg; break;
		case OPT_READ_TIMEOUT:
			if (cli_read_timeout_opt("pull", arg) != 0)
				return PROFDB_EXIT_USAGE;
			break;
		case OPT_FROM: url = arg; break;
		case OPT_REPLACE: replace = 1; break;
		case OPT_QUIET: quiet = 1; break;
		case OPT_RUN:
			if (nruns == sizeof runs / sizeof runs[0])
				return cli_usage_error("pull", "too many --run options");
			runs[nruns++] = arg;
			break;
		case 'h':
			cli_help(stdout, "pull", "--from URL --run NAME [OPTIONS]", desc, opts);
			return PROFDB_EXIT_OK;
		default:
			return PROFDB_EXIT_USAGE;
		}
	}
	if (at < argc)
		return cli_usage_error("pull", "unexpected argument '%s'", argv[at]);
	if (!url || nruns == 0)
		return cli_usage_error("pull", "--from URL and --run NAME are required");
	struct stat st_before;
	int created = *db_path && stat(db_path, &st_before) != 0;
	size_t pulled = 0;
	profdb *db = cli_open_db(db_path, 0);
	if (!db) {
		if (created)
			remove_created(db_path);
		return PROFDB_EXIT_ERROR;
	}
	for (size_t i = 0; i < nruns && rc == PROFDB_EXIT_OK; i++) {
		struct profdb_push_stats st;
		int lrc = profdb_run_pull(db, &st, url, runs[i], replace);
		if (lrc != PROFDB_OK) {
			rc = cli_lib_error(db, lrc);
			continue;
		}
		pulled++;
		if (!quiet)
			printf("pulled '%s': %lld kernels, %lld rows\n", runs[i], (long long)st.kernels,
			    (long long)st.rows);
	}
	profdb_close(db);
	if (rc != PROFDB_EXIT_OK && created && pulled == 0)
		remove_created(db_path);
	return rc;
}
