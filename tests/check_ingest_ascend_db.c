/*
 * check_ingest_ascend_db.c - the Ascend SQLite reader (ingest_ascend_db.c).
 *
 * Corpus: every .db export ingests, and per kernel name (and rank) calls,
 * total, min and max equal an aggregate the test computes itself with SQL
 * over the source file.  Synthetic: small databases built here by hand
 * (nesting, links, column variants, WAL) with answers worked out below.
 * CSV vs DB: testdata/ascend_db holds one capture in both forms.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

#define LEVEL0 "Ascend-msinsight/test/data/pytorch/db/level0"
#define LEVEL1 "Ascend-msinsight/test/data/pytorch/db/level1"
#define MSPROF "Ascend-msinsight/server/src/test/test_data/full_db/msprof_0.db"
#define PT_DB(lv, r) lv "/rank" #r "_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_" #r ".db"

/* Open a corpus .db read-only without writing anything beside it. */
static sqlite3 *open_source(const char *path)
{
	char uri[4200];
	sqlite3 *s = NULL;
	snprintf(uri, sizeof uri, "file:%s?immutable=1", path);
	ck_assert_int_eq(sqlite3_open_v2(uri, &s, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), SQLITE_OK);
	return s;
}

static int64_t scalar(sqlite3 *db, const char *sql, int64_t bind)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;
	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, bind);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK, "%s", err ? err : "?");
}

/*
 * Compare two queries that return (key, count, total, min, max) rows in the
 * same order: one over the source file, one over the store.
 */
static void same_rows(sqlite3 *src, const char *src_sql, sqlite3 *dst, const char *dst_sql,
                      int64_t bind, int64_t *nrows)
{
	sqlite3_stmt *a = NULL, *b = NULL;
	int ra, rb;
	*nrows = 0;
	ck_assert_msg(sqlite3_prepare_v2(src, src_sql, -1, &a, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(src));
	ck_assert_msg(sqlite3_prepare_v2(dst, dst_sql, -1, &b, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(dst));
	sqlite3_bind_int64(b, 1, bind);
	for (;;) {
		ra = sqlite3_step(a);
		rb = sqlite3_step(b);
		ck_assert_int_eq(ra, rb);
		if (ra != SQLITE_ROW)
			break;
		ck_assert_str_eq((const char *)sqlite3_column_text(a, 0), (const char *)sqlite3_column_text(b, 0));
		for (int c = 1; c < 5; c++)
			ck_assert_msg(sqlite3_column_int64(a, c) == sqlite3_column_int64(b, c),
			              "%s column %d: source %lld, stored %lld", sqlite3_column_text(a, 0), c,
			              (long long)sqlite3_column_int64(a, c), (long long)sqlite3_column_int64(b, c));
		(*nrows)++;
	}
	sqlite3_finalize(a);
	sqlite3_finalize(b);
}

/* The independent computation: compute tasks are TASK rows that have a
 * COMPUTE_TASK_INFO row; communication ops are COMMUNICATION_OP rows. */
static const char src_kernels[] =
	"SELECT s.value, count(*), sum(t.endNs - t.startNs), min(t.endNs - t.startNs),"
	" max(t.endNs - t.startNs) FROM COMPUTE_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId"
	" JOIN STRING_IDS s ON s.id = c.name GROUP BY s.value ORDER BY s.value";
static const char src_comm[] =
	"SELECT s.value, count(*), sum(o.endNs - o.startNs), min(o.endNs - o.startNs),"
	" max(o.endNs - o.startNs) FROM COMMUNICATION_OP o JOIN STRING_IDS s ON s.id = o.opName"
	" GROUP BY s.value ORDER BY s.value";
static const char dst_by_kind[] =
	"SELECT n.value, count(*), sum(k.dur_ns), min(k.dur_ns), max(k.dur_ns) FROM kernel k"
	" JOIN str n ON n.id = k.name_id WHERE k.rank = ?1 AND k.kind = %d"
	" GROUP BY n.value ORDER BY n.value";

/* Check one source .db against rank `rank` of the store. */
static void check_against_source(profdb *db, const char *rel, int64_t want_rank)
{
	sqlite3 *src = open_source(tu_corpus(rel));
	char sql[512];
	int64_t groups, rank, n, ntask, ncomm, nstored;

	/* the rank the file says, -1 = unset (then the test passes want_rank) */
	rank = scalar(src, "SELECT count(*) FROM sqlite_master WHERE name = 'RANK_DEVICE_MAP'", 0) ?
	       scalar(src, "SELECT rankId FROM RANK_DEVICE_MAP", 0) : -1;
	if (rank < 0)
		rank = want_rank;
	ck_assert_int_eq(rank, want_rank);
	snprintf(sql, sizeof sql, dst_by_kind, PROFDB_KIND_KERNEL);
	same_rows(src, src_kernels, db->sql, sql, rank, &groups);
	ck_assert_int_gt(groups, 5);
	snprintf(sql, sizeof sql, dst_by_kind, PROFDB_KIND_COMM);
	same_rows(src, src_comm, db->sql, sql, rank, &n);
	/* TASK holds more than kernels (event records, SDMA, notify waits) */
	ntask = scalar(src, "SELECT count(*) FROM TASK", 0);
	n = scalar(src, "SELECT count(*) FROM COMPUTE_TASK_INFO c JOIN TASK t USING (globalTaskId)", 0);
	ncomm = scalar(src, "SELECT count(*) FROM COMMUNICATION_OP", 0);
	nstored = scalar(db->sql, "SELECT count(*) FROM kernel WHERE rank = ?1", rank);
	ck_assert_int_eq(nstored, n + ncomm);
	ck_assert_int_gt(ntask, n);
	sqlite3_close(src);
}

static profdb *ingest(const char *path, const char *run)
{
	profdb *db = NULL;
	struct profdb_ingest_opts o = PROFDB_INGEST_OPTS_INIT;
	int rc;
	o.run = run;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	rc = profdb_ingest(db, NULL, path, &o);
	ck_assert_msg(rc == PROFDB_OK, "%s: %s", path, profdb_errmsg(db));
	return db;
}

START_TEST(corpus_level0)
{
	profdb *db = ingest(tu_corpus(LEVEL0), "l0");
	check_against_source(db, PT_DB(LEVEL0, 0), 0);
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM run WHERE format = 'ascend_db'", 0), 1);
	profdb_close(db);
}
END_TEST

START_TEST(corpus_level1_two_ranks)
{
	profdb *db = ingest(tu_corpus(LEVEL1), "l1");
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM run", 0), 1);
	ck_assert_int_eq(scalar(db->sql, "SELECT ranks FROM run", 0), 2);
	check_against_source(db, PT_DB(LEVEL1, 0), 0);
	check_against_source(db, PT_DB(LEVEL1, 1), 1);
	profdb_close(db);
}
END_TEST

START_TEST(corpus_msprof_lone_file)
{
	profdb *db = ingest(tu_corpus(MSPROF), "ms");
	/* no RANK_DEVICE_MAP, no profiler_info: the default rank 0 */
	check_against_source(db, MSPROF, 0);
	/* a leftover _COMPUTE_TASK_INFO_old_* table must not add kernels */
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM kernel", 0), 11);
	profdb_close(db);
}
END_TEST

/* Steps, PMU metrics and host ops of level1 rank 0 against the source. */
START_TEST(corpus_level1_details)
{
	profdb *db = ingest(tu_corpus(LEVEL1), "l1");
	sqlite3 *src = open_source(tu_corpus(PT_DB(LEVEL1, 0)));
	int64_t step = scalar(src, "SELECT id FROM STEP_TIME", 0);

	/* every kernel of this capture starts inside the one STEP_TIME span */
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM kernel WHERE rank = 0 AND step = ?1", step),
	                 scalar(src, "SELECT (SELECT count(*) FROM TASK t JOIN COMPUTE_TASK_INFO c USING (globalTaskId),"
	                        " STEP_TIME s WHERE t.startNs >= s.startNs AND t.startNs < s.endNs)"
	                        " + (SELECT count(*) FROM COMMUNICATION_OP o, STEP_TIME s"
	                        " WHERE o.startNs >= s.startNs AND o.startNs < s.endNs)", 0));
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM step WHERE rank = 0", 0), 1);
	/* PMU: one stored metric per distinct (task, numeric metric) of a compute task */
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM kernel_metric m JOIN kernel k ON k.id = m.kernel_id"
	                        " WHERE k.rank = 0", 0),
	                 scalar(src, "SELECT count(DISTINCT p.globalTaskId || ',' || p.name) FROM TASK_PMU_INFO p"
	                        " JOIN COMPUTE_TASK_INFO c USING (globalTaskId) JOIN TASK USING (globalTaskId)"
	                        " WHERE typeof(p.value) IN ('integer', 'real')", 0));
	ck_assert_int_eq(scalar(db->sql, "SELECT sum(m.value) FROM kernel_metric m JOIN kernel k ON k.id = m.kernel_id"
	                        " WHERE k.rank = 0 AND m.metric = 'aic_total_cycles'", 0),
	                 scalar(src, "SELECT sum(p.value) FROM TASK_PMU_INFO p JOIN STRING_IDS s ON s.id = p.name"
	                        " WHERE s.value = 'aic_total_cycles'", 0));
	/* host ops: type 50001 rows except the ProfilerStep span; TEXT times exact */
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM op WHERE rank = 0", 0),
	                 scalar(src, "SELECT count(*) FROM PYTORCH_API p JOIN STRING_IDS s ON s.id = p.name"
	                        " WHERE p.type = 50001 AND s.value NOT LIKE 'ProfilerStep#%'", 0));
	ck_assert_int_eq(scalar(db->sql, "SELECT sum(dur_ns) FROM op WHERE rank = 0", 0),
	                 scalar(src, "SELECT sum(CAST(p.endNs AS INTEGER) - CAST(p.startNs AS INTEGER))"
	                        " FROM PYTORCH_API p JOIN STRING_IDS s ON s.id = p.name"
	                        " WHERE p.type = 50001 AND s.value NOT LIKE 'ProfilerStep#%'", 0));
	/* self time never exceeds total, and the tree loses no time: sum of self
	 * over a thread's top-level ops' subtrees = sum of top-level durations */
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM op WHERE self_ns < 0 OR self_ns > dur_ns", 0), 0);
	/* device time of all ops' own kernels = kernels launched by an op: every
	 * compute task and communication op of this capture has a launching op */
	ck_assert_int_eq(scalar(db->sql, "SELECT sum(device_self_ns) FROM op WHERE rank = 0", 0),
	                 scalar(src, "SELECT (SELECT sum(t.endNs - t.startNs) FROM TASK t JOIN COMPUTE_TASK_INFO c"
	                        " USING (globalTaskId) WHERE t.connectionId IN (SELECT c2.connectionId FROM"
	                        " CONNECTION_IDS c2 JOIN PYTORCH_API p ON p.connectionId = c2.id WHERE p.type = 50001))"
	                        " + (SELECT coalesce(sum(o.endNs - o.startNs), 0) FROM COMMUNICATION_OP o WHERE"
	                        " o.connectionId IN (SELECT c2.connectionId FROM CONNECTION_IDS c2 JOIN PYTORCH_API p"
	                        " ON p.connectionId = c2.id WHERE p.type = 50001))", 0));
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM source_file WHERE role = 'ascend_db'"
	                        " AND sha256 IS NOT NULL AND length(sha256) = 64", 0), 2);
	sqlite3_close(src);
	profdb_close(db);
}
END_TEST

/* ---------------------------------------------------------------- synthetic */

/*
 * A hand-made database.  Host ops on thread 7 (times from a 19-digit base,
 * stored as TEXT as torch_npu does):
 *   A [0,100)  B [10,40) in A  C [20,30) in B  D [50,60) in A;  E [0,50) on thread 8
 *   ProfilerStep#3 [0,200) encloses them all.
 * Self: A = 100-30-10 = 60, B = 30-10 = 20, C = 10, D = 10, E = 50.
 * Kernels (TASK + COMPUTE_TASK_INFO), launched through CONNECTION_IDS:
 *   k1 by C: [25,30) = 5 ns AI_CORE;  k2 by D: [300,307) = 7 ns, starts after
 *   every step span but its launch (D) is in step 3.  k3 unlinked [500,502).
 * One non-kernel TASK row.  One communication op by E: [40,60) = 20 ns.
 * Device self: C 5, D 7, E 20; totals: B 5, A 12 (aicore: A 5).
 */
static const char synth_sql[] =
	"CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
	"INSERT INTO STRING_IDS VALUES (1,'k1'),(2,'k2'),(3,'k3'),(4,'AI_CORE'),(5,'AI_VECTOR_CORE'),"
	" (6,'MatMul'),(7,'Add'),(8,'KERNEL_AICORE'),(9,'EVENT_RECORD'),(10,'A'),(11,'B'),(12,'C'),(13,'D'),"
	" (14,'E'),(15,'ProfilerStep#3'),(16,'hcom_allReduce__1_0'),(17,'hcom_allReduce_'),(18,'aic_mac_ratio'),"
	" (19,'aic_total_cycles'),(20,'8,16;16'),(21,'f1'),(22,'f2'),(23,'YES');"
	/* columns in another order than the corpus, newer blockNum names */
	"CREATE TABLE TASK (modelId INTEGER, taskId INTEGER, globalTaskId INTEGER, endNs INTEGER,"
	" startNs INTEGER, streamId INTEGER, deviceId INTEGER, connectionId INTEGER, contextId INTEGER,"
	" taskType INTEGER);"
	"INSERT INTO TASK VALUES (4294967295, 11, 100, 1000000000000000030, 1000000000000000025, 2, 5, 901,"
	" 4294967295, 8), (4294967295, 12, 101, 1000000000000000307, 1000000000000000300, 2, 5, 902, 3, 8),"
	" (7, 13, 102, 1000000000000000502, 1000000000000000500, 3, 5, NULL, 0, 8),"
	" (4294967295, 14, 103, 1000000000000000600, 1000000000000000550, 2, 5, 903, 4294967295, 9);"
	"CREATE TABLE COMPUTE_TASK_INFO (waitNs INTEGER, opType INTEGER, name INTEGER, taskType INTEGER,"
	" globalTaskId INTEGER, mixBlockNum INTEGER, blockNum INTEGER, inputShapes INTEGER, opState INTEGER,"
	" hf32Eligible INTEGER);"
	"INSERT INTO COMPUTE_TASK_INFO VALUES (0, 6, 1, 4, 100, 0, 24, 20, 21, 23), (70, 7, 2, 5, 101, 2, 8, NULL,"
	" 22, NULL), (90, 7, 3, 5, 102, 0, 1, NULL, NULL, NULL);"
	"CREATE TABLE _COMPUTE_TASK_INFO_old_20251014 (name INTEGER, globalTaskId INTEGER, block_dim INTEGER);"
	"INSERT INTO _COMPUTE_TASK_INFO_old_20251014 VALUES (1, 100, 99), (1, 555, 99);"
	"CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER, value NUMERIC);"
	"INSERT INTO TASK_PMU_INFO VALUES (100, 18, 0.5), (100, 19, 1234), (101, 19, 77), (102, 18, 'N/A');"
	"CREATE TABLE COMMUNICATION_OP (opType INTEGER, connectionId INTEGER, opName INTEGER, endNs INTEGER,"
	" startNs INTEGER, waitNs INTEGER);"
	"INSERT INTO COMMUNICATION_OP VALUES (17, 904, 16, 1000000000000000060, 1000000000000000040, 11);"
	"CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
	/* connection 902 also belongs to id 0, a queue event: the op D must still be found */
	"INSERT INTO CONNECTION_IDS VALUES (1, 901), (2, 902), (3, 904), (0, 902);"
	"CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER,"
	" name INTEGER, sequenceNumber INTEGER, type INTEGER, inputShapes INTEGER);"
	"INSERT INTO PYTORCH_API VALUES"
	" ('1000000000000000000', '1000000000000000200', 7, NULL, 15, -1, 50001, NULL),"
	" ('1000000000000000000', '1000000000000000100', 7, NULL, 10, 5, 50001, 20),"
	" ('1000000000000000010', '1000000000000000040', 7, NULL, 11, -1, 50001, NULL),"
	" ('1000000000000000020', '1000000000000000030', 7, 1, 12, -1, 50001, NULL),"
	" ('1000000000000000050', '1000000000000000060', 7, 2, 13, -1, 50001, NULL),"
	" ('1000000000000000000', '1000000000000000050', 8, 3, 14, -1, 50001, NULL),"
	" ('1000000000000000000', '1000000000000000050', 7, 0, 13, -1, 50002, NULL);"
	"CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
	"INSERT INTO STEP_TIME VALUES (3, 1000000000000000000, 1000000000000000200),"
	" (4, 1000000000000000200, 1000000000000000290);"
	"CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);";

static const char *make_db(const char *dir, const char *name, const char *extra)
{
	static char path[4][600];
	static int next;
	char *p = path[next++ % 4];
	sqlite3 *s = NULL;
	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	ck_assert_int_eq(sqlite3_open(p, &s), SQLITE_OK);
	exec(s, synth_sql);
	exec(s, extra);
	sqlite3_close(s);
	return p;
}

static const struct tu_kernel *find_kernel(const struct tu_sink *s, const char *name)
{
	for (size_t i = 0; i < s->nkernels; i++)
		if (strcmp(s->kernels[i].name, name) == 0)
			return &s->kernels[i];
	ck_abort_msg("kernel %s not read", name);
	return NULL;
}

static const struct tu_op *find_op(const struct tu_sink *s, const char *name, int64_t tid)
{
	for (size_t i = 0; i < s->nops; i++)
		if (strcmp(s->ops[i].name, name) == 0 && s->ops[i].tid == tid)
			return &s->ops[i];
	ck_abort_msg("op %s not read", name);
	return NULL;
}

#define BASE 1000000000000000000LL

START_TEST(synthetic_records)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	const struct tu_kernel *k;
	const struct tu_op *o;
	const char *path = make_db(tu_tmpdir(), "msprof_9.db", "INSERT INTO RANK_DEVICE_MAP VALUES (3, 5);");

	tu_sink_init(&s);
	ctx = tu_ctx(&s, path);
	ck_assert_msg(profdb__reader_ascend_db.read(&ctx) == PROFDB_OK, "%s", s.err.msg);
	/* 3 compute tasks + 1 communication op; the EVENT_RECORD task is no kernel */
	ck_assert_uint_eq(s.nkernels, 4);
	k = find_kernel(&s, "k1");
	ck_assert_int_eq(k->rank, 3);
	ck_assert_int_eq(k->device, 5);
	ck_assert_int_eq(k->start_ns, BASE + 25);
	ck_assert_int_eq(k->dur_ns, 5);
	ck_assert_int_eq(k->block_dim, 24);
	ck_assert_int_eq(k->task_id, 11);
	ck_assert_int_eq(k->stream, 2);
	ck_assert_int_eq(k->wait_ns, 0);
	ck_assert_str_eq(k->type, "MatMul");
	ck_assert_str_eq(k->core, "AI_CORE");
	ck_assert_str_eq(k->in_shapes, "8,16;16");
	ck_assert_int_eq(k->kind, PROFDB_KIND_KERNEL);
	ck_assert_uint_eq(k->nmetrics, 2);
	ck_assert_int_eq(k->step, 3);
	k = find_kernel(&s, "k2");
	ck_assert_int_eq(k->dur_ns, 7);
	ck_assert_int_eq(k->wait_ns, 70);
	ck_assert_uint_eq(k->nmetrics, 1);
	/* starts in no step span (300 >= 290), but its launch D is in step 3 */
	ck_assert_int_eq(k->step, 3);
	k = find_kernel(&s, "k3");
	ck_assert_uint_eq(k->nmetrics, 0); /* 'N/A' is no value */
	ck_assert_int_eq(k->step, PROFDB_NULL); /* unlinked, starts after all steps */
	ck_assert_str_eq(k->core, "AI_VECTOR_CORE");
	k = find_kernel(&s, "hcom_allReduce__1_0");
	ck_assert_int_eq(k->kind, PROFDB_KIND_COMM);
	ck_assert_str_eq(k->core, "COMMUNICATION");
	ck_assert_str_eq(k->type, "hcom_allReduce_");
	ck_assert_int_eq(k->dur_ns, 20);
	ck_assert_int_eq(k->wait_ns, 11);
	ck_assert_int_eq(k->step, 3);
	ck_assert_int_eq(k->device, 5);
	/* steps */
	ck_assert_uint_eq(s.nsteps, 2);
	ck_assert_int_eq(s.steps[0].step, 3);
	ck_assert_int_eq(s.steps[0].start_ns, BASE);
	ck_assert_int_eq(s.steps[1].end_ns, BASE + 290);
	/* host ops: 5 (ProfilerStep#3 is a step, the 50002 row is a queue event) */
	ck_assert_uint_eq(s.nops, 5);
	o = find_op(&s, "A", 7);
	ck_assert_int_eq(o->start_ns, BASE);
	ck_assert_int_eq(o->dur_ns, 100);
	ck_assert_int_eq(o->self_ns, 60);
	ck_assert_int_eq(o->device_self_ns, 0);
	ck_assert_int_eq(o->device_total_ns, 12);
	ck_assert_int_eq(o->step, 3);
	ck_assert_str_eq(o->in_shapes, "8,16;16");
	o = find_op(&s, "B", 7);
	ck_assert_int_eq(o->self_ns, 20);
	ck_assert_int_eq(o->device_total_ns, 5);
	o = find_op(&s, "C", 7);
	ck_assert_int_eq(o->self_ns, 10);
	ck_assert_int_eq(o->device_self_ns, 5);
	o = find_op(&s, "D", 7);
	ck_assert_int_eq(o->self_ns, 10);
	ck_assert_int_eq(o->device_self_ns, 7);
	o = find_op(&s, "E", 8);
	ck_assert_int_eq(o->self_ns, 50);
	ck_assert_int_eq(o->device_self_ns, 20);
	ck_assert_int_eq(o->device_total_ns, 20);
	/* read = 3 compute + 1 comm + 6 op rows; the ProfilerStep op is skipped */
	ck_assert_int_eq(s.rows_read, 10);
	ck_assert_int_eq(s.skipped, 1);
	tu_sink_free(&s);
}
END_TEST

/* Through the store: aicore device time and contextId 4294967295 = none. */
START_TEST(synthetic_store)
{
	const char *dir = tu_tmpdir();
	profdb *db = NULL;
	make_db(dir, "ascend_pytorch_profiler_2.db", "INSERT INTO RANK_DEVICE_MAP VALUES (-1, 0);");
	db = ingest(dir, "syn");
	/* rank -1 is unset: the _2 of the file name */
	ck_assert_int_eq(scalar(db->sql, "SELECT count(DISTINCT rank) FROM kernel", 0), 1);
	ck_assert_int_eq(scalar(db->sql, "SELECT rank FROM kernel LIMIT 1", 0), 2);
	ck_assert_int_eq(scalar(db->sql, "SELECT device_total_aicore_ns FROM op_v WHERE name = 'A'", 0), 5);
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM kernel_v WHERE context_id IS NULL"
	                        " AND kind = 'kernel'", 0), 1);
	ck_assert_int_eq(scalar(db->sql, "SELECT context_id FROM kernel_v WHERE name = 'k2'", 0), 3);
	ck_assert_int_eq(scalar(db->sql, "SELECT hf32 FROM kernel_v k JOIN kernel USING (id)"
	                        " WHERE k.name = 'k1'", 0), 1);
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM kernel_v WHERE name = 'k2' AND mix_block_dim = 2", 0), 1);
	ck_assert_int_eq(scalar(db->sql, "SELECT rows_skipped FROM source_file WHERE role = 'ascend_db'", 0), 1);
	profdb_close(db);
}
END_TEST

/* export_type=db folder: rank from profiler_info_N.json (rank_id a string). */
START_TEST(folder_rank_from_profiler_info)
{
	const char *dir = tu_tmpdir();
	char pt[600], out[700], info[700];
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	static const char json[] = "{\"config\": {}, \"rank_id\": \"6\"}";

	snprintf(pt, sizeof pt, "%s/host_1_ascend_pt", dir);
	snprintf(out, sizeof out, "%s/ASCEND_PROFILER_OUTPUT", pt);
	snprintf(info, sizeof info, "%s/profiler_info_6.json", pt);
	ck_assert_int_eq(mkdir(pt, 0700), 0);
	ck_assert_int_eq(mkdir(out, 0700), 0);
	ck_assert_int_eq(tu_write_file(info, json, strlen(json)), 0);
	make_db(out, "ascend_pytorch_profiler.db", "INSERT INTO RANK_DEVICE_MAP VALUES (-1, 0);");
	tu_sink_init(&s);
	ctx = tu_ctx(&s, pt);
	ck_assert_msg(profdb__reader_ascend_db.read(&ctx) == PROFDB_OK, "%s", s.err.msg);
	ck_assert_uint_eq(s.nkernels, 4);
	for (size_t i = 0; i < s.nkernels; i++)
		ck_assert_int_eq(s.kernels[i].rank, 6);
	ck_assert_uint_eq(s.nsources, 2); /* the json and the db */
	tu_sink_free(&s);
}
END_TEST

/* A database still in its write-ahead log is read with the log. */
START_TEST(wal_is_read)
{
	const char *dir = tu_tmpdir();
	char path[600];
	sqlite3 *w = NULL;
	struct tu_sink s;
	struct profdb_reader_ctx ctx;

	snprintf(path, sizeof path, "%s/msprof_1.db", dir);
	ck_assert_int_eq(sqlite3_open(path, &w), SQLITE_OK);
	exec(w, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;");
	exec(w, synth_sql);
	/* the writer stays open: the rows are only in msprof_1.db-wal */
	tu_sink_init(&s);
	ctx = tu_ctx(&s, path);
	ck_assert_msg(profdb__reader_ascend_db.read(&ctx) == PROFDB_OK, "%s", s.err.msg);
	ck_assert_uint_eq(s.nkernels, 4);
	tu_sink_free(&s);
	sqlite3_close(w);
}
END_TEST

START_TEST(not_ascend_db)
{
	const char *dir = tu_tmpdir();
	char path[600], bad[600];
	sqlite3 *w = NULL;
	struct tu_sink s;
	struct profdb_reader_ctx ctx;

	snprintf(path, sizeof path, "%s/other.db", dir);
	ck_assert_int_eq(sqlite3_open(path, &w), SQLITE_OK);
	exec(w, "CREATE TABLE x (a); INSERT INTO x VALUES (1);");
	sqlite3_close(w);
	tu_sink_init(&s);
	ctx = tu_ctx(&s, path);
	ck_assert_int_eq(profdb__reader_ascend_db.read(&ctx), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(s.err.msg, "not an Ascend profiler database"));
	ck_assert_ptr_nonnull(strstr(s.err.msg, "other.db"));
	tu_sink_free(&s);

	snprintf(bad, sizeof bad, "%s/msprof_0.db", dir);
	ck_assert_int_eq(tu_write_file(bad, "SQLite format 3\0garbage garbage garbage", 40), 0);
	tu_sink_init(&s);
	ctx = tu_ctx(&s, bad);
	ck_assert_int_eq(profdb__reader_ascend_db.read(&ctx), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(s.err.msg, "msprof_0.db"));
	tu_sink_free(&s);
}
END_TEST

/* ---------------------------------------------------------------- CSV vs DB */

/*
 * testdata/ascend_db: one capture as kernel_details.csv and as the .db that
 * make_db.py builds from it.  Both ingests must store the same kernel table
 * (communication rows: the CSV says core HCCL, model 4294967295 and Block
 * Dim 0 - msprof's placeholders - where COMMUNICATION_OP has no such
 * columns and the reader says core COMMUNICATION, so those three fields are
 * compared for compute rows only; Device_id is not in this CSV's header).
 */
START_TEST(csv_and_db_same_kernels)
{
	profdb *db = NULL;
	struct profdb_ingest_opts o = PROFDB_INGEST_OPTS_INIT;
	sqlite3_stmt *a = NULL, *b = NULL;
	static const char q[] = /* hf32 and op_state are not in kernel_v */
		"SELECT name, kind, type, start_ns, dur_ns, wait_ns, step, rank, stream, task_id,"
		" CASE kind WHEN 'kernel' THEN block_dim END, mix_block_dim,"
		" CASE kind WHEN 'kernel' THEN core END, CASE kind WHEN 'kernel' THEN model_id END,"
		" context_id, input_shapes, input_dtypes, input_formats, output_shapes, output_dtypes,"
		" output_formats, (SELECT hf32 FROM kernel k WHERE k.id = kernel_v.id),"
		" (SELECT s.value FROM kernel k JOIN str s ON s.id = k.op_state_id WHERE k.id = kernel_v.id),"
		" (SELECT count(*) FROM kernel_metric m WHERE m.kernel_id = kernel_v.id),"
		" (SELECT total(m.value) FROM kernel_metric m WHERE m.kernel_id = kernel_v.id)"
		" FROM kernel_v WHERE run = ?1 ORDER BY start_ns, name";
	int64_t n = 0;
	int ra;

	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	o.run = "csv";
	ck_assert_msg(profdb_ingest(db, NULL, tu_testdata("ascend_db/csv/rank0_ascend_pt"), &o) == PROFDB_OK,
	              "%s", profdb_errmsg(db));
	o.run = "db";
	ck_assert_msg(profdb_ingest(db, NULL, tu_testdata("ascend_db/db/rank0_ascend_pt"), &o) == PROFDB_OK,
	              "%s", profdb_errmsg(db));
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, q, -1, &a, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, q, -1, &b, NULL), SQLITE_OK);
	sqlite3_bind_text(a, 1, "csv", -1, SQLITE_STATIC);
	sqlite3_bind_text(b, 1, "db", -1, SQLITE_STATIC);
	while ((ra = sqlite3_step(a)) == SQLITE_ROW) {
		ck_assert_int_eq(sqlite3_step(b), SQLITE_ROW);
		for (int c = 0; c < sqlite3_column_count(a); c++) {
			const char *x = (const char *)sqlite3_column_text(a, c);
			const char *y = (const char *)sqlite3_column_text(b, c);
			ck_assert_msg((!x && !y) || (x && y && strcmp(x, y) == 0), "row %lld (%s) column %s: csv '%s', db '%s'",
			              (long long)n, sqlite3_column_text(a, 0), sqlite3_column_name(a, c),
			              x ? x : "NULL", y ? y : "NULL");
		}
		n++;
	}
	ck_assert_int_eq(ra, SQLITE_DONE);
	ck_assert_int_eq(sqlite3_step(b), SQLITE_DONE);
	/* 50 data rows in the trimmed kernel_details.csv, 4 of them communication */
	ck_assert_int_eq(n, 50);
	ck_assert_int_eq(scalar(db->sql, "SELECT count(*) FROM kernel_v WHERE run = 'db' AND kind = 'communication'", 0), 4);
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	profdb_close(db);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ingest_ascend_db");
	TCase *t = tcase_create("corpus");
	tcase_add_test(t, corpus_level0);
	tcase_add_test(t, corpus_level1_two_ranks);
	tcase_add_test(t, corpus_msprof_lone_file);
	tcase_add_test(t, corpus_level1_details);
	suite_add_tcase(s, t);
	t = tcase_create("synthetic");
	tcase_add_test(t, synthetic_records);
	tcase_add_test(t, synthetic_store);
	tcase_add_test(t, folder_rank_from_profiler_info);
	tcase_add_test(t, wal_is_read);
	tcase_add_test(t, not_ascend_db);
	suite_add_tcase(s, t);
	t = tcase_create("csv_vs_db");
	tcase_add_test(t, csv_and_db_same_kernels);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
