/*
 * kind.c - which device activities are communication, one rule for every
 * vendor (doc/definitions.md "Communication"): the profiler's own category where it has
 * one (Ascend Accelerator Core HCCL / COMMUNICATION, the DB's
 * COMMUNICATION_OP table: the readers check those), else the name of a
 * collective library's kernel, which is all a Kineto trace says (its cat is
 * "kernel" for NCCL kernels as for any other).
 *
 * MTIA's device events all have cat mtia_ccp_events; the name says what
 * each is (doc/analyses.md "breakdown"): dma_request is a DMA copy
 * between host and device (memory, as HTA counts it, with its size and
 * direction); pe_exe, remote and merge are jobs run on the processing
 * elements (compute); event_record / event_wait are stream events, kept as
 * kernels since the trace gives nothing better to call them.
 */
#include <ctype.h>
#include <string.h>

#include "internal.h"
#include "banned.h"

/* Name prefixes of collective libraries' device work, compared without
 * case: NCCL (ncclKernel_*, ncclDevKernel_*), RCCL (which keeps NCCL's
 * kernel names, and rccl* for its own), MSCCL, Ascend HCCL (hcom_*). */
static const char *const comm_prefixes[] = { "nccl", "rccl", "msccl", "hcom_" };

int profdb__kind_is_comm_name(const char *name)
{
	if (!name)
		return 0;
	/* some demanglers write a kernel's return type: "void ncclKernel_..." */
	if (strncmp(name, "void ", 5) == 0)
		name += 5;
	for (size_t i = 0; i < sizeof comm_prefixes / sizeof comm_prefixes[0]; i++) {
		const char *p = comm_prefixes[i], *s = name;
		while (*p && tolower((unsigned char)*s) == *p) {
			p++;
			s++;
		}
		if (!*p)
			return 1;
	}
	return 0;
}

int profdb__kind_of_device(int kind, const char *name)
{
	return kind == PROFDB_KIND_KERNEL && profdb__kind_is_comm_name(name) ? PROFDB_KIND_COMM : kind;
}

int profdb__kind_of_mtia(const char *name)
{
	return name && strcmp(name, "dma_request") == 0 ? PROFDB_KIND_MEMCPY : PROFDB_KIND_KERNEL;
}
