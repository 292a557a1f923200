/*
 * query_flops.c - profdb flops: GEMM and attention efficiency per operator
 * and input shapes.  FLOPs come from the recorded input shapes (Kineto
 * "Input Dims" with record_shapes), achieved TFLOP/s from the operator's
 * device time (its kernels and its children's: op.device_total_ns), bytes
 * moved from the inputs and the output at the first input's element size.
 * Formulas (README "### flops"), M x K times K x N:
 *   aten::mm [M,K] [K,N], aten::addmm (bias) [M,K] [K,N]   2 M N K
 *   aten::bmm [B,M,K] [B,K,N], aten::baddbmm (bias) ...      2 B M N K
 *   aten::linear [..,K] [N,K] (bias), M = product of the leading dims
 *   aten::matmul: 2-D x 2-D as mm, N-D x 2-D as linear, 3-D x 3-D as bmm
 *   scaled dot product attention q [B,H,L,E] k [B,H,S,E] v [B,H,S,Ev]:
 *     2 B H L S E + 2 B H L S Ev (the two matrix products; softmax left out)
 * A shape list that does not fit its formula gives NULL figures, never a
 * guess.  Convolution needs stride and padding, which traces do not record
 * with the shapes: not covered.
 */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "query.h"
#include "banned.h"

enum { F_RUN, F_NAME, F_SHAPES, F_TYPES, F_CALLS, F_DEVICE, F_GFLOP, F_TFLOPS, F_BYTES, F_INTENSITY,
       F_PEAK_PCT, F_BW_PCT, F_COUNT };
static const enum profdb_coltype types[F_COUNT] = {
	PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_NS,
	PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_INT, PROFDB_COL_REAL, PROFDB_COL_PCT, PROFDB_COL_PCT
};

static const char *const ops[] = {
	"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::linear", "aten::matmul",
	"aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
	"aten::_scaled_dot_product_efficient_attention", "aten::_scaled_dot_product_cudnn_attention", NULL
};

/* Up to 4 dims of up to 4 tensors: enough for every formula here. */
struct shapes {
	int n;                     /* tensors */
	int nd[8];                 /* dims per tensor (-1: not a list) */
	double d[8][8];            /* the dims, as doubles: products overflow int64 soon */
	double elem;               /* bytes per element of the first tensor; 0 unknown */
};

static double elem_size(const char *t)
{
	static const struct { const char *name; double size; } sizes[] = {
		{ "float", 4 }, { "double", 8 }, { "c10::Half", 2 }, { "c10::BFloat16", 2 }, { "int", 4 },
		{ "long int", 8 }, { "short int", 2 }, { "signed char", 1 }, { "unsigned char", 1 },
		{ "bool", 1 }, { "c10::Float8_e4m3fn", 1 }, { "c10::Float8_e5m2", 1 }, { NULL, 0 }
	};
	for (int i = 0; sizes[i].name; i++)
		if (strcmp(t, sizes[i].name) == 0)
			return sizes[i].size;
	return 0;
}

static int parse_shapes(struct shapes *s, const char *dims, const char *dtypes)
{
	cJSON *a = cJSON_Parse(dims), *t = dtypes ? cJSON_Parse(dtypes) : NULL, *e;
	cJSON *list = cJSON_IsArray(a) ? a : NULL;
	memset(s, 0, sizeof *s);
	cJSON_ArrayForEach(e, list) {
		cJSON *x, *dl = cJSON_IsArray(e) ? e : NULL;
		int k = 0;
		if (s->n == 8)
			break;
		s->nd[s->n] = cJSON_IsArray(e) ? 0 : -1;
		cJSON_ArrayForEach(x, dl) {
			if (k < 8 && cJSON_IsNumber(x))
				s->d[s->n][k] = x->valuedouble;
			k++;
		}
		if (s->nd[s->n] == 0)
			s->nd[s->n] = k > 8 ? -1 : k;
		s->n++;
	}
	if (cJSON_IsArray(t) && cJSON_IsString(cJSON_GetArrayItem(t, 0)))
		s->elem = elem_size(cJSON_GetArrayItem(t, 0)->valuestring);
	cJSON_Delete(a);
	cJSON_Delete(t);
	return list ? 0 : -1;
}

static double prod(const struct shapes *s, int i, int from, int to)
{
	double p = 1;
	for (int k = from; k < to; k++)
		p *= s->d[i][k];
	return p;
}

/* GEMM of a [M,K] by [K,N] (batch B): FLOPs and elements moved. */
static int gemm(double b, double m, double k, double n, double extra, double *flops, double *elems)
{
	*flops = 2 * b * m * n * k;
	*elems = b * (m * k + k * n + m * n) + extra;
	return 0;
}

static int is_sdpa(const char *name)
{
	return strstr(name, "scaled_dot_product") != NULL;
}

/* FLOPs and elements moved by one call of op name on shapes s; -1 when
 * the shapes do not fit the formula. */
static int op_work(const char *name, const struct shapes *s, double *flops, double *elems)
{
	const int *nd = s->nd;
	if (strcmp(name, "aten::mm") == 0 && s->n >= 2 && nd[0] == 2 && nd[1] == 2 && s->d[0][1] == s->d[1][0])
		return gemm(1, s->d[0][0], s->d[0][1], s->d[1][1], 0, flops, elems);
	if (strcmp(name, "aten::addmm") == 0 && s->n >= 3 && nd[1] == 2 && nd[2] == 2 && nd[0] >= 0 &&
	    s->d[1][1] == s->d[2][0])
		return gemm(1, s->d[1][0], s->d[1][1], s->d[2][1], prod(s, 0, 0, nd[0]), flops, elems);
	if (strcmp(name, "aten::bmm") == 0 && s->n >= 2 && nd[0] == 3 && nd[1] == 3 && s->d[0][2] == s->d[1][1])
		return gemm(s->d[0][0], s->d[0][1], s->d[0][2], s->d[1][2], 0, flops, elems);
	if (strcmp(name, "aten::baddbmm") == 0 && s->n >= 3 && nd[1] == 3 && nd[2] == 3 && nd[0] >= 0 &&
	    s->d[1][2] == s->d[2][1])
		return gemm(s->d[1][0], s->d[1][1], s->d[1][2], s->d[2][2], prod(s, 0, 0, nd[0]), flops, elems);
	if (strcmp(name, "aten::linear") == 0 && s->n >= 2 && nd[0] >= 1 && nd[1] == 2 &&
	    s->d[0][nd[0] - 1] == s->d[1][1])
		return gemm(1, prod(s, 0, 0, nd[0] - 1), s->d[1][1], s->d[1][0],
		            s->n >= 3 && nd[2] >= 0 ? prod(s, 2, 0, nd[2]) : 0, flops, elems);
	if (strcmp(name, "aten::matmul") == 0 && s->n >= 2 && nd[0] >= 2 && nd[1] == 2 &&
	    s->d[0][nd[0] - 1] == s->d[1][0])
		return gemm(1, prod(s, 0, 0, nd[0] - 1), s->d[1][0], s->d[1][1], 0, flops, elems);
	if (strcmp(name, "aten::matmul") == 0 && s->n >= 2 && nd[0] == 3 && nd[1] == 3 &&
	    s->d[0][0] == s->d[1][0] && s->d[0][2] == s->d[1][1])
		return gemm(s->d[0][0], s->d[0][1], s->d[0][2], s->d[1][2], 0, flops, elems);
	if (is_sdpa(name) && s->n >= 3 && nd[0] == 4 && nd[1] == 4 && nd[2] == 4) {
		double bh = s->d[0][0] * s->d[0][1], l = s->d[0][2], e = s->d[0][3], sl = s->d[1][2], ev = s->d[2][3];
		*flops = 2 * bh * l * sl * e + 2 * bh * l * sl * ev;
		*elems = bh * (l * e + sl * e + sl * ev + l * ev);
		return 0;
	}
	return -1;
}

/* The figures of one group row. */
static int fill_row(profdb_result *r, size_t row, const struct profdb_flops_query *q)
{
	const char *name = profdb_result_text(r, row, F_NAME), *dims = profdb_result_text(r, row, F_SHAPES);
	const char *dt = profdb_result_text(r, row, F_TYPES);
	int64_t calls = profdb_result_int(r, row, F_CALLS);
	double dev = profdb_result_isnull(r, row, F_DEVICE) ? 0 : (double)profdb_result_int(r, row, F_DEVICE);
	double flops, elems, tflops;
	struct shapes s;
	int rc = 0;

	if (!dims || parse_shapes(&s, dims, dt) != 0 || op_work(name, &s, &flops, &elems) != 0)
		return PROFDB_OK;
	rc |= profdb__result_set_double(r, row, F_GFLOP, flops / 1e9);
	if (s.elem > 0) {
		rc |= profdb__result_set_int(r, row, F_BYTES, (int64_t)(elems * s.elem));
		rc |= profdb__result_set_double(r, row, F_INTENSITY, flops / (elems * s.elem));
	}
	if (dev > 0) {
		/* FLOPs per ns are GFLOP/s; / 1000 for TFLOP/s */
		tflops = flops * (double)calls / dev / 1000.0;
		rc |= profdb__result_set_double(r, row, F_TFLOPS, tflops);
		if (q->peak_tflops > 0)
			rc |= profdb__result_set_double(r, row, F_PEAK_PCT, 100.0 * tflops / q->peak_tflops);
		if (q->peak_gbps > 0 && s.elem > 0)
			rc |= profdb__result_set_double(r, row, F_BW_PCT,
			                         100.0 * (elems * s.elem * (double)calls / dev) / q->peak_gbps);
	}
	return rc ? PROFDB_ERROR : PROFDB_OK;
}

static void flops_sql(struct profdb__qbuf *b, const struct profdb_flops_query *q)
{
	profdb__qbuf_add(b, "SELECT r.name AS run, n.value AS name, s.value AS shapes, t.value AS dtypes,"
	         " count(*) AS calls, sum(o.device_total_ns) AS device, NULL AS gflop, NULL AS tflops,"
	         " NULL AS bytes, NULL AS intensity, NULL AS peak_pct, NULL AS bw_pct"
	         " FROM op o JOIN run r ON r.id = o.run_id JOIN str n ON n.id = o.name_id"
	         " JOIN str s ON s.id = o.in_shapes_id LEFT JOIN str t ON t.id = o.in_types_id"
	         " WHERE n.value IN (");
	for (int i = 0; ops[i]; i++)
		profdb__qbuf_addf(b, "%s'%s'", i ? ", " : "", ops[i]); /* constants of this file */
	profdb__qbuf_add(b, ")");
	profdb__qfilter_where(b, &q->filter, "o", QF_OP, 0);
	profdb__qbuf_add(b, " GROUP BY o.run_id, o.name_id, o.in_shapes_id, o.in_types_id"
	         " ORDER BY o.run_id, device DESC, name, shapes");
}

int profdb_query_flops(profdb *db, profdb_result **out, const struct profdb_flops_query *q)
{
	struct profdb__qbuf b = { 0 };
	int rc;

	*out = NULL;
	if ((rc = profdb__qfilter_check_no_kind(db, &q->filter, "flops reads operators")) != PROFDB_OK)
		return rc;
	if (q->peak_tflops < 0 || q->peak_gbps < 0)
		return profdb__error(db, PROFDB_EUSAGE, "flops: a peak must not be negative");
	flops_sql(&b, q);
	rc = profdb__result_query(db, out, &b, &q->filter, types, "cannot query operator shapes");
	for (size_t i = 0; rc == PROFDB_OK && i < (*out)->nrows; i++)
		if (fill_row(*out, i, q) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
		return rc;
	}
	if (!profdb__qfilter_run_column(&q->filter))
		profdb__result_drop_column(*out, F_RUN);
	return PROFDB_OK;
}
