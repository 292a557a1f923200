/*
 * query_memory.c - profdb memory: the allocator's record (table memory,
 * schema 012) per run, rank and device: peak allocated and reserved bytes,
 * when the peak was, allocations and frees, what is still allocated at
 * the end; per step (by_step), or a down-sampled curve (timeline).
 *
 * A device's series is one per source file, device and component (Ascend's
 * APP, PTA, GE ... are separate allocators' totals).  The allocated bytes
 * after an event are the profiler's Total Allocated when written, else the
 * running sum of Bytes from the start of the file: memory allocated before
 * the profiler started is unknown, so such a curve starts at 0 (doc/analyses.md
 * "memory").  Plain SQL: the statements are the definitions.
 */
#include <string.h>

#include "memory.h"
#include "banned.h"

#define TIMELINE_POINTS 200
#define TIMELINE_MAX 100000

/* The columns that name one series. */
#define SERIES_KEY "run_id, rank, device_type, device_id, component"

void profdb__memory_series_sql(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	struct profdb_filter whole = *f, steps = PROFDB_FILTER_INIT;
	/* the running sums need every row of the file, whatever steps are asked */
	whole.step_lo = whole.step_hi = PROFDB_NULL;
	whole.name_glob = whole.kind = NULL;
	steps.step_lo = f->step_lo;
	steps.step_hi = f->step_hi;
	profdb__qbuf_add(b, "WITH e AS (SELECT m.id, m.run_id, m.source_id, m.rank, m.device_type, m.device_id,"
	                 " m.component, m.ts_ns, m.step, m.bytes, m.addr, m.tid, m.total_reserved AS reserved,"
	                 " coalesce(m.total_allocated, sum(m.bytes) OVER (PARTITION BY m.source_id, m.device_type,"
	                 "  m.device_id, m.component ORDER BY m.ts_ns, m.id ROWS UNBOUNDED PRECEDING)) AS alloc,"
	                 " min(m.ts_ns) OVER (PARTITION BY m.run_id, m.rank) AS t0"
	                 " FROM memory m WHERE 1");
	profdb__qfilter_where(b, &whole, "m", QF_STEP, 0);
	profdb__qbuf_add(b, "),\nf AS (SELECT * FROM e WHERE 1");
	profdb__qfilter_where(b, &steps, "e", QF_STEP, 0);
	profdb__qbuf_add(b, ")");
}

enum { D_RUN, D_RANK, D_TYPE, D_ID, D_COMP, D_STEP, D_EVENTS, D_ALLOCS, D_FREES, D_ABYTES, D_FBYTES,
       D_PEAK, D_PSTEP, D_PAT, D_PRES, D_END, D_CAP, D_PCT, D_N };
static const enum profdb_coltype device_types[D_N] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT,
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT,
	PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_PCT
};

/* Per series (and step): the peak is the first event that reaches the
 * highest allocated value; the end is the series' last event. */
static void device_sql(struct profdb__qbuf *b, const struct profdb_memory_query *q)
{
	const char *key = q->by_step ? SERIES_KEY ", step" : SERIES_KEY;
	profdb__memory_series_sql(b, &q->filter);
	profdb__qbuf_addf(b, ",\np AS (SELECT f.*,"
	                  " row_number() OVER (PARTITION BY %s ORDER BY f.alloc DESC, f.ts_ns, f.id) AS pk,"
	                  " row_number() OVER (PARTITION BY %s ORDER BY f.ts_ns DESC, f.id DESC) AS lst FROM f)\n",
	                  key, key);
	/* the device's memory: Kineto's deviceProperties (run_meta, per rank)
	 * entry whose id is the event's Device Id; not the CPU's */
	profdb__qbuf_add(b, ",\ncap AS (SELECT rm.run_id, rm.rank, CAST(CASE WHEN je.type = 'object' THEN"
	                 " json_extract(je.value, '$.id') END AS INTEGER) AS dev, max(CASE WHEN je.type = 'object' THEN"
	                 " CAST(json_extract(je.value, '$.totalGlobalMem') AS INTEGER) END) AS bytes"
	                 " FROM run_meta rm, json_each(CASE WHEN json_valid(rm.value) THEN rm.value ELSE '[]' END) je"
	                 " WHERE rm.key = 'deviceProperties' GROUP BY 1, 2, 3)\n");
	profdb__qbuf_add(b, "SELECT r.name AS run, p.rank, p.device_type, p.device_id, p.component, p.step,"
	                 " count(*) AS events,"
	                 " CASE WHEN count(p.bytes) THEN count(CASE WHEN p.bytes > 0 THEN 1 END) END AS allocations,"
	                 " CASE WHEN count(p.bytes) THEN count(CASE WHEN p.bytes < 0 THEN 1 END) END AS frees,"
	                 " CASE WHEN count(p.bytes) THEN coalesce(sum(CASE WHEN p.bytes > 0 THEN p.bytes END), 0)"
	                 "  END AS allocated_bytes,"
	                 " CASE WHEN count(p.bytes) THEN coalesce(-sum(CASE WHEN p.bytes < 0 THEN p.bytes END), 0)"
	                 "  END AS freed_bytes,"
	                 " max(p.alloc) AS peak_allocated_bytes,"
	                 " max(CASE WHEN p.pk = 1 AND p.alloc IS NOT NULL THEN p.step END) AS peak_step,"
	                 " max(CASE WHEN p.pk = 1 AND p.alloc IS NOT NULL THEN p.ts_ns - p.t0 END) AS peak_at,"
	                 " max(p.reserved) AS peak_reserved_bytes,"
	                 " max(CASE WHEN p.lst = 1 THEN p.alloc END) AS end_allocated_bytes,"
	                 " max(c.bytes) AS capacity_bytes,"
	                 " 100.0 * max(p.alloc) / max(c.bytes) AS peak_pct_of_capacity"
	                 " FROM p JOIN run r ON r.id = p.run_id LEFT JOIN cap c ON c.run_id = p.run_id"
	                 "  AND c.rank = p.rank AND c.dev = p.device_id AND p.device_type <> 'CPU' AND c.bytes > 0");
	profdb__qbuf_addf(b, " GROUP BY p.run_id, p.rank, p.device_type, p.device_id, p.component%s"
	                  " ORDER BY p.run_id, p.rank, p.device_type, p.device_id, p.component%s",
	                  q->by_step ? ", p.step" : "", q->by_step ? ", p.step" : "");
}

enum { T_RUN, T_RANK, T_TYPE, T_ID, T_COMP, T_AT, T_EVENTS, T_ALLOC, T_RES, T_N };
static const enum profdb_coltype timeline_types[T_N] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_NS,
	PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_INT
};

/* The series cut into :points slices of equal time; a point per slice
 * with events: its first event's time and the highest values in it, so
 * the curve keeps every peak. */
static void timeline_sql(struct profdb__qbuf *b, const struct profdb_memory_query *q)
{
	profdb__memory_series_sql(b, &q->filter);
	profdb__qbuf_add(b, ",\nd AS (SELECT f.*, min(f.ts_ns) OVER w AS d0, max(f.ts_ns) OVER w AS d1 FROM f"
	                 " WINDOW w AS (PARTITION BY " SERIES_KEY ")),\n"
	                 "c AS (SELECT d.*, (d.ts_ns - d.d0) * :points / (d.d1 - d.d0 + 1) AS slice FROM d)\n"
	                 "SELECT r.name AS run, c.rank, c.device_type, c.device_id, c.component,"
	                 " min(c.ts_ns - c.t0) AS at, count(*) AS events, max(c.alloc) AS allocated_bytes,"
	                 " max(c.reserved) AS reserved_bytes FROM c JOIN run r ON r.id = c.run_id"
	                 " GROUP BY c.run_id, c.rank, c.device_type, c.device_id, c.component, c.slice"
	                 " ORDER BY c.run_id, c.rank, c.device_type, c.device_id, c.component, c.slice");
}

static int check(profdb *db, const struct profdb_memory_query *q)
{
	int rc;
	if ((rc = profdb__qfilter_check_no_kind(db, &q->filter, "memory")) != PROFDB_OK)
		return rc;
	if (q->filter.name_glob && !q->ops)
		return profdb__error(db, PROFDB_EUSAGE, "memory: --name applies to --ops only");
	if ((q->by_step != 0) + (q->timeline != 0) + (q->ops != 0) > 1)
		return profdb__error(db, PROFDB_EUSAGE, "memory: --by step, --timeline and --ops go one at a time");
	if (q->points < 0 || q->points > TIMELINE_MAX)
		return profdb__error(db, PROFDB_EUSAGE, "memory: --points must be 1 to %d", TIMELINE_MAX);
	return PROFDB_OK;
}

int profdb_query_memory(profdb *db, profdb_result **out, const struct profdb_memory_query *q)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	uint64_t drop = profdb__qfilter_run_column(&q->filter) ? 0 : 1;
	int rc, i;

	*out = NULL;
	if ((rc = profdb__version_check(db, q->version, PROFDB_MEMORY_QUERY_VERSION, "profdb_memory_query")) != PROFDB_OK)
		return rc;
	if ((rc = check(db, q)) != PROFDB_OK)
		return rc;
	if (q->ops)
		return profdb__memory_ops(db, out, q);
	if (q->timeline)
		timeline_sql(&b, q);
	else
		device_sql(&b, q);
	rc = profdb__query_prepare(db, &b, &st, "cannot query memory");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	if ((i = sqlite3_bind_parameter_index(st, ":points")) > 0)
		sqlite3_bind_int64(st, i, q->points ? q->points : TIMELINE_POINTS);
	/* per step: the step column, not the peak's step; else the reverse */
	if (!q->timeline)
		drop |= (uint64_t)1 << (q->by_step ? D_PSTEP : D_STEP);
	rc = profdb__spool_stmt(db, out, st, q->timeline ? timeline_types : device_types, NULL, NULL, drop);
	sqlite3_finalize(st);
	if (rc == PROFDB_OK && profdb__result_streamed(*out) == 0 && profdb_result_nrows(*out) == 0)
		rc = profdb__result_add_note(*out, "no memory events: Kineto traces have them when recorded with"
		                             " profile_memory=True; Ascend exports in memory_record.csv");
	return rc;
}
