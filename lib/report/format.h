/*
 * format.h - what the output formats (format_table.c, format_csv.c,
 * format_json.c, format_md.c) share from format.c: the unit of a time
 * column, its header, and a cell as text.  Private to lib/.
 *
 * Two renderings: "machine" (csv, json) writes times exactly in the unit
 * (default us, column names get a _us suffix so they stay stable), and
 * "human" (table, md) picks one readable unit per table (or the one asked
 * for), says it in the headers and rounds each column for reading.
 */
#ifndef PROFDB_FORMAT_H
#define PROFDB_FORMAT_H

#include <stdio.h>

#include "profdb.h"

/* The unit a time column is written in under opts (never AUTO): for
 * people, the table's one unit (profdb__fmt_table_unit). */
enum profdb_unit profdb__fmt_unit(const profdb_result *r, size_t col,
                                  const struct profdb_format_opts *opts, int human);
struct profdb__cell;

/* What a time column's unit and decimals depend on, summed over its rows
 * (profdb__col_acc_add one cell at a time): whole or streamed, one rule. */
struct profdb__col_acc {
	double logsum;             /* log10 of the nonzero |values| */
	size_t nlog;               /* ... how many */
	double smallest;           /* least nonzero |value| (INFINITY: none) */
	int fractional;            /* a value with a fraction */
};
void profdb__col_acc_init(struct profdb__col_acc *a);
void profdb__col_acc_add(struct profdb__col_acc *a, const struct profdb__cell *c);
/* The table's unit from its ncols columns' sums (opts->unit when set). */
enum profdb_unit profdb__col_acc_unit(const struct profdb__col_acc *acc, size_t ncols,
                                      const struct profdb_format_opts *opts);
int profdb__col_acc_decimals(const struct profdb__col_acc *a, enum profdb_unit u);
/* A finite number that is not a time, for people (table, md): a whole
 * value as an integer, else three significant digits with at most three
 * decimals (18.3, 987, -0.765, 0.012); a p-value (prob) keeps three
 * significant digits however small (0.00216). */
void profdb__fmt_number(double v, int prob, char *buf, size_t cap);
/* A finite number cell of a time column as profdb__fmt_cell writes it. */
void profdb__fmt_ns(const struct profdb__cell *c, enum profdb_unit u, int human, char *buf, size_t cap);

/*
 * The layout of a table or md written in parts (result_write.c): a first
 * pass over every row (profdb__fmt_plan_add on each part, then _fix) sets
 * the unit, the decimals and the column widths, so the parts written in
 * the second pass line up as one table.  Owned by the result (r->plan).
 */
struct profdb__fmt_plan {
	size_t ncols, nrows;       /* rows seen */
	struct profdb__col_acc *acc; /* time columns' sums */
	struct profdb__cell *lo, *hi; /* time columns: least and greatest value */
	int *seen;                 /* time columns: lo/hi set */
	size_t *width;             /* widest cell as shown (time columns: at fix) */
	int copies_differ;         /* per_repeat differs from total in some row */
	int fixed;                 /* _fix done: unit, decimals, widths final */
	enum profdb_unit unit;     /* the table's unit */
	int *decimals;             /* per time column */
};
int profdb__fmt_plan_new(struct profdb__fmt_plan **out, size_t ncols);
/* Fold the rows r holds into p; -1 out of memory. */
int profdb__fmt_plan_add(struct profdb__fmt_plan *p, const profdb_result *r);
/* Fix unit, decimals and widths from every row added. */
void profdb__fmt_plan_fix(struct profdb__fmt_plan *p, const profdb_result *r,
                          const struct profdb_format_opts *opts);
void profdb__fmt_plan_free(struct profdb__fmt_plan *p);
/* A part of a table whose r->plan is fixed (as --wide: names whole). */
int profdb__write_table_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                             unsigned part, size_t before);

/* The one unit of every time column of a table for people (never AUTO). */
enum profdb_unit profdb__fmt_table_unit(const profdb_result *r, const struct profdb_format_opts *opts);
/* Decimals of time column col for people: the table's, from unit u
 * (profdb__col_acc_decimals). */
int profdb__fmt_decimals(const profdb_result *r, size_t col, enum profdb_unit u);
const char *profdb__unit_name(enum profdb_unit u);

/* The header of column col: "total_us" (machine) or "total (us)" (human). */
void profdb__fmt_header(const profdb_result *r, size_t col, enum profdb_unit u, int human,
                        char *buf, size_t cap);

/* A cell as text into buf.  human is 0 for the exact machine form, else
 * 1 + the decimals of the column's times (profdb__fmt_decimals).  Returns 0
 * for SQL NULL (buf ""), 1 for a number (buf is a valid JSON number), 2 for
 * text (buf unused: read the cell with profdb_result_text). */
int profdb__fmt_cell(const profdb_result *r, size_t row, size_t col, enum profdb_unit u, int human,
                     char *buf, size_t cap);

int profdb__write_table(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts);
int profdb__write_csv(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts);
int profdb__write_json(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts);
int profdb__write_md(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts);

/*
 * The same, one part of a longer result at a time (result_write.c streams
 * rows as they come): part has PROFDB__PART_FIRST (write the head) and/or
 * PROFDB__PART_LAST (the tail); before is the rows earlier parts wrote.
 * The whole-result writers above are one part that is first and last.
 */
#define PROFDB__PART_FIRST 1u
#define PROFDB__PART_LAST 2u
typedef int (*profdb__part_fn)(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                               unsigned part, size_t before);
/*
 * The writers of one format (format.c's table): a whole result; a part
 * written as it comes (NULL: table, whose widths need every row); a part
 * along a layout fixed by a first pass over every row (r->plan: the unit,
 * decimals and widths people read; NULL: csv and json, written exactly).
 */
struct profdb__writer {
	enum profdb_format format;
	int (*write)(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts);
	profdb__part_fn write_part;
	profdb__part_fn write_planned;
};
/* The writers of format f; NULL when a result has no such format. */
const struct profdb__writer *profdb__writer(enum profdb_format f);
/* The part writer of fmt's format, NULL when it has none (table, json object). */
profdb__part_fn profdb__part_writer(const struct profdb_format_opts *fmt);
/* Step st to its end, writing r's rows (names set; types too when
 * types_known, else inferred from the first values) a thousand at a time
 * with write; with hold_last the last part stays in r for
 * profdb_result_write (result_write.c). */
int profdb__result_stream_rows(profdb *db, sqlite3_stmt *st, profdb_result *r, profdb__part_fn write,
                               FILE *out, const struct profdb_format_opts *fmt, int types_known,
                               int hold_last);
/* A table or md answer of st into r: held whole (r->write_rest NULL) up
 * to a memory budget, past it written in two passes (the first fixes
 * r->plan) with the last part left in r.  Types of r from st's values
 * unless types_known. */
int profdb__result_two_pass(profdb *db, sqlite3_stmt *st, profdb_result *r, FILE *out,
                            const struct profdb_format_opts *fmt, int types_known);
int profdb__write_csv_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                           unsigned part, size_t before);
int profdb__write_json_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                            unsigned part, size_t before);
int profdb__write_md_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                          unsigned part, size_t before);

#endif
