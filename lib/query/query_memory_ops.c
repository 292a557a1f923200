/*
 * query_memory_ops.c - profdb memory --ops: per run, rank, device and
 * operator name, what the operator allocated and freed, what of it is
 * still held at the end of the trace and what of it is live at the
 * device's peak.
 *
 * An event's operator is the innermost host op that holds it on its own
 * thread (start <= ts < end), found by the one nesting of the project
 * (op_nest.c, torch's rule) over the thread's ops in start order, advanced
 * to each event's time.  An allocation is freed by the next event of the
 * same file, device and Addr when that is a free; without Addr (torch
 * before ~1.10) held and live bytes are unknown.
 *
 * Ascend exports have no per-event Bytes: their rows come from
 * operator_memory.csv (table op_memory), whose Name is the operator.
 */
#include <string.h>

#include "memory.h"
#include "model/op_nest.h"
#include "banned.h"

/* The ops of the threads that have memory events of f's runs and rank,
 * and those events, both per (run, rank, tid) in time order: merged in C. */
static void cursors_sql(struct profdb__qbuf *ops, struct profdb__qbuf *ev, const struct profdb_filter *f)
{
	struct profdb_filter runs = *f;
	runs.step_lo = runs.step_hi = PROFDB_NULL;
	profdb__qbuf_add(ev, "SELECT m.run_id, m.rank, m.tid, m.ts_ns, m.id FROM memory m"
	                 " WHERE m.bytes IS NOT NULL AND m.tid IS NOT NULL");
	profdb__qfilter_where(ev, &runs, "m", QF_STEP, 0);
	profdb__qbuf_add(ops, "SELECT o.run_id, o.rank, o.tid, o.start_ns, o.dur_ns, o.name_id, o.id FROM op o"
	                 " WHERE o.start_ns IS NOT NULL AND o.dur_ns IS NOT NULL AND o.tid IS NOT NULL"
	                 " AND (o.run_id, o.rank, o.tid) IN (SELECT DISTINCT m.run_id, m.rank, m.tid FROM memory m"
	                 "  WHERE m.bytes IS NOT NULL AND m.tid IS NOT NULL");
	profdb__qfilter_where(ops, &runs, "m", QF_STEP, 0);
	profdb__qbuf_add(ops, ") ORDER BY o.run_id, o.rank, o.tid, o.start_ns, o.dur_ns DESC, o.id");
	profdb__qbuf_add(ev, " ORDER BY m.run_id, m.rank, m.tid, m.ts_ns, m.id");
}

static int no_emit(void *arg, const struct profdb__nest_op *op)
{
	(void)arg;
	(void)op;
	return PROFDB_OK;
}

/* -1, 0, 1 as thread key a (3 columns of st at 0) sorts before, with, after b. */
static int key_cmp(sqlite3_stmt *a, sqlite3_stmt *b)
{
	for (int i = 0; i < 3; i++) {
		int64_t x = sqlite3_column_int64(a, i), y = sqlite3_column_int64(b, i);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

struct attrib {
	profdb *db;
	sqlite3_stmt *ops, *ev;
	int ops_rc;                /* the op cursor's last step */
	struct profdb__nest nest;
	struct profdb__spool spool;
};

/* The innermost op holding the current event (a row of ev), into the spool. */
static int attribute(struct attrib *a)
{
	int64_t ts = sqlite3_column_int64(a->ev, 3);
	struct profdb__nest_op *in;
	/* this thread's ops that start by ts go in; those of earlier threads are passed */
	while (a->ops_rc == SQLITE_ROW) {
		int c = key_cmp(a->ops, a->ev);
		if (c > 0 || (c == 0 && sqlite3_column_int64(a->ops, 3) > ts))
			break;
		if (c == 0) {
			struct profdb__nest_op op = { .id = sqlite3_column_int64(a->ops, 6),
				.start = sqlite3_column_int64(a->ops, 3), .dur = sqlite3_column_int64(a->ops, 4),
				.tag = sqlite3_column_int64(a->ops, 5) };
			if (op.dur >= 0 && profdb__nest_add(&a->nest, &op) == PROFDB_ERROR)
				return profdb__error(a->db, PROFDB_ERROR, "out of memory");
		}
		a->ops_rc = sqlite3_step(a->ops);
	}
	if (profdb__nest_advance(&a->nest, ts) != PROFDB_OK)
		return profdb__error(a->db, PROFDB_ERROR, "out of memory");
	in = profdb__nest_open(&a->nest, 0);
	if (profdb__result_set_int(a->spool.row, 0, 0, sqlite3_column_int64(a->ev, 4)) != PROFDB_OK ||
	    (in && profdb__result_set_int(a->spool.row, 0, 1, in->tag) != PROFDB_OK))
		return profdb__error(a->db, PROFDB_ERROR, "out of memory");
	return in ? profdb__spool_put(&a->spool) : PROFDB_OK;
}

static int prepare_cursors(profdb *db, struct attrib *a, const struct profdb_filter *f)
{
	struct profdb__qbuf ops = { 0 }, ev = { 0 };
	int rc;
	cursors_sql(&ops, &ev, f);
	rc = profdb__query_prepare(db, &ops, &a->ops, "cannot read ops");
	if (rc == PROFDB_OK)
		rc = profdb__query_prepare(db, &ev, &a->ev, "cannot read memory events");
	profdb__qbuf_free(&ops);
	profdb__qbuf_free(&ev);
	if (rc == PROFDB_OK) {
		profdb__qfilter_bind(a->ops, f);
		profdb__qfilter_bind(a->ev, f);
	}
	return rc;
}

/* temp.profdb_mem_op(mem_id, name_id): each event's op, for those in one. */
static int attribute_all(profdb *db, const struct profdb_filter *f)
{
	static const char *const names[] = { "mem_id", "name_id" };
	static const enum profdb_coltype types[] = { PROFDB_COL_INT, PROFDB_COL_INT };
	struct attrib a;
	int64_t thread[3] = { 0, 0, 0 };
	int rc, erc = SQLITE_ROW, first = 1;
	memset(&a, 0, sizeof a);
	a.db = db;
	if ((rc = profdb__spool_open(db, &a.spool, names, types, 2)) != PROFDB_OK)
		return rc;
	profdb__nest_init(&a.nest, 0, no_emit, NULL);
	if ((rc = prepare_cursors(db, &a, f)) != PROFDB_OK)
		goto out;
	a.ops_rc = sqlite3_step(a.ops);
	while (rc == PROFDB_OK && (erc = sqlite3_step(a.ev)) == SQLITE_ROW) {
		int same = !first;
		for (int i = 0; i < 3; i++) {
			same = same && thread[i] == sqlite3_column_int64(a.ev, i);
			thread[i] = sqlite3_column_int64(a.ev, i);
		}
		first = 0;
		/* a new thread: the last one's ops are done with */
		if (!same && profdb__nest_end(&a.nest) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		if (rc == PROFDB_OK)
			rc = attribute(&a);
	}
	if (rc == PROFDB_OK && (erc != SQLITE_DONE || (a.ops_rc != SQLITE_ROW && a.ops_rc != SQLITE_DONE)))
		rc = profdb__sqlerror(db, "cannot read memory events");
	if (rc == PROFDB_OK)
		rc = profdb__spool_keep(&a.spool, "profdb_mem_op", "rowid");
out:
	sqlite3_finalize(a.ops);
	sqlite3_finalize(a.ev);
	profdb__nest_free(&a.nest);
	profdb__spool_close(&a.spool);
	return rc;
}

enum { O_RUN, O_RANK, O_TYPE, O_ID, O_OP, O_ALLOCS, O_ABYTES, O_FREES, O_FBYTES, O_HELD, O_LIVE, O_N };
static const enum profdb_coltype ops_types[O_N] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT,
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT
};

/* Ascend operator_memory.csv (table op_memory): om, its rows of f's runs,
 * rank and steps; opk, each device's peak: the allocation time of the
 * first block whose Allocation Total Allocated is the device's highest. */
static void ascend_ctes(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	struct profdb_filter rows = *f;
	rows.name_glob = rows.kind = NULL;
	profdb__qbuf_add(b, ",\nom AS (SELECT * FROM op_memory o WHERE 1");
	profdb__qfilter_where(b, &rows, "o", QF_STEP, 0);
	profdb__qbuf_add(b, "),\nopk AS (SELECT run_id, rank, device_type, device_id, alloc_ns AS peak_ns FROM"
	                 " (SELECT om.*, row_number() OVER (PARTITION BY run_id, rank, device_type, device_id"
	                 "  ORDER BY alloc_total_allocated DESC, alloc_ns, id) AS rn FROM om"
	                 "  WHERE alloc_total_allocated IS NOT NULL AND alloc_ns IS NOT NULL) WHERE rn = 1)");
}

/* Per operator name, as msprof-analyze reads the file: a row of positive
 * size is an allocation, freed when it has a Release Time; a negative
 * size (written by some exports for a release) is a free of that many
 * bytes.  Held: allocated and never released; live at the peak: allocated
 * by the peak's time and released after it or never. */
static void ascend_select(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, "SELECT r.name AS run, o.rank, o.device_type, o.device_id, o.name AS op,"
	                 " count(CASE WHEN o.bytes > 0 THEN 1 END) AS allocations,"
	                 " coalesce(sum(CASE WHEN o.bytes > 0 THEN o.bytes END), 0) AS allocated_bytes,"
	                 " count(CASE WHEN o.bytes < 0 OR (o.bytes > 0 AND o.release_ns IS NOT NULL) THEN 1 END)"
	                 "  AS frees,"
	                 " coalesce(sum(CASE WHEN o.bytes < 0 THEN -o.bytes WHEN o.release_ns IS NOT NULL"
	                 "  THEN o.bytes END), 0) AS freed_bytes,"
	                 " coalesce(sum(CASE WHEN o.bytes > 0 AND o.release_ns IS NULL THEN o.bytes END), 0)"
	                 "  AS held_bytes,"
	                 " CASE WHEN max(p.peak_ns) IS NOT NULL THEN coalesce(sum(CASE WHEN o.bytes > 0"
	                 "  AND o.alloc_ns <= p.peak_ns AND (o.release_ns IS NULL OR o.release_ns > p.peak_ns)"
	                 "  THEN o.bytes END), 0) END AS live_at_peak_bytes"
	                 " FROM om o JOIN run r ON r.id = o.run_id"
	                 " LEFT JOIN opk p ON p.run_id = o.run_id AND p.rank = o.rank AND p.device_type = o.device_type"
	                 "  AND p.device_id IS o.device_id WHERE 1");
	if (f->name_glob)
		profdb__qbuf_add(b, " AND o.name GLOB :glob");
	profdb__qbuf_add(b, " GROUP BY o.run_id, o.rank, o.device_type, o.device_id, o.name");
}

/* An allocation's free_ns: the time of the next event at its Addr when
 * that is a free, -1 when none is (held at the end), NULL without Addr.
 * The peak of each series is that of profdb memory (its first event). */
static void ops_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__memory_series_sql(b, f);
	profdb__qbuf_add(b, ",\na AS (SELECT e.*, CASE WHEN e.bytes > 0 AND e.addr IS NOT NULL THEN"
	                 " CASE WHEN lead(e.bytes) OVER w < 0 THEN lead(e.ts_ns) OVER w ELSE -1 END END AS free_ns"
	                 " FROM e WINDOW w AS (PARTITION BY e.source_id, e.device_type, e.device_id, e.addr"
	                 "  ORDER BY e.ts_ns, e.id)),\n"
	                 "g AS (SELECT * FROM a WHERE a.bytes IS NOT NULL AND a.id IN (SELECT id FROM f)),\n"
	                 "pk AS (SELECT run_id, rank, device_type, device_id, component, ts_ns AS peak_ns FROM"
	                 " (SELECT f.*, row_number() OVER (PARTITION BY run_id, rank, device_type, device_id,"
	                 "  component ORDER BY f.alloc DESC, f.ts_ns, f.id) AS rn FROM f)"
	                 " WHERE rn = 1 AND alloc IS NOT NULL)");
	ascend_ctes(b, f);
	profdb__qbuf_add(b, "\nSELECT q.* FROM (SELECT r.name AS run, g.rank, g.device_type, g.device_id, coalesce(s.value, '(no op)') AS op,"
	                 " count(CASE WHEN g.bytes > 0 THEN 1 END) AS allocations,"
	                 " coalesce(sum(CASE WHEN g.bytes > 0 THEN g.bytes END), 0) AS allocated_bytes,"
	                 " count(CASE WHEN g.bytes < 0 THEN 1 END) AS frees,"
	                 " coalesce(-sum(CASE WHEN g.bytes < 0 THEN g.bytes END), 0) AS freed_bytes,"
	                 " CASE WHEN count(CASE WHEN g.bytes > 0 AND g.addr IS NULL THEN 1 END) = 0 THEN"
	                 "  coalesce(sum(CASE WHEN g.free_ns = -1 THEN g.bytes END), 0) END AS held_bytes,"
	                 " CASE WHEN count(CASE WHEN g.bytes > 0 AND g.addr IS NULL THEN 1 END) = 0"
	                 "  AND max(p.peak_ns) IS NOT NULL THEN coalesce(sum(CASE WHEN g.bytes > 0"
	                 "  AND g.ts_ns <= p.peak_ns AND (g.free_ns = -1 OR g.free_ns > p.peak_ns) THEN g.bytes END), 0)"
	                 "  END AS live_at_peak_bytes"
	                 " FROM g JOIN run r ON r.id = g.run_id"
	                 " LEFT JOIN temp.profdb_mem_op mo ON mo.mem_id = g.id LEFT JOIN str s ON s.id = mo.name_id"
	                 " LEFT JOIN pk p ON p.run_id = g.run_id AND p.rank = g.rank AND p.device_type = g.device_type"
	                 "  AND p.device_id IS g.device_id AND p.component IS g.component WHERE 1");
	if (f->name_glob)
		profdb__qbuf_add(b, " AND coalesce(s.value, '(no op)') GLOB :glob");
	profdb__qbuf_add(b, " GROUP BY g.run_id, g.rank, g.device_type, g.device_id, s.value\nUNION ALL\n");
	ascend_select(b, f);
	profdb__qbuf_add(b, ") q JOIN run rq ON rq.name = q.run"
	                 " ORDER BY rq.id, q.rank, q.device_type, q.device_id, q.live_at_peak_bytes DESC,"
	                 " q.allocated_bytes DESC, q.op");
}

int profdb__memory_ops(profdb *db, profdb_result **out, const struct profdb_memory_query *q)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = attribute_all(db, &q->filter)) != PROFDB_OK) {
		profdb__spool_drop(db, "profdb_mem_op");
		return rc;
	}
	ops_sql(&b, &q->filter);
	rc = profdb__query_prepare(db, &b, &st, "cannot query memory by op");
	profdb__qbuf_free(&b);
	if (rc == PROFDB_OK) {
		profdb__qfilter_bind(st, &q->filter);
		rc = profdb__spool_stmt(db, st, ops_types, NULL, NULL,
		                        profdb__qfilter_run_column(&q->filter) ? 0 : (uint64_t)1 << O_RUN, out);
	}
	sqlite3_finalize(st);
	profdb__spool_drop(db, "profdb_mem_op");
	return rc;
}
