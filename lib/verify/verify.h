/*
 * verify.h - what the files of profdb_verify share: the run being checked
 * and its result rows (verify.c), the small CSV parser for the stored
 * summaries (verify_table.c) and the two checks (verify_op_statistic.c,
 * verify_step_trace.c).
 */
#ifndef PROFDB_VERIFY_H
#define PROFDB_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "query/result.h"

#define REL_TOL 1e-4          /* 0.01 % */
#define ROUND_US 0.0005       /* half of the 0.001 us the CSV files print */

/* One parsed CSV table (fields owned, rows of ncols fields). */
struct profdb__verify_table {
	char **f;                  /* nrows * ncols fields (header is row 0) */
	size_t nrows, ncols;
};

/* One verification: the run and the result rows so far. */
struct profdb__verify {
	profdb *db;
	profdb_result *r;
	size_t cap;                /* rows allocated */
	int64_t run_id;
	int failed;                /* checks that failed */
};

/* verify_table.c */
void profdb__verify_table_free(struct profdb__verify_table *t);
int profdb__verify_table_parse(struct profdb__verify_table *t, const char *s, size_t n);
int profdb__verify_table_col(const struct profdb__verify_table *t, const char *name);
const char *profdb__verify_cell(const struct profdb__verify_table *t, size_t row, int col);

/* verify.c: one result row per check; tol is the absolute allowance */
int profdb__verify_add_check(struct profdb__verify *v, const char *check, const char *key,
                     double expected, double actual, double tol);
int profdb__verify_parse_num(const char *s, double *out);

/* the checks of one stored file; label names it in messages */
int profdb__verify_op_statistic(struct profdb__verify *v, const struct profdb__verify_table *t, int64_t rank, const char *label);
int profdb__verify_step_trace(struct profdb__verify *v, const struct profdb__verify_table *t, int64_t rank, const char *label);

#endif
