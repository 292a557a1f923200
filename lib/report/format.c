/*
 * format.c - output dispatch and what every format shares: parsing the
 * format and unit names, choosing the unit of a time column, headers, and
 * turning a cell into text (exact decimal for times in csv/json).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "query/result.h"
#include "format.h"
#include "banned.h"

/* The result writers, one row per format a result is written in. */
static const struct profdb__writer writers[] = {
	{ PROFDB_FMT_TABLE, profdb__write_table, NULL, profdb__write_table_part },
	{ PROFDB_FMT_CSV, profdb__write_csv, profdb__write_csv_part, NULL },
	{ PROFDB_FMT_JSON, profdb__write_json, profdb__write_json_part, NULL },
	{ PROFDB_FMT_MD, profdb__write_md, profdb__write_md_part, profdb__write_md_part },
};

const struct profdb__writer *profdb__writer(enum profdb_format f)
{
	for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
		if (writers[i].format == f)
			return &writers[i];
	return NULL;
}

int profdb_format_parse(const char *s)
{
	if (strcmp(s, "table") == 0)
		return PROFDB_FMT_TABLE;
	if (strcmp(s, "csv") == 0)
		return PROFDB_FMT_CSV;
	if (strcmp(s, "json") == 0)
		return PROFDB_FMT_JSON;
	if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0)
		return PROFDB_FMT_MD;
	return -1;
}

int profdb_unit_parse(const char *s)
{
	if (strcmp(s, "ns") == 0)
		return PROFDB_UNIT_NS;
	if (strcmp(s, "us") == 0 || strcmp(s, "\xc2\xb5s") == 0)
		return PROFDB_UNIT_US;
	if (strcmp(s, "ms") == 0)
		return PROFDB_UNIT_MS;
	if (strcmp(s, "s") == 0)
		return PROFDB_UNIT_S;
	return -1;
}

const char *profdb__unit_name(enum profdb_unit u)
{
	switch (u) {
	case PROFDB_UNIT_NS: return "ns";
	case PROFDB_UNIT_MS: return "ms";
	case PROFDB_UNIT_S: return "s";
	default: return "us";
	}
}

/* Powers of ten from ns to the unit. */
static int unit_exp(enum profdb_unit u)
{
	switch (u) {
	case PROFDB_UNIT_NS: return 0;
	case PROFDB_UNIT_MS: return 6;
	case PROFDB_UNIT_S: return 9;
	default: return 3;
	}
}

static const struct profdb__cell *cell_at(const profdb_result *r, size_t row, size_t col)
{
	return &r->cells[row * r->ncols + col];
}

enum profdb_unit profdb__fmt_unit(const profdb_result *r, size_t col,
                                  const struct profdb_format_opts *opts, int human)
{
	if (opts->unit != PROFDB_UNIT_AUTO)
		return opts->unit;
	if (!human || r->types[col] != PROFDB_COL_NS)
		return PROFDB_UNIT_US;
	return profdb__fmt_table_unit(r, opts);
}

void profdb__col_acc_init(struct profdb__col_acc *a)
{
	memset(a, 0, sizeof *a);
	a->smallest = INFINITY;
}

/* What unit and decimals need of one time cell (NULL and text add nothing). */
void profdb__col_acc_add(struct profdb__col_acc *a, const struct profdb__cell *c)
{
	double v;
	if (c->type != SQLITE_INTEGER && c->type != SQLITE_FLOAT)
		return;
	v = fabs(c->type == SQLITE_INTEGER ? (double)c->i : c->d);
	if (!isfinite(v))
		return;
	if (v > 0) {
		a->logsum += log10(v);
		a->nlog++;
	}
	if (c->type == SQLITE_FLOAT && v != floor(v))
		a->fractional = 1;
	if (v > 0 && v < a->smallest)
		a->smallest = v;
}

/*
 * One unit for every time column of a table, as nsys stats uses one per
 * report: a row that says "avg (us)" next to "min (ns)" makes the reader
 * convert.  The log-average of the table's nonzero times decides, so the
 * typical value has one to three digits before the point; totals then grow
 * wider rather than per-call times shrinking to 0.00x.  acc: ncols
 * columns' sums (those of columns that are not times are empty).
 */
enum profdb_unit profdb__col_acc_unit(const struct profdb__col_acc *acc, size_t ncols,
                                      const struct profdb_format_opts *opts)
{
	double logsum = 0;
	size_t n = 0;

	if (opts->unit != PROFDB_UNIT_AUTO)
		return opts->unit;
	for (size_t c = 0; c < ncols; c++) {
		logsum += acc[c].logsum;
		n += acc[c].nlog;
	}
	if (n == 0)
		return PROFDB_UNIT_US; /* nothing to show: the usual unit */
	logsum /= (double)n;
	return logsum < 3 ? PROFDB_UNIT_NS : logsum < 6 ? PROFDB_UNIT_US : logsum < 9 ? PROFDB_UNIT_MS : PROFDB_UNIT_S;
}

/*
 * Decimals of a time column for people: one precision per table, from its
 * unit alone (whole ns, hundredths of a us, thousandths of a ms or s), so
 * avg, min and max of a row and a figure in any --top read alike.  a (what
 * the rows hold) no longer decides.
 */
int profdb__col_acc_decimals(const struct profdb__col_acc *a, enum profdb_unit u)
{
	(void)a;
	switch (u) {
	case PROFDB_UNIT_NS: return 0;
	case PROFDB_UNIT_MS:
	case PROFDB_UNIT_S: return 3;
	default: return 2;
	}
}

void profdb__fmt_number(double v, int prob, char *buf, size_t cap)
{
	int d;
	if (prob) {
		/* a p-value: 0.00216 is not 0.002 (its size is what it says) */
		snprintf(buf, cap, "%.3g", v);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, cap, "%.0f", v);
	} else {
		/* three significant digits, at most three decimals, never an exponent */
		d = 2 - (int)floor(log10(fabs(v)));
		snprintf(buf, cap, "%.*f", d < 0 ? 0 : d > 3 ? 3 : d, v);
	}
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

/* A time column's sums over the rows r holds. */
static void col_acc_rows(const profdb_result *r, size_t col, struct profdb__col_acc *a)
{
	profdb__col_acc_init(a);
	for (size_t row = 0; row < r->nrows; row++)
		profdb__col_acc_add(a, cell_at(r, row, col));
}

enum profdb_unit profdb__fmt_table_unit(const profdb_result *r, const struct profdb_format_opts *opts)
{
	struct profdb__col_acc *acc;
	enum profdb_unit u;

	if (opts->unit != PROFDB_UNIT_AUTO)
		return opts->unit;
	/* streamed: fixed from every row before the first was written */
	if (r->plan)
		return r->plan->unit;
	if (!(acc = calloc(r->ncols + 1, sizeof *acc)))
		return PROFDB_UNIT_US;
	for (size_t col = 0; col < r->ncols; col++) {
		profdb__col_acc_init(&acc[col]);
		if (r->types[col] == PROFDB_COL_NS)
			col_acc_rows(r, col, &acc[col]);
	}
	u = profdb__col_acc_unit(acc, r->ncols, opts);
	free(acc);
	return u;
}

int profdb__fmt_decimals(const profdb_result *r, size_t col, enum profdb_unit u)
{
	struct profdb__col_acc a;
	if (r->plan)
		return r->plan->decimals[col];
	col_acc_rows(r, col, &a);
	return profdb__col_acc_decimals(&a, u);
}

void profdb__fmt_header(const profdb_result *r, size_t col, enum profdb_unit u, int human,
                        char *buf, size_t cap)
{
	const char *name = r->names[col];
	size_t n = strlen(name);
	if (r->types[col] == PROFDB_COL_NS)
		snprintf(buf, cap, human ? "%s (%s)" : "%s_%s", name, profdb__unit_name(u));
	else if (human && r->types[col] == PROFDB_COL_PCT && n > 4 && strcmp(name + n - 4, "_pct") == 0)
		snprintf(buf, cap, "%.*s (%%)", (int)(n - 4), name);
	else
		snprintf(buf, cap, "%s", name);
}

/* Drop trailing zeros of a fraction (and the point if nothing is left). */
static void trim_zeros(char *buf)
{
	char *dot = strchr(buf, '.'), *end;
	if (!dot)
		return;
	end = buf + strlen(buf);
	while (end > dot + 1 && end[-1] == '0')
		end--;
	if (end == dot + 1)
		end = dot;
	*end = '\0';
}

/* An integer count of ns as an exact decimal in a unit 10^e ns. */
static void exact_ns(int64_t v, int e, char *buf, size_t cap)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, div = 1;
	for (int i = 0; i < e; i++)
		div *= 10;
	if (e == 0)
		snprintf(buf, cap, "%s%" PRIu64, v < 0 ? "-" : "", mag);
	else
		snprintf(buf, cap, "%s%" PRIu64 ".%0*" PRIu64, v < 0 ? "-" : "", mag / div, e, mag % div);
	trim_zeros(buf);
}

void profdb__fmt_ns(const struct profdb__cell *c, enum profdb_unit u, int human, char *buf, size_t cap)
{
	int e = unit_exp(u);
	double scaled = (c->type == SQLITE_INTEGER ? (double)c->i : c->d) / pow(10, e);
	if (human) {
		/* human > 0 carries the column's decimals plus one */
		if (human == 1 && c->type == SQLITE_INTEGER && e == 0)
			snprintf(buf, cap, "%lld", (long long)c->i);
		else
			snprintf(buf, cap, "%.*f", human - 1, scaled);
		if (strcmp(buf, "-0") == 0 || (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)))
			memmove(buf, buf + 1, strlen(buf));
		return;
	}
	if (c->type == SQLITE_INTEGER) {
		exact_ns(c->i, e, buf, cap);
		return;
	}
	/* real ns (a mean, a median of an even count): to a thousandth of a ns */
	snprintf(buf, cap, "%.*f", e + 3, scaled);
	trim_zeros(buf);
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, cap, "0");
}

int profdb__fmt_cell(const profdb_result *r, size_t row, size_t col, enum profdb_unit u, int human,
                     char *buf, size_t cap)
{
	const struct profdb__cell *c = cell_at(r, row, col);
	buf[0] = '\0';
	if (c->type == SQLITE_NULL)
		return 0;
	if (c->type == SQLITE_TEXT)
		return 2;
	if (c->type == SQLITE_FLOAT && !isfinite(c->d))
		return 0;
	switch (r->types[col]) {
	case PROFDB_COL_NS:
		profdb__fmt_ns(c, u, human, buf, cap);
		return 1;
	case PROFDB_COL_PCT:
		if (human)
			snprintf(buf, cap, "%.1f", c->type == SQLITE_INTEGER ? (double)c->i : c->d);
		else if (c->type == SQLITE_INTEGER)
			snprintf(buf, cap, "%lld", (long long)c->i);
		else
			snprintf(buf, cap, "%.15g", c->d);
		return 1;
	default:
		if (c->type == SQLITE_INTEGER)
			snprintf(buf, cap, "%lld", (long long)c->i);
		else if (human)
			profdb__fmt_number(c->d, r->types[col] == PROFDB_COL_PROB, buf, cap);
		else
			snprintf(buf, cap, "%.15g", c->d);
		return 1;
	}
}

int profdb_result_write(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts)
{
	struct profdb_format_opts dflt;
	const struct profdb__writer *w;
	if (!opts) {
		memset(&dflt, 0, sizeof dflt);
		opts = &dflt;
	}
	/* streamed: the earlier rows are out, these are the last part */
	if (r->write_rest)
		return r->write_rest(r, out, opts, r->part | PROFDB__PART_LAST, r->written);
	w = profdb__writer(opts->format);
	return w ? w->write(r, out, opts) : PROFDB_ERROR;
}
