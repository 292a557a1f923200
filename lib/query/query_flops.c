/*
 * query_flops.c - profdb flops: GEMM, attention and convolution efficiency
 * per operator and input shapes.  FLOPs come from the recorded input shapes (Kineto
 * "Input Dims" with record_shapes), achieved TFLOP/s from the operator's
 * device time (its kernels and its children's: op.device_total_ns), bytes
 * moved from the inputs and the output at the first input's element size.
 * Formulas (doc/analyses.md "flops"), M x K times K x N:
 *   aten::mm [M,K] [K,N], aten::addmm (bias) [M,K] [K,N]   2 M N K
 *   aten::bmm [B,M,K] [B,K,N], aten::baddbmm (bias) ...      2 B M N K
 *   aten::linear [..,K] [N,K] (bias), M = product of the leading dims
 *   aten::matmul: 2-D x 2-D as mm, N-D x 2-D as linear, 3-D x 3-D as bmm
 *   scaled dot product attention q [B,H,L,E] k [B,H,S,E] v [B,H,S,Ev]:
 *     2 B H L S E + 2 B H L S Ev (the two matrix products; softmax left out)
 *   convolution input [N,Cin,i..] weight [Cout,Cin/g,k..] (g groups), with
 *     stride s, padding p, dilation d from "Concrete Inputs" (torch >= 2.1,
 *     op.in_concrete_id): o = floor((i + 2p - d(k-1) - 1) / s) + 1 per
 *     spatial dim ('valid': p = 0; 'same': o = i), 2 N Cout prod(o) Cin/g
 *     prod(k); transposed, weight [Cin,Cout/g,k..]:
 *     o = (i-1)s - 2p + d(k-1) + output_padding + 1, 2 N Cin prod(i) Cout/g
 *     prod(k).  Bias adds left out (as addmm's).  One row per outermost
 *     conv op: aten::conv2d holds aten::convolution, which holds
 *     aten::_convolution and a backend's op, all the same work; the inner
 *     ones are left out (found by time on the thread, conv_sql).
 * A shape list or argument that does not fit its formula gives NULL
 * figures, never a guess: a conv op without "Concrete Inputs" has none.
 */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "query.h"
#include "banned.h"

enum { F_RUN, F_NAME, F_SHAPES, F_TYPES, F_ARGS, F_CALLS, F_DEVICE, F_GFLOP, F_TFLOPS, F_BYTES, F_INTENSITY,
       F_PEAK_PCT, F_BW_PCT, F_COUNT };
static const enum profdb_coltype types[F_COUNT] = {
	PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_TEXT, PROFDB_COL_INT,
	PROFDB_COL_NS,
	PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_INT, PROFDB_COL_REAL, PROFDB_COL_PCT, PROFDB_COL_PCT
};

static const char *const ops[] = {
	"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::linear", "aten::matmul",
	"aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
	"aten::_scaled_dot_product_efficient_attention", "aten::_scaled_dot_product_cudnn_attention", NULL
};

/*
 * Convolution ops, outer first: the level orders ops of the same span (a
 * parent and its child can start and end together), and the argument
 * positions in "Concrete Inputs" follow each op's schema
 * (native_functions.yaml); -1: the op has no such argument.  Backend ops
 * (level 4) order their arguments otherwise: they are listed so that they
 * never count twice, and have no figures if ever outermost.
 */
static const struct conv_op {
	const char *name;
	int level;
	int stride, pad, dil, transposed, outpad, groups; /* argument positions */
	int is_transposed;         /* when there is no transposed argument */
} conv_ops[] = {
	{ "aten::conv1d", 0, 3, 4, 5, -1, -1, 6, 0 },
	{ "aten::conv2d", 0, 3, 4, 5, -1, -1, 6, 0 },
	{ "aten::conv3d", 0, 3, 4, 5, -1, -1, 6, 0 },
	{ "aten::conv_transpose1d", 0, 3, 4, 7, -1, 5, 6, 1 },
	{ "aten::conv_transpose2d", 0, 3, 4, 7, -1, 5, 6, 1 },
	{ "aten::conv_transpose3d", 0, 3, 4, 7, -1, 5, 6, 1 },
	{ "aten::_convolution_mode", 1, 3, 4, 5, -1, -1, 6, 0 },
	{ "aten::convolution", 2, 3, 4, 5, 6, 7, 8, 0 },
	{ "aten::_convolution", 3, 3, 4, 5, 6, 7, 8, 0 },
	{ "aten::cudnn_convolution", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::cudnn_convolution_transpose", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::miopen_convolution", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::miopen_convolution_transpose", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::miopen_depthwise_convolution", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::mkldnn_convolution", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::convolution_overrideable", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::_slow_conv2d_forward", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::slow_conv_dilated2d", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::slow_conv_transpose2d", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ "aten::_conv_depthwise2d", 4, -1, -1, -1, -1, -1, -1, 0 },
	{ NULL, 0, -1, -1, -1, -1, -1, -1, 0 }
};

/* A dim above 2^53 is no longer a whole number as a double; figures of
 * 2^63 or more do not fit the int64 bytes column (nor any real op). */
#define DIM_MAX 9007199254740992.0
#define FIGURE_MAX 9223372036854775808.0

/* Up to 8 dims of up to 8 tensors: enough for every formula here. */
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

/* Is x a dim a tensor can have: a whole number from 0 to DIM_MAX? */
static int dim_ok(const cJSON *x)
{
	return cJSON_IsNumber(x) && x->valuedouble >= 0 && x->valuedouble <= DIM_MAX &&
	       x->valuedouble == (double)(long long)x->valuedouble;
}

/* The tensors' dims and the first one's element size; -1 when dims is not
 * a list, or a dim is negative, fractional, not a number or huge (no
 * figure from it could be true). */
static int parse_shapes(struct shapes *s, const char *dims, const char *dtypes)
{
	cJSON *a = cJSON_Parse(dims), *t = dtypes ? cJSON_Parse(dtypes) : NULL, *e;
	cJSON *list = cJSON_IsArray(a) ? a : NULL;
	int bad = 0;
	memset(s, 0, sizeof *s);
	cJSON_ArrayForEach(e, list) {
		cJSON *x, *dl = cJSON_IsArray(e) ? e : NULL;
		int k = 0;
		if (s->n == 8)
			break;
		s->nd[s->n] = cJSON_IsArray(e) ? 0 : -1;
		cJSON_ArrayForEach(x, dl) {
			if (!dim_ok(x))
				bad = 1;
			else if (k < 8)
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
	return list && !bad ? 0 : -1;
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

/* The arguments of one convolution call, per spatial dim. */
struct conv_args {
	double stride[3], pad[3], dil[3], outpad[3], groups;
	int transposed;
	int same;                  /* padding 'same': output size = input size */
};

static int whole(double v, double lo)
{
	return v >= lo && v <= 1e15 && v == (double)(long long)v;
}

/* "[2, 2]" or "2" (torch repeats one value over the dims) into out[0..n),
 * each a whole number >= lo; -1 otherwise ("2x" too: the whole text must
 * parse). */
static int int_list(const cJSON *arg, int n, double lo, double *out)
{
	cJSON *v = cJSON_IsString(arg) ? cJSON_ParseWithOpts(arg->valuestring, NULL, 1) : NULL, *x;
	int k = 0, len = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1, rc = 0;
	if (cJSON_IsNumber(v))
		for (k = 0; k < n; k++)
			out[k] = v->valuedouble;
	else if (len == 1 || len == n)
		for (k = 0; k < n; k++) {
			x = cJSON_GetArrayItem(v, len == 1 ? 0 : k);
			if (!cJSON_IsNumber(x))
				rc = -1;
			else
				out[k] = x->valuedouble;
		}
	else
		rc = -1;
	for (k = 0; rc == 0 && k < n; k++)
		if (!whole(out[k], lo))
			rc = -1;
	cJSON_Delete(v);
	return rc;
}

/* Text of argument i: the string as written, quotes a printer may add
 * around 'same' taken off. */
static const char *arg_word(const cJSON *args, int i, char *buf, size_t cap)
{
	const cJSON *a = cJSON_GetArrayItem(args, i);
	size_t n;
	if (!cJSON_IsString(a) || (n = strlen(a->valuestring)) >= cap)
		return NULL;
	memcpy(buf, a->valuestring, n + 1);
	if (n >= 2 && (buf[0] == '\'' || buf[0] == '"') && buf[n - 1] == buf[0]) {
		memmove(buf, buf + 1, n - 2);
		buf[n - 2] = '\0';
	}
	return buf;
}

static int conv_padding(const cJSON *args, int i, int n, struct conv_args *c)
{
	char w[16];
	const char *t = arg_word(args, i, w, sizeof w);
	if (t && strcmp(t, "valid") == 0) {
		memset(c->pad, 0, sizeof c->pad);
		return 0;
	}
	if (t && strcmp(t, "same") == 0) {
		c->same = 1;
		return 0;
	}
	return int_list(cJSON_GetArrayItem(args, i), n, 0, c->pad);
}

/* The arguments of op at n spatial dims from its "Concrete Inputs";
 * -1 when one is missing or unreadable. */
static int conv_args_parse(const struct conv_op *op, const char *concrete, int n, struct conv_args *c)
{
	cJSON *args = concrete ? cJSON_Parse(concrete) : NULL;
	char w[16];
	const char *t;
	int rc = cJSON_IsArray(args) && op->stride >= 0 ? 0 : -1;
	memset(c, 0, sizeof *c);
	c->transposed = op->is_transposed;
	if (rc == 0 && op->transposed >= 0) {
		t = arg_word(args, op->transposed, w, sizeof w);
		if (t && (strcmp(t, "True") == 0 || strcmp(t, "true") == 0))
			c->transposed = 1;
		else if (!t || (strcmp(t, "False") != 0 && strcmp(t, "false") != 0))
			rc = -1;
	}
	if (rc == 0)
		rc = int_list(cJSON_GetArrayItem(args, op->stride), n, 1, c->stride) |
		     conv_padding(args, op->pad, n, c) |
		     int_list(cJSON_GetArrayItem(args, op->dil), n, 1, c->dil) |
		     int_list(cJSON_GetArrayItem(args, op->groups), 1, 1, &c->groups);
	if (rc == 0 && c->transposed) /* torch takes no 'same' for transposed */
		rc = c->same ? -1 : int_list(cJSON_GetArrayItem(args, op->outpad), n, 0, c->outpad);
	for (int k = 0; rc == 0 && c->same && k < n; k++)
		if (c->stride[k] != 1) /* torch refuses 'same' with a stride */
			rc = -1;
	cJSON_Delete(args);
	return rc;
}

/* Output size of spatial dim k at input size i and kernel size kk; < 1
 * when the arguments do not fit. */
static double conv_out(const struct conv_args *c, int k, double i, double kk)
{
	double reach = c->dil[k] * (kk - 1);
	if (c->transposed)
		return (i - 1) * c->stride[k] - 2 * c->pad[k] + reach + c->outpad[k] + 1;
	if (c->same)
		return i;
	if (i + 2 * c->pad[k] - reach - 1 < 0)
		return 0;
	return (double)(long long)((i + 2 * c->pad[k] - reach - 1) / c->stride[k]) + 1;
}

/* FLOPs and elements moved by one convolution: input [N,Cin,i..] (or
 * unbatched [Cin,i..]), weight [Cout,Cin/g,k..] or transposed [Cin,Cout/g,k..],
 * optional bias; -1 when the shapes or arguments do not fit. */
static int conv_work(const struct conv_op *op, const struct shapes *s, const char *concrete,
                     double *flops, double *elems)
{
	const int *nd = s->nd;
	int n = nd[1] - 2, b = s->n >= 2 && nd[0] == nd[1], sp = b ? 2 : 1;
	double bn = b ? s->d[0][0] : 1, cin = s->d[0][sp - 1], g, cout, in = 1, out = 1, kern = 1, o;
	struct conv_args c;
	if (s->n < 2 || n < 1 || n > 3 || (nd[0] != nd[1] && nd[0] != nd[1] - 1) ||
	    conv_args_parse(op, concrete, n, &c) != 0)
		return -1;
	g = c.groups;
	if (c.transposed ? s->d[1][0] != cin : s->d[1][1] * g != cin)
		return -1;
	cout = c.transposed ? s->d[1][1] * g : s->d[1][0];
	if (!c.transposed && cout / g != (double)(long long)(cout / g))
		return -1;
	for (int k = 0; k < n; k++) {
		if ((o = conv_out(&c, k, s->d[0][sp + k], s->d[1][2 + k])) < 1)
			return -1;
		in *= s->d[0][sp + k];
		out *= o;
		kern *= s->d[1][2 + k];
	}
	*flops = c.transposed ? 2 * bn * cin * in * (cout / g) * kern : 2 * bn * cout * out * (cin / g) * kern;
	*elems = bn * cin * in + prod(s, 1, 0, nd[1]) + bn * cout * out +
	         (s->n >= 3 && nd[2] >= 1 ? prod(s, 2, 0, nd[2]) : 0); /* None bias: [] */
	return 0;
}

static const struct conv_op *conv_op_named(const char *name)
{
	for (int i = 0; conv_ops[i].name; i++)
		if (strcmp(name, conv_ops[i].name) == 0)
			return &conv_ops[i];
	return NULL;
}

static int is_sdpa(const char *name)
{
	return strstr(name, "scaled_dot_product") != NULL;
}

/* FLOPs and elements moved by one call of op name on shapes s (and, for
 * a convolution, its "Concrete Inputs"); -1 when they do not fit the formula. */
static int op_work(const char *name, const struct shapes *s, const char *concrete, double *flops,
                   double *elems)
{
	const int *nd = s->nd;
	const struct conv_op *cv = conv_op_named(name);
	if (cv)
		return conv_work(cv, s, concrete, flops, elems);
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

/* The figures of one group row (row 0 of r; q the query). */
static int fill_row(profdb_result *r, void *arg)
{
	const struct profdb_flops_query *q = arg;
	const size_t row = 0;
	const char *name = profdb_result_text(r, row, F_NAME), *dims = profdb_result_text(r, row, F_SHAPES);
	const char *dt = profdb_result_text(r, row, F_TYPES), *args = profdb_result_text(r, row, F_ARGS);
	int64_t calls = profdb_result_int(r, row, F_CALLS);
	double dev = profdb_result_isnull(r, row, F_DEVICE) ? 0 : (double)profdb_result_int(r, row, F_DEVICE);
	double flops, elems, tflops;
	struct shapes s;
	int rc = 0;

	if (!dims || parse_shapes(&s, dims, dt) != 0 || op_work(name, &s, args, &flops, &elems) != 0)
		return PROFDB_OK;
	/* checked before the bytes become an int64 (a cast past it is undefined) */
	if (!(flops >= 0 && flops < FIGURE_MAX && elems >= 0 && elems * (s.elem > 0 ? s.elem : 1) < FIGURE_MAX))
		return PROFDB_OK;
	rc |= profdb__result_set_double(r, row, F_GFLOP, flops / 1e9);
	if (s.elem > 0) {
		rc |= profdb__result_set_int(r, row, F_BYTES, (int64_t)(elems * s.elem));
		if (elems > 0)
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

/*
 * The conv ops that no other conv op holds: per thread in start order (the
 * longer, then the outer level first on a tie), an op ending no later than
 * the latest end before it is inside that op.  A window, not a self-join:
 * linear in the conv ops.
 */
static void conv_sql(struct profdb__qbuf *b)
{
	profdb__qbuf_add(b, "WITH cv(name, level) AS (VALUES ");
	for (int i = 0; conv_ops[i].name; i++) /* constants of this file */
		profdb__qbuf_addf(b, "%s('%s', %d)", i ? ", " : "", conv_ops[i].name, conv_ops[i].level);
	profdb__qbuf_add(b, "), outer_conv AS (SELECT id FROM (SELECT c.id, c.start_ns + c.dur_ns AS e,"
	         " max(c.start_ns + c.dur_ns) OVER (PARTITION BY c.run_id, c.rank, c.tid"
	         " ORDER BY c.start_ns, c.dur_ns DESC, cv.level ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
	         " AS held FROM op c JOIN str cn ON cn.id = c.name_id JOIN cv ON cv.name = cn.value)"
	         " WHERE held IS NULL OR held < e) ");
}

static void flops_sql(struct profdb__qbuf *b, const struct profdb_flops_query *q)
{
	conv_sql(b);
	profdb__qbuf_add(b, "SELECT r.name AS run, n.value AS name, s.value AS shapes, t.value AS dtypes,"
	         " a.value AS args, count(*) AS calls, sum(o.device_total_ns) AS device, NULL AS gflop,"
	         " NULL AS tflops, NULL AS bytes, NULL AS intensity, NULL AS peak_pct, NULL AS bw_pct"
	         " FROM op o JOIN run r ON r.id = o.run_id JOIN str n ON n.id = o.name_id"
	         " JOIN str s ON s.id = o.in_shapes_id LEFT JOIN str t ON t.id = o.in_types_id"
	         " LEFT JOIN str a ON a.id = o.in_concrete_id AND n.value IN (SELECT name FROM cv)"
	         " WHERE (o.id IN (SELECT id FROM outer_conv) OR n.value IN (");
	for (int i = 0; ops[i]; i++)
		profdb__qbuf_addf(b, "%s'%s'", i ? ", " : "", ops[i]); /* constants of this file */
	profdb__qbuf_add(b, "))");
	profdb__qfilter_where(b, &q->filter, "o", QF_OP, 0);
	profdb__qbuf_add(b, " GROUP BY o.run_id, o.name_id, o.in_shapes_id, o.in_types_id, a.id"
	         " ORDER BY o.run_id, device DESC, name, shapes, args");
}

/* A narrow terminal keeps calls, device time and the rate reached
 * (format_table.c). */
static const char *const headline_cols[] = {
	"calls", "device", "tflops", NULL
};
static const char *const hide_cols[] = {
	"bw_pct", "intensity", "gflop", "bytes", "peak_pct", "args", "dtypes", "shapes",
	NULL
};

int profdb_query_flops(profdb *db, profdb_result **out, const struct profdb_flops_query *q)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if ((rc = profdb__version_check(db, q->version, PROFDB_FLOPS_QUERY_VERSION, "profdb_flops_query")) != PROFDB_OK)
		return rc;
	if ((rc = profdb__qfilter_check_no_kind(db, &q->filter, "flops reads operators")) != PROFDB_OK)
		return rc;
	if (q->peak_tflops < 0 || q->peak_gbps < 0)
		return profdb__error(db, PROFDB_EUSAGE, "flops: a peak must not be negative");
	flops_sql(&b, q);
	rc = profdb__query_prepare(db, &b, &st, "cannot query operator shapes");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	/* one group at a time, completed in C, streamed: memory stays flat */
	rc = profdb__spool_stmt(db, out, st, types, fill_row, (void *)q,
	                        profdb__qfilter_run_column(&q->filter) ? 0 : (uint64_t)1 << F_RUN);
	sqlite3_finalize(st);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}
