/*
 * query_cli.h - the options every query command shares (query_cli.c):
 * database, output format, the filter (--run, --rank, --steps, --name,
 * --kind, --min-total), --top/--sort/--asc, and printing a result.
 */
#ifndef PROFDB_QUERY_CLI_H
#define PROFDB_QUERY_CLI_H

#include "cmd.h"

#define QCLI_MAX_RUNS 64

/* Option rows shared by the query commands' tables (help text included).
 * QCLI_OPT_DB is two rows: --db, and the idle-read timeout of a
 * clickhouse:// database (every command that takes --db may talk to one). */
#define QCLI_OPT_DB { "db", 1, OPT_DB, "FILE", "database (default $PROFDB_DB, else ./profdb.db)" }, \
	CLI_OPT_READ_TIMEOUT
#define QCLI_OPT_RUN { "run", 1, OPT_RUN, "NAME", "only this run (repeat for several; none: all, with a run column)" }
#define QCLI_OPT_TAG { "tag", 1, OPT_TAG, "KEY=VALUE", "only runs with this tag (repeat: a key's values are alternatives, all keys must match)" }
#define QCLI_OPT_RANK { "rank", 1, OPT_RANK, "N", "only this rank" }
#define QCLI_OPT_STEPS { "steps", 1, OPT_STEPS, "A..B", "only steps A..B (3.., ..5, 2..4, 7), inclusive" }
#define QCLI_OPT_NAME { "name", 1, OPT_NAME, "GLOB", "only names matching GLOB (SQLite GLOB: * ? [..], case-sensitive)" }
#define QCLI_OPT_KIND { "kind", 1, OPT_KIND, "KIND", "kernel, memcpy, memset, communication, other or wallclock" }
#define QCLI_OPT_MIN_TOTAL { "min-total", 1, OPT_MIN_TOTAL, "TIME", "drop groups whose total is below TIME (us, or 5ms, 200ns, 1s)" }
#define QCLI_OPT_TOP { "top", 1, OPT_TOP, "N", "at most N rows per run" }
#define QCLI_OPT_ASC { "asc", 0, OPT_ASC, "", "sort ascending (default: largest first)" }
/* --top, --sort and --asc of the commands whose rows qcli_finish orders
 * (profdb_result_order): any column of the answer. */
#define QCLI_OPT_ORDER_WHOLE { "top", 1, OPT_TOP, "N", "at most N rows" }, \
	{ "sort", 1, OPT_SORT, "COL", "sort by this column: numbers largest first, names A..Z (default: the command's order)" }, \
	QCLI_OPT_ASC
#define QCLI_OPT_ORDER QCLI_OPT_TOP, \
	{ "sort", 1, OPT_SORT, "COL", "sort by this column: numbers largest first, names A..Z (default: the command's order)" }, \
	QCLI_OPT_ASC
#define QCLI_OPT_FORMAT { "format", 1, OPT_FORMAT, "FMT", "table (default), csv, json or md" }
#define QCLI_OPT_UNIT { "unit", 1, OPT_UNIT, "UNIT", "the unit of every time column: ns, us, ms or s (default: table and md pick one for the whole table from its values; csv and json us)" }
#define QCLI_OPT_WIDE { "wide", 0, OPT_WIDE, "", "never shorten long names in tables" }
#define QCLI_OPT_HELP { "help", 0, 'h', "", "show this help" }

/* qcli.order: --top counts per run (steps, the analyses: rows within a
 * run), or the answer is one list (summary, runs, apis: one row per run
 * or API, compared across runs). */
enum { QCLI_ORDER_PER_RUN = 1, QCLI_ORDER_WHOLE = 2 };

/* The key own() gets for an operand when qcli.operands is set. */
#define QCLI_OPERAND 1

/* The options every query command shares, parsed by the one parser below
 * (kernels, ops, steps, summary, runs, sql, verify, diff, report): the
 * common {filter, sort, ascending, top} and the output format. */
struct qcli {
	const char *name;          /* the command, for messages */
	int operands;              /* 1: operands may stand between options and
	                              go to own() as QCLI_OPERAND (diff A B --x) */
	const char *db;            /* database path */
	struct profdb_format_opts fmt;
	struct profdb_filter filter;
	const char *runs[QCLI_MAX_RUNS]; /* --run values (filter.runs points here) */
	const char *tags[QCLI_MAX_RUNS]; /* --tag values (filter.tags points here) */
	int64_t top;               /* --top, 0: all */
	const char *sort;          /* --sort, NULL: the command's default */
	int asc;                   /* --asc */
	int order;                 /* QCLI_ORDER_*: qcli_finish applies --sort,
	                              --asc and --top to the answer (0: the
	                              query does, or they are not taken) */
	unsigned open_flags;       /* added to qcli_open's: PROFDB_OPEN_LAZY for a
	                              command whose query fetches what it reads */
};

void qcli_init(struct qcli *q, const char *name);
/* Handle a shared option: 0 handled, 1 not a shared one, -1 bad value
 * (message printed; exit with PROFDB_EXIT_USAGE). */
int qcli_opt(struct qcli *q, int key, const char *arg);
/* A command's own options, for qcli_parse: 0 when key was handled, else the
 * exit code to return at once (a bad value, or an option the command does
 * not take: message printed). */
typedef int (*qcli_own_fn)(void *arg, int key, const char *val);
/*
 * The option loop of a query command named q->name: the shared options go
 * into q, --help prints "usage: profdb NAME SYNOPSIS", desc and opts, the
 * rest goes to own(own_arg, ...) (own NULL: a usage error, cli_next printed
 * why).  With q->operands, every operand goes to own() as QCLI_OPERAND
 * (after "--" all the rest); else, first NULL: operands are refused, and
 * otherwise *first is the first one.
 * Returns -1 when the options are read, else the exit code to return.
 */
int qcli_parse(struct qcli *q, int argc, char **argv, const struct cli_opt *opts,
               const char *synopsis, const char *desc, qcli_own_fn own, void *own_arg, int *first);
/* A time option ("250" us, "250us", "3ms", "100ns", "1.5s") into ns;
 * decimal only.  0 ok, -1 bad (usage error printed). */
int qcli_parse_time(const struct qcli *q, const char *opt, const char *arg, int64_t *out);
/* --by with two values: *flag = 1 for set_value, 0 for clear_value.
 * Returns 0, or the usage exit code (message printed, naming both). */
int qcli_by_choice(const char *name, const char *val, const char *clear_value, const char *set_value,
                   int *flag);
/* Arm db to write rows as they come (profdb_result_stream), unless q->order
 * and --sort or --top ask for the whole answer first. */
void qcli_stream(const struct qcli *q, profdb *db);
/* Open q->db read-only; NULL after printing why. */
profdb *qcli_open(const struct qcli *q);
/* Finish a query: on rc != OK print the error; else write r in q's format.
 * Frees r and closes db.  Returns the exit code. */
int qcli_finish(struct qcli *q, profdb *db, int rc, profdb_result *r);

/* An analysis command's query, run once its options are read (its filter
 * set): query on db into *out. */
typedef int (*qcli_query_fn)(profdb *db, profdb_result **out, void *query);
/*
 * The whole of an analysis command (breakdown, launches, bandwidth, idle,
 * collectives, ranks, flops): parse argv with opts (the command's own
 * options to own(query, ...)), copy the shared filter into *filter (the
 * query's), open the database read-only, run(db, &r, query) and print r in
 * the chosen format.  Returns the exit code.
 */
int qcli_run_analysis(const char *name, int argc, char **argv, const struct cli_opt *opts, const char *desc,
                      qcli_own_fn own, void *query, struct profdb_filter *filter, qcli_query_fn run);

#endif
