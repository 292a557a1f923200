/*
 * check_readers.c - the reader table (readers.c): every row complete and
 * named once, every row's own sample detected as that row, every reader
 * run with a sink whose callbacks are all NULL, and detection by content
 * in the folder walk (renamed kernel tables and SQLite exports).
 *
 * Expected kernel counts are counted outside profdb: the kernel table of
 * testdata/ascend_db/csv has 50 data rows (python3 csv.reader: 51 rows
 * with the header), and its SQLite twin testdata/ascend_db/db holds the
 * same 50 (sqlite3: 46 COMPUTE_TASK_INFO rows + 4 COMMUNICATION_OP rows).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"
#include "read/detect.h"

#define KTABLE "ascend_db/csv/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
#define KDB "ascend_db/db/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"
#define KROWS 50

/* One sample per row: a file the row's sniff must take.  A new row
 * without a sample here fails every_row_detects_its_sample. */
static const struct {
	const char *reader, *file;
	int corpus;                /* 1: under $PROFDB_CORPUS, 0: $PROFDB_TESTDATA */
} samples[] = {
	{ "ascend_csv", "Ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/"
	                "ASCEND_PROFILER_OUTPUT/kernel_details.csv", 1 },
	{ "ascend_db", "Ascend-msinsight/test/data/pytorch/db/level0/rank0_ascend_pt/"
	               "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db", 1 },
	{ "ascend_trace_view", "msprof-analyze/test/ut/advisor/timeline_advice/trace_view.json", 1 },
	{ "kineto", "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz", 1 },
	{ "pytest_benchmark", "bench/pytest_benchmark.json", 0 },
	{ "gbench", "bench/gbench.json", 0 },
	{ "wallclock_csv", "bench/wallclock.csv", 0 },
	{ "wallclock_jsonl", "bench/wallclock.jsonl", 0 },
};

static const char *sample_of(const char *reader)
{
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
		if (strcmp(samples[i].reader, reader) == 0)
			return samples[i].corpus ? tu_corpus(samples[i].file) : tu_testdata(samples[i].file);
	return NULL;
}

START_TEST(table_rows_complete_and_unique)
{
	size_t n = 0;
	for (size_t i = 0; profdb__readers[i]; i++, n++) {
		const struct profdb_reader *r = profdb__readers[i];
		ck_assert_msg(r->name && *r->name, "row %zu has no name", i);
		ck_assert_msg(r->label && *r->label, "row %s has no label", r->name);
		ck_assert_msg(r->sniff != NULL, "row %s has no sniff", r->name);
		ck_assert_msg(r->read != NULL, "row %s has no read", r->name);
		for (size_t j = 0; j < i; j++)
			ck_assert_msg(strcmp(profdb__readers[j]->name, r->name) != 0, "name %s twice", r->name);
	}
	/* each format with a sample below has its row, and no row lacks one
	 * (every_row_detects_its_sample): as many rows as samples */
	for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++) {
		size_t i = 0;
		while (profdb__readers[i] && strcmp(profdb__readers[i]->name, samples[k].reader) != 0)
			i++;
		ck_assert_msg(profdb__readers[i] != NULL, "sample %s names no row", samples[k].reader);
	}
	ck_assert_uint_eq(n, sizeof samples / sizeof samples[0]);
}
END_TEST

START_TEST(every_row_detects_its_sample)
{
	char reason[PROFDB_ERRMAX];
	for (size_t i = 0; profdb__readers[i]; i++) {
		const struct profdb_reader *r = profdb__readers[i];
		const char *path = sample_of(r->name);
		ck_assert_msg(path != NULL, "row %s has no sample in check_readers.c", r->name);
		ck_assert_msg(profdb__detect_file(path, reason, sizeof reason) == r,
		              "%s: not detected as %s (%s)", path, r->name, reason);
	}
}
END_TEST

/* A sink whose callbacks are all NULL: records are dropped, nothing may
 * crash, every reader succeeds. */
static void read_with_null_sink(const struct profdb_reader *r, const char *path)
{
	struct profdb_err err = { 0 };
	struct profdb_sink sink = { .err = &err };
	struct profdb_reader_ctx ctx = { .path = path, .rank = PROFDB_NULL, .sink = &sink, .err = &err,
	                                 .limits = &tu_limits };
	ck_assert_msg(r->read(&ctx) == PROFDB_OK, "%s on %s: %s", r->name, path, err.msg);
}

START_TEST(null_sink_every_reader)
{
	for (size_t i = 0; profdb__readers[i]; i++)
		read_with_null_sink(profdb__readers[i], sample_of(profdb__readers[i]->name));
	/* the export folders the walk hands to the two Ascend readers */
	read_with_null_sink(&profdb__reader_ascend_csv,
	                    tu_corpus("Ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt"));
	read_with_null_sink(&profdb__reader_ascend_db,
	                    tu_corpus("Ascend-msinsight/test/data/pytorch/db/level1/rank0_ascend_pt"));
}
END_TEST

/* Copy testdata file rel to dir/name. */
static void copy_to(const char *rel, const char *dir, const char *name)
{
	char to[1200];
	size_t len;
	unsigned char *data = tu_read_file(tu_testdata(rel), &len);
	ck_assert_ptr_nonnull(data);
	snprintf(to, sizeof to, "%s/%s", dir, name);
	ck_assert_int_eq(tu_write_file(to, data, len), 0);
	free(data);
}

/* A fresh subfolder of a temporary folder (static buffer). */
static const char *subdir(const char *name)
{
	static char path[1200];
	snprintf(path, sizeof path, "%s/%s", tu_tmpdir(), name);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	return path;
}

/* Ingest folder into a new in-memory database; rc returned, db in *out. */
static int ingest(const char *folder, profdb **out)
{
	struct profdb_ingest_opts o = { .run = "r", .jobs = 1 };
	ck_assert_int_eq(profdb_open(out, ":memory:", 0), PROFDB_OK);
	return profdb_ingest(*out, NULL, folder, &o);
}

/* The run's stored format label. */
static void assert_format(profdb *db, const char *want)
{
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT format FROM run WHERE name = 'r'", -1, &q, NULL),
	                 SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(q, 0), want);
	sqlite3_finalize(q);
}

START_TEST(walk_reads_renamed_kernel_table)
{
	const char *dir = subdir("renamed_csv");
	profdb *db;
	copy_to(KTABLE, dir, "rank0_kernels.csv");
	ck_assert_msg(ingest(dir, &db) == PROFDB_OK, "%s", profdb_errmsg(db));
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), KROWS);
	assert_format(db, "ascend_csv");
	profdb_close(db);
}
END_TEST

START_TEST(walk_reads_renamed_sqlite_export)
{
	const char *dir = subdir("renamed_db");
	profdb *db;
	copy_to(KDB, dir, "capture.db");
	ck_assert_msg(ingest(dir, &db) == PROFDB_OK, "%s", profdb_errmsg(db));
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), KROWS);
	assert_format(db, "ascend_db");
	profdb_close(db);
}
END_TEST

/* A SQLite file that is not an Ascend export (here: a profdb database)
 * beside a kernel table is not read; one named as msprof names its export
 * is, and its reader refuses it (the name is the tie-break that keeps a
 * damaged export from being left out unnoticed). */
START_TEST(walk_sqlite_by_tables_name_as_tie_break)
{
	const char *dir = subdir("foreign_db");
	char path[1300];
	profdb *db, *other;
	sqlite3 *plain;
	copy_to(KTABLE, dir, "kernel_details.csv");
	snprintf(path, sizeof path, "%s/results.db", dir);
	ck_assert_int_eq(profdb_open(&other, path, 0), PROFDB_OK);
	profdb_close(other);
	ck_assert_msg(ingest(dir, &db) == PROFDB_OK, "%s", profdb_errmsg(db));
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), KROWS);
	assert_format(db, "ascend_csv");
	profdb_close(db);

	snprintf(path, sizeof path, "%s/msprof_0.db", dir);
	ck_assert_int_eq(sqlite3_open(path, &plain), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(plain, "CREATE TABLE x (a); INSERT INTO x VALUES (1);", NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(plain);
	ck_assert_int_eq(ingest(dir, &db), PROFDB_EFORMAT);
	ck_assert_msg(strstr(profdb_errmsg(db), "msprof_0.db: no STRING_IDS") != NULL, "%s", profdb_errmsg(db));
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "not an Ascend profiler database"));
	profdb_close(db);
}
END_TEST

/* The same for a file with the SQLite magic that SQLite cannot read:
 * skipped as other.db, refused as msprof_0.db and when named itself. */
START_TEST(walk_damaged_sqlite)
{
	static const char junk[] = "SQLite format 3\0this is not a database at all, only its magic";
	const char *dir = subdir("damaged_db");
	char path[1300];
	profdb *db;
	copy_to(KTABLE, dir, "kernel_details.csv");
	snprintf(path, sizeof path, "%s/other.db", dir);
	ck_assert_int_eq(tu_write_file(path, junk, sizeof junk - 1), 0);
	ck_assert_msg(ingest(dir, &db) == PROFDB_OK, "%s", profdb_errmsg(db));
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), KROWS);
	profdb_close(db);

	ck_assert_int_eq(ingest(path, &db), PROFDB_EFORMAT);
	ck_assert_msg(strstr(profdb_errmsg(db), "other.db: cannot read as SQLite: file is not a database") != NULL,
	              "%s", profdb_errmsg(db));
	profdb_close(db);

	snprintf(path, sizeof path, "%s/msprof_0.db", dir);
	ck_assert_int_eq(tu_write_file(path, junk, sizeof junk - 1), 0);
	ck_assert_int_eq(ingest(dir, &db), PROFDB_EFORMAT);
	ck_assert_msg(strstr(profdb_errmsg(db), "msprof_0.db: cannot read as SQLite") != NULL, "%s", profdb_errmsg(db));
	profdb_close(db);
}
END_TEST

/* msprof's op_summary_*.csv has a kernel table's columns but is the text
 * copy of its msprof_*.db: a walk leaves it out with a note (the name is
 * the tie-break), named itself it is read as a kernel table. */
START_TEST(walk_leaves_op_summary_out)
{
	const char *dir = subdir("prof");
	const char *summary = tu_corpus("Ascend-msinsight/server/src/test/test_data/test_kernel_parse/op_summary_1.csv");
	char to[1300], reason[PROFDB_ERRMAX];
	size_t len;
	unsigned char *data = tu_read_file(summary, &len);
	profdb *db;
	ck_assert_ptr_nonnull(data);
	snprintf(to, sizeof to, "%s/op_summary_1.csv", dir);
	ck_assert_int_eq(tu_write_file(to, data, len), 0);
	free(data);
	copy_to(KTABLE, dir, "rank0_kernels.csv");
	ck_assert_msg(ingest(dir, &db) == PROFDB_OK, "%s", profdb_errmsg(db));
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), KROWS);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run_note WHERE note LIKE '%op_summary_1.csv: skipped:"
	                               " msprof''s op_summary%'"), 1);
	profdb_close(db);
	ck_assert_ptr_eq(profdb__detect_file(to, reason, sizeof reason), &profdb__reader_ascend_csv);
}
END_TEST

/* Inside an export folder the layout's file names decide (FORMATS.md,
 * doc/DESIGN.md): a kernel table renamed there is not the export's kernel
 * table, so the rank is stored without kernels and the run says so. */
START_TEST(renamed_inside_export_folder_is_not_read)
{
	char out[1300];
	const char *dir = subdir("x_ascend_pt");
	profdb *db;
	snprintf(out, sizeof out, "%s/ASCEND_PROFILER_OUTPUT", dir);
	ck_assert_int_eq(mkdir(out, 0700), 0);
	copy_to(KTABLE, out, "kernels_renamed.csv");
	ck_assert_msg(ingest(dir, &db) == PROFDB_OK, "%s", profdb_errmsg(db));
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 0);
	assert_format(db, "ascend_csv");
	profdb_close(db);
}
END_TEST

/* A file holding a kernel table under another extension is still found
 * when named directly (detection never looks at the name). */
START_TEST(named_file_detected_by_content)
{
	const char *dir = subdir("named");
	char path[1300], reason[PROFDB_ERRMAX];
	copy_to(KTABLE, dir, "table.txt");
	copy_to(KDB, dir, "export.bin");
	snprintf(path, sizeof path, "%s/table.txt", dir);
	ck_assert_ptr_eq(profdb__detect_file(path, reason, sizeof reason), &profdb__reader_ascend_csv);
	snprintf(path, sizeof path, "%s/export.bin", dir);
	ck_assert_ptr_eq(profdb__detect_file(path, reason, sizeof reason), &profdb__reader_ascend_db);
	/* operator_details' "Host Self Duration(us)" is no kernel duration */
	ck_assert_ptr_eq(profdb__detect_file(tu_corpus("Ascend-msinsight/test/data/pytorch/text/level0/"
	                                               "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv"),
	                                     reason, sizeof reason), NULL);
	ck_assert_str_eq(reason, "not a format profdb reads");
}
END_TEST

int main(void)
{
	Suite *su = suite_create("readers");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, table_rows_complete_and_unique);
	tcase_add_test(tc, every_row_detects_its_sample);
	tcase_add_test(tc, null_sink_every_reader);
	suite_add_tcase(su, tc);
	tc = tcase_create("walk");
	tcase_add_test(tc, walk_reads_renamed_kernel_table);
	tcase_add_test(tc, walk_reads_renamed_sqlite_export);
	tcase_add_test(tc, walk_sqlite_by_tables_name_as_tie_break);
	tcase_add_test(tc, walk_damaged_sqlite);
	tcase_add_test(tc, walk_leaves_op_summary_out);
	tcase_add_test(tc, renamed_inside_export_folder_is_not_read);
	tcase_add_test(tc, named_file_detected_by_content);
	suite_add_tcase(su, tc);
	return tu_run(su);
}
