/*
 * cli_man.c - the other two ways cli_help writes a subcommand's help: as a
 * man page (roff) and as the option list the shell completions read.  Both
 * come from the same option table, synopsis and description as --help, so
 * `profdb help --man kernels`, the installed profdb-kernels(1) and the bash
 * and zsh completions cannot drift from `profdb kernels --help`.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static enum cli_help_mode help_mode = CLI_HELP_TEXT;
static const char *help_summary = "";

void cli_help_set_mode(enum cli_help_mode mode, const char *summary)
{
	help_mode = mode;
	help_summary = summary ? summary : "";
}

enum cli_help_mode cli_help_get_mode(void)
{
	return help_mode;
}

/* The environment a user may set, as `profdb --help` and every man page
 * list it.  The limits the library reads (PROFDB_*_BYTES, ...) are not
 * here: they bound memory for the tests and benchmarks, and doc/limits.md
 * names them. */
static const struct { const char *name, *help; } env_vars[] = {
	{ "PROFDB_DB", "the database when --db is not given (else ./profdb.db)" },
	{ "PROFDB_PAGER", "the pager for output to a terminal (cat: none); else PAGER, else less; --no-pager turns it off" },
	{ "PAGER", "the pager when PROFDB_PAGER is not set" },
	{ "COLUMNS", "the width tables and help are cut at (else the terminal's; 80 for help when unknown)" },
	{ "SQLITE_TMPDIR", "the folder of SQLite's temporary files (big sorts and spills); else TMPDIR, else /var/tmp, /usr/tmp, /tmp" },
	{ "TMPDIR", "the folder of temporary files when SQLITE_TMPDIR is not set" },
	{ "PROFDB_CLICKHOUSE_PASSWORD", "the ClickHouse password when the URL has none (else a netrc file)" },
	{ "NETRC", "the netrc file ClickHouse passwords are looked up in (else ~/.netrc)" },
	{ "PROFDB_CLICKHOUSE_CAINFO", "a PEM file of the CAs a clickhouses:// server is checked against" },
	{ "PROFDB_PUSH_STREAMS", "concurrent INSERTs of a push of 1 M kernels or more (1..8, default 2)" },
	{ "PROFDB_PROGRESS_DELAY_MS", "how long ingest waits before its progress line (default 1000)" },
};

void cli_env_help(FILE *out, size_t width)
{
	fputs("environment:\n", out);
	for (size_t i = 0; i < sizeof env_vars / sizeof env_vars[0]; i++) {
		char line[256];
		int n = snprintf(line, sizeof line, "  %-26s %s", env_vars[i].name, env_vars[i].help);
		cli_wrap_line(out, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, 29, width);
	}
}

void cli_env_man(FILE *out)
{
	fputs(".SH ENVIRONMENT\n", out);
	for (size_t i = 0; i < sizeof env_vars / sizeof env_vars[0]; i++) {
		fprintf(out, ".TP\n.B %s\n", env_vars[i].name);
		cli_roff(out, env_vars[i].help);
		fputc('\n', out);
	}
}

/* Text into roff: backslash and hyphen escaped, a line that starts with a
 * control character guarded, so any help text renders as written. */
void cli_roff(FILE *out, const char *s)
{
	int bol = 1;
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", out);
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
		bol = *s == '\n';
	}
}

static void man_upper(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '-' ? '-' : toupper((unsigned char)*s), out);
}

static void man_option(FILE *out, const struct cli_opt *o)
{
	fputs(".TP\n", out);
	if (o->key > 0 && o->key < 128)
		fprintf(out, "\\fB\\-%c\\fR, ", o->key);
	fputs("\\fB\\-\\-", out);
	cli_roff(out, o->name);
	fputs("\\fR", out);
	if (o->has_arg) {
		fputs(" \\fI", out);
		cli_roff(out, o->arg);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	cli_roff(out, o->help);
	fputc('\n', out);
}

/* The reference file of each command in the source tree's doc/ (README.md
 * points to the same files), named in its man page's SEE ALSO.  A command
 * not listed names doc/commands.md. */
static const struct { const char *cmd, *doc; } cmd_docs[] = {
	{ "apis", "doc/benchmarks.md" },     { "bandwidth", "doc/analyses.md" },
	{ "breakdown", "doc/analyses.md" },  { "collectives", "doc/analyses.md" },
	{ "flops", "doc/analyses.md" },      { "idle", "doc/analyses.md" },
	{ "launches", "doc/analyses.md" },   { "memory", "doc/analyses.md" },
	{ "ranks", "doc/analyses.md" },      { "push", "doc/clickhouse.md" },
	{ "pull", "doc/clickhouse.md" },     { "schema", "doc/schema.md" },
	{ "ingest", "doc/inputs.md" },
};

static const char *man_doc(const char *name)
{
	for (size_t i = 0; i < sizeof cmd_docs / sizeof cmd_docs[0]; i++)
		if (strcmp(cmd_docs[i].cmd, name) == 0)
			return cmd_docs[i].doc;
	return "doc/commands.md";
}

static void man_page(FILE *out, const char *name, const char *synopsis, const char *desc,
                     const struct cli_opt *opts)
{
	fputs(".TH PROFDB-", out);
	man_upper(out, name);
	fprintf(out, " 1 \"\" \"profdb %s\" \"profdb manual\"\n.SH NAME\nprofdb\\-", PROFDB_VERSION);
	cli_roff(out, name);
	fputs(" \\- ", out);
	cli_roff(out, help_summary);
	fputs("\n.SH SYNOPSIS\n.B profdb ", out);
	cli_roff(out, name);
	fputc('\n', out);
	cli_roff(out, synopsis);
	/* the description is laid out by hand (aligned lists): keep its lines */
	fputs("\n.SH DESCRIPTION\n.nf\n", out);
	cli_roff(out, desc);
	fputs("\n.fi\n", out);
	if (opts[0].name)
		fputs(".SH OPTIONS\n", out);
	for (size_t i = 0; opts[i].name; i++)
		man_option(out, &opts[i]);
	cli_env_man(out);
	fputs(".SH SEE ALSO\n.BR profdb (1);\n.I ", out);
	cli_roff(out, man_doc(name));
	fputs("\nand\n.I doc/definitions.md\nin the profdb source tree.\n", out);
}

/* Is s[0..n) one word a user types as a value (name, base-name, p99, md)? */
static int value_word(const char *s, size_t n)
{
	if (n == 0 || !islower((unsigned char)s[0]) || (n >= 9 && strncmp(s + n - 9, "separated", 9) == 0))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_+-", s[i]))
			return 0;
	return 1;
}

/*
 * The values an option's help line lists ("table (default), csv, json or
 * md", "group by: name (default), base-name, ..."): the pieces between ',',
 * ';' and " or ", after a "label:", without "(...)"; a first piece of several
 * words ("only kernel") gives its last word.  Each value once, and only a
 * list of two or more: a free-form argument ("at most N rows per run") has none.
 */
static void complete_values(FILE *out, const char *help)
{
	char buf[512], *w = buf, *vals[64];
	int depth = 0, first = 1;
	size_t nv = 0;
	for (const char *s = help; *s && w < buf + sizeof buf - 2; s++) {
		if (*s == '(' || *s == ')')
			depth += *s == '(' ? 1 : -1;
		else if (depth == 0)
			*w++ = strncmp(s, " or ", 4) == 0 ? (s += 3, ',') : *s == ';' ? ',' : *s;
	}
	*w = '\0';
	for (char *p = buf, *end; p; p = end ? end + 1 : NULL, first = 0) {
		char *colon, *last;
		size_t n;
		if ((end = strchr(p, ',')))
			*end = '\0';
		if ((colon = strrchr(p, ':')))
			p = colon + 1;
		while (*p == ' ')
			p++;
		n = strlen(p);
		while (n && p[n - 1] == ' ')
			p[--n] = '\0';
		if (first && (last = strrchr(p, ' ')))
			p = last + 1, n = strlen(p);
		for (size_t i = 0; i < nv && p; i++)
			if (strcmp(vals[i], p) == 0)
				p = NULL;
		if (p && value_word(p, n) && nv < sizeof vals / sizeof vals[0])
			vals[nv++] = p;
	}
	for (size_t i = 0; nv >= 2 && i < nv; i++)
		fprintf(out, "%s%s", i ? " " : "", vals[i]);
}

/* One line per option: "--name<TAB>ARG<TAB>values" (ARG and values empty
 * for a flag), then "@args<TAB>synopsis" for the operands. */
static void complete_list(FILE *out, const char *synopsis, const struct cli_opt *opts)
{
	for (size_t i = 0; opts[i].name; i++) {
		fprintf(out, "--%s\t%s\t", opts[i].name, opts[i].has_arg ? opts[i].arg : "");
		if (opts[i].has_arg)
			complete_values(out, opts[i].help);
		fputc('\n', out);
	}
	fprintf(out, "@args\t%s\n", synopsis);
}

void cli_help_other(FILE *out, const char *name, const char *synopsis, const char *desc,
                    const struct cli_opt *opts)
{
	if (help_mode == CLI_HELP_MAN)
		man_page(out, name, synopsis, desc, opts);
	else
		complete_list(out, synopsis, opts);
}
