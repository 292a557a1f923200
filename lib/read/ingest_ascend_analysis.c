/*
 * ingest_ascend_analysis.c - ASCEND_PROFILER_OUTPUT/analysis.db (FORMATS.md
 * 4, "analysis.db"): the SQLite form of the export's own communication
 * analysis (CommAnalyzerTime, CommAnalyzerBandwidth, CommAnalyzerMatrix:
 * communication.json and communication_matrix.json as tables) and of its
 * step table (StepTraceTime: step_trace_time.csv).  A rank of a multi-card
 * export may hold only this file (no kernel table): it is then the only
 * record of that rank's collectives and steps.  The folder reader takes it
 * only where the text form is absent (the same analysis twice would count
 * twice).
 *
 * Units as the real files hold them, not as the guide says: elapse, transit,
 * wait, synchronization and idle times ms, start_timestamp µs, sizes MB
 * (10^6 bytes, as in communication.json), StepTraceTime µs like
 * step_trace_time.csv.  Records go to the sink as those files' readers send
 * them (struct profdb_comm_rec, step metrics under step_trace_time.csv's
 * column names), so every query reads them alike.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "ascend_csv.h"
#include "banned.h"

/* Largest analysis.db hashed whole (they are tens of kilobytes). */
#define ANALYSIS_MAX ((size_t)256 << 20)

#define MB_BYTES 6
#define MS_NS 6
#define US_NS 3
#define BAD (INT64_MIN + 1) /* out of range: the row is a skip */

struct adb {
	const struct profdb__ascend_src *src;
	const char *path;
	sqlite3 *db;
	int64_t rows;
};

/* Column i in units 10^-exp of it, from the shortest text that reads back
 * as the stored double (what the writer printed): PROFDB_NULL when NULL or
 * not a number, BAD when negative or out of int64. */
static int64_t scaled(sqlite3_stmt *st, int i, int exp)
{
	char text[40];
	double v;
	int64_t x;
	int n;
	if (sqlite3_column_type(st, i) != SQLITE_INTEGER && sqlite3_column_type(st, i) != SQLITE_FLOAT)
		return PROFDB_NULL;
	v = sqlite3_column_double(st, i);
	if (!(v >= 0) || !isfinite(v))
		return BAD;
	n = profdb__number_text(text, sizeof text, v);
	return n > 0 && profdb__parse_ns(text, (size_t)n, exp, &x) == 0 ? x : BAD;
}

static double real(sqlite3_stmt *st, int i)
{
	int t = sqlite3_column_type(st, i);
	double v = sqlite3_column_double(st, i);
	return (t == SQLITE_INTEGER || t == SQLITE_FLOAT) && isfinite(v) ? v : NAN;
}

static const char *text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* N of "stepN" (CommAnalyzer*) or of "N" (StepTraceTime); PROFDB_NULL else. */
static int64_t step_of(const char *s)
{
	int64_t v;
	if (!s)
		return PROFDB_NULL;
	if (strncmp(s, "step", 4) == 0)
		s += 4;
	return *s && profdb__parse_i64(s, strlen(s), &v) == 0 ? v : PROFDB_NULL;
}

static int has_table(struct adb *a, const char *name)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;
	if (sqlite3_prepare_v2(a->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", -1, &st,
	                       NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return yes;
}

static int prepare(struct adb *a, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(a->db, sql, -1, st, NULL) != SQLITE_OK)
		return profdb__err_set(a->src->ctx->err, PROFDB_EFORMAT, "%s: %s", a->path, sqlite3_errmsg(a->db));
	return PROFDB_OK;
}

static int done(struct adb *a, sqlite3_stmt *st, int step_rc, int rc)
{
	if (rc == PROFDB_OK && step_rc != SQLITE_DONE)
		rc = profdb__err_set(a->src->ctx->err, PROFDB_EFORMAT, "%s: %s", a->path, sqlite3_errmsg(a->db));
	sqlite3_finalize(st);
	return rc;
}

static int skip(struct adb *a, const char *reason)
{
	return profdb__sink_skip(a->src->ctx->sink, reason, a->rows);
}

/* ---------------------------------------------------------------- CommAnalyzerBandwidth */

/* The size distribution rows (package_size, count, total_duration) of one
 * transport as communication.json writes it: {"<MB>": [count, ms], ...}. */
static int dist_add(char *buf, size_t cap, size_t *len, double mb, double count, double ms)
{
	char a[40], b[40], c[40];
	int na = profdb__number_text(a, sizeof a, mb), nb = profdb__number_text(b, sizeof b, count);
	int nc = profdb__number_text(c, sizeof c, ms);
	int n = snprintf(buf + *len, cap - *len, "%s\"%.*s\": [%.*s, %.*s]", *len > 1 ? ", " : "", na, a, nb, b,
	                 nc, c);
	if (n < 0 || (size_t)n >= cap - *len)
		return -1;
	*len += (size_t)n;
	return 0;
}

/* One transport (the rows of st from the current one on with its name):
 * sent after its op; *step_rc: the last sqlite3_step (SQLITE_ROW: st holds
 * the next transport's first row). */
static int send_transport(struct adb *a, const struct profdb_comm_rec *op, sqlite3_stmt *st, int *step_rc)
{
	struct profdb_comm_rec c = *op;
	char name[64], dist[4096] = "{";
	size_t len = 1;
	int rc, trunc = 0;
	snprintf(name, sizeof name, "%s", text(st, 0) ? text(st, 0) : "");
	c.what = PROFDB_COMM_TRANSPORT;
	c.transport = name;
	c.bytes = scaled(st, 1, MB_BYTES);
	c.transit_ns = scaled(st, 2, MS_NS);
	c.bandwidth_gbps = real(st, 3);
	c.large_packet_ratio = real(st, 4);
	do {
		if (real(st, 6) > 0 && !trunc)
			trunc = dist_add(dist, sizeof dist - 1, &len, real(st, 5), real(st, 6), real(st, 7));
		rc = sqlite3_step(st);
	} while (rc == SQLITE_ROW && strcmp(text(st, 0) ? text(st, 0) : "", name) == 0);
	*step_rc = rc;
	memcpy(dist + len, "}", 2);
	c.size_dist = trunc ? NULL : dist;
	if (c.bytes == BAD || c.transit_ns == BAD)
		return skip(a, "analysis.db transport size or time negative or out of range");
	return profdb__sink_comm(a->src->ctx->sink, &c);
}

static int send_transports(struct adb *a, const struct profdb_comm_rec *op, const char *step, const char *type)
{
	sqlite3_stmt *st = NULL;
	int rc, src = SQLITE_DONE;
	if (!has_table(a, "CommAnalyzerBandwidth"))
		return PROFDB_OK;
	rc = prepare(a, "SELECT transport_type, transit_size, transit_time, bandwidth, large_packet_ratio,"
	                " package_size, count, total_duration FROM CommAnalyzerBandwidth"
	                " WHERE hccl_op_name = ?1 AND step IS ?2 AND type IS ?3 ORDER BY transport_type, rowid", &st);
	if (rc != PROFDB_OK)
		return rc;
	sqlite3_bind_text(st, 1, op->op_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, step, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, type, -1, SQLITE_STATIC);
	src = sqlite3_step(st);
	while (src == SQLITE_ROW) {
		if ((rc = send_transport(a, op, st, &src)) != PROFDB_OK)
			break;
	}
	return done(a, st, rc == PROFDB_OK ? src : SQLITE_DONE, rc);
}

/* ---------------------------------------------------------------- CommAnalyzerTime */

static int read_ops(struct adb *a)
{
	sqlite3_stmt *st = NULL;
	int rc, src = SQLITE_DONE;
	if (!has_table(a, "CommAnalyzerTime"))
		return PROFDB_OK;
	rc = prepare(a, "SELECT hccl_op_name, group_name, start_timestamp, elapse_time, transit_time, wait_time,"
	                " synchronization_time, idle_time, step, type FROM CommAnalyzerTime ORDER BY rowid", &st);
	while (rc == PROFDB_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
		/* the ratios are not in the table: unknown, not computed here */
		struct profdb_comm_rec c = {
			.what = PROFDB_COMM_OP, .rank = a->src->rank, .step = step_of(text(st, 8)),
			.scope = text(st, 9) ? text(st, 9) : "collective", .op_name = text(st, 0), .group = text(st, 1),
			.src_rank = PROFDB_NULL, .dst_rank = PROFDB_NULL,
			.start_ns = scaled(st, 2, US_NS), .elapse_ns = scaled(st, 3, MS_NS),
			.transit_ns = scaled(st, 4, MS_NS), .wait_ns = scaled(st, 5, MS_NS),
			.sync_ns = scaled(st, 6, MS_NS), .idle_ns = scaled(st, 7, MS_NS), .bytes = PROFDB_NULL,
			.wait_ratio = NAN, .sync_ratio = NAN, .bandwidth_gbps = NAN, .large_packet_ratio = NAN,
		};
		a->rows++;
		if (!c.op_name)
			rc = skip(a, "analysis.db communication op without hccl_op_name");
		else if (c.start_ns == BAD || c.elapse_ns == BAD || c.transit_ns == BAD || c.wait_ns == BAD ||
		         c.sync_ns == BAD || c.idle_ns == BAD)
			rc = skip(a, "analysis.db communication op time negative or out of range");
		else if ((rc = profdb__sink_comm(a->src->ctx->sink, &c)) == PROFDB_OK)
			rc = send_transports(a, &c, text(st, 8), text(st, 9));
	}
	return st ? done(a, st, rc == PROFDB_OK ? src : SQLITE_DONE, rc) : rc;
}

/* ---------------------------------------------------------------- CommAnalyzerMatrix */

static int read_links(struct adb *a)
{
	sqlite3_stmt *st = NULL;
	int rc, src = SQLITE_DONE;
	if (!has_table(a, "CommAnalyzerMatrix"))
		return PROFDB_OK;
	rc = prepare(a, "SELECT hccl_op_name, group_name, src_rank, dst_rank, transport_type, transit_size,"
	                " transit_time, bandwidth, step, type, op_name FROM CommAnalyzerMatrix ORDER BY rowid", &st);
	while (rc == PROFDB_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
		struct profdb_comm_rec c = {
			.what = PROFDB_COMM_LINK, .rank = a->src->rank, .step = step_of(text(st, 8)),
			.scope = text(st, 9) ? text(st, 9) : "collective", .matrix_op = text(st, 0), .group = text(st, 1),
			.transport = text(st, 4), .bytes = scaled(st, 5, MB_BYTES), .transit_ns = scaled(st, 6, MS_NS),
			.bandwidth_gbps = real(st, 7), .op_name = text(st, 10),
			.start_ns = PROFDB_NULL, .elapse_ns = PROFDB_NULL, .wait_ns = PROFDB_NULL, .sync_ns = PROFDB_NULL,
			.idle_ns = PROFDB_NULL, .wait_ratio = NAN, .sync_ratio = NAN, .large_packet_ratio = NAN,
		};
		a->rows++;
		if (!c.matrix_op || !text(st, 2) || !text(st, 3) ||
		    profdb__parse_i64(text(st, 2), strlen(text(st, 2)), &c.src_rank) != 0 ||
		    profdb__parse_i64(text(st, 3), strlen(text(st, 3)), &c.dst_rank) != 0)
			rc = skip(a, "analysis.db communication link without a name or numeric ranks");
		else if (c.bytes == BAD || c.transit_ns == BAD)
			rc = skip(a, "analysis.db communication link size or time negative or out of range");
		else
			rc = profdb__sink_comm(a->src->ctx->sink, &c);
	}
	return st ? done(a, st, rc == PROFDB_OK ? src : SQLITE_DONE, rc) : rc;
}

/* ---------------------------------------------------------------- StepTraceTime */

/* step_trace_time.csv's name of a StepTraceTime column (so that both forms
 * are one set of metrics); NULL for the columns that are not metrics. */
static const char *metric_name(const char *col)
{
	static const char *const map[][2] = {
		{ "computing", "Computing" },
		{ "communication_not_overlapped", "Communication(Not Overlapped)" },
		{ "overlapped", "Overlapped" },
		{ "communication", "Communication" },
		{ "free", "Free" },
		{ "stage", "Stage" },
		{ "bubble", "Bubble" },
		{ "communication_not_overlapped_and_exclude_receive",
		  "Communication(Not Overlapped and Exclude Receive)" },
		{ "preparing", "Preparing" },
	};
	if (!col || strcmp(col, "step") == 0 || strcmp(col, "deviceId") == 0)
		return NULL;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(col, map[i][0]) == 0)
			return map[i][1];
	return col;
}

static int step_row(struct adb *a, sqlite3_stmt *st)
{
	struct profdb_sink *s = a->src->ctx->sink;
	int64_t step = PROFDB_NULL;
	int rc = PROFDB_OK, n = sqlite3_column_count(st);
	for (int i = 0; i < n; i++)
		if (strcmp(sqlite3_column_name(st, i), "step") == 0)
			step = step_of(text(st, i));
	for (int i = 0; i < n && rc == PROFDB_OK; i++) {
		const char *m = metric_name(sqlite3_column_name(st, i));
		double v = real(st, i);
		if (m && !isnan(v))
			rc = profdb__sink_step_metric(s, a->src->rank, step, m, v);
	}
	if (rc == PROFDB_OK && step != PROFDB_NULL) {
		struct profdb_step_rec sr = { a->src->rank, step, PROFDB_NULL, PROFDB_NULL };
		rc = profdb__sink_step(s, &sr);
	}
	return rc;
}

static int read_steps(struct adb *a)
{
	sqlite3_stmt *st = NULL;
	int rc, src = SQLITE_DONE;
	if (!has_table(a, "StepTraceTime"))
		return PROFDB_OK;
	rc = prepare(a, "SELECT * FROM StepTraceTime ORDER BY rowid", &st);
	while (rc == PROFDB_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
		a->rows++;
		rc = step_row(a, st);
	}
	return st ? done(a, st, rc == PROFDB_OK ? src : SQLITE_DONE, rc) : rc;
}

/* ---------------------------------------------------------------- the file */

int profdb__ascend_read_analysis(const struct profdb__ascend_src *src, const char *path, int comm, int steps)
{
	const struct profdb_reader_ctx *ctx = src->ctx;
	struct adb a = { src, path, NULL, 0 };
	unsigned char *buf = NULL;
	size_t len = 0;
	uint64_t size = 0;
	char sha[65], note[4400];
	int rc = profdb__ascend_slurp(path, ANALYSIS_MAX, ctx->limits->gzip_max_bytes, &buf, &len, sha, &size,
	                              ctx->err);

	free(buf);
	if (rc == 1) {
		snprintf(note, sizeof note, "%s: larger than %zu bytes: not read", path, (size_t)ANALYSIS_MAX);
		return profdb__sink_note(ctx->sink, note);
	}
	if (rc != PROFDB_OK)
		return rc;
	if (sqlite3_open_v2(path, &a.db, SQLITE_OPEN_READONLY, profdb__vfs_longpath()) != SQLITE_OK ||
	    sqlite3_exec(a.db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
		rc = profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: cannot read as SQLite: %s", path,
		                     a.db ? sqlite3_errmsg(a.db) : "out of memory");
		goto out;
	}
	if ((rc = profdb__sql_source_check(a.db, path, ctx->err)) != PROFDB_OK)
		goto out;
	rc = profdb__sink_source_begin(ctx->sink, path, "analysis", src->rank, NULL, 0);
	if (rc == PROFDB_OK && comm && (rc = read_ops(&a)) == PROFDB_OK)
		rc = read_links(&a);
	if (rc == PROFDB_OK && steps)
		rc = read_steps(&a);
	if (rc == PROFDB_OK)
		rc = profdb__sink_source_end(ctx->sink, a.rows, sha, size);
out:
	sqlite3_close(a.db);
	return rc;
}
