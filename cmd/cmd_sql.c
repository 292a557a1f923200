/*
 * cmd_sql.c - profdb sql: run one SQL statement against the database and
 * print its rows in any output format.  The database is opened read-only
 * unless --write, and only reads are authorized, so a pasted query cannot
 * change stored runs or write a file (VACUUM INTO) by accident; --timeout
 * bounds a statement that would run forever (an endless recursive CTE).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "query_cli.h"

enum { OPT_TIMEOUT = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database file (default $PROFDB_DB, else ./profdb.db)" },
	{ "write", 0, OPT_WRITE, "", "open the database for writing (else only reads are allowed)" },
	{ "timeout", 1, OPT_TIMEOUT, "SECONDS", "stop the statement after SECONDS (default 300; 0: never)" },
	{ "format", 1, OPT_FORMAT, "FMT", "table, csv, json or md" },
	{ "unit", 1, OPT_UNIT, "UNIT", "ns, us, ms or s (for time columns)" },
	{ "wide", 0, OPT_WIDE, "", "never shorten long values in tables" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Run SQL against the database.  Tables and views are described by 'profdb schema'\n"
	"and the README; median(x), percentile(x, p), stddev(x) and base_name(s) are\n"
	"available.  Example:\n"
	"  profdb sql \"SELECT name, median(dur_us) FROM kernel_v GROUP BY name\"";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_sql_opts *o = arg;
	char *end;
	double s;
	if (key == OPT_WRITE) {
		o->write = 1;
		return 0;
	}
	if (key != OPT_TIMEOUT)
		return cli_usage_error("sql", "bad option");
	s = strtod(val, &end);
	if (end == val || *end || !isfinite(s) || s < 0 || s > 1e9)
		return cli_usage_error("sql", "--timeout needs seconds (0 or more), not '%s'", val);
	o->timeout_ms = (int64_t)(s * 1000 + 0.5);
	if (s > 0 && o->timeout_ms == 0)
		o->timeout_ms = 1;
	return 0;
}

int cmd_sql(int argc, char **argv)
{
	struct qcli q;
	struct profdb_sql_opts so = PROFDB_SQL_OPTS_INIT;
	int first, rc;
	profdb *db;

	qcli_init(&q, "sql");
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS] \"SQL\"", desc, own_opt, &so, &first)) >= 0)
		return rc;
	if (argc - first != 1)
		return cli_usage_error("sql", "give exactly one SQL statement");
	db = cli_open_db(q.db, so.write ? 0 : PROFDB_OPEN_READONLY);
	if (!db)
		return PROFDB_EXIT_ERROR;
	/* rows go out as they come (csv, json, md): memory stays flat */
	rc = profdb_sql_write(db, argv[first], &so, stdout, &q.fmt);
	rc = rc == PROFDB_OK ? PROFDB_EXIT_OK : cli_lib_error(db, rc);
	profdb_close(db);
	return rc;
}
