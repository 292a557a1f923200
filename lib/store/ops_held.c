/*
 * ops_held.c - a Kineto file's closed ops held in memory until the file
 * ends, then stored once, with their final steps and device times.
 *
 * Why: a Kineto file writes its kernels after all its ops, so an op
 * stored when it closes (store_ops.c) cannot have its device time yet;
 * stored then, the file's op rows would be read back in rowid order and
 * UPDATEd (device time, a wrong step guess), and read once more through
 * op_run_tid to link the kernels.  Held, the ops are linked by op_link.c's
 * sweep over them, given their steps and device times by store_ops.c's
 * pass fed from memory, and inserted in the order they closed: the same
 * rowids and values as the passes over the table give.
 *
 * Memory: 128 bytes an op, up to PROFDB_OPS_HELD_BYTES (16 MB, 131 072
 * ops; control.json's 40 794 take 5 MB).  A file past it, one whose rank
 * is fixed up after its events, one whose ops come out of start order per
 * thread, or one with more runtime calls than op_link's sweep in C holds,
 * has its held ops released into the op batch as they would have gone
 * when they closed, and then takes the passes over the table.
 */
#include <stdlib.h>
#include <string.h>

#include "step_index.h"
#include "store_impl.h"
#include "banned.h"

static int oom(struct profdb_store *st)
{
	return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
}

void profdb__store_ops_held_free(struct profdb__op_stream *s)
{
	free(s->held);
	s->held = NULL;
	s->nheld = s->capheld = 0;
}

int profdb__store_ops_release(struct profdb_store *st)
{
	struct profdb__op_stream *s = &st->cur->opn;
	int rc = PROFDB_OK;
	s->hold_off = 1;
	for (size_t i = 0; i < s->nheld && rc == PROFDB_OK; i++) {
		const struct profdb__op_held *h = &s->held[i];
		rc = profdb__store_op_insert(st, &h->p, h->self, h->dev_self, h->dev_total);
	}
	profdb__store_ops_held_free(s);
	return rc;
}

void profdb__store_ops_held_done(struct profdb_store *st)
{
	free(st->held_spare);
	free(st->link_ops);
	st->held_spare = NULL;
	st->link_ops = NULL;
	st->held_spare_cap = st->link_cap = 0;
}

/* The file's held array, emptied, kept for the next file (the larger of
 * it and the one kept: one array beside those in use). */
static void keep(struct profdb_store *st, struct profdb__op_stream *s)
{
	if (s->capheld > st->held_spare_cap) {
		free(st->held_spare);
		st->held_spare = s->held;
		st->held_spare_cap = s->capheld;
		s->held = NULL;
	}
	profdb__store_ops_held_free(s);
}

/* Room for one more held op; 0 when the budget is spent (released then). */
static int room(struct profdb_store *st, int *ok)
{
	struct profdb__op_stream *s = &st->cur->opn;
	size_t most = (size_t)(st->db->limits.ops_held_bytes / sizeof *s->held), cap;
	struct profdb__op_held *v;
	*ok = 0;
	if (s->nheld >= most)
		return profdb__store_ops_release(st);
	if (!s->held && st->held_spare && st->held_spare_cap <= most) {
		s->held = st->held_spare;
		s->capheld = st->held_spare_cap;
		st->held_spare = NULL;
		st->held_spare_cap = 0;
		*ok = 1;
		return PROFDB_OK;
	}
	cap = s->capheld ? s->capheld * 2 : 4096;
	if (cap > most)
		cap = most;
	if (!(v = realloc(s->held, cap * sizeof *v)))
		return oom(st);
	s->held = v;
	s->capheld = cap;
	*ok = 1;
	return PROFDB_OK;
}

int profdb__store_op_put(struct profdb_store *st, const struct profdb__op_pending *p, int64_t self,
                         int64_t dev_self, int64_t dev_total)
{
	struct profdb__op_stream *s = &st->cur->opn;
	int ok = 1, rc;
	/* no source_file row: nothing ends the file, the rows go in as they close */
	if (s->hold_off || s->unsorted || !st->cur->id)
		return profdb__store_op_insert(st, p, self, dev_self, dev_total);
	if (s->nheld == s->capheld && (rc = room(st, &ok)) != PROFDB_OK)
		return rc;
	if (!ok)
		return profdb__store_op_insert(st, p, self, dev_self, dev_total);
	s->held[s->nheld++] = (struct profdb__op_held){ *p, self, dev_self, dev_total };
	return PROFDB_OK;
}

/* The str id of 'user_annotation', 0 if none: op_link leaves those ops out. */
static int annotation_id(struct profdb_store *st, int64_t *id)
{
	sqlite3_stmt *q = NULL;
	int rc;
	*id = 0;
	if (sqlite3_prepare_v2(st->db->sql, "SELECT id FROM str WHERE value = 'user_annotation'", -1, &q, NULL) !=
	    SQLITE_OK)
		return profdb__err_set(&st->err, PROFDB_ERROR, "kernel links: %s", sqlite3_errmsg(st->db->sql));
	if ((rc = sqlite3_step(q)) == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return profdb__err_set(&st->err, PROFDB_ERROR, "kernel links: %s", sqlite3_errmsg(st->db->sql));
	return PROFDB_OK;
}

/* op_link over the held ops: those with times, not user annotations, in
 * closing order (the rowids they will get). */
static int link_held(struct profdb_store *st, int *done)
{
	struct profdb__source_state *c = st->cur;
	const struct profdb__op_stream *s = &c->opn;
	struct profdb__link_op *v;
	const struct profdb__link_op *calls;
	int64_t annot;
	size_t n = 0, ncalls;
	int rc;
	*done = 1;
	if (!c->kernels.n || !c->launches.n)
		return PROFDB_OK;
	if ((rc = annotation_id(st, &annot)) != PROFDB_OK)
		return rc;
	if (st->link_cap < s->nheld) {
		free(st->link_ops);
		st->link_cap = 0;
		if (!(st->link_ops = malloc(s->nheld * sizeof *st->link_ops)))
			return oom(st);
		st->link_cap = s->nheld;
	}
	v = st->link_ops;
	for (size_t i = 0; i < s->nheld; i++) {
		const struct profdb__op_pending *p = &s->held[i].p;
		if (p->start == PROFDB_NULL || p->dur == PROFDB_NULL || (annot && p->cat_id == annot))
			continue;
		v[n++] = (struct profdb__link_op){ .rank = p->rank, .tid = p->tid == PROFDB_NULL ? 0 : p->tid,
		                                   .tid_null = p->tid == PROFDB_NULL, .start = p->start,
		                                   .dur = p->dur, .v = p->ext, .key = -(int64_t)i };
	}
	calls = profdb__calls_linked(st, &ncalls);
	return profdb__op_link_held(st->db, st->run_id, c->id, v, n, calls, ncalls, c->launches.v, c->launches.n,
	                            c->kernels.v, c->kernels.n, done, &st->err);
}

/* The held ops into the op batch, each with its step and device times. */
static int store_held(struct profdb_store *st, const struct profdb__step_index *ix)
{
	struct profdb__op_stream *s = &st->cur->opn;
	struct profdb__op_pass pass;
	int rc = profdb__op_pass_begin(&pass, st);
	for (size_t i = 0; i < s->nheld && rc == PROFDB_OK; i++) {
		struct profdb__op_held h = s->held[i];
		struct profdb__op_final f;
		int64_t at = h.p.start == PROFDB_NULL ? PROFDB_NULL : profdb__step_index_at(ix, h.p.rank, h.p.start);
		rc = profdb__op_pass_row(&pass, s->log[i], h.p.rank, h.p.tid, h.p.ext, h.p.step, at, &f);
		if (rc == PROFDB_OK && f.changed) {
			h.p.step = f.step;
			h.dev_self = f.dev_self;
			h.dev_total = f.dev_total;
		}
		if (rc == PROFDB_OK)
			rc = profdb__store_op_insert(st, &h.p, h.self, h.dev_self, h.dev_total);
	}
	profdb__op_pass_end(&pass);
	return rc;
}

int profdb__store_ops_end_held(struct profdb_store *st, int *done)
{
	struct profdb__source_state *c = st->cur;
	struct profdb__op_stream *s = &c->opn;
	struct profdb__step_index *ix = NULL;
	int rc, swept = 0;
	*done = 0;
	if (s->hold_off || s->unsorted || !s->nheld)
		return PROFDB_OK;
	if (s->nheld != s->nlog || s->nlog != (size_t)c->nops)
		return profdb__err_set(&st->err, PROFDB_ERROR, "op times: %zu ops held, %zu logged, %lld stored",
		                       s->nheld, s->nlog, (long long)c->nops);
	if ((rc = link_held(st, done)) != PROFDB_OK)
		return rc;
	if (!*done) { /* too many runtime calls: the passes over the table, which read it */
		if ((rc = profdb__store_ops_release(st)) != PROFDB_OK)
			return rc;
		return profdb__store_ops_flush(st);
	}
	/* the file's steps are in (the reader sent them before its end) */
	if (profdb__step_index_load(st->db->sql, &ix, st->run_id) != SQLITE_OK)
		return profdb__err_set(&st->err, PROFDB_ERROR, "op steps: %s", sqlite3_errmsg(st->db->sql));
	/* the runtime sweep first: it corrects the held ops' self times */
	rc = profdb__calls_sweep_held(st, &swept);
	/* only batches filled here: their INSERTs may run on the flusher's
	 * thread (store_async.c); the caller syncs after */
	profdb__store_window(st, 1);
	if (rc == PROFDB_OK)
		rc = store_held(st, ix);
	if (rc == PROFDB_OK && swept)
		rc = profdb__calls_store(st, ix);
	profdb__store_window(st, 0);
	profdb__step_index_free(ix);
	keep(st, s);
	s->hold_off = 1;
	return rc;
}
