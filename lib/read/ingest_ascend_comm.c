/*
 * ingest_ascend_comm.c - communication.json and communication_matrix.json
 * of ASCEND_PROFILER_OUTPUT (FORMATS.md "communication.json"): the
 * export's own analysis of its HCCL ops, which kernel_details.csv lacks:
 * per op its wait, synchronization and transit times and per transport the
 * bytes moved; per rank pair the link's transport and bytes.  Records go to
 * the sink as struct profdb_comm_rec (tables comm_op, comm_transport,
 * comm_link, schema 009), sizes converted from the export's MB (10^6
 * bytes: msprof divides bytes by 1000 ** 2) and times from ms / us to ns.
 *
 * Both files are small (kilobytes per step and op) and read whole with
 * cJSON, like the export's other JSON files (ingest_ascend_meta.c); one over
 * comm_max_bytes (struct profdb_limits; cJSON needs several times the
 * text in memory) is left out with a run note, not read into memory.  Malformed
 * JSON stops the ingest naming the byte; an op or link of the wrong shape
 * or with a value out of range is a counted skip.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ascend_csv.h"
#include "banned.h"


/* A file being read: its export, path, and the rows (ops or links) seen. */
struct comm_file {
	const struct profdb__ascend_src *src;
	const char *path;
	int64_t rows;
};

/* The export's units as powers of ten of ours: MB is 10^6 bytes (msprof
 * COMMUNICATION_B_to_MB = 1000 ** 2), times are ms or µs. */
#define MB_BYTES 6
#define MS_NS 6
#define US_NS 3

/* Out-of-range values make the whole op or link a skip. */
#define BAD (INT64_MIN + 1) /* not PROFDB_NULL (INT64_MIN) */

/* A number member of o in units 10^-exp of it (exp 6: ms -> ns, MB ->
 * bytes; 3: us -> ns), rounded: PROFDB_NULL when absent or not a number,
 * BAD when negative or out of int64.  Scaled from the shortest text that
 * reads back as the double, i.e. what the export's writer printed (Python
 * json: repr): 1736408883811334.8 us is 1736408883811334800 ns, where the
 * double (...334.75) times 1000 is neither. */
static int64_t scaled(const cJSON *o, const char *key, int exp)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	char text[40];
	int64_t x;
	int n;
	if (!cJSON_IsNumber(v))
		return PROFDB_NULL;
	if (!(v->valuedouble >= 0))
		return BAD;
	n = profdb__number_text(text, sizeof text, v->valuedouble);
	return n > 0 && profdb__parse_ns(text, (size_t)n, exp, &x) == 0 ? x : BAD;
}

/* A number member of o as written; NAN when absent or not finite. */
static double real(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static const char *text(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* N of "stepN"; PROFDB_NULL for any other key. */
static int64_t step_of(const char *key)
{
	int64_t v;
	if (strncmp(key, "step", 4) != 0 || profdb__parse_i64(key + 4, strlen(key + 4), &v) != 0)
		return PROFDB_NULL;
	return v;
}

static int skip(struct comm_file *f, const char *reason)
{
	return profdb__sink_skip(f->src->ctx->sink, reason, f->rows);
}

/* "<name>@<group>" split at its last '@' into name (copied into buf, cut
 * to cap - 1 bytes: HCCL names are far shorter) and group (NULL without
 * '@'). */
static void split_at(const char *key, char *buf, size_t cap, const char **group)
{
	const char *at = strrchr(key, '@');
	size_t n = at ? (size_t)(at - key) : strlen(key);
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, key, n);
	buf[n] = '\0';
	*group = at ? at + 1 : NULL;
}

/* ---------------------------------------------------------------- communication.json */

/* The transports of an op ("Communication Bandwidth Info"), after it. */
static int send_transports(struct comm_file *f, const struct profdb_comm_rec *op, const cJSON *bw)
{
	const cJSON *t;
	int rc = PROFDB_OK;
	cJSON_ArrayForEach(t, bw) {
		struct profdb_comm_rec c = *op;
		const cJSON *dist = cJSON_GetObjectItemCaseSensitive(t, "Size Distribution");
		char *dist_text = NULL;
		if (!cJSON_IsObject(t) || !t->string)
			continue; /* refused by op_bad */
		c.what = PROFDB_COMM_TRANSPORT;
		c.transport = t->string;
		c.bytes = scaled(t, "Transit Size(MB)", MB_BYTES);
		c.transit_ns = scaled(t, "Transit Time(ms)", MS_NS);
		c.bandwidth_gbps = real(t, "Bandwidth(GB/s)");
		c.large_packet_ratio = real(t, "Large Packet Ratio");
		if (dist && !(dist_text = cJSON_PrintUnformatted(dist)))
			return profdb__err_set(f->src->ctx->err, PROFDB_ERROR, "out of memory");
		c.size_dist = dist_text;
		rc = profdb__sink_comm(f->src->ctx->sink, &c);
		cJSON_free(dist_text);
		if (rc != PROFDB_OK)
			break;
	}
	return rc;
}

/* Why op (its value v) cannot be stored, or NULL. */
static const char *op_bad(const cJSON *v, const struct profdb_comm_rec *c)
{
	const cJSON *bw = cJSON_GetObjectItemCaseSensitive(v, "Communication Bandwidth Info"), *t;
	const int64_t times[] = { c->start_ns, c->elapse_ns, c->transit_ns, c->wait_ns, c->sync_ns, c->idle_ns };
	if (!cJSON_IsObject(v))
		return "communication op is not an object";
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (times[i] == BAD)
			return "communication op time negative or out of range";
	if (bw && !cJSON_IsObject(bw))
		return "Communication Bandwidth Info is not an object";
	cJSON_ArrayForEach(t, bw)
		if (!cJSON_IsObject(t) || scaled(t, "Transit Size(MB)", MB_BYTES) == BAD ||
		    scaled(t, "Transit Time(ms)", MS_NS) == BAD)
			return "communication transport not an object, or size or time out of range";
	return NULL;
}

static int send_op(struct comm_file *f, int64_t step, const char *scope, const cJSON *v)
{
	const cJSON *ti = cJSON_GetObjectItemCaseSensitive(v, "Communication Time Info");
	char name[512];
	const char *why;
	struct profdb_comm_rec c = {
		.what = PROFDB_COMM_OP, .rank = f->src->rank, .step = step, .scope = scope, .op_name = name,
		.src_rank = PROFDB_NULL, .dst_rank = PROFDB_NULL,
		.start_ns = scaled(ti, "Start Timestamp(us)", US_NS), .elapse_ns = scaled(ti, "Elapse Time(ms)", MS_NS),
		.wait_ns = scaled(ti, "Wait Time(ms)", MS_NS), .sync_ns = scaled(ti, "Synchronization Time(ms)", MS_NS),
		.idle_ns = scaled(ti, "Idle Time(ms)", MS_NS), .transit_ns = scaled(ti, "Transit Time(ms)", MS_NS),
		.bytes = PROFDB_NULL,
		.wait_ratio = real(ti, "Wait Time Ratio"), .sync_ratio = real(ti, "Synchronization Time Ratio"),
		.bandwidth_gbps = NAN, .large_packet_ratio = NAN,
	};
	int rc;
	f->rows++;
	split_at(v->string, name, sizeof name, &c.group);
	if ((why = op_bad(v, &c)) != NULL)
		return skip(f, why);
	if ((rc = profdb__sink_comm(f->src->ctx->sink, &c)) != PROFDB_OK)
		return rc;
	return send_transports(f, &c, cJSON_GetObjectItemCaseSensitive(v, "Communication Bandwidth Info"));
}

/* ---------------------------------------------------------------- communication_matrix.json */

/* SRC-DST (or SRC->DST) into *src, *dst; -1 if it is not that. */
static int link_ranks(const char *key, int64_t *src, int64_t *dst)
{
	const char *dash = strchr(key, '-');
	const char *rest;
	if (!dash || dash == key || profdb__parse_i64(key, (size_t)(dash - key), src) != 0)
		return -1;
	rest = dash[1] == '>' ? dash + 2 : dash + 1;
	return profdb__parse_i64(rest, strlen(rest), dst) == 0 ? 0 : -1;
}

/* The links of one "<op type>-<which>@<group>" matrix. */
static int send_links(struct comm_file *f, int64_t step, const char *scope, const cJSON *m)
{
	char which[512];
	const cJSON *l;
	int rc = PROFDB_OK;
	struct profdb_comm_rec c = {
		.what = PROFDB_COMM_LINK, .rank = f->src->rank, .step = step, .scope = scope, .matrix_op = which,
		.start_ns = PROFDB_NULL, .elapse_ns = PROFDB_NULL, .wait_ns = PROFDB_NULL, .sync_ns = PROFDB_NULL,
		.idle_ns = PROFDB_NULL, .wait_ratio = NAN, .sync_ratio = NAN, .large_packet_ratio = NAN,
	};
	split_at(m->string, which, sizeof which, &c.group);
	if (!cJSON_IsObject(m)) {
		f->rows++;
		return skip(f, "communication matrix is not an object");
	}
	cJSON_ArrayForEach(l, m) {
		f->rows++;
		c.bytes = scaled(l, "Transit Size(MB)", MB_BYTES);
		c.transit_ns = scaled(l, "Transit Time(ms)", MS_NS);
		if (!cJSON_IsObject(l) || link_ranks(l->string, &c.src_rank, &c.dst_rank) != 0)
			rc = skip(f, "communication link is not an object keyed SRC-DST");
		else if (c.bytes == BAD || c.transit_ns == BAD)
			rc = skip(f, "communication link size or time negative or out of range");
		else {
			c.transport = text(l, "Transport Type");
			c.bandwidth_gbps = real(l, "Bandwidth(GB/s)");
			c.op_name = text(l, "Op Name");
			rc = profdb__sink_comm(f->src->ctx->sink, &c);
		}
		if (rc != PROFDB_OK)
			break;
	}
	return rc;
}

/* ---------------------------------------------------------------- both */

/* Every step<N> / scope (collective, p2p) / entry of the file: an op of
 * communication.json, a matrix of links of communication_matrix.json. */
static int walk(struct comm_file *f, const cJSON *root, int matrix)
{
	const cJSON *step, *scope, *e;
	int rc;
	cJSON_ArrayForEach(step, root) {
		int64_t n = step_of(step->string);
		if (!cJSON_IsObject(step)) {
			f->rows++;
			if ((rc = skip(f, "communication step is not an object")) != PROFDB_OK)
				return rc;
			continue;
		}
		cJSON_ArrayForEach(scope, step) {
			if (!cJSON_IsObject(scope)) {
				f->rows++;
				if ((rc = skip(f, "communication scope is not an object")) != PROFDB_OK)
					return rc;
				continue;
			}
			cJSON_ArrayForEach(e, scope) {
				/* the profiler's own sum of the ops above it */
				if (!matrix && strcmp(e->string, "Total Op Info") == 0)
					continue;
				rc = matrix ? send_links(f, n, scope->string, e) : send_op(f, n, scope->string, e);
				if (rc != PROFDB_OK)
					return rc;
			}
		}
	}
	return PROFDB_OK;
}

static int read_comm(const struct profdb__ascend_src *src, const char *path, const char *role, int matrix)
{
	const struct profdb_reader_ctx *ctx = src->ctx;
	struct comm_file f = { src, path, 0 };
	unsigned char *buf = NULL;
	const char *end = NULL;
	cJSON *root = NULL;
	size_t len = 0;
	uint64_t size = 0;
	char sha[65], note[4400];
	size_t max = (size_t)ctx->limits->comm_max_bytes;
	int rc;

	rc = profdb__ascend_slurp(path, max, ctx->limits->gzip_max_bytes, &buf, &len, sha, &size, ctx->err);
	if (rc == 1) {
		snprintf(note, sizeof note, "%s: larger than %zu bytes: not read", path, max);
		return profdb__sink_note(ctx->sink, note);
	}
	if (rc != PROFDB_OK)
		return rc;
	/* len + 1: the NUL ends it, so that trailing bytes are an error */
	root = cJSON_ParseWithLengthOpts((const char *)buf, len + 1, &end, 1);
	if (!root || !cJSON_IsObject(root)) {
		size_t at = root ? 0 : end && end >= (const char *)buf ? (size_t)(end - (const char *)buf) : 0;
		rc = root ? profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: not a JSON object of steps", path)
		          : profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: byte %zu: malformed JSON", path, at);
		goto out;
	}
	rc = profdb__sink_source_begin(ctx->sink, path, role, src->rank, len <= ASCEND_CONTENT_MAX ? buf : NULL,
	                               len <= ASCEND_CONTENT_MAX ? len : 0);
	if (rc == PROFDB_OK)
		rc = walk(&f, root, matrix);
	if (rc == PROFDB_OK)
		rc = profdb__sink_source_end(ctx->sink, f.rows, sha, size);
out:
	cJSON_Delete(root);
	free(buf);
	return rc;
}

int profdb__ascend_read_comm(const struct profdb__ascend_src *src, const char *path)
{
	return read_comm(src, path, "communication", 0);
}

int profdb__ascend_read_comm_matrix(const struct profdb__ascend_src *src, const char *path)
{
	return read_comm(src, path, "communication_matrix", 1);
}
