/*
 * verify_op_statistic.c - verify's op_statistic check: per (OP Type, Core Type)
 * the count, total, min, avg and max of the stored kernel durations against
 * the file (definitions and tolerance: verify.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "banned.h"

/* Stored kernel aggregate of one (type, core). */
struct agg {
	char *type, *core;         /* owned; "" for NULL */
	int64_t n, sum, min, max;
	int seen;                  /* matched by a row of the file */
};

static void aggs_free(struct agg *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].type);
		free(a[i].core);
	}
	free(a);
}

static int load_aggs(struct profdb__verify *v, int64_t rank, int64_t device, struct agg **out, size_t *nout)
{
	sqlite3_stmt *q = NULL;
	struct agg *a = NULL;
	size_t n = 0, cap = 0;
	int rc = PROFDB_OK;

	*out = NULL;
	*nout = 0;
	if (sqlite3_prepare_v2(v->db->sql,
	    "SELECT coalesce(t.value, ''), coalesce(c.value, ''), count(*), sum(k.dur_ns),"
	    " min(k.dur_ns), max(k.dur_ns) FROM kernel k LEFT JOIN str t ON t.id = k.type_id"
	    " LEFT JOIN str c ON c.id = k.core_id WHERE k.run_id = ?1 AND k.rank = ?2"
	    " AND k.kind <> 3 AND (?3 IS NULL OR k.device = ?3) GROUP BY 1, 2 ORDER BY 1, 2",
	    -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(v->db, "verify: reading kernels");
	sqlite3_bind_int64(q, 1, v->run_id);
	sqlite3_bind_int64(q, 2, rank);
	if (device == PROFDB_NULL)
		sqlite3_bind_null(q, 3);
	else
		sqlite3_bind_int64(q, 3, device);
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (n == cap) {
			struct agg *na = realloc(a, (cap = cap ? cap * 2 : 32) * sizeof *na);
			if (!na) {
				rc = profdb__error(v->db, PROFDB_ERROR, "out of memory");
				break;
			}
			a = na;
		}
		a[n].type = strdup((const char *)sqlite3_column_text(q, 0));
		a[n].core = strdup((const char *)sqlite3_column_text(q, 1));
		a[n].n = sqlite3_column_int64(q, 2);
		a[n].sum = sqlite3_column_int64(q, 3);
		a[n].min = sqlite3_column_int64(q, 4);
		a[n].max = sqlite3_column_int64(q, 5);
		a[n].seen = 0;
		n++;
		if (!a[n - 1].type || !a[n - 1].core) {
			rc = profdb__error(v->db, PROFDB_ERROR, "out of memory");
			break;
		}
	}
	sqlite3_finalize(q);
	if (rc != PROFDB_OK) {
		aggs_free(a, n);
		return rc;
	}
	*out = a;
	*nout = n;
	return PROFDB_OK;
}

static void key_of(char *buf, size_t cap, int64_t rank, const char *device, const char *a, const char *b)
{
	if (device && *device)
		snprintf(buf, cap, "rank %lld / device %s / %s / %s", (long long)rank, device, a, b);
	else
		snprintf(buf, cap, "rank %lld / %s / %s", (long long)rank, a, b);
}

/* The checks of one op_statistic file (the rows of one device, or all). */
int profdb__verify_op_statistic(struct profdb__verify *v, const struct profdb__verify_table *t, int64_t rank, const char *label)
{
	int ct = profdb__verify_table_col(t, "OP Type"), cc = profdb__verify_table_col(t, "Core Type"), cn = profdb__verify_table_col(t, "Count");
	int ctot = profdb__verify_table_col(t, "Total Time(us)"), cmin = profdb__verify_table_col(t, "Min Time(us)");
	int cavg = profdb__verify_table_col(t, "Avg Time(us)"), cmax = profdb__verify_table_col(t, "Max Time(us)");
	int cdev = profdb__verify_table_col(t, "Device_id");
	int rc = PROFDB_OK;

	if (ct < 0 || cc < 0 || cn < 0 || ctot < 0 || cmin < 0 || cmax < 0)
		return profdb__error(v->db, PROFDB_EFORMAT, "%s: not an op_statistic table (columns"
		                     " 'OP Type', 'Core Type', 'Count', 'Total Time(us)', 'Min Time(us)',"
		                     " 'Max Time(us)' expected)", label);
	/* one pass per device of the file (one pass when it has no Device_id) */
	for (size_t first = 1; first < t->nrows && rc == PROFDB_OK; first++) {
		const char *dev = profdb__verify_cell(t, first, cdev);
		int64_t device = PROFDB_NULL;
		struct agg *a = NULL;
		size_t na = 0;
		int done = 0;

		for (size_t j = 1; j < first; j++) /* this device was handled already */
			done |= strcmp(profdb__verify_cell(t, j, cdev), dev) == 0;
		if (done)
			continue;
		if (cdev >= 0 && profdb__parse_i64(dev, strlen(dev), &device) != 0)
			device = PROFDB_NULL;
		if ((rc = load_aggs(v, rank, device, &a, &na)) != PROFDB_OK)
			return rc;
		for (size_t row = first; row < t->nrows && rc == PROFDB_OK; row++) {
			const char *type = profdb__verify_cell(t, row, ct), *core = profdb__verify_cell(t, row, cc);
			double count, total, mn, avg = 0, mx;
			struct agg zero = { NULL, NULL, 0, 0, 0, 0, 0 }, *g = &zero;
			char key[512], line[64];
			if (strcmp(profdb__verify_cell(t, row, cdev), dev) != 0)
				continue;
			snprintf(line, sizeof line, "%s:%zu", label, row + 1);
			if (profdb__verify_parse_num(profdb__verify_cell(t, row, cn), &count) || profdb__verify_parse_num(profdb__verify_cell(t, row, ctot), &total) ||
			    profdb__verify_parse_num(profdb__verify_cell(t, row, cmin), &mn) || profdb__verify_parse_num(profdb__verify_cell(t, row, cmax), &mx) ||
			    (cavg >= 0 && profdb__verify_parse_num(profdb__verify_cell(t, row, cavg), &avg))) {
				rc = profdb__error(v->db, PROFDB_EFORMAT, "%s: a number was expected", line);
				break;
			}
			for (size_t i = 0; i < na; i++)
				if (strcmp(a[i].type, type) == 0 && strcmp(a[i].core, core) == 0)
					g = &a[i];
			g->seen = 1;
			key_of(key, sizeof key, rank, dev, type, core);
			rc = profdb__verify_add_check(v, "op_statistic Count", key, count, (double)g->n, 0);
			if (rc == PROFDB_OK)
				rc = profdb__verify_add_check(v, "op_statistic Total Time(us)", key, total, g->sum / 1000.0,
				               ROUND_US * (double)(g->n + 1));
			if (rc == PROFDB_OK)
				rc = profdb__verify_add_check(v, "op_statistic Min Time(us)", key, mn, g->min / 1000.0, 2 * ROUND_US);
			if (rc == PROFDB_OK && cavg >= 0)
				rc = profdb__verify_add_check(v, "op_statistic Avg Time(us)", key, avg,
				               g->n ? g->sum / 1000.0 / (double)g->n : 0, 2 * ROUND_US);
			if (rc == PROFDB_OK)
				rc = profdb__verify_add_check(v, "op_statistic Max Time(us)", key, mx, g->max / 1000.0, 2 * ROUND_US);
		}
		/* stored kernels of a (type, core) the profiler did not list */
		for (size_t i = 0; i < na && rc == PROFDB_OK; i++) {
			char key[512];
			if (a[i].seen)
				continue;
			key_of(key, sizeof key, rank, dev, a[i].type, a[i].core);
			rc = profdb__verify_add_check(v, "op_statistic Count", key, 0, (double)a[i].n, 0);
		}
		aggs_free(a, na);
	}
	return rc;
}

