/*
 * cmd_sql.c - profdb sql: run one SQL statement against the database and
 * print its rows in any output format.  The database is opened read-only
 * unless --write, and only reads are authorized, so a pasted query cannot
 * change stored runs or write a file (VACUUM INTO) by accident; --timeout
 * bounds a statement that would run forever (an endless recursive CTE).
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "query_cli.h"

enum { OPT_TIMEOUT = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database file (default $PROFDB_DB, else ./profdb.db)" },
	{ "write", 0, OPT_WRITE, "", "open the database for writing (else only reads are allowed)" },
	CLI_OPT_READ_TIMEOUT,
	{ "timeout", 1, OPT_TIMEOUT, "SECONDS", "stop the statement after SECONDS (default 300; 0: never; or 500ms, 5s)" },
	{ "format", 1, OPT_FORMAT, "FMT", "table, csv, json or md" },
	{ "unit", 1, OPT_UNIT, "UNIT", "refused: sql prints values as stored (convert in SQL)" },
	{ "wide", 0, OPT_WIDE, "", "never shorten long values in tables" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Run SQL against the database.  Tables and views are described by 'profdb schema'\n"
	"and doc/schema.md; median(x), percentile(x, p), stddev(x),\n"
	"union_ns(start, end) (the length of the intervals' union) and base_name(s) are\n"
	"available.  Options may come before or after the statement; without one, or\n"
	"with -, the statement is read from standard input.  Example:\n"
	"  profdb sql \"SELECT name, median(dur_us) FROM kernel_v GROUP BY name\"";

/* What the command line gave: the statement and the limits. */
struct sql_args {
	struct profdb_sql_opts o;
	const char *statement;     /* NULL or "-": standard input */
	int extra;                 /* a second statement was given */
};

static int own_opt(void *arg, int key, const char *val)
{
	struct sql_args *a = arg;
	struct profdb_sql_opts *o = &a->o;
	char *end;
	double s;
	if (key == QCLI_OPERAND) {
		a->extra |= a->statement != NULL;
		a->statement = val;
		return 0;
	}
	if (key == OPT_WRITE) {
		o->write = 1;
		return 0;
	}
	if (key != OPT_TIMEOUT)
		return cli_usage_error("sql", "bad option");
	s = strtod(val, &end);
	/* a unit as every other time option takes it (issue 16); bare: seconds */
	if (strcmp(end, "ms") == 0)
		s /= 1000, end += 2;
	else if (strcmp(end, "s") == 0)
		end++;
	if (end == val || *end || !isfinite(s) || s < 0 || s > 1e9 || strpbrk(val, "xX"))
		return cli_usage_error("sql", "--timeout needs seconds (0 or more; or 500ms, 5s), not '%s'", val);
	o->timeout_ms = (int64_t)(s * 1000 + 0.5);
	if (s > 0 && o->timeout_ms == 0)
		o->timeout_ms = 1;
	return 0;
}

/* The whole of standard input as one string (the caller frees it), or NULL
 * with a message printed. */
static char *read_stdin(void)
{
	size_t n = 0, cap = 4096;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n - 1, stdin)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			char *more = cap > (SIZE_MAX >> 2) ? NULL : realloc(buf, cap * 2);
			if (!more) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = more;
			cap *= 2;
		}
	}
	if (!buf || ferror(stdin)) {
		free(buf);
		cli_error("cannot read the SQL statement from standard input");
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int cmd_sql(int argc, char **argv)
{
	struct qcli q;
	struct sql_args a = { PROFDB_SQL_OPTS_INIT, NULL, 0 };
	char *from_stdin = NULL;
	const char *sql;
	int rc;
	profdb *db;

	qcli_init(&q, "sql");
	q.operands = 1;
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS] [\"SQL\" | -]", desc, own_opt, &a, NULL)) >= 0)
		return rc;
	if (a.extra)
		return cli_usage_error("sql", "give one SQL statement (quote it as one argument)");
	if (q.fmt.unit != PROFDB_UNIT_AUTO)
		return cli_usage_error("sql", "--unit does not apply: sql prints values as stored "
		                       "(divide in SQL, e.g. dur_ns / 1e6 AS dur_ms)");
	if (!a.statement || strcmp(a.statement, "-") == 0) {
		if (!(sql = from_stdin = read_stdin()))
			return PROFDB_EXIT_ERROR;
	} else {
		sql = a.statement;
	}
	db = cli_open_db(q.db, a.o.write ? 0 : PROFDB_OPEN_READONLY);
	if (!db) {
		free(from_stdin);
		return PROFDB_EXIT_ERROR;
	}
	/* rows go out as they come (csv, json, md): memory stays flat */
	a.o.stream = stdout;
	a.o.format = &q.fmt;
	rc = profdb_sql(db, NULL, sql, &a.o);
	rc = rc == PROFDB_OK ? PROFDB_EXIT_OK : cli_lib_error(db, rc);
	profdb_close(db);
	free(from_stdin);
	return rc;
}
