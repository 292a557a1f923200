/*
 * cmd.h - the profdb command line: shared declarations.
 *
 * To add a subcommand:
 *  1. write cmd/cmd_<name>.c exporting int cmd_<name>(int argc, char **argv),
 *     with a static struct cli_opt table that drives both parsing and --help;
 *  2. declare it below;
 *  3. add a row to the alphabetised table in cmd/main.c;
 *  4. list the file in cmd/meson.build;
 *  5. add a CLI golden test under tests/cli/, a paragraph in README.md's
 *     "Commands", its reference in doc/, and its doc file in cli_man.c's
 *     cmd_docs (the man page's SEE ALSO).
 */
#ifndef PROFDB_CMD_H
#define PROFDB_CMD_H

#include <stdio.h>
#include "profdb.h"

#define PROFDB_EXIT_OK 0
#define PROFDB_EXIT_ERROR 1
#define PROFDB_EXIT_USAGE 2
#define PROFDB_EXIT_REGRESSION 3

/* One option of a subcommand: parsing and help come from the same row. */
struct cli_opt {
	const char *name;          /* long name without "--"; NULL ends the table */
	int has_arg;               /* 0 flag, 1 required argument */
	int key;                   /* value returned by cli_next (a char or >= 256) */
	const char *arg;           /* argument placeholder for help, e.g. "FILE" */
	const char *help;          /* one line */
};

/* Parsed common options. */
struct cli_common {
	const char *db;            /* --db or $PROFDB_DB or ./profdb.db */
	struct profdb_format_opts fmt;
};

/*
 * Iterate options of argv against opts (getopt_long underneath).  Returns the
 * key of the next option (with *arg set for options with an argument), -1 at
 * the end of options (then *optind_out is the first operand), or '?' for an
 * unknown option (message printed).  --help is handled by the caller: it is
 * returned as 'h' when the table has a "help" row.
 */
int cli_next(int argc, char **argv, const struct cli_opt *opts, const char **arg, int *optind_out);
/* Write the len bytes of s as one or more lines of at most width columns,
 * cut between words, continuations indented by hang spaces. */
void cli_wrap_line(FILE *out, const char *s, size_t len, size_t hang, size_t width);
/* The width help is cut at: $COLUMNS or the terminal's, else 80; at least 60. */
size_t cli_help_width(void);
/* Print "usage: profdb NAME SYNOPSIS", the description and the option
 * table, cut to the terminal's width (80 when it is unknown). */
void cli_help(FILE *out, const char *name, const char *synopsis, const char *desc,
              const struct cli_opt *opts);
/*
 * What cli_help writes (cli_man.c): the --help text, a man page, or the
 * option list the shell completions read ("--name<TAB>ARG<TAB>values").
 * `profdb help --man|--complete CMD` sets the mode, with the command's
 * one-line summary for the man page's NAME, then runs `CMD --help`.
 */
enum cli_help_mode { CLI_HELP_TEXT, CLI_HELP_MAN, CLI_HELP_COMPLETE };
void cli_help_set_mode(enum cli_help_mode mode, const char *summary);
enum cli_help_mode cli_help_get_mode(void);
void cli_help_other(FILE *out, const char *name, const char *synopsis, const char *desc,
                    const struct cli_opt *opts);
/* Write text as roff (escapes backslash and '-', guards leading '.'). */
void cli_roff(FILE *out, const char *s);
/* The environment variables a user may set: "environment:" and one
 * line each, cut at width (profdb --help); the ENVIRONMENT section of a
 * man page. */
void cli_env_help(FILE *out, size_t width);
void cli_env_man(FILE *out);
/* Print "profdb: msg" to stderr.  Returns PROFDB_EXIT_ERROR. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "profdb: cannot write WHAT: REASON" (REASON from errno, which the failed
 * write set: "No space left on device"); returns PROFDB_EXIT_ERROR. */
int cli_write_error(const char *what);
/* printf to out as one line a terminal cannot be steered by
 * (profdb_text_write), then a newline. */
void cli_visible(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print a usage error and a hint.  Returns PROFDB_EXIT_USAGE. */
int cli_usage_error(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "; did you mean 'X'?" into buf when profdb_name_nearest finds X for word
 * among names, else "".  Returns buf. */
const char *cli_did_you_mean(char *buf, size_t cap, const char *word, const char *const *names, size_t n);
/* Report a failed library call on db: prints profdb_errmsg, returns 1. */
int cli_lib_error(profdb *db, int rc);
/* The default database path: $PROFDB_DB, else ./profdb.db. */
const char *cli_default_db(void);
/* Open the database; on failure prints and returns NULL. */
profdb *cli_open_db(const char *path, unsigned flags);
/* The same, with only the runs named in runs (nruns; 0: all) of a remote
 * source fetched (a file holds its own). */
profdb *cli_open_runs(const char *path, unsigned flags, const char *const *runs, size_t nruns);
/* The library's limits from the environment (cli_limits.c): lowered from
 * PROFDB_LIMITS_INIT by PROFDB_HOLD_BYTES and the like. */
void cli_limits_from_env(struct profdb_limits *l);
/* ... set on db (every handle the command line opens), with the remote
 * settings below. */
int cli_limits_apply(profdb *db);
/* How to reach a remote server (cli_limits.c): the password, netrc file
 * and CA file from $PROFDB_CLICKHOUSE_PASSWORD, $NETRC and
 * $PROFDB_CLICKHOUSE_CAINFO, the timeout from --read-timeout.  Static. */
const struct profdb_remote_opts *cli_remote(void);
/* --read-timeout: 0, or -1 when seconds is not 1 to PROFDB_REMOTE_TIMEOUT_MAX. */
int cli_remote_timeout(int seconds);
/* Handle --format / --unit / --wide; returns 0 if key was one of them, 1 if
 * not, -1 on a bad value (message printed). */
int cli_format_opt(struct profdb_format_opts *f, int key, const char *arg);
/* Initialise format options (table, auto unit, terminal width). */
void cli_format_init(struct profdb_format_opts *f);
/* Parse an integer argument; returns 0 ok, -1 bad (message printed). */
int cli_parse_i64(const char *name, const char *opt, const char *arg, int64_t *out);


/* SQLite's writes to database and WAL files start for the disk every few
 * MB, not all at the COMMIT's fsync (writeback.c): once, at start.  The
 * hints sent so far (tests). */
void cli_writeback_early(void);
long cli_writeback_hints(void);

/* Send stdout through $PROFDB_PAGER / $PAGER / less when it is a terminal
 * (not for cmd's that only report progress); finish waits for the pager to
 * exit (pager.c). */
void cli_pager_start(const char *cmd);
void cli_pager_finish(void);

/* Keys of the common options, shared by every query command. */
enum {
	OPT_DB = 256, OPT_FORMAT, OPT_UNIT, OPT_WIDE, OPT_RUN, OPT_RANK, OPT_STEPS, OPT_NAME,
	OPT_KIND, OPT_MIN_TOTAL, OPT_TOP, OPT_SORT, OPT_BY, OPT_ASC, OPT_PER_STEP, OPT_REPEATS,
	OPT_REPLACE, OPT_QUIET, OPT_JOBS, OPT_WRITE, OPT_OUTPUT, OPT_TAG, OPT_READ_TIMEOUT, OPT_FIRST_FREE
};

/* The option row of the ClickHouse idle-read timeout, in the table of each
 * command that can talk to a server, and its parser: 0 set, -1 bad value
 * (usage error printed). */
#define CLI_OPT_READ_TIMEOUT { "read-timeout", 1, OPT_READ_TIMEOUT, "SEC", \
	"clickhouse://: fail when the server sends nothing for SEC seconds (default 60)" }
int cli_read_timeout_opt(const char *name, const char *arg);

int cmd_apis(int argc, char **argv);
int cmd_bandwidth(int argc, char **argv);
int cmd_memory(int argc, char **argv);
int cmd_breakdown(int argc, char **argv);
int cmd_collectives(int argc, char **argv);
int cmd_diff(int argc, char **argv);
/* diff (report == 0) and report (1) share options and code (cmd_diff.c). */
int cmd_diff_main(int argc, char **argv, int report);
int cmd_flops(int argc, char **argv);
int cmd_idle(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_launches(int argc, char **argv);
int cmd_ops(int argc, char **argv);
int cmd_pull(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_ranks(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_steps(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif
