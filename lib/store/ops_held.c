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
 * pass fed from memory: the same values as the passes over the table
 * give.  Then they are sorted by thread and start and take their ids in
 * that order (op_rows.h), where the passes' rows keep the order they
 * closed in.
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
#include "op_rows.h"
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
	struct profdb__op_stream *s = &st->src.opn;
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
	struct profdb__op_stream *s = &st->src.opn;
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
	struct profdb__op_stream *s = &st->src.opn;
	int ok = 1, rc;
	/* no source_file row: nothing ends the file, the rows go in as they close */
	if (s->hold_off || s->unsorted || !st->src.id)
		return profdb__store_op_insert(st, p, self, dev_self, dev_total);
	if (s->nheld == s->capheld && (rc = room(st, &ok)) != PROFDB_OK)
		return rc;
	if (!ok)
		return profdb__store_op_insert(st, p, self, dev_self, dev_total);
	s->held[s->nheld++] = (struct profdb__op_held){ *p, self, dev_self, dev_total };
	return PROFDB_OK;
}

/* The str id of 'user_annotation', 0 if none: op_link leaves those ops out.
 * From the map when it holds the text (a held op of that category was
 * interned this ingest, so it does unless the map was emptied since);
 * else from the table, after the writes in flight. */
static int annotation_id(struct profdb_store *st, int64_t *id)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if ((*id = profdb__intern_cached(st->str, "user_annotation")) != 0)
		return PROFDB_OK;
	if (profdb__store_sync(st) != PROFDB_OK)
		return st->err.code;
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
 * closing order (the order of ops of one start: op_link.h). */
static int link_held(struct profdb_store *st, int *done)
{
	struct profdb__source_state *c = &st->src;
	const struct profdb__op_stream *s = &c->opn;
	struct profdb__link_op *v;
	const struct profdb__link_op *calls;
	struct profdb__flush_job *job = NULL;
	int64_t annot;
	size_t n = 0, ncalls;
	int rc, held, copy;
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
	/* kernel rows the rewrite would find in the table go in first */
	if (!(held = profdb__store_kernels_held(st)) && profdb__store_kernels_release(st) != PROFDB_OK)
		return st->err.code;
	/* without the calls kept, the sweep reads them from the launch table */
	if (!calls && profdb__store_sync(st) != PROFDB_OK)
		return st->err.code;
	copy = c->kext_equal && !c->kext_differ;
	rc = profdb__op_link_held(st->db, st->run_id, c->id, v, n, calls, ncalls, c->launches.v, c->launches.n,
	                          c->kernels.v, c->kernels.n, copy, c->kids_off ? NULL : c->kids, c->nkids, !held,
	                          st->flusher ? &job : NULL, done, &st->err);
	/* held, the rows take their links now and go in after */
	if (rc == PROFDB_OK && *done && held && copy)
		profdb__store_kernels_patch(st);
	if (rc == PROFDB_OK && *done && profdb__store_kernels_release(st) != PROFDB_OK)
		rc = st->err.code;
	/* the rewrite, or the note, runs after the file's kernel rows */
	if (rc == PROFDB_OK && job)
		rc = profdb__store_submit(st, job);
	return rc;
}

/* The held ops made final in place, each with its step and device times,
 * as the rows with ids from st->next_op_id. */
static int finish_held(struct profdb_store *st, const struct profdb__step_index *ix)
{
	struct profdb__op_stream *s = &st->src.opn;
	struct profdb__op_pass pass;
	int rc = profdb__op_pass_begin(&pass, st, 1);
	for (size_t i = 0; i < s->nheld && rc == PROFDB_OK; i++) {
		struct profdb__op_held *h = &s->held[i];
		struct profdb__op_final f;
		int64_t at = h->p.start == PROFDB_NULL ? PROFDB_NULL : profdb__step_index_at(ix, h->p.rank, h->p.start);
		rc = profdb__op_pass_row(&pass, s->log[i], h->p.rank, h->p.tid, h->p.ext, h->p.step, at, &f);
		if (rc == PROFDB_OK && f.changed) {
			h->p.step = f.step;
			h->dev_self = f.dev_self;
			h->dev_total = f.dev_total;
		}
	}
	profdb__op_pass_end(&pass);
	return rc;
}

/* The file's final op rows (its held ops and its runtime calls' rows, sorted)
 * handed to op_rows.c with their ids: inserted by the flusher when there
 * is one (after the op batch's rows, whose ids are lower), else now.  The
 * array of the file before comes back for the next file. */
static int hand_over(struct profdb_store *st)
{
	struct profdb__op_stream *s = &st->src.opn;
	struct profdb__flush_job *job = profdb__op_rows_job(st->oprows);
	struct profdb__op_held *old;
	size_t oldcap;
	int64_t first = st->next_op_id;
	int rc;
	profdb__op_rows_sort(s->held, s->nheld);
	for (size_t i = 0; i < s->nheld; i++) {
		const struct profdb__op_held *h = &s->held[i];
		if (h->dev_self == PROFDB_NULL && h->p.ext != PROFDB_NULL)
			st->ops_no_device++;
		if (profdb__store_note_row(st, &st->src.ops, first + (int64_t)i) != PROFDB_OK ||
		    (h->p.step == PROFDB_NULL && h->p.start != PROFDB_NULL &&
		     profdb__store_note_row(st, &st->op_nostep, first + (int64_t)i) != PROFDB_OK))
			return st->err.code;
	}
	if (profdb__store_wait(st, job) != PROFDB_OK || profdb__batch_hand_over(st->ops) != SQLITE_OK)
		return st->err.code ? st->err.code : profdb__err_set(&st->err, PROFDB_ERROR, "storing op: %s",
		                                                     sqlite3_errmsg(st->db->sql));
	profdb__op_rows_set(st->oprows, s->held, s->nheld, s->capheld, first, &old, &oldcap);
	st->next_op_id += (int64_t)s->nheld;
	s->held = old;
	s->capheld = old ? oldcap : 0;
	s->nheld = 0;
	if (st->flusher)
		return profdb__store_submit(st, job);
	/* inserted now: the array comes back at once, none held beside it */
	free(s->held);
	rc = profdb__op_rows_insert(st->oprows);
	profdb__op_rows_set(st->oprows, NULL, 0, 0, 0, &s->held, &s->capheld);
	if (rc != SQLITE_OK)
		return profdb__err_set(&st->err, PROFDB_ERROR, "storing op: %s", sqlite3_errmsg(st->db->sql));
	return PROFDB_OK;
}

int profdb__store_ops_end_held(struct profdb_store *st, int *done)
{
	struct profdb__source_state *c = &st->src;
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
	/* the file's steps are in (the reader sent them before its end), in
	 * the table or on their way: the spans as written, from memory */
	if (profdb__kstep_index(st->ksteps, &ix) != SQLITE_OK)
		return oom(st);
	/* the runtime sweep first: it corrects the held ops' self times */
	rc = profdb__calls_sweep_held(st, &swept);
	if (rc == PROFDB_OK)
		rc = finish_held(st, ix);
	if (rc == PROFDB_OK && swept)
		rc = profdb__calls_append(st, ix);
	/* inserted on the flusher's thread (store_async.c) where there is one */
	profdb__store_window(st, 1);
	if (rc == PROFDB_OK)
		rc = hand_over(st);
	profdb__store_window(st, 0);
	profdb__step_index_free(ix);
	keep(st, s);
	s->hold_off = 1;
	return rc;
}
