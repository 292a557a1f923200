/*
 * check_name_stats.c - schema 3's bulk shape: per-name statistics written by
 * the ingest (name_stats.c) and read by `kernels`, PMU metrics as a JSON
 * column behind the kernel_metric view (metrics_json.c), and the migration
 * of a schema 2 database.  Expected figures are worked out by hand in the
 * comments, or come from the row-scanning query the statistics replace.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/name_stats.h"
#include "store/schema_sql.h"
#include "testutil.h"

/* db's limits: the built-in ones with field lowered to v (0: none lowered) */
#define LOWER(db, field, v)                                                   \
	do {                                                                  \
		struct profdb_limits l_ = PROFDB_LIMITS_INIT;                 \
		if (v)                                                        \
			l_.field = (v);                                       \
		ck_assert_int_eq(profdb_set_limits(db, &l_), PROFDB_OK);     \
	} while (0)

static void add_kernel(struct profdb_sink *s, const char *name, int kind, int64_t dur,
                       const struct profdb_metric *m, size_t nm)
{
	struct profdb_kernel_rec k;
	profdb__kernel_rec_init(&k);
	k.name = name;
	k.kind = kind;
	k.start_ns = 1000;
	k.dur_ns = dur;
	k.step = 1;
	k.metrics = m;
	k.nmetrics = nm;
	ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
}

/* A: 10 20 30 40 (kernel); B: 5 (memcpy); C: 7 kernel, 9 memcpy; with
 * name_stats_values lowered to values (0: the built-in one). */
static profdb *ingest_abc_under(uint64_t values)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	LOWER(db, name_stats_values, values);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	add_kernel(s, "A", PROFDB_KIND_KERNEL, 30, NULL, 0);
	add_kernel(s, "B", PROFDB_KIND_MEMCPY, 5, NULL, 0);
	add_kernel(s, "A", PROFDB_KIND_KERNEL, 10, NULL, 0);
	add_kernel(s, "C", PROFDB_KIND_KERNEL, 7, NULL, 0);
	add_kernel(s, "A", PROFDB_KIND_KERNEL, 40, NULL, 0);
	add_kernel(s, "C", PROFDB_KIND_MEMCPY, 9, NULL, 0);
	add_kernel(s, "A", PROFDB_KIND_KERNEL, 20, NULL, 0);
	ck_assert_int_eq(s->source_end(s->arg, 7, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	return db;
}

static double stat_of(profdb *db, const char *name, const char *col)
{
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT %s FROM kernel_name_stat s JOIN str n ON n.id = s.name_id"
	         " WHERE n.value = '%s'", col, name);
	return tu_scalar_d(db, sql);
}

static void check_abc(profdb *db)
{
	ck_assert_int_eq(tu_scalar(db, "SELECT name_stats FROM run"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_name_stat"), 3);
	/* A: 4 calls, 100 ns, mean 25; median (20 + 30) / 2 = 25;
	 * p90: h = 3 * 0.9 = 2.7 -> 30 + 0.7 * 10 = 37; p99: 30 + 0.97 * 10 = 39.7;
	 * sample sd: (225 + 25 + 25 + 225) / 3 = 166.67 -> 12.9099 */
	ck_assert_int_eq((int64_t)stat_of(db, "A", "calls"), 4);
	ck_assert_int_eq((int64_t)stat_of(db, "A", "total_ns"), 100);
	ck_assert_int_eq((int64_t)stat_of(db, "A", "min_ns"), 10);
	ck_assert_int_eq((int64_t)stat_of(db, "A", "max_ns"), 40);
	ck_assert_int_eq((int64_t)stat_of(db, "A", "kinds"), 1);
	ck_assert_double_eq_tol(stat_of(db, "A", "avg_ns"), 25, 1e-12);
	ck_assert_double_eq_tol(stat_of(db, "A", "median_ns"), 25, 1e-12);
	ck_assert_double_eq_tol(stat_of(db, "A", "p90_ns"), 37, 1e-9);
	ck_assert_double_eq_tol(stat_of(db, "A", "p99_ns"), 39.7, 1e-9);
	ck_assert_double_eq_tol(stat_of(db, "A", "stddev_ns"), sqrt(500.0 / 3), 1e-9);
	/* B: one call: no sample sd; every percentile is the value; memcpy = bit 1 */
	ck_assert_int_eq(tu_scalar(db, "SELECT stddev_ns IS NULL FROM kernel_name_stat s JOIN str n"
	                 " ON n.id = s.name_id WHERE n.value = 'B'"), 1);
	ck_assert_double_eq_tol(stat_of(db, "B", "p99_ns"), 5, 1e-12);
	ck_assert_int_eq((int64_t)stat_of(db, "B", "kinds"), 2);
	/* C ran as kernel and memcpy: bits 0 and 1; median of 7, 9 = 8 */
	ck_assert_int_eq((int64_t)stat_of(db, "C", "kinds"), 3);
	ck_assert_double_eq_tol(stat_of(db, "C", "median_ns"), 8, 1e-12);
}

START_TEST(stats_by_hand)
{
	profdb *db = ingest_abc_under(0);
	check_abc(db);
	profdb_close(db);
}
END_TEST

/* Past the memory budget the same figures come from scans of the rows
 * (a budget of 3 values: no room even for the first array, and under one
 * double a scan, so each name gets its own). */
START_TEST(stats_by_scans_past_budget)
{
	profdb *db;
	db = ingest_abc_under(3);
	check_abc(db);
	profdb_close(db);
}
END_TEST

/* A kernel longer than 2^32 ns does not fit the in-memory store of
 * durations: the scans give the figures, exactly. */
START_TEST(long_kernel_by_scans)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	add_kernel(s, "Long", PROFDB_KIND_KERNEL, 10, NULL, 0);
	add_kernel(s, "Long", PROFDB_KIND_KERNEL, 6000000000LL, NULL, 0);
	add_kernel(s, "Short", PROFDB_KIND_KERNEL, 4, NULL, 0);
	ck_assert_int_eq(s->source_end(s->arg, 3, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	/* median of 10 and 6e9: 3000000005; p90: 10 + 0.9 * (6e9 - 10) */
	ck_assert_double_eq_tol(stat_of(db, "Long", "median_ns"), 3000000005.0, 1e-3);
	ck_assert_double_eq_tol(stat_of(db, "Long", "p90_ns"), 10 + 0.9 * (6e9 - 10), 1e-3);
	ck_assert_int_eq((int64_t)stat_of(db, "Long", "max_ns"), 6000000000LL);
	ck_assert_double_eq_tol(stat_of(db, "Short", "median_ns"), 4, 1e-12);
	profdb_close(db);
}
END_TEST

/* Run q twice: from kernel_name_stat, then with run.name_stats cleared (so
 * the rows are scanned, as before schema 3): every cell must agree. */
static void fast_equals_scan(profdb *db, struct profdb_kernel_query *q, size_t want_rows)
{
	profdb_result *fast = NULL, *scan = NULL;
	ck_assert_int_eq(sqlite3_exec(db->sql, "UPDATE run SET name_stats = 1", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(profdb_query_kernels(db, &fast, q), PROFDB_OK);
	ck_assert_int_eq(sqlite3_exec(db->sql, "UPDATE run SET name_stats = 0", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(profdb_query_kernels(db, &scan, q), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(fast), want_rows);
	ck_assert_uint_eq(profdb_result_nrows(scan), want_rows);
	ck_assert_uint_eq(profdb_result_ncols(fast), profdb_result_ncols(scan));
	for (size_t r = 0; r < want_rows; r++)
		for (size_t c = 0; c < profdb_result_ncols(scan); c++) {
			ck_assert_int_eq(profdb_result_isnull(fast, r, c), profdb_result_isnull(scan, r, c));
			if (profdb_result_coltype(scan, c) == PROFDB_COL_TEXT)
				ck_assert_str_eq(profdb_result_text(fast, r, c), profdb_result_text(scan, r, c));
			else if (!profdb_result_isnull(scan, r, c))
				ck_assert_double_eq_tol(profdb_result_double(fast, r, c),
				                        profdb_result_double(scan, r, c),
				                        1e-9 * (1 + fabs(profdb_result_double(scan, r, c))));
		}
	profdb_result_free(fast);
	profdb_result_free(scan);
}

START_TEST(query_from_stats_equals_scan)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	struct profdb_kernel_query q;
	const char *runs[] = { "big" };
	static const char *const names[] = { "MatMul", "Add", "Cast", "Gather", "Mul", "Sub", "Relu" };
	uint64_t x = 12345;

	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	/* 'small' keeps its 50 durations; 'big' (2000) goes past room for 1400
	 * values and is read back 350 doubles a scan, one or two names at a time */
	LOWER(db, name_stats_values, 1400);
	for (int run = 0; run < 2; run++) {
		ck_assert_int_eq(profdb__store_begin(&st, db, run ? "big" : "small", "/x", 0), PROFDB_OK);
		s = profdb__store_sink(st);
		ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
		for (int i = 0; i < (run ? 2000 : 50); i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			add_kernel(s, names[(x >> 33) % 7], (x >> 40) % 5 == 0 ? PROFDB_KIND_MEMCPY : PROFDB_KIND_KERNEL,
			           1 + (int64_t)((x >> 20) % 100000), NULL, 0);
		}
		ck_assert_int_eq(s->source_end(s->arg, 0, NULL, 0), PROFDB_OK);
		ck_assert_int_eq(profdb__store_commit(st, run ? 4 : 0), PROFDB_OK);
	}
	LOWER(db, name_stats_values, 0);
	q = (struct profdb_kernel_query)PROFDB_KERNEL_QUERY_INIT;
	fast_equals_scan(db, &q, 14);
	q.filter.runs = runs;
	q.filter.nruns = 1;
	q.filter.name_glob = "M*";
	fast_equals_scan(db, &q, 2);
	q.filter.name_glob = NULL;
	q.filter.kind = "kernel"; /* names ran as two kinds here: the scan path answers */
	fast_equals_scan(db, &q, 7);
	q.filter.kind = NULL;
	q.sort = "median";
	q.top = 3;
	fast_equals_scan(db, &q, 3);
	/* and the first answers did come from the table: change it, see it */
	{
		profdb_result *r = NULL;
		q = (struct profdb_kernel_query)PROFDB_KERNEL_QUERY_INIT;
		q.filter.runs = runs;
		q.filter.nruns = 1;
		q.sort = "calls";
		q.top = 1;
		ck_assert_int_eq(sqlite3_exec(db->sql, "UPDATE run SET name_stats = 1;"
		                 " UPDATE kernel_name_stat SET calls = 1000000", NULL, NULL, NULL), SQLITE_OK);
		ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
		for (size_t c = 0; c < profdb_result_ncols(r); c++)
			if (strcmp(profdb_result_colname(r, c), "calls") == 0)
				ck_assert_int_eq(profdb_result_int(r, 0, c), 1000000);
		profdb_result_free(r);
	}
	profdb_close(db);
}
END_TEST

START_TEST(metrics_json_round_trip)
{
	static const double v[] = { 0, 265.027, 954097, 0.05, 1e-7, 1.0 / 3, 0.1 + 0.2, -0.25, 1e300, 123456.789 };
	struct profdb_metric m[12];
	char names[10][16];
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;

	for (size_t i = 0; i < 10; i++) {
		snprintf(names[i], sizeof names[i], "m%zu(us)\"", i);
		m[i].name = names[i];
		m[i].value = v[i];
	}
	m[10].name = names[1]; /* a name twice: the last value stands */
	m[10].value = 7.5;
	m[11].name = "nan";
	m[11].value = NAN; /* not representable in JSON: left out */
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	add_kernel(s, "K", PROFDB_KIND_KERNEL, 10, m, 12);
	add_kernel(s, "L", PROFDB_KIND_KERNEL, 10, NULL, 0);
	ck_assert_int_eq(s->source_end(s->arg, 2, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_metric"), 10);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE metrics IS NULL"), 1);
	for (size_t i = 0; i < 10; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "SELECT value FROM kernel_metric WHERE metric = 'm%zu(us)\"'", i);
		/* exact: the text stored reads back as the same double */
		ck_assert(tu_scalar_d(db, sql) == (i == 1 ? 7.5 : v[i]));
	}
	profdb_close(db);
}
END_TEST

/* A schema 2 file with PMU metrics in the kernel_metric table. */
START_TEST(migrate_from_schema_2)
{
	char path[512];
	sqlite3 *raw = NULL;
	profdb *db = NULL;
	profdb_result *r = NULL;
	struct profdb_kernel_query q;

	snprintf(path, sizeof path, "%s/v2.db", tu_tmpdir());
	ck_assert_int_eq(sqlite3_open(path, &raw), SQLITE_OK);
	for (const struct profdb__schema_file *f = profdb__schema_files; f->name; f++)
		if (strncmp(f->name, "001", 3) == 0 || strncmp(f->name, "002", 3) == 0)
			ck_assert_int_eq(sqlite3_exec(raw, f->text, NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(raw,
	    "INSERT INTO run(id, name, source_path, format, ingested_at, profdb_version)"
	    " VALUES (1, 'old', '/x', 'ascend_csv', '2026-01-01T00:00:00Z', '0.1');"
	    "INSERT INTO str(id, value) VALUES (1, 'MatMul'), (2, 'aic_mac_ratio'), (3, 'aicore_time(us)');"
	    "INSERT INTO kernel(id, run_id, name_id, base_id, kind, start_ns, dur_ns) VALUES"
	    " (1, 1, 1, 1, 0, 0, 100), (2, 1, 1, 1, 0, 200, 300), (3, 1, 1, 1, 0, 600, 50);"
	    "INSERT INTO kernel_metric(kernel_id, metric_id, value) VALUES"
	    " (1, 2, 0.5), (1, 3, 98.25), (2, 2, 0.75);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);

	ck_assert_int_eq(profdb_open(&db, path, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "PRAGMA user_version"), profdb_schema_version());
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_metric"), 3);
	ck_assert_double_eq_tol(tu_scalar_d(db, "SELECT sum(value) FROM kernel_metric WHERE metric = 'aic_mac_ratio'"),
	                        1.25, 1e-12);
	ck_assert_double_eq_tol(tu_scalar_d(db, "SELECT value FROM kernel_metric WHERE kernel_id = 1"
	                                    " AND metric = 'aicore_time(us)'"), 98.25, 1e-12);
	ck_assert_int_eq(tu_scalar(db, "SELECT name_stats FROM run"), 0);
	/* no stored statistics: kernels scans the rows (median of 50 100 300 = 100) */
	q = (struct profdb_kernel_query)PROFDB_KERNEL_QUERY_INIT;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 1);
	for (size_t c = 0; c < profdb_result_ncols(r); c++) {
		if (strcmp(profdb_result_colname(r, c), "calls") == 0)
			ck_assert_int_eq(profdb_result_int(r, 0, c), 3);
		if (strcmp(profdb_result_colname(r, c), "median") == 0)
			ck_assert_double_eq_tol(profdb_result_double(r, 0, c), 100, 1e-12);
	}
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

/* kernel_step_stat of abc's one step, in first-seen order: A kernel 4
 * calls 100 ns, B memcpy 5, C kernel 7, C memcpy 9 (C's second kind
 * chained to its first cell). */
START_TEST(step_stats_by_hand)
{
	profdb *db = ingest_abc_under(0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_step_stat"), 4);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_step_stat s JOIN str n ON n.id = s.name_id"
	                               " WHERE (n.value, s.calls, s.total_ns) IN (VALUES ('A', 4, 100), ('B', 1, 5),"
	                               " ('C', 1, 7), ('C', 1, 9))"), 4);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM (SELECT row_number() OVER (ORDER BY s.rowid) AS i,"
	                               " n.value AS v, s.kind AS k FROM kernel_step_stat s JOIN str n ON n.id = s.name_id)"
	                               " WHERE (i, v, k) IN (VALUES (1, 'A', 0), (2, 'B', 1), (3, 'C', 0), (4, 'C', 1))"), 4);
	profdb_close(db);
}
END_TEST

/* One step of 5 000 names (the cell lookup was a linear search: quadratic
 * in a step's names): name i once as a kernel of i + 1 ns, then again as a
 * kernel of 2 ns and a memcpy of 3 ns.  By hand: 10 000 rows, the 5 000
 * kernel cells first (first seen), kernel totals sum(i + 3) = 4999 * 5000 / 2
 * + 15 000 = 12 512 500 in 10 000 calls, memcpy 15 000 in 5 000. */
START_TEST(step_stats_many_names)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	char name[32];
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "N%d", i);
		add_kernel(s, name, PROFDB_KIND_KERNEL, i + 1, NULL, 0);
	}
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "N%d", i);
		add_kernel(s, name, PROFDB_KIND_KERNEL, 2, NULL, 0);
		add_kernel(s, name, PROFDB_KIND_MEMCPY, 3, NULL, 0);
	}
	ck_assert_int_eq(s->source_end(s->arg, 15000, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_step_stat"), 10000);
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(calls) FROM kernel_step_stat WHERE kind = 0"), 10000);
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(total_ns) FROM kernel_step_stat WHERE kind = 0"), 12512500);
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(calls) FROM kernel_step_stat WHERE kind <> 0"), 5000);
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(total_ns) FROM kernel_step_stat WHERE kind <> 0"), 15000);
	ck_assert_int_eq(tu_scalar(db, "SELECT max(rowid) - min(rowid) FROM (SELECT rowid FROM kernel_step_stat"
	                               " WHERE kind = 0)"), 4999);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_step_stat s JOIN str n ON n.id = s.name_id"
	                               " WHERE s.kind = 0 AND s.total_ns <> CAST(substr(n.value, 2) AS INTEGER) + 3"), 0);
	profdb_close(db);
}
END_TEST

/* The intern map emptied every 3 texts (PROFDB_INTERN_CACHED): 10 names
 * N0..N9 in turn, 5 rounds, kernel i lasting i ns.  Each name is stored
 * once and every row keeps its own name: Nk has 5 calls of k, k + 10, ...,
 * k + 40 ns, total 5k + 100.  Their base name is "N" (basename.c's A2:
 * digits glued to a CamelCase name go), stored once too: 11 texts. */
START_TEST(intern_map_emptied)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	char name[32];
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	LOWER(db, intern_cached, 3);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof name, "N%d", i % 10);
		add_kernel(s, name, PROFDB_KIND_KERNEL, i, NULL, 0);
	}
	ck_assert_int_eq(s->source_end(s->arg, 50, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM str WHERE value GLOB 'N*'"), 11);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel k JOIN str n ON n.id = k.name_id"
	                               " WHERE n.value = 'N' || (k.dur_ns % 10)"), 50);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_name_stat s JOIN str n ON n.id = s.name_id"
	                               " WHERE s.calls = 5 AND s.total_ns = 5 * CAST(substr(n.value, 2) AS INTEGER)"
	                               " + 100"), 10);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel k JOIN str b ON b.id = k.base_id"
	                               " WHERE b.value = 'N'"), 50);
	profdb_close(db);
}
END_TEST

/* Run r of 600 kernels over 40 names: 3 ranks, steps 1..4 and none, two
 * kinds, durations spread (some over the percentile interpolation's
 * ties); i = 0..599: name K<i % 40>, kind i % 7 == 0 ? memcpy : kernel,
 * rank i % 3, step (i / 7) % 5 (0: none), dur (i * 7919) % 1000 + 1. */
static void ingest_mixed(profdb *db, const char *run)
{
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	char name[32];
	ck_assert_int_eq(profdb__store_begin(&st, db, run, "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	for (int i = 0; i < 600; i++) {
		struct profdb_kernel_rec k;
		profdb__kernel_rec_init(&k);
		snprintf(name, sizeof name, "K%d", i % 40);
		k.name = name;
		k.kind = i % 7 == 0 ? PROFDB_KIND_MEMCPY : PROFDB_KIND_KERNEL;
		k.rank = i % 3;
		k.step = (i / 7) % 5 ? (i / 7) % 5 : PROFDB_NULL;
		k.start_ns = 1000 + i;
		k.dur_ns = (i * 7919) % 1000 + 1;
		ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
	}
	ck_assert_int_eq(s->source_end(s->arg, 600, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
}

/* Past name_stats_names (here 5 of the 40) the statistics come from
 * ordered scans at commit: run b's kernel_name_stat and kernel_step_stat
 * rows, in order, are run a's (kept in memory), every column. */
START_TEST(spilled_equals_kept)
{
	profdb *db = NULL;
	const char *cols = "name_id, kinds, calls, total_ns, min_ns, max_ns, avg_ns, median_ns, stddev_ns, p90_ns, p99_ns";
	const char *scols = "rank, step, name_id, base_id, kind, calls, total_ns";
	char sql[1024];
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ingest_mixed(db, "a");
	LOWER(db, name_stats_names, 5);
	ingest_mixed(db, "b");
	LOWER(db, name_stats_names, 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_name_stat WHERE run_id = 1"), 40);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT %s FROM kernel_name_stat WHERE run_id = 1 EXCEPT"
	         " SELECT %s FROM kernel_name_stat WHERE run_id = 2)", cols, cols);
	ck_assert_int_eq(tu_scalar(db, sql), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_name_stat WHERE run_id = 2"), 40);
	ck_assert_int_gt(tu_scalar(db, "SELECT count(*) FROM kernel_step_stat WHERE run_id = 1"), 100);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT row_number() OVER (ORDER BY rowid) AS i, %s FROM"
	         " kernel_step_stat WHERE run_id = 1 EXCEPT SELECT row_number() OVER (ORDER BY rowid), %s FROM"
	         " kernel_step_stat WHERE run_id = 2)", scols, scols);
	ck_assert_int_eq(tu_scalar(db, sql), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT (SELECT count(*) FROM kernel_step_stat WHERE run_id = 1) -"
	                               " (SELECT count(*) FROM kernel_step_stat WHERE run_id = 2)"), 0);
	/* by hand: K0 is i = 0, 40, ..., 560 (15 calls); i = 0, 280 and 560
	 * are memcpys (i % 7 == 0 and i % 40 == 0: multiples of 280), the
	 * rest kernels: kinds 1 | 2 */
	ck_assert_int_eq(tu_scalar(db, "SELECT calls FROM kernel_name_stat s JOIN str n ON n.id = s.name_id"
	                               " WHERE s.run_id = 2 AND n.value = 'K0'"), 15);
	ck_assert_int_eq(tu_scalar(db, "SELECT kinds FROM kernel_name_stat s JOIN str n ON n.id = s.name_id"
	                               " WHERE s.run_id = 2 AND n.value = 'K0'"), 3);
	profdb_close(db);
}
END_TEST

/* Runs a and b (ids) have the same kernel_name_stat rows and the same
 * kernel_step_stat rows in the same order, every column. */
static void same_stats(profdb *db, int a, int b)
{
	const char *cols = "name_id, kinds, calls, total_ns, min_ns, max_ns, avg_ns, median_ns, stddev_ns, p90_ns, p99_ns";
	const char *scols = "rank, step, name_id, base_id, kind, calls, total_ns";
	char sql[1024];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT %s FROM kernel_name_stat WHERE run_id = %d EXCEPT"
	         " SELECT %s FROM kernel_name_stat WHERE run_id = %d)", cols, a, cols, b);
	ck_assert_int_eq(tu_scalar(db, sql), 0);
	snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM kernel_name_stat WHERE run_id = %d) -"
	         " (SELECT count(*) FROM kernel_name_stat WHERE run_id = %d)", a, b);
	ck_assert_int_eq(tu_scalar(db, sql), 0);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT row_number() OVER (ORDER BY rowid) AS i, %s FROM"
	         " kernel_step_stat WHERE run_id = %d EXCEPT SELECT row_number() OVER (ORDER BY rowid), %s FROM"
	         " kernel_step_stat WHERE run_id = %d)", scols, a, scols, b);
	ck_assert_int_eq(tu_scalar(db, sql), 0);
	snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM kernel_step_stat WHERE run_id = %d) -"
	         " (SELECT count(*) FROM kernel_step_stat WHERE run_id = %d)", a, b);
	ck_assert_int_eq(tu_scalar(db, sql), 0);
}

/*
 * The per-name state under name_stats_bytes, driven directly: 40
 * names of 15 calls each (ingest_mixed's shape).  Held whole it is, by
 * hand: the group array at 64 groups x 96 bytes = 6144, the map at 256
 * slots x 4 = 1024, and 40 duration arrays of 16 values (64 bytes + 16 for
 * malloc's block) = 3200: 10368 bytes.  Under 9000 the durations go (the
 * names' 7168 stay); under 7000 not even the names fit.  The bytes held
 * never pass the budget.
 */
static int budget_path(const char *bytes_env, size_t *end_bytes)
{
	struct profdb__name_stats *ns;
	struct profdb_limits l = PROFDB_LIMITS_INIT;
	size_t bytes, max = bytes_env ? (size_t)atoi(bytes_env) : SIZE_MAX;
	int path = 0;
	if (bytes_env)
		l.name_stats_bytes = (uint64_t)atoi(bytes_env);
	ns = profdb__name_stats_new(&l);
	ck_assert_ptr_nonnull(ns);
	for (int i = 0; i < 600; i++) {
		ck_assert_int_eq(profdb__name_stats_add(ns, i + 1, i % 40 + 1, PROFDB_KIND_KERNEL, (i * 7919) % 1000 + 1), 0);
		path = profdb__name_stats_path(ns, &bytes);
		ck_assert_uint_le(bytes, max);
	}
	*end_bytes = bytes;
	profdb__name_stats_free(ns);
	return path;
}

START_TEST(byte_budget_bounds_state)
{
	size_t bytes;
	ck_assert_int_eq(budget_path(NULL, &bytes), 0);
	ck_assert_uint_eq(bytes, 10368);
	ck_assert_int_eq(budget_path("10368", &bytes), 0); /* exactly the budget: fits */
	ck_assert_int_eq(budget_path("10367", &bytes), 1);
	ck_assert_uint_eq(bytes, 7168);
	ck_assert_int_eq(budget_path("9000", &bytes), 1);
	ck_assert_uint_eq(bytes, 7168);
	ck_assert_int_eq(budget_path("7167", &bytes), 2);
	ck_assert_uint_eq(bytes, 0);
}
END_TEST

/* The same runs through the store: with the durations dropped at the byte
 * budget (read back at commit, 2 or 3 names a scan: (9000 - 7168) / 2
 * bytes of doubles) and with the names dropped, both tables equal the
 * held run's, every column and row. */
START_TEST(byte_budget_equals_kept)
{
	profdb *db = NULL;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ingest_mixed(db, "held");
	LOWER(db, name_stats_bytes, 9000);
	ingest_mixed(db, "scanned");
	LOWER(db, name_stats_bytes, 7000);
	ingest_mixed(db, "spilled");
	LOWER(db, name_stats_bytes, 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_name_stat WHERE run_id = 1"), 40);
	ck_assert_int_gt(tu_scalar(db, "SELECT count(*) FROM kernel_step_stat WHERE run_id = 1"), 100);
	same_stats(db, 1, 2);
	same_stats(db, 1, 3);
	profdb_close(db);
}
END_TEST

/* A kernel over 2^32 ns that comes after the budget dropped the durations
 * (at Short's fifth call: 7168 bytes of names and a 4-value block of 32
 * fill 7200) still makes the read-back take doubles: stored whole, not
 * cut to 4 bytes (6e9 mod 2^32 would be 1705032704). */
START_TEST(long_kernel_after_budget)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	LOWER(db, name_stats_bytes, 7200);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	LOWER(db, name_stats_bytes, 0);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	for (int i = 1; i <= 6; i++)
		add_kernel(s, "Short", PROFDB_KIND_KERNEL, i, NULL, 0);
	add_kernel(s, "Long", PROFDB_KIND_KERNEL, 10, NULL, 0);
	add_kernel(s, "Long", PROFDB_KIND_KERNEL, 6000000000LL, NULL, 0);
	ck_assert_int_eq(s->source_end(s->arg, 8, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	/* median of 10 and 6e9: 3000000005; Short 1..6: median 3.5, p90 5.5 */
	ck_assert_double_eq_tol(stat_of(db, "Long", "median_ns"), 3000000005.0, 1e-3);
	ck_assert_int_eq((int64_t)stat_of(db, "Long", "max_ns"), 6000000000LL);
	ck_assert_double_eq_tol(stat_of(db, "Short", "median_ns"), 3.5, 1e-12);
	ck_assert_double_eq_tol(stat_of(db, "Short", "p90_ns"), 5.5, 1e-12);
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("name_stats");
	TCase *tc = tcase_create("store");
	tcase_add_test(tc, stats_by_hand);
	tcase_add_test(tc, stats_by_scans_past_budget);
	tcase_add_test(tc, long_kernel_by_scans);
	tcase_add_test(tc, query_from_stats_equals_scan);
	tcase_add_test(tc, metrics_json_round_trip);
	tcase_add_test(tc, migrate_from_schema_2);
	tcase_add_test(tc, step_stats_by_hand);
	tcase_add_test(tc, step_stats_many_names);
	tcase_add_test(tc, intern_map_emptied);
	tcase_add_test(tc, spilled_equals_kept);
	tcase_add_test(tc, byte_budget_bounds_state);
	tcase_add_test(tc, byte_budget_equals_kept);
	tcase_add_test(tc, long_kernel_after_budget);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
