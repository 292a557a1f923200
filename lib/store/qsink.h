/*
 * qsink.h - the queued sink (qsink.c): readers on worker threads, one
 * SQLite writer.  Used by the ingest driver for --jobs > 1.
 */
#ifndef PROFDB_QSINK_H
#define PROFDB_QSINK_H

#include "internal.h"

struct profdb__queue;
struct profdb__qsink;

/* CONSTRUCTOR: a queue that producers workers will feed. */
int profdb__queue_new(struct profdb__queue **out, int producers);
/* DESTRUCTOR: frees batches still queued.  NULL is a no-op. */
void profdb__queue_free(struct profdb__queue *q);
/* Make every producer and the writer stop (after an error). */
void profdb__queue_abort(struct profdb__queue *q);
/* A worker calls this once when it has flushed its last batch. */
void profdb__queue_producer_done(struct profdb__queue *q);
/*
 * Writer side: replay batches into st, unit 0 first, then 1, ..., until
 * every producer is done.  After
 * each batch calls after_batch(arg) (may be NULL).  Returns the first store
 * error (the store's err holds the message); aborts the queue on error.
 */
int profdb__queue_drain(struct profdb__queue *q, struct profdb_store *st,
                       void (*after_batch)(void *arg), void *arg);

/* CONSTRUCTOR: a sink for one worker thread (slot 0..63). */
int profdb__qsink_new(struct profdb__qsink **out, struct profdb__queue *q, int slot);
struct profdb_sink *profdb__qsink_sink(struct profdb__qsink *s);
/* The records that follow belong to unit (0, 1, ...: the walk's order, in
 * which the writer replays them); each unit is read by one sink, begun
 * once and ended once. */
void profdb__qsink_begin_unit(struct profdb__qsink *s, size_t unit);
/* Hand the unit's last batch, partly filled or empty, to the writer. */
int profdb__qsink_end_unit(struct profdb__qsink *s);
/* DESTRUCTOR.  NULL is a no-op. */
void profdb__qsink_free(struct profdb__qsink *s);

#endif
