/*
 * query_cli.c - parsing the options the query commands share and printing
 * their result, so kernels, ops, steps, summary and runs behave alike.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "query_cli.h"

void qcli_init(struct qcli *q, const char *name)
{
	memset(q, 0, sizeof *q);
	q->name = name;
	q->db = cli_default_db();
	cli_format_init(&q->fmt);
	profdb_filter_init(&q->filter);
	q->filter.runs = q->runs;
	q->filter.tags = q->tags;
}

/* An integer of the filter: INT64_MIN is PROFDB_NULL ("no filter") and
 * cannot be asked for. */
static int parse_filter_i64(const struct qcli *q, const char *opt, const char *arg, int64_t *out)
{
	if (cli_parse_i64(q->name, opt, arg, out) != 0)
		return -1;
	if (*out == PROFDB_NULL) {
		cli_usage_error(q->name, "%s value '%s' is out of range", opt, arg);
		return -1;
	}
	return 0;
}

/* "A..B", "A..", "..B" or "A" into the filter's step range. */
static int parse_steps(struct qcli *q, const char *arg)
{
	const char *dots = strstr(arg, "..");
	char lo[32] = "", hi[32] = "";
	int64_t v;

	if (!dots) {
		if (parse_filter_i64(q, "--steps", arg, &v) != 0)
			return -1;
		q->filter.step_lo = q->filter.step_hi = v;
		return 0;
	}
	if ((size_t)(dots - arg) >= sizeof lo || strlen(dots + 2) >= sizeof hi)
		goto bad;
	memcpy(lo, arg, (size_t)(dots - arg));
	memcpy(hi, dots + 2, strlen(dots + 2) + 1);
	if (!*lo && !*hi)
		goto bad;
	if (*lo && parse_filter_i64(q, "--steps", lo, &q->filter.step_lo) != 0)
		return -1;
	if (*hi && parse_filter_i64(q, "--steps", hi, &q->filter.step_hi) != 0)
		return -1;
	return 0;
bad:
	cli_usage_error(q->name, "--steps takes A..B, A.., ..B or A, not '%s'", arg);
	return -1;
}

int qcli_parse_time(const struct qcli *q, const char *opt, const char *arg, int64_t *out)
{
	char *end;
	double v, scale = 1e3;
	/* strtod also reads hex ("0x10"), "inf", "nan" and a sign: times are
	 * plain decimals */
	if (!arg[0] || !strchr("0123456789.", arg[0]) || strpbrk(arg, "xX"))
		goto bad;
	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno || !isfinite(v) || v < 0)
		goto bad;
	if (strcmp(end, "ns") == 0)
		scale = 1;
	else if (*end == '\0' || strcmp(end, "us") == 0)
		scale = 1e3;
	else if (strcmp(end, "ms") == 0)
		scale = 1e6;
	else if (strcmp(end, "s") == 0)
		scale = 1e9;
	else
		goto bad;
	if (v * scale > 9e18)
		goto bad;
	*out = (int64_t)llround(v * scale);
	return 0;
bad:
	cli_usage_error(q->name, "%s takes a time such as 250 (us), 250us, 3ms, 100ns or 1.5s, not '%s'", opt, arg);
	return -1;
}

int qcli_by_choice(const char *name, const char *val, const char *clear_value, const char *set_value,
                   int *flag)
{
	if (strcmp(val, set_value) == 0)
		*flag = 1;
	else if (strcmp(val, clear_value) == 0)
		*flag = 0;
	else {
		const char *names[] = { clear_value, set_value };
		char hint[96];
		return cli_usage_error(name, "--by: '%s' or '%s', not '%s'%s", clear_value, set_value, val,
		                       cli_did_you_mean(hint, sizeof hint, val, names, 2));
	}
	return 0;
}

int qcli_opt(struct qcli *q, int key, const char *arg)
{
	int f = cli_format_opt(&q->fmt, key, arg);
	if (f <= 0)
		return f;
	switch (key) {
	case OPT_DB:
		q->db = arg;
		return 0;
	case OPT_READ_TIMEOUT:
		return cli_read_timeout_opt(q->name, arg);
	case OPT_RUN:
		if (q->filter.nruns == QCLI_MAX_RUNS) {
			cli_usage_error(q->name, "at most %d --run options", QCLI_MAX_RUNS);
			return -1;
		}
		q->runs[q->filter.nruns++] = arg;
		return 0;
	case OPT_TAG:
		if (q->filter.ntags == QCLI_MAX_RUNS) {
			cli_usage_error(q->name, "at most %d --tag options", QCLI_MAX_RUNS);
			return -1;
		}
		q->tags[q->filter.ntags++] = arg;
		return 0;
	case OPT_RANK:
		return parse_filter_i64(q, "--rank", arg, &q->filter.rank);
	case OPT_STEPS:
		return parse_steps(q, arg);
	case OPT_NAME:
		q->filter.name_glob = arg;
		return 0;
	case OPT_KIND:
		q->filter.kind = arg;
		return 0;
	case OPT_MIN_TOTAL:
		return qcli_parse_time(q, "--min-total", arg, &q->filter.min_total_ns);
	case OPT_TOP:
		if (cli_parse_i64(q->name, "--top", arg, &q->top) != 0)
			return -1;
		if (q->top <= 0) {
			cli_usage_error(q->name, "--top needs a positive number, not '%s'", arg);
			return -1;
		}
		return 0;
	case OPT_SORT:
		q->sort = arg;
		return 0;
	case OPT_ASC:
		q->asc = 1;
		return 0;
	default:
		return 1;
	}
}

/* With q->operands: hand the operand at *at (and after "--" every one
 * left) to own; -1 when parsing goes on, 0 at the end, else an exit code. */
static int take_operands(int argc, char **argv, int *at, qcli_own_fn own, void *own_arg)
{
	int dashes = *at > 1 && strcmp(argv[*at - 1], "--") == 0, rc;
	if (*at >= argc)
		return 0;
	do {
		if ((rc = own(own_arg, QCLI_OPERAND, argv[*at])) != 0)
			return rc;
		++*at;
	} while (dashes && *at < argc);
	optind = *at;
	return *at < argc ? -1 : 0;
}

int qcli_parse(struct qcli *q, int argc, char **argv, const struct cli_opt *opts,
               const char *synopsis, const char *desc, qcli_own_fn own, void *own_arg, int *first)
{
	const char *arg;
	int key, at = 1, rc;

	for (;;) {
		int f;
		key = cli_next(argc, argv, opts, &arg, &at);
		if (key == -1) {
			if (!q->operands || !own)
				break;
			if ((rc = take_operands(argc, argv, &at, own, own_arg)) == -1)
				continue;
			return rc == 0 ? -1 : rc;
		}
		if ((f = qcli_opt(q, key, arg)) < 0)
			return PROFDB_EXIT_USAGE;
		if (f == 0)
			continue;
		if (key == 'h') {
			cli_help(stdout, q->name, synopsis, desc, opts);
			return PROFDB_EXIT_OK;
		}
		if (!own)
			return PROFDB_EXIT_USAGE;
		if ((rc = own(own_arg, key, arg)) != 0)
			return rc;
	}
	if (!first && at < argc)
		return cli_usage_error(q->name, "unexpected argument '%s'", argv[at]);
	if (first)
		*first = at;
	return -1;
}

profdb *qcli_open(const struct qcli *q)
{
	/* a remote source: only the --run runs (all when none) are fetched */
	return cli_open_runs(q->db, PROFDB_OPEN_READONLY | q->open_flags, q->filter.runs, q->filter.nruns);
}

/* Does q reorder or cut the answer itself (qcli_finish)? */
static int orders(const struct qcli *q)
{
	return q->order && ((q->sort && *q->sort) || q->top > 0);
}

void qcli_stream(const struct qcli *q, profdb *db)
{
	/* a sorted answer needs every row before the first goes out */
	if (!orders(q))
		(void)profdb_result_stream(db, stdout, &q->fmt);
}

int qcli_finish(struct qcli *q, profdb *db, int rc, profdb_result *r)
{
	int code = PROFDB_EXIT_OK;
	if (rc == PROFDB_OK && orders(q))
		rc = profdb_result_order(db, r, q->sort, q->asc, q->top, q->order == QCLI_ORDER_PER_RUN);
	if (rc != PROFDB_OK)
		code = cli_lib_error(db, rc);
	/* tables and md print a result's notes; csv and json keep the data
	 * clean and say them on stderr */
	for (size_t i = 0; rc == PROFDB_OK && (q->fmt.format == PROFDB_FMT_CSV ||
	     q->fmt.format == PROFDB_FMT_JSON) && i < profdb_result_nnotes(r); i++)
		cli_visible(stderr, "profdb: note: %s", profdb_result_note(r, i));
	/* the column the rows are sorted by is what the user asked to see */
	q->fmt.keep = q->sort;
	if (rc != PROFDB_OK)
		;
	else if (profdb_result_write(r, stdout, &q->fmt) != PROFDB_OK || fflush(stdout) != 0)
		code = cli_write_error("the output");
	profdb_result_free(r);
	profdb_close(db);
	return code;
}

int qcli_run_analysis(const char *name, int argc, char **argv, const struct cli_opt *opts, const char *desc,
                      qcli_own_fn own, void *query, struct profdb_filter *filter, qcli_query_fn run)
{
	struct qcli q;
	profdb *db;
	profdb_result *r = NULL;
	int rc;

	qcli_init(&q, name);
	q.order = QCLI_ORDER_PER_RUN;
	if ((rc = qcli_parse(&q, argc, argv, opts, "[OPTIONS]", desc, own, query, NULL)) >= 0)
		return rc;
	*filter = q.filter;
	if (!(db = qcli_open(&q)))
		return PROFDB_EXIT_ERROR;
	/* rows written as they come where the query can (profdb_result_stream) */
	qcli_stream(&q, db);
	rc = run(db, &r, query);
	return qcli_finish(&q, db, rc, r);
}
