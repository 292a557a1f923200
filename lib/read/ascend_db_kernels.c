/*
 * ascend_db_kernels.c - the device kernels of an Ascend SQLite export: TASK joined
 * with COMPUTE_TASK_INFO (TASK's other rows are event records, SDMA, notify
 * waits: not kernels) with their TASK_PMU_INFO metrics, and the
 * COMMUNICATION_OP rows kernel_details.csv lists among the kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascend_db.h"
#include "banned.h"

/* Collected PMU metrics of one kernel (names owned). */
struct pmu {
	sqlite3_stmt *q;           /* ordered by globalTaskId; NULL: no PMU table */
	int more;                  /* q is on a row */
	struct profdb_metric *m;
	size_t n, cap;
};

static void pmu_clear(struct pmu *p)
{
	for (size_t i = 0; i < p->n; i++)
		free((char *)p->m[i].name);
	p->n = 0;
}

/* Gather the metrics of task gid (the cursor moves forward only). */
static int pmu_collect(struct profdb__adb *r, struct pmu *p, int64_t gid)
{
	pmu_clear(p);
	while (p->more && sqlite3_column_int64(p->q, 0) < gid)
		p->more = sqlite3_step(p->q) == SQLITE_ROW;
	for (; p->more && sqlite3_column_int64(p->q, 0) == gid; p->more = sqlite3_step(p->q) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(p->q, 1);
		double v;
		int t = sqlite3_column_type(p->q, 2);
		if (!name)
			continue;
		if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
			v = sqlite3_column_double(p->q, 2);
		} else {
			const char *s = (const char *)sqlite3_column_text(p->q, 2);
			if (!s || profdb__parse_double(s, strlen(s), &v) != 0)
				continue; /* N/A: no value */
		}
		if (p->n == p->cap) {
			struct profdb_metric *m = realloc(p->m, (p->cap = p->cap ? p->cap * 2 : 64) * sizeof *m);
			if (!m)
				return profdb__adb_oom(r);
			p->m = m;
		}
		p->m[p->n].name = strdup(name);
		if (!p->m[p->n].name)
			return profdb__adb_oom(r);
		p->m[p->n++].value = v;
	}
	return PROFDB_OK;
}

static int64_t hf32_of(const char *s)
{
	if (!s)
		return PROFDB_NULL;
	if (strcmp(s, "YES") == 0 || strcmp(s, "1") == 0)
		return 1;
	if (strcmp(s, "NO") == 0 || strcmp(s, "0") == 0)
		return 0;
	return PROFDB_NULL;
}

static const char *const task_why[2] = {
	"compute task without name, start or end", "compute task ends before it starts"
};
static const char *const comm_why[2] = {
	"communication op without name, start or end", "communication op ends before it starts"
};

/*
 * Row number line of a kernel query (start, end in columns 0 and 1, the
 * name in column name): counts it and fills k's name, times and rank; 1 if
 * usable, else 0 with the row skipped (the skip's code in *rc).
 */
static int task_row(struct profdb__adb *r, sqlite3_stmt *q, int name, const char *const why[2], int64_t line,
                    struct profdb_kernel_rec *k, int *rc)
{
	int64_t end;
	r->rows++;
	profdb__kernel_rec_init(k);
	k->name = (const char *)sqlite3_column_text(q, name);
	if (!profdb__adb_row_span(r, q, k->name != NULL, why, line, &k->start_ns, &end, rc))
		return 0;
	k->dur_ns = end - k->start_ns;
	k->rank = r->rank;
	return 1;
}

/* Send a kernel, in the step of the op that launched it (its task
 * connection conn), after charging its time to that op. */
static int send_task(struct profdb__adb *r, struct profdb_kernel_rec *k, int64_t conn)
{
	k->step = profdb__adb_kernel_step(r, conn, k->start_ns);
	profdb__adb_charge(r, conn, k->dur_ns, k->core);
	return profdb__sink_kernel(r->sink, k);
}

/* Prepare *q over the compute tasks: TASK joined with COMPUTE_TASK_INFO,
 * each column picked by the name this file's schema gives it. */
static int prepare_tasks(struct profdb__adb *r, sqlite3_stmt **q)
{
	static const char *const fmt =
		"SELECT t.startNs, t.endNs, %s, %s, %s, %s, %s, %s, c.globalTaskId,"
		" %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"
		" FROM COMPUTE_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId"
		" ORDER BY c.globalTaskId, t.startNs";
	char sql[4096], a[22][192];
	const char *T = "TASK", *C = "COMPUTE_TASK_INFO";

	snprintf(sql, sizeof sql, fmt,
	         profdb__adb_pick(r, a[0], sizeof a[0], "t", T, "deviceId", NULL),
	         profdb__adb_pick(r, a[1], sizeof a[1], "t", T, "streamId", NULL),
	         profdb__adb_pick(r, a[2], sizeof a[2], "t", T, "taskId", NULL),
	         profdb__adb_pick(r, a[3], sizeof a[3], "t", T, "modelId", NULL),
	         profdb__adb_pick(r, a[4], sizeof a[4], "t", T, "contextId", NULL),
	         profdb__adb_pick(r, a[5], sizeof a[5], "t", T, "connectionId", NULL),
	         profdb__adb_str_of(r, a[6], sizeof a[6], "c", C, "name", NULL),
	         profdb__adb_str_of(r, a[7], sizeof a[7], "c", C, "opType", NULL),
	         profdb__adb_str_of(r, a[8], sizeof a[8], "c", C, "taskType", NULL),
	         profdb__adb_pick(r, a[9], sizeof a[9], "c", C, "blockNum", "blockDim"),
	         profdb__adb_pick(r, a[10], sizeof a[10], "c", C, "mixBlockNum", "mixBlockDim"),
	         profdb__adb_pick(r, a[11], sizeof a[11], "c", C, "waitNs", NULL),
	         profdb__adb_str_of(r, a[12], sizeof a[12], "c", C, "inputShapes", NULL),
	         profdb__adb_str_of(r, a[13], sizeof a[13], "c", C, "inputDataTypes", NULL),
	         profdb__adb_str_of(r, a[14], sizeof a[14], "c", C, "inputFormats", NULL),
	         profdb__adb_str_of(r, a[15], sizeof a[15], "c", C, "outputShapes", NULL),
	         profdb__adb_str_of(r, a[16], sizeof a[16], "c", C, "outputDataTypes", NULL),
	         profdb__adb_str_of(r, a[17], sizeof a[17], "c", C, "outputFormats", NULL),
	         profdb__adb_str_of(r, a[18], sizeof a[18], "c", C, "opState", NULL),
	         /* hf32Eligible: a STRING_IDS id (YES/NO) in the documented schema */
	         profdb__adb_str_of(r, a[19], sizeof a[19], "c", C, "hf32Eligible", NULL));
	if (sqlite3_prepare_v2(r->db, sql, -1, q, NULL) != SQLITE_OK)
		return profdb__adb_fail_sql(r, "COMPUTE_TASK_INFO");
	return PROFDB_OK;
}

/* Open p's cursor over TASK_PMU_INFO when the file has one (p->q stays
 * NULL otherwise: kernels without metrics). */
static int pmu_open(struct profdb__adb *r, struct pmu *p)
{
	if (!profdb__adb_has_table(r, "TASK_PMU_INFO") || !profdb__adb_has_col(r, "TASK_PMU_INFO", "globalTaskId") ||
	    !profdb__adb_has_col(r, "TASK_PMU_INFO", "name") || !profdb__adb_has_col(r, "TASK_PMU_INFO", "value"))
		return PROFDB_OK;
	if (sqlite3_prepare_v2(r->db, "SELECT p.globalTaskId, s.value, p.value FROM TASK_PMU_INFO p"
	    " JOIN STRING_IDS s ON s.id = p.name WHERE p.globalTaskId IS NOT NULL"
	    " ORDER BY p.globalTaskId", -1, &p->q, NULL) != SQLITE_OK)
		return profdb__adb_fail_sql(r, "TASK_PMU_INFO");
	p->more = sqlite3_step(p->q) == SQLITE_ROW;
	return PROFDB_OK;
}

/* The columns of a compute task row of prepare_tasks' query into k (its
 * name and times are task_row's). */
static void task_columns(sqlite3_stmt *q, struct profdb_kernel_rec *k)
{
	k->device = profdb__adb_col_i64(q, 2);
	k->stream = profdb__adb_col_i64(q, 3);
	k->task_id = profdb__adb_col_i64(q, 4);
	k->model_id = profdb__adb_col_i64(q, 5);
	k->context_id = profdb__adb_col_i64(q, 6);
	if (k->context_id == UINT32_MAX) /* "no context": kernel_details writes N/A */
		k->context_id = PROFDB_NULL;
	k->type = (const char *)sqlite3_column_text(q, 10);
	k->core = (const char *)sqlite3_column_text(q, 11);
	k->block_dim = profdb__adb_col_i64(q, 12);
	k->mix_block_dim = profdb__adb_col_i64(q, 13);
	k->wait_ns = profdb__adb_col_i64(q, 14);
	k->in_shapes = (const char *)sqlite3_column_text(q, 15);
	k->in_dtypes = (const char *)sqlite3_column_text(q, 16);
	k->in_formats = (const char *)sqlite3_column_text(q, 17);
	k->out_shapes = (const char *)sqlite3_column_text(q, 18);
	k->out_dtypes = (const char *)sqlite3_column_text(q, 19);
	k->out_formats = (const char *)sqlite3_column_text(q, 20);
	k->op_state = (const char *)sqlite3_column_text(q, 21);
	k->hf32 = hf32_of((const char *)sqlite3_column_text(q, 22));
	/* as kernel_details.csv: a collective's op type (or name) is
	 * communication whatever table holds it (kind.c) */
	k->kind = profdb__kind_of_device(PROFDB_KIND_KERNEL, k->type ? k->type : k->name);
}

int profdb__adb_read_kernels(struct profdb__adb *r)
{
	sqlite3_stmt *q = NULL;
	struct pmu p = { 0 };
	int64_t line = 0;
	int rc;

	if (!profdb__adb_has_table(r, "COMPUTE_TASK_INFO") || !profdb__adb_has_table(r, "TASK"))
		return PROFDB_OK;
	if ((rc = prepare_tasks(r, &q)) != PROFDB_OK)
		return rc;
	rc = pmu_open(r, &p);
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct profdb_kernel_rec k;
		int64_t gid = sqlite3_column_int64(q, 8);
		if (!task_row(r, q, 9, task_why, ++line, &k, &rc))
			continue;
		task_columns(q, &k);
		if (p.q && (rc = pmu_collect(r, &p, gid)) != PROFDB_OK)
			break;
		k.metrics = p.m;
		k.nmetrics = p.n;
		rc = send_task(r, &k, profdb__adb_col_i64(q, 7));
	}
	pmu_clear(&p);
	free(p.m);
	sqlite3_finalize(p.q);
	sqlite3_finalize(q);
	return rc;
}

/* Communication operators: kernel_details.csv lists them among the kernels. */
int profdb__adb_read_comm(struct profdb__adb *r)
{
	const char *O = "COMMUNICATION_OP";
	char sql[1024], a[4][192];
	sqlite3_stmt *q = NULL;
	int64_t line = 0;
	int rc = PROFDB_OK;

	if (!profdb__adb_has_table(r, O) || !profdb__adb_has_col(r, O, "startNs") || !profdb__adb_has_col(r, O, "endNs"))
		return PROFDB_OK;
	snprintf(sql, sizeof sql, "SELECT o.startNs, o.endNs, %s, %s, %s, %s FROM COMMUNICATION_OP o"
	         " ORDER BY o.startNs",
	         profdb__adb_str_of(r, a[0], sizeof a[0], "o", O, "opName", NULL),
	         profdb__adb_str_of(r, a[1], sizeof a[1], "o", O, "opType", NULL),
	         profdb__adb_pick(r, a[2], sizeof a[2], "o", O, "waitNs", NULL),
	         profdb__adb_pick(r, a[3], sizeof a[3], "o", O, "connectionId", NULL));
	if (sqlite3_prepare_v2(r->db, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__adb_fail_sql(r, O);
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct profdb_kernel_rec k;
		if (!task_row(r, q, 2, comm_why, ++line, &k, &rc))
			continue;
		k.device = r->device;
		k.kind = PROFDB_KIND_COMM;
		k.type = (const char *)sqlite3_column_text(q, 3);
		k.core = "COMMUNICATION";
		k.wait_ns = profdb__adb_col_i64(q, 4);
		rc = send_task(r, &k, profdb__adb_col_i64(q, 5));
	}
	sqlite3_finalize(q);
	return rc;
}
