/*
 * query_collectives.c - profdb collectives: the communication kernels
 * (stored kind 'communication') per collective, rank and run, or per step
 * across ranks.  The collective comes from the kernel name, lowercased:
 * hcom_allReduce__868_0_1 (Ascend HCCL), ncclKernel_AllReduce_RING_LL_...,
 * ncclDevKernel_AllGather_... (NCCL / RCCL) all name it; see
 * COLLECTIVE_SQL for the order of the tests (reduce_scatter before reduce).
 * Per step, the skew across ranks (max - min of the ranks' totals) is the
 * time the others spent waiting inside the collective for the rank with
 * the least collective time, which arrived last: waited_on_rank, named by
 * the straggler rule of profdb ranks (doc/analyses.md "ranks") only when the
 * median wait (median - least) is at least PROFDB_STRAGGLER_PCT % of the
 * median total, so noise names no rank.
 * Where the trace gives a kernel's collective args (Kineto NCCL kernels;
 * kernel_coll, schema 007) the rows split by process group and carry the
 * message bytes (larger of in / out nelems x dtype size: the NCCL-tests
 * size), algorithm bandwidth (bytes / time of the calls with a size) and
 * bus bandwidth (algbw x the NCCL-tests factor of the collective and group
 * size n: BUS_FACTOR_SQL; doc/analyses.md "collectives").  Ascend HCCL kernels
 * take the group, bytes per transport and wait / synchronization times of
 * their op in communication.json (comm_op, schema 009, linked by
 * comm_op_kernel_v); --by link lists communication_matrix.json's links.
 */
#include "query.h"
#include "analyses.h"
#include "banned.h"

#define COLLECTIVE_SQL \
	"CASE WHEN n GLOB '*reducescatter*' OR n GLOB '*reduce_scatter*' THEN 'reduce_scatter'" \
	" WHEN n GLOB '*allreduce*' OR n GLOB '*all_reduce*' THEN 'all_reduce'" \
	" WHEN n GLOB '*allgather*' OR n GLOB '*all_gather*' THEN 'all_gather'" \
	" WHEN n GLOB '*alltoall*' OR n GLOB '*all2all*' OR n GLOB '*all_to_all*' THEN 'all_to_all'" \
	" WHEN n GLOB '*broadcast*' THEN 'broadcast'" \
	" WHEN n GLOB '*sendrecv*' THEN 'send_recv'" \
	" WHEN n GLOB '*send*' THEN 'send'" \
	" WHEN n GLOB '*recv*' OR n GLOB '*receive*' THEN 'recv'" \
	" WHEN n GLOB '*reduce*' THEN 'reduce'" \
	" WHEN n GLOB '*barrier*' THEN 'barrier' ELSE 'other' END"

/* bus bandwidth / algorithm bandwidth (NCCL-tests doc/PERFORMANCE.md), n
 * the group size: all_reduce 2(n-1)/n; all_gather, reduce_scatter,
 * all_to_all (n-1)/n; broadcast, reduce and point-to-point 1 */
#define BUS_FACTOR_SQL \
	"CASE WHEN collective IN ('broadcast', 'reduce', 'send', 'recv', 'send_recv') THEN 1.0" \
	" WHEN group_size IS NULL OR group_size < 1 THEN NULL" \
	" WHEN collective = 'all_reduce' THEN 2.0 * (group_size - 1) / group_size" \
	" WHEN collective IN ('all_gather', 'reduce_scatter', 'all_to_all')" \
	"  THEN 1.0 * (group_size - 1) / group_size END"

/* a message size outside 0..2^48 elements is none (kineto.h; databases
 * written before the ingest left such sizes out hold them still) */
#define NELEMS_MAX "281474976710656"
#define INT64_END "9223372036854775808.0" /* 2^63: a REAL total from here is no int64 */

enum { C_RUN, C_COLL, C_PG, C_RANK, C_CALLS, C_TOTAL, C_AVG, C_MEDIAN, C_MAX, C_GROUP, C_DTYPE, C_BYTES,
	C_MSG, C_ALGBW, C_BUSBW, C_TBYTES, C_TGBPS, C_WAIT, C_SYNC, C_N };
static const enum profdb_coltype rank_types[C_N] = {
	PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT,
	PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_INT, PROFDB_COL_REAL, PROFDB_COL_NS,
	PROFDB_COL_NS
};
enum { L_RUN, L_RANK, L_STEP, L_SCOPE, L_PG, L_MATRIX, L_SRC, L_DST, L_TRANSPORT, L_OP, L_BYTES, L_TRANSIT,
	L_GBPS, L_N };
static const enum profdb_coltype link_types[L_N] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT,
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_NS,
	PROFDB_COL_REAL
};
enum { T_RUN, T_STEP, T_COLL, T_RANKS, T_CALLS, T_MIN, T_MEDIAN, T_MAX, T_SKEW, T_WAITED, T_WAIT_MAX, T_N };
static const enum profdb_coltype step_types[T_N] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_INT, PROFDB_COL_NS
};

/* The communication ops of ranks without any kernel row (an Ascend rank
 * whose export holds only analysis.db or communication.json): the export's
 * own record of those calls, each with its op's elapse time, added to the
 * calls so that such ranks are listed (README "### collectives"). */
static void op_only_where(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, " WHERE NOT EXISTS (SELECT 1 FROM kernel x WHERE x.run_id = o.run_id AND x.rank = o.rank)"
	         " AND o.elapse_ns IS NOT NULL");
	profdb__qfilter_where(b, f, "o", QF_STEP, 0);
	if (f->name_glob)
		profdb__qbuf_add(b, " AND o.op_name GLOB :glob");
}

static void c_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, "WITH c0 AS (SELECT k.run_id, k.rank, k.step, k.dur_ns, lower(s.value) AS n, o.wait_ns"
	         " FROM comm_op_kernel_v v JOIN kernel k ON k.id = v.kernel_id JOIN str s ON s.id = k.name_id"
	         " LEFT JOIN comm_op o ON o.id = v.comm_op_id WHERE k.kind = 3");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, " UNION ALL SELECT o.run_id, o.rank, o.step, o.elapse_ns, lower(o.op_name), o.wait_ns"
	         " FROM comm_op o");
	op_only_where(b, f);
	profdb__qbuf_add(b, "),\n c AS (SELECT run_id, rank, step, dur_ns, wait_ns, " COLLECTIVE_SQL " AS collective"
	         " FROM c0)\n");
}

/* The CTE c: one row per communication kernel of f with its collective,
 * process group, message bytes (msg) and bus factor; shared by the table
 * and by diff --table collectives (profdb__collective_calls). */
static void calls_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, "WITH c0 AS (SELECT k.run_id, k.rank, k.dur_ns, lower(s.value) AS n,"
	         " coalesce(a.pg_name, o.group_name) AS pg_name, a.pg_desc,"
	         " a.group_size, a.dtype, CASE WHEN coalesce(a.in_nelems, 0) BETWEEN 0 AND " NELEMS_MAX
	         " AND coalesce(a.out_nelems, 0) BETWEEN 0 AND " NELEMS_MAX " THEN max(coalesce(a.in_nelems,"
	         " a.out_nelems), coalesce(a.out_nelems, a.in_nelems)) * d.bytes END AS msg,"
	         " o.bytes AS tbytes, o.bytes_transit_ns AS tns, o.wait_ns, o.sync_ns"
	         /* the view drives (its kernel scan is the only one: flattened,
	          * the filters reach it), its op found only for a kernel */
	         " FROM comm_op_kernel_v v JOIN kernel k ON k.id = v.kernel_id JOIN str s ON s.id = k.name_id"
	         " LEFT JOIN kernel_coll a ON a.kernel_id = k.id LEFT JOIN dtype_size d ON d.dtype = a.dtype"
	         " LEFT JOIN comm_op_v o ON o.comm_op_id = v.comm_op_id WHERE k.kind = 3");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, " UNION ALL SELECT o.run_id, o.rank, o.elapse_ns, lower(o.op_name), o.group_name, NULL,"
	         " NULL, NULL, NULL, o.bytes, o.bytes_transit_ns, o.wait_ns, o.sync_ns FROM comm_op_v o");
	op_only_where(b, f);
	profdb__qbuf_add(b, "),\n c1 AS (SELECT *, " COLLECTIVE_SQL " AS collective FROM c0),\n"
	         " c AS (SELECT *, " BUS_FACTOR_SQL " AS factor,"
	         " pg_name || coalesce(' (' || pg_desc || ')', '') AS process_group FROM c1)\n");
}

static void rank_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	calls_sql(b, f);
	profdb__qbuf_add(b, "SELECT r.name AS run, c.collective, c.process_group, c.rank,"
	         " count(*) AS calls, sum(c.dur_ns) AS total,"
	         " avg(c.dur_ns) AS avg, median(c.dur_ns) AS median, max(c.dur_ns) AS max,"
	         " max(c.group_size) AS group_size,"
	         " CASE WHEN count(DISTINCT c.dtype) > 1 THEN 'mixed' ELSE max(c.dtype) END AS dtype,"
	         /* total(), not sum(): a message count from a hostile file must not
	          * stop the query with an integer overflow; a total past int64 is
	          * empty, never saturated below its own average */
	         " CASE WHEN count(c.msg) > 0 AND total(c.msg) < " INT64_END " THEN CAST(total(c.msg) AS INTEGER)"
	         " END AS bytes,"
	         " avg(c.msg) AS avg_msg_bytes,"
	         " total(c.msg) / nullif(sum(CASE WHEN c.msg IS NOT NULL THEN c.dur_ns END), 0) AS algbw_gbps,"
	         " CASE WHEN count(c.msg * c.factor) > 0 THEN total(c.msg * c.factor)"
	         "  / nullif(sum(CASE WHEN c.msg IS NOT NULL THEN c.dur_ns END), 0) END AS busbw_gbps,"
	         /* Ascend (communication.json): bytes over the transports'
	          * transit time, the export's own Bandwidth(GB/s) */
	         " CASE WHEN count(c.tbytes) > 0 AND total(c.tbytes) < " INT64_END " THEN CAST(total(c.tbytes) AS INTEGER)"
	         " END AS transit_bytes,"
	         " total(c.tbytes) / nullif(sum(CASE WHEN c.tbytes IS NOT NULL THEN c.tns END), 0) AS transit_gbps,"
	         " sum(c.wait_ns) AS wait, sum(c.sync_ns) AS sync"
	         " FROM c JOIN run r ON r.id = c.run_id"
	         " GROUP BY c.run_id, c.collective, c.pg_name, c.pg_desc, c.rank"
	         " ORDER BY c.run_id, c.collective, c.pg_name, c.pg_desc, c.rank");
}

int profdb__collective_calls(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	static const enum profdb_coltype types[] = {
		PROFDB_COL_TEXT, PROFDB_COL_NS, PROFDB_COL_REAL, PROFDB_COL_REAL
	};
	struct profdb__qbuf b = { 0 };
	int rc;

	*out = NULL;
	if ((rc = profdb__qfilter_check(db, f)) != PROFDB_OK)
		return rc;
	calls_sql(&b, f);
	/* the figure is part of the key: NCCL calls give bus bandwidth, Ascend
	 * calls (communication.json) transit bandwidth, bytes over the time
	 * of their transports */
	profdb__qbuf_add(&b, "SELECT key, dur, msg, bus FROM ("
	         "SELECT c.collective || coalesce(' ' || c.process_group, '') || ' busbw_gbps' AS key,"
	         " c.dur_ns AS dur, c.msg, c.msg * c.factor AS bus, c.run_id, c.rank FROM c"
	         " WHERE c.msg IS NOT NULL AND c.factor IS NOT NULL"
	         " UNION ALL SELECT c.collective || coalesce(' ' || c.process_group, '') || ' transit_gbps',"
	         " c.tns, NULL, c.tbytes, c.run_id, c.rank FROM c WHERE c.tbytes IS NOT NULL AND c.tns > 0)"
	         " ORDER BY key, run_id, rank, dur");
	return profdb__result_query(db, out, &b, f, types, "cannot query collectives");
}

static void step_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	c_sql(b, f);
	/* waited_on_rank by a window, not a subquery per group (that one
	 * re-read the kernel table for every step: 1.9 s on 2.4 M kernels) */
	profdb__qbuf_addf(b, ", t AS (SELECT run_id, step, collective, rank, count(*) AS n, sum(dur_ns) AS tot,"
	         " sum(wait_ns) AS wait FROM c GROUP BY run_id, step, collective, rank),\n"
	         " w AS (SELECT *, first_value(rank) OVER (PARTITION BY run_id, step, collective"
	         "  ORDER BY tot, rank) AS waited FROM t)\n"
	         "SELECT r.name AS run, w.step, w.collective, count(*) AS ranks, sum(w.n) AS calls,"
	         " min(w.tot) AS total_min, median(w.tot) AS total_median, max(w.tot) AS total_max,"
	         " max(w.tot) - min(w.tot) AS skew, CASE WHEN count(*) >= 2 AND"
	         "  (median(w.tot) - min(w.tot)) * 100.0 >= %.17g * median(w.tot) THEN min(w.waited) END"
	         "  AS waited_on_rank,"
	         /* Ascend: the profiler's own measure, the longest a rank waited */
	         " max(w.wait) AS wait_max"
	         " FROM w JOIN run r ON r.id = w.run_id GROUP BY w.run_id, w.step, w.collective"
	         " ORDER BY w.run_id, w.step, w.collective", PROFDB_STRAGGLER_PCT);
}

/* The links of Ascend communication_matrix.json (comm_link), as stored. */
static void link_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, "SELECT r.name AS run, l.rank, l.step, l.scope, l.group_name AS process_group, l.matrix_op,"
	         " l.src_rank, l.dst_rank, l.transport, l.op_name, l.bytes, l.transit_ns AS transit, l.bandwidth_gbps"
	         " FROM comm_link l JOIN run r ON r.id = l.run_id WHERE 1");
	profdb__qfilter_where(b, f, "l", QF_STEP, 0);
	if (f->name_glob)
		profdb__qbuf_add(b, " AND l.op_name GLOB :glob");
	profdb__qbuf_add(b, " ORDER BY l.run_id, l.rank, l.step, l.scope, l.group_name, l.matrix_op, l.src_rank,"
	         " l.dst_rank, l.rowid");
}

/* A narrow terminal keeps calls, total time and the bandwidths (per
 * step: the skew and the rank waited on; format_table.c). */
static const char *const headline_cols[] = {
	"calls", "total", "algbw_gbps", "busbw_gbps", "skew", "waited_on_rank", NULL
};
static const char *const hide_cols[] = {
	"sync", "wait", "transit_gbps", "transit_bytes", "avg_msg_bytes", "group_size", "avg",
	"median", "max", "total_min|total_max", "wait_max", "dtype", "bytes", "process_group",
	"ranks", NULL
};

int profdb_query_collectives(profdb *db, profdb_result **out, const struct profdb_collective_query *q)
{
	struct profdb__qbuf b = { 0 };
	const enum profdb_coltype *types = q->by_link ? link_types : q->by_step ? step_types : rank_types;
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if ((rc = profdb__version_check(db, q->version, PROFDB_COLLECTIVE_QUERY_VERSION, "profdb_collective_query")) != PROFDB_OK)
		return rc;
	if ((rc = profdb__qfilter_check_no_kind(db, &q->filter, "collectives reads communication kernels only")) != PROFDB_OK)
		return rc;
	if (q->by_link)
		link_sql(&b, &q->filter);
	else if (q->by_step)
		step_sql(&b, &q->filter);
	else
		rank_sql(&b, &q->filter);
	rc = profdb__query_prepare(db, &b, &st, "cannot query collectives");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	/* streamed (memory stays flat); run is column 0 in every shape */
	rc = profdb__spool_stmt(db, out, st, types, NULL, NULL, profdb__qfilter_run_column(&q->filter) ? 0 : 1);
	sqlite3_finalize(st);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}
