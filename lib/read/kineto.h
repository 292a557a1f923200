/*
 * kineto.h - what the Kineto reader's files share: the reader's state for
 * one trace file (ingest_kineto.c reads the top level, kineto_event.c one
 * event at a time, kineto_ops.c keeps the host ops).
 */
#ifndef PROFDB_KINETO_H
#define PROFDB_KINETO_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "json_scan.h"
#include "kineto_ops.h"

struct profdb__kmeta {
	char *key, *value;         /* owned; value is compact JSON text */
};

struct profdb__kreader {
	const struct profdb_reader_ctx *ctx;
	struct profdb_sink *sink;
	struct profdb_err *err;
	const char *path;
	struct profdb_input *in;   /* the current pass's input */
	int pass;                  /* 1, or 2 for the events pass */
	int two_pass;              /* the events are read in pass 2 */
	int64_t rank;              /* decided when records start */
	int64_t dist_rank;         /* distributedInfo.rank, PROFDB_NULL if none */
	int have_dist, have_base;  /* the key was seen */
	int64_t base_ns;           /* baseTimeNanoseconds, 0 if none */
	struct profdb__kmeta *meta;
	size_t nmeta;
	struct profdb__kops *ops;
	char *scratch;             /* decoded strings of the current event */
	size_t scratch_cap, scratch_used;
	int64_t nevents;           /* elements of traceEvents seen */
	int events_done;           /* traceEvents has been read */
	int begun;                 /* source_begin sent */
	char sha[65];              /* of the raw bytes (pass 1 reads them all) */
	uint64_t size;
	struct profdb_step_rec *dsteps; /* gpu_user_annotation ProfilerStep spans */
	size_t ndsteps;
	/* Read once although keys may follow traceEvents: kernels and launches
	 * go out with the rank and base time known then (base_used); finish()
	 * sends the sink's rank_fixup if the whole object says otherwise. */
	int provisional;           /* r->rank and base_used are a guess */
	struct profdb_step_rec *hsteps; /* host steps held back meanwhile */
	size_t nhsteps;
	int64_t base_used;         /* base time the events were read with */
	int64_t t_min, t_max;      /* earliest start, latest end sent (ns) */
	int any_time;              /* t_min/t_max are set */
	struct profdb__json_pick pick; /* the event keys (profdb__kineto_pick_init) */
	int64_t coll_bad;          /* collective args whose message size was left out */
};

/* Most elements a collective message is taken to hold: 2^48 (times the
 * widest dtype, 16 bytes, still a whole number as a double); a size
 * outside 0..this is no real message. */
#define PROFDB_COLL_NELEMS_MAX 281474976710656LL

/* Set up the keys kineto_event.c picks from each event. */
void profdb__kineto_pick_init(struct profdb__json_pick *pick);

/* Read the next element of traceEvents from js: records to r->sink, or a
 * skip for an unusable event.  Returns a scan, sink or memory error only. */
int profdb__kineto_event(struct profdb__kreader *r, struct profdb__json_scan *js);
/* An integer written as a number or a string ("2560", "0x0": ROCm args);
 * PROFDB_NULL if it is neither. */
int64_t profdb__kineto_jint(const struct profdb__jval *v);

#endif /* PROFDB_KINETO_H */
