/*
 * kineto_ops.h - the host operators of one Kineto trace, kept until the
 * file ends so that self times can be computed (events are not sorted, and a
 * parent is written after its children), for sinks without nests_ops; the
 * store nests ops itself (op_nest.c) and gets them as they are read.
 * Shared by ingest_kineto.c and kineto_ops.c only.
 */
#ifndef PROFDB_KINETO_OPS_H
#define PROFDB_KINETO_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* One host op as the reader found it.  Strings are borrowed for the call. */
struct profdb__kop_in {
	const char *name;          /* required */
	const char *category;      /* cpu_op, user_annotation, Operator */
	uint64_t thread;           /* key of its (pid, tid): ops nest per thread */
	int64_t tid;               /* tid to store, PROFDB_NULL if not numeric */
	int64_t start_ns, dur_ns;
	int64_t external_id, seq;  /* PROFDB_NULL if absent */
	const char *in_shapes, *in_types, *call_stack; /* NULL if absent */
	const char *in_concrete;   /* "Concrete Inputs"; NULL if absent */
};

struct profdb__kops;
/* CONSTRUCTOR.  PROFDB_ERROR when out of memory. */
int profdb__kops_new(struct profdb__kops **out);
/* DESTRUCTOR.  NULL is a no-op. */
void profdb__kops_free(struct profdb__kops *k);
/* Keep an op (its strings are interned in k).  PROFDB_ERROR: out of memory. */
int profdb__kops_add(struct profdb__kops *k, const struct profdb__kop_in *op);
/* Add a device activity's duration to the ops of its External id (or,
 * in a file whose External ids are correlation ids, of its launch). */
int profdb__kops_device(struct profdb__kops *k, int64_t external_id, int64_t correlation, int64_t dur_ns);
/* Keep a runtime call (thread key as profdb__kop_in's) for that link. */
int profdb__kops_launch(struct profdb__kops *k, uint64_t thread, int64_t start_ns, int64_t correlation);
/*
 * The collective args of record_param_comms ops, for the NCCL kernels they
 * launched that have none of their own (traces where only the op has
 * them; doc/analyses.md "collectives").  keep: the args of the op with that
 * External id starting at start_ns (copied; the first op of an id wins);
 * PROFDB_ERROR out of memory.  find: the args of the op a communication
 * kernel names by its External id, into *out (strings borrowed from k
 * until the next keep or add), or NULL: no such op, the id is the kernel's
 * correlation id (op_link.c), or the kernel starts before the op.  The
 * op must come before its kernels in the file, as Kineto writes them.
 */
int profdb__kops_coll_keep(struct profdb__kops *k, int64_t external_id, int64_t start_ns,
                           const struct profdb_coll_rec *c);
const struct profdb_coll_rec *profdb__kops_coll_find(const struct profdb__kops *k, int64_t external_id,
                                                     int64_t correlation, int64_t start_ns,
                                                     struct profdb_coll_rec *out);
/*
 * Compute every op's self time (duration minus its direct children's on the
 * same thread, children found as torch's key_averages does), its device
 * self time (device activities with its External id) and device total time
 * (its own plus its children's), then send the ops to sink with rank, in
 * file order, time_offset_ns added to their start times.  Returns the first sink error.
 */
int profdb__kops_emit(struct profdb__kops *k, int64_t rank, int64_t time_offset_ns,
                      struct profdb_sink *sink);

#endif /* PROFDB_KINETO_OPS_H */
