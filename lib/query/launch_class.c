/*
 * launch_class.c - which runtime calls are launches (doc/analyses.md "launches"):
 * a correlated runtime call is a launch only when it queues device work
 * and returns; the rest (synchronize, event record / wait, queries) share
 * correlation ids with device activities without launching them, and a
 * graph launch or a blocking copy has its own figures.
 *
 * The names are compared without CUPTI's version and per-thread suffixes
 * (cudaLaunchKernel_v7000, cudaMemcpyAsync_ptsz, cuMemcpyHtoDAsync_v2,
 * hipMemcpyAsync_spt).
 */
#include <string.h>

#include "analyses.h"
#include "banned.h"

static const char *const graph_calls[] = {
	"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch",
};

static const char *const kernel_calls[] = {
	/* CUDA runtime */
	"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel",
	"cudaLaunchCooperativeKernelMultiDevice",
	/* CUDA driver */
	"cuLaunchKernel", "cuLaunchKernelEx", "cuLaunchCooperativeKernel", "cuLaunchCooperativeKernelMultiDevice",
	"cuLaunchGrid", "cuLaunchGridAsync",
	/* HIP */
	"hipLaunchKernel", "hipExtLaunchKernel", "hipModuleLaunchKernel", "hipExtModuleLaunchKernel",
	"hipHccModuleLaunchKernel", "hipLaunchCooperativeKernel", "hipLaunchCooperativeKernelMultiDevice",
	"hipExtLaunchMultiKernelMultiDevice", "hipModuleLaunchCooperativeKernel",
};

/* Copies and sets: "...Async" queues, any other name blocks the host. */
static const char *const copy_prefixes[] = {
	"cudaMemcpy", "cudaMemset", "cuMemcpy", "cuMemset", "hipMemcpy", "hipMemset",
	"enqueueCommand memcpy", "enqueueCommand memset", /* MTIA */
};

#define COUNT(a) (sizeof a / sizeof a[0])

static int ends_with(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);
	return n >= t && memcmp(s + n - t, tail, t) == 0;
}

/* Length of name without its trailing _v<digits>, _ptsz, _ptds, _spt. */
static size_t base_len(const char *s)
{
	size_t n = strlen(s);
	for (;;) {
		size_t i = n;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i < n && i >= 2 && s[i - 1] == 'v' && s[i - 2] == '_')
			n = i - 2;
		else if (ends_with(s, n, "_ptsz") || ends_with(s, n, "_ptds"))
			n -= 5;
		else if (ends_with(s, n, "_spt"))
			n -= 4;
		else
			return n;
	}
}

static int in_list(const char *s, size_t n, const char *const *list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(list[i]) == n && memcmp(s, list[i], n) == 0)
			return 1;
	return 0;
}

int profdb__launch_class(const char *name)
{
	size_t n;
	if (!name)
		return PROFDB__LAUNCH_OTHER;
	n = base_len(name);
	if (in_list(name, n, graph_calls, COUNT(graph_calls)))
		return PROFDB__LAUNCH_GRAPH;
	if (in_list(name, n, kernel_calls, COUNT(kernel_calls)) || strncmp(name, "runFunction", 11) == 0)
		return PROFDB__LAUNCH_ASYNC; /* MTIA: runFunction - job_prep_and_submit_for_execution */
	for (size_t i = 0; i < COUNT(copy_prefixes); i++) {
		size_t p = strlen(copy_prefixes[i]);
		if (n > p - 1 && strncmp(name, copy_prefixes[i], p) == 0)
			return ends_with(name, n, "Async") ? PROFDB__LAUNCH_ASYNC : PROFDB__LAUNCH_BLOCKING;
	}
	return PROFDB__LAUNCH_OTHER;
}
