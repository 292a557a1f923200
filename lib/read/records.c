/*
 * records.c - the initialisers of the records readers send to a sink
 * (internal.h): every optional field absent.  Apart from the store so
 * that a reader (and its unit tests) needs no SQLite writer to build one.
 */
#include <string.h>

#include "internal.h"
#include "banned.h"

void profdb__kernel_rec_init(struct profdb_kernel_rec *k)
{
	memset(k, 0, sizeof *k);
	k->rank = k->device = k->stream = k->step = PROFDB_NULL;
	k->wait_ns = k->task_id = k->model_id = k->context_id = PROFDB_NULL;
	k->correlation = k->external_id = k->block_dim = k->mix_block_dim = PROFDB_NULL;
	k->registers = k->shared_mem = k->bytes = k->hf32 = PROFDB_NULL;
	k->kind = PROFDB_KIND_KERNEL;
}

void profdb__op_rec_init(struct profdb_op_rec *o)
{
	memset(o, 0, sizeof *o);
	o->rank = o->step = o->tid = o->start_ns = o->dur_ns = o->self_ns = PROFDB_NULL;
	o->device_self_ns = o->device_total_ns = PROFDB_NULL;
	o->device_self_aicore_ns = o->device_total_aicore_ns = PROFDB_NULL;
	o->external_id = o->seq = PROFDB_NULL;
}
