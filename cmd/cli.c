/*
 * cli.c - option parsing, help, errors and database opening shared by every
 * subcommand.  Option tables drive both getopt_long and --help, so the two
 * cannot drift apart.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"

#define MAX_OPTS 64

/* One line for a mistyped option: the nearest valid name, then the hint. */
static void unknown_option(const char *cmd, const char *given, const struct cli_opt *opts, size_t n)
{
	const char *names[MAX_OPTS];
	const char *near;
	char word[64];

	snprintf(word, sizeof word, "%s", given + strspn(given, "-"));
	word[strcspn(word, "=")] = '\0'; /* --name=value */
	for (size_t i = 0; i < n; i++)
		names[i] = opts[i].name;
	near = word[0] ? profdb_name_nearest(word, names, n) : NULL;
	if (near)
		fprintf(stderr, "profdb %s: unknown option '%s'; did you mean '--%s'? Try 'profdb %s --help'.\n",
		        cmd, given, near, cmd);
	else
		fprintf(stderr, "profdb %s: unknown option '%s'. Try 'profdb %s --help'.\n", cmd, given, cmd);
}

int cli_next(int argc, char **argv, const struct cli_opt *opts, const char **arg, int *optind_out)
{
	struct option lo[MAX_OPTS + 1];
	char shortopts[3 * MAX_OPTS + 2] = "+:";
	size_t n = 0, s = 2;
	int c;

	for (; opts[n].name && n < MAX_OPTS; n++) {
		lo[n].name = opts[n].name;
		lo[n].has_arg = opts[n].has_arg ? required_argument : no_argument;
		lo[n].flag = NULL;
		lo[n].val = opts[n].key;
		if (opts[n].key > 0 && opts[n].key < 128) {
			shortopts[s++] = (char)opts[n].key;
			if (opts[n].has_arg)
				shortopts[s++] = ':';
		}
	}
	shortopts[s] = '\0';
	memset(&lo[n], 0, sizeof lo[n]);
	c = getopt_long(argc, argv, shortopts, lo, NULL);
	*arg = optarg;
	*optind_out = optind;
	if (c == ':') {
		fprintf(stderr, "profdb %s: option '%s' needs an argument\n", argv[0], argv[optind - 1]);
		return '?';
	}
	if (c == '?') {
		unknown_option(argv[0], argv[optind - 1], opts, n);
		return '?';
	}
	return c;
}

/* Help is read on terminals of any width, so its lines are cut at the
 * terminal's width ($COLUMNS or the tty's), else at 80, never narrower
 * than 60 (a narrower cut makes the option column unreadable). */
size_t cli_help_width(void)
{
	struct profdb_format_opts f;
	cli_format_init(&f);
	if (f.width <= 0)
		return 80;
	return f.width < 60 ? 60 : (size_t)f.width;
}

/* The column a continuation of line s starts at: after a label and its
 * run of two or more spaces ("  op_statistic     per OP ..."), else
 * under the line's own indent. */
static size_t hang_of(const char *s, size_t len)
{
	size_t lead = strspn(s, " ");
	for (size_t i = lead; i + 1 < len && i < 32; i++)
		if (s[i] == ' ' && s[i + 1] == ' ') {
			size_t j = i + strspn(s + i, " ");
			return j < len ? j : lead;
		}
	return lead;
}

void cli_wrap_line(FILE *out, const char *s, size_t len, size_t hang, size_t width)
{
	size_t col = 0, i = 0;
	while (i < len) {
		size_t sp = i, w;
		while (sp < len && s[sp] == ' ')
			sp++;
		w = sp;
		while (w < len && s[w] != ' ')
			w++;
		/* a word that does not fit goes to a new line, unless the line
		 * holds nothing but the indent (a word longer than the width) */
		if (col > hang && col + (w - i) > width) {
			fprintf(out, "\n%*s%.*s", (int)hang, "", (int)(w - sp), s + sp);
			col = hang + (w - sp);
		} else {
			fprintf(out, "%.*s", (int)(w - i), s + i);
			col += w - i;
		}
		i = w;
	}
	fputc('\n', out);
}

/* Each line of text cut at the width, continuations under hang_of(). */
static void wrap_text(FILE *out, const char *text, size_t width)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		cli_wrap_line(out, text, len, hang_of(text, len), width);
		text += len;
		if (*text == '\n')
			text++;
	}
}

void cli_help(FILE *out, const char *name, const char *synopsis, const char *desc,
              const struct cli_opt *opts)
{
	size_t width = cli_help_width();

	if (cli_help_get_mode() != CLI_HELP_TEXT) { /* profdb help --man / --complete */
		cli_help_other(out, name, synopsis, desc, opts);
		return;
	}
	fprintf(out, "usage: profdb %s %s\n\n", name, synopsis);
	wrap_text(out, desc, width);
	if (opts[0].name)
		fprintf(out, "\noptions:\n");
	for (size_t i = 0; opts[i].name; i++) {
		char left[64], line[512];
		int n;
		if (opts[i].key > 0 && opts[i].key < 128)
			snprintf(left, sizeof left, "-%c, --%s%s%s", opts[i].key, opts[i].name,
			         opts[i].has_arg ? " " : "", opts[i].has_arg ? opts[i].arg : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", opts[i].name,
			         opts[i].has_arg ? " " : "", opts[i].has_arg ? opts[i].arg : "");
		n = snprintf(line, sizeof line, "  %-26s %s", left, opts[i].help);
		cli_wrap_line(out, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, 29, width);
	}
}

/*
 * A message as one line a terminal cannot be steered by: a file or run
 * name with a newline, an escape sequence (ESC [ ...) or a bidi override
 * is shown escaped (\n, \x1b, \u202e: profdb_text_write), so the message
 * stays one line and shows what the name really holds.
 */
static void put_message(FILE *out, const char *fmt, va_list ap)
{
	va_list again;
	char small[1024], *buf = small;
	int n;
	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small && (buf = malloc((size_t)n + 1)) != NULL)
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	else if (n >= (int)sizeof small)
		buf = small; /* out of memory: the cut message is still something */
	va_end(again);
	profdb_text_write(out, n < 0 ? "" : buf);
	if (buf != small)
		free(buf);
}

void cli_visible(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put_message(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

int cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("profdb: ", stderr);
	va_start(ap, fmt);
	put_message(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return PROFDB_EXIT_ERROR;
}

int cli_write_error(const char *what)
{
	return cli_error("cannot write %s: %s", what, errno ? strerror(errno) : "write error");
}

const char *cli_did_you_mean(char *buf, size_t cap, const char *word, const char *const *names, size_t n)
{
	const char *near = *word ? profdb_name_nearest(word, names, n) : NULL;
	buf[0] = '\0';
	if (near)
		snprintf(buf, cap, "; did you mean '%s'?", near);
	return buf;
}

int cli_usage_error(const char *name, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "profdb %s: ", name);
	va_start(ap, fmt);
	put_message(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'profdb %s --help'.\n", name);
	return PROFDB_EXIT_USAGE;
}

int cli_lib_error(profdb *db, int rc)
{
	const char *msg = profdb_errmsg(db);
	if (rc == PROFDB_EUSAGE) {
		cli_error("%s", msg && *msg ? msg : profdb_strerror(rc));
		return PROFDB_EXIT_USAGE;
	}
	return cli_error("%s", msg && *msg ? msg : profdb_strerror(rc));
}

const char *cli_default_db(void)
{
	const char *env = getenv("PROFDB_DB");
	return env && *env ? env : "profdb.db";
}

profdb *cli_open_db(const char *path, unsigned flags)
{
	return cli_open_runs(path, flags, NULL, 0);
}

profdb *cli_open_runs(const char *path, unsigned flags, const char *const *runs, size_t nruns)
{
	struct profdb_open_opts o = PROFDB_OPEN_OPTS_INIT;
	profdb *db = NULL;
	int rc;
	/* "" is a temporary database to the library (profdb.h): an ingest
	 * there would be thrown away at exit, a query would read nothing */
	if (!*path) {
		cli_error("--db: the path is empty");
		return NULL;
	}
	if (profdb_is_remote(path) && !(flags & PROFDB_OPEN_READONLY)) {
		cli_error("a clickhouse:// database is read-only here (profdb pull copies a run)");
		return NULL;
	}
	/* a remote source: its runs, read-only (doc/clickhouse.md "ClickHouse") */
	o.flags = flags;
	o.runs = runs;
	o.nruns = nruns;
	o.remote = cli_remote();
	rc = profdb_open_with(&db, path, &o);
	if (rc == PROFDB_OK)
		rc = cli_limits_apply(db);
	if (rc != PROFDB_OK) {
		/* never print a clickhouse:// URL: it may hold a password */
		if (rc == PROFDB_ENOTFOUND && (flags & PROFDB_OPEN_READONLY) && !profdb_is_remote(path))
			cli_error("no database '%s' (ingest something first, or pass --db)", path);
		else
			cli_lib_error(db, rc);
		profdb_close(db);
		return NULL;
	}
	return db;
}

void cli_format_init(struct profdb_format_opts *f)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	*f = (struct profdb_format_opts)PROFDB_FORMAT_OPTS_INIT;
	if (cols && *cols)
		f->width = (int)strtol(cols, NULL, 10);
	else if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		f->width = ws.ws_col;
}

int cli_format_opt(struct profdb_format_opts *f, int key, const char *arg)
{
	int v;
	switch (key) {
	case OPT_FORMAT:
		if ((v = profdb_format_parse(arg)) < 0) {
			cli_error("unknown format '%s' (table, csv, json, md)", arg);
			return -1;
		}
		f->format = (enum profdb_format)v;
		return 0;
	case OPT_UNIT:
		if ((v = profdb_unit_parse(arg)) < 0) {
			cli_error("unknown unit '%s' (ns, us, ms, s)", arg);
			return -1;
		}
		f->unit = (enum profdb_unit)v;
		return 0;
	case OPT_WIDE:
		f->wide = 1;
		return 0;
	default:
		return 1;
	}
}

int cli_read_timeout_opt(const char *name, const char *arg)
{
	int64_t s;
	if (cli_parse_i64(name, "--read-timeout", arg, &s) != 0)
		return -1;
	if (s < 1 || s > PROFDB_REMOTE_TIMEOUT_MAX || cli_remote_timeout((int)s) != 0) {
		cli_usage_error(name, "--read-timeout needs seconds from 1 to %d, not '%s'", PROFDB_REMOTE_TIMEOUT_MAX, arg);
		return -1;
	}
	return 0;
}

int cli_parse_i64(const char *name, const char *opt, const char *arg, int64_t *out)
{
	char *end;
	long long v;
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || *end || end == arg) {
		cli_usage_error(name, "%s needs an integer, not '%s'", opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}
