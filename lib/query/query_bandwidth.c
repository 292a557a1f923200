/*
 * query_bandwidth.c - profdb bandwidth: memcpy and memset traffic per run,
 * rank, step (or per rank over the whole run) and direction.
 *
 * direction comes from the activity's name, as the profilers write it:
 * CUDA "Memcpy HtoD (Pageable -> Device)", "Memcpy DtoH ...", "Memcpy DtoD
 * ...", "Memcpy PtoP ..."; ROCm "CopyHostToDevice", "CopyDeviceToHost",
 * "CopyDeviceToDevice", "CopyPeerToPeer"; every memset is "memset"; a copy
 * we cannot place is "other"; an MTIA DMA's direction is its stored type
 * (HOST_TO_DEVICE, DEVICE_TO_HOST).  A transfer's rate is its own "memory
 * bandwidth (GB/s)" (Kineto's, from unrounded times) where stored, else
 * bytes / duration (bytes per ns is GB/s with GB = 10^9 bytes): traces
 * writing whole µs make a 1.4 µs copy "2 µs".  gbps = bytes / the time the
 * transfers with a byte count took at their rates (bytes / rate each);
 * max_gbps is the fastest single transfer.  Plain SQL: the statement is the
 * definition.
 */
#include <string.h>

#include "query.h"
#include "banned.h"

enum { B_RUN, B_RANK, B_STEP, B_DIR, B_COUNT_, B_SIZED, B_BYTES, B_TOTAL, B_GBPS, B_MAX, B_N };
static const enum profdb_coltype types[B_N] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT,
	PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_REAL, PROFDB_COL_REAL
};

static void bandwidth_sql(struct profdb__qbuf *b, const struct profdb_bandwidth_query *q)
{
	const char *step = q->by_rank ? "NULL" : "k.step";
	profdb__qbuf_addf(b, "WITH t AS (SELECT k.run_id, k.rank, %s AS step, k.dur_ns, k.bytes,"
	          " CASE WHEN k.bytes IS NOT NULL THEN coalesce(k.bytes / json_extract(k.metrics, '$.\"%s\"'),"
	          "  k.dur_ns) END AS rate_ns,"
	          " CASE WHEN k.kind = %d THEN 'memset'"
	          "  WHEN s.value GLOB '*HtoD*' OR s.value GLOB '*HostToDevice*' OR ty.value = 'HOST_TO_DEVICE'"
	          "   THEN 'HtoD'"
	          "  WHEN s.value GLOB '*DtoH*' OR s.value GLOB '*DeviceToHost*' OR ty.value = 'DEVICE_TO_HOST'"
	          "   THEN 'DtoH'"
	          "  WHEN s.value GLOB '*DtoD*' OR s.value GLOB '*DeviceToDevice*' THEN 'DtoD'"
	          "  WHEN s.value GLOB '*PtoP*' OR s.value GLOB '*PeerToPeer*' THEN 'PtoP'"
	          "  ELSE 'other' END AS direction"
	          " FROM kernel k JOIN str s ON s.id = k.name_id LEFT JOIN str ty ON ty.id = k.type_id"
	          " WHERE k.kind IN (%d, %d)",
	          step, PROFDB_METRIC_GBPS, PROFDB_KIND_MEMSET, PROFDB_KIND_MEMCPY, PROFDB_KIND_MEMSET);
	profdb__qfilter_where(b, &q->filter, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, ")\nSELECT r.name AS run, t.rank, t.step, t.direction, count(*) AS transfers,"
	         " count(t.bytes) AS sized, coalesce(sum(t.bytes), 0) AS bytes, sum(t.dur_ns) AS total,"
	         " CAST(sum(t.bytes) AS REAL) / nullif(sum(t.rate_ns), 0) AS gbps,"
	         " max(CAST(t.bytes AS REAL) / nullif(t.rate_ns, 0)) AS max_gbps"
	         " FROM t JOIN run r ON r.id = t.run_id GROUP BY t.run_id, t.rank, t.step, t.direction"
	         " ORDER BY t.run_id, t.rank, t.step, t.direction");
}

/* A narrow terminal keeps bytes and the rate (format_table.c). */
static const char *const headline_cols[] = {
	"bytes", "gbps", NULL
};
static const char *const hide_cols[] = {
	"max_gbps", "sized", "transfers", NULL
};

int profdb_query_bandwidth(profdb *db, profdb_result **out, const struct profdb_bandwidth_query *q)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if ((rc = profdb__version_check(db, q->version, PROFDB_BANDWIDTH_QUERY_VERSION, "profdb_bandwidth_query")) != PROFDB_OK)
		return rc;
	if ((rc = profdb__qfilter_check_no_kind(db, &q->filter, "bandwidth reads memcpy and memset only")) != PROFDB_OK)
		return rc;
	bandwidth_sql(&b, q);
	rc = profdb__query_prepare(db, &b, &st, "cannot query bandwidth");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	/* streamed (memory stays flat), less step (by rank) and run (one run) */
	rc = profdb__spool_stmt(db, out, st, types, NULL, NULL, (q->by_rank ? (uint64_t)1 << B_STEP : 0) |
	                        (profdb__qfilter_run_column(&q->filter) ? 0 : (uint64_t)1 << B_RUN));
	sqlite3_finalize(st);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}
