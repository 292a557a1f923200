/*
 * cmd_flops.c - profdb flops: FLOPs, achieved TFLOP/s, bytes and arithmetic
 * intensity of GEMM and attention operators per input shape
 * (profdb_query_flops).
 */
#include <stdio.h>
#include <stdlib.h>

#include "query_cli.h"

enum { OPT_PEAK_TFLOPS = OPT_FIRST_FREE, OPT_PEAK_GBPS };

static const struct cli_opt opts[] = {
	QCLI_OPT_DB,
	QCLI_OPT_RUN,
	QCLI_OPT_RANK,
	QCLI_OPT_STEPS,
	QCLI_OPT_NAME,
	{ "peak-tflops", 1, OPT_PEAK_TFLOPS, "X", "the device's peak TFLOP/s for the dtype: adds peak_pct" },
	{ "peak-gbps", 1, OPT_PEAK_GBPS, "X", "the device's peak memory GB/s: adds bw_pct" },
	QCLI_OPT_ORDER,
	QCLI_OPT_FORMAT,
	QCLI_OPT_UNIT,
	QCLI_OPT_WIDE,
	QCLI_OPT_HELP,
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"GEMM, attention and convolution efficiency per operator and input shapes\n"
	"(traces recorded with record_shapes): aten::mm, addmm, bmm, baddbmm, linear,\n"
	"matmul, scaled-dot-product attention and convolution (the outermost conv op).\n"
	"  args       a convolution's recorded arguments (Concrete Inputs, torch >= 2.1)\n"
	"  gflop      FLOPs of one call from the shapes (2 M N K per GEMM; attention\n"
	"             2 B H L S (E + Ev); convolution 2 N Cout prod(out) Cin/groups\n"
	"             prod(kernel)); empty when the shapes or args do not fit\n"
	"  tflops     gflop x calls / device time (the ops' kernels and children's)\n"
	"  bytes      inputs and output of one call at the first input's dtype size\n"
	"  intensity  FLOP per byte\n"
	"  peak_pct, bw_pct  of --peak-tflops / --peak-gbps\n"
	"linear and matmul rows contain the work of their mm/addmm children: do not\n"
	"add rows of different operators.\n"
	"Examples:\n"
	"  profdb flops --run r1 --peak-tflops 312 --peak-gbps 2039";

static int own_opt(void *arg, int key, const char *val)
{
	struct profdb_flops_query *fq = arg;
	char *end = NULL;
	double v;
	if (key != OPT_PEAK_TFLOPS && key != OPT_PEAK_GBPS)
		return PROFDB_EXIT_USAGE; /* cli_next printed why */
	v = strtod(val, &end);
	if (end == val || *end || !(v > 0))
		return cli_usage_error("flops", "%s: a number above 0, not '%s'",
		                       key == OPT_PEAK_TFLOPS ? "--peak-tflops" : "--peak-gbps", val);
	if (key == OPT_PEAK_TFLOPS)
		fq->peak_tflops = v;
	else
		fq->peak_gbps = v;
	return 0;
}

static int run(profdb *db, profdb_result **out, void *query)
{
	return profdb_query_flops(db, out, query);
}

int cmd_flops(int argc, char **argv)
{
	struct profdb_flops_query fq = PROFDB_FLOPS_QUERY_INIT;
	return qcli_run_analysis("flops", argc, argv, opts, desc, own_opt, &fq, &fq.filter, run);
}
