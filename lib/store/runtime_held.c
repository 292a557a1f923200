/*
 * runtime_held.c - a Kineto file's runtime calls kept in memory as their
 * launch rows are stored, so that the passes at the file's end need not
 * read them back: op_link sweeps them from here (op_link.c), and the
 * runtime sweep (runtime_ops.c: each call an op row of its own, the self
 * times of the ops holding calls corrected) runs over them and the file's
 * held ops (ops_held.c) before those are inserted.
 *
 * Why: over the tables the sweep needs SQLite's sorter for the file's ops
 * and calls, an INSERT per call with a profdb_step_at lookup and an UPDATE
 * per op it changes, all on the one writer thread (bench/results.md, issue
 * 37).  In memory it sorts 56-byte items, the held ops take their final
 * self times before their INSERT and the calls' rows go into the op
 * batch: the same rows and ids.
 *
 * Memory: 56 bytes a call, up to link_calls_max (struct profdb_limits,
 * 262 144: 14 MB).  Past it, after a rank fix-up, or for a call without
 * a name, the file's calls are not kept and the passes read the table.
 */
#include <stdlib.h>

#include "columns.h"
#include "step_index.h"
#include "store_impl.h"
#include "banned.h"

/* A call's op row, made by the sweep; id implied by its place. */
struct profdb__rt_row {
	int64_t rank, tid, start, dur, self, name_id;
};

/* The sweep over held ops and kept calls: where its results go. */
struct rt_mem {
	struct profdb__rt_sweep w;   /* first: the callbacks get &w */
	struct profdb__op_stream *s; /* the held ops */
	struct profdb__calls_kept *k;
	int64_t base;              /* the first call row's op id (after the held ops') */
};

static int oom(struct profdb_store *st)
{
	return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
}

void profdb__calls_reset(struct profdb__calls_kept *k)
{
	k->n = k->nrows = 0;
	k->off = k->swept = 0;
}

void profdb__calls_free(struct profdb__calls_kept *k)
{
	free(k->v);
	free(k->links);
	free(k->rows);
	*k = (struct profdb__calls_kept){ 0 };
}

/* Stop keeping this file's calls (the arrays stay for the next file). */
static void stop(struct profdb__calls_kept *k)
{
	k->n = 0;
	k->off = 1;
}

int profdb__calls_keep(struct profdb_store *st, int64_t id, const struct profdb_launch_rec *l)
{
	struct profdb__calls_kept *k = &st->src.calls;
	int64_t name_id;
	if (k->off)
		return PROFDB_OK;
	if (k->n >= st->db->limits.link_calls_max) {
		/* a file this big takes the passes over the table: its array
		 * goes now, so that it adds nothing to what they hold */
		free(k->v);
		k->v = NULL;
		k->cap = 0;
		stop(k);
		return PROFDB_OK;
	}
	/* the launch row's name id, as the batch interned it */
	name_id = profdb__batch_get(st->launches, profdb__batch_pending(st->launches) - 1, LAUNCH_COL_NAME_ID);
	if (name_id == PROFDB_NULL) {
		stop(k);
		return PROFDB_OK;
	}
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 1024;
		struct profdb__call_kept *v = realloc(k->v, cap * sizeof *v);
		if (!v)
			return oom(st);
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n++] = (struct profdb__call_kept){
		.rowid = id, .rank = l->rank == PROFDB_NULL ? 0 : l->rank,
		.tid = l->tid == PROFDB_NULL ? 0 : l->tid, .tid_null = l->tid == PROFDB_NULL,
		.start = l->start_ns, .dur = l->dur_ns, .corr = l->correlation, .name_id = name_id,
	};
	return PROFDB_OK;
}

const struct profdb__link_op *profdb__calls_linked(struct profdb_store *st, size_t *n)
{
	struct profdb__calls_kept *k = &st->src.calls;
	*n = 0;
	if (k->off || !k->n || k->n != (size_t)st->src.nlaunches)
		return NULL;
	if (k->caplinks < k->n) {
		free(k->links);
		k->caplinks = 0;
		if (!(k->links = malloc(k->n * sizeof *k->links)))
			return NULL;
		k->caplinks = k->n;
	}
	for (size_t i = 0; i < k->n; i++) {
		const struct profdb__call_kept *c = &k->v[i];
		k->links[i] = (struct profdb__link_op){ .rank = c->rank, .tid = c->tid, .tid_null = c->tid_null,
		                                         .start = c->start, .dur = c->dur, .v = c->corr,
		                                         .key = c->rowid };
	}
	if (k->n > 1)
		qsort(k->links, k->n, sizeof *k->links, profdb__link_op_cmp);
	*n = k->n;
	return k->links;
}

/* runtime_ops.c's ORDER BY: rank, tid (NULL first), start, dur
 * descending, ops first, self, id. */
static int cmp_item(const void *pa, const void *pb)
{
	const struct profdb__rt_item *a = pa, *b = pb;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->tid_null != b->tid_null)
		return a->tid_null ? -1 : 1;
	if (!a->tid_null && a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	if (a->call != b->call)
		return a->call - b->call;
	if (!a->call && a->self != b->self)
		return a->self < b->self ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

static int mem_set_self(struct profdb__rt_sweep *w, const struct profdb__rt_open *o, int64_t self)
{
	struct rt_mem *m = (struct rt_mem *)w;
	if (o->id >= m->base)
		m->k->rows[o->id - m->base].self = self;
	else
		m->s->held[o->id].self = self;
	return PROFDB_OK;
}

static int mem_add_call(struct profdb__rt_sweep *w, const struct profdb__rt_item *it, int64_t *id)
{
	struct rt_mem *m = (struct rt_mem *)w;
	struct profdb__calls_kept *k = m->k;
	const struct profdb__call_kept *c = &k->v[it->self]; /* a call item's self: its index in v */
	*id = m->base + (int64_t)k->nrows;
	k->rows[k->nrows++] = (struct profdb__rt_row){ c->rank, c->tid_null ? PROFDB_NULL : c->tid, c->start,
	                                               c->dur, c->dur, c->name_id };
	return PROFDB_OK;
}

/* The sweep's items: the held ops with times, then the calls. */
static struct profdb__rt_item *items_of(const struct profdb__op_stream *s, const struct profdb__calls_kept *k,
                                        size_t *n)
{
	struct profdb__rt_item *v = malloc((s->nheld + k->n) * sizeof *v);
	size_t j = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < s->nheld; i++) {
		const struct profdb__op_held *h = &s->held[i];
		if (h->p.start == PROFDB_NULL || h->p.dur == PROFDB_NULL)
			continue;
		v[j++] = (struct profdb__rt_item){ .rank = h->p.rank, .tid = h->p.tid == PROFDB_NULL ? 0 : h->p.tid,
		                                   .tid_null = h->p.tid == PROFDB_NULL, .start = h->p.start,
		                                   .dur = h->p.dur, .self = h->self, .id = (int64_t)i };
	}
	for (size_t i = 0; i < k->n; i++) {
		const struct profdb__call_kept *c = &k->v[i];
		/* self: the call's index in v (calls sort by id, their rowid) */
		v[j++] = (struct profdb__rt_item){ .rank = c->rank, .tid = c->tid, .tid_null = c->tid_null,
		                                   .start = c->start, .dur = c->dur, .self = (int64_t)i,
		                                   .id = c->rowid, .call = 1 };
	}
	*n = j;
	return v;
}

int profdb__calls_sweep_held(struct profdb_store *st, int *done)
{
	struct profdb__source_state *c = &st->src;
	struct profdb__calls_kept *k = &c->calls;
	struct rt_mem m = { .w = { .st = st, .first = 1, .set_self = mem_set_self, .add_call = mem_add_call },
	                    .s = &c->opn, .k = k, .base = st->next_op_id + (int64_t)c->opn.nheld };
	struct profdb__rt_item *items;
	size_t n = 0;
	int rc = PROFDB_OK;
	*done = 0;
	if (!c->launches.n)
		return PROFDB_OK; /* no calls: nothing to sweep, runtime_ops.c returns at once too */
	if (k->off || k->n != (size_t)c->nlaunches)
		return PROFDB_OK;
	if (!(m.w.cat_id = profdb__intern(st->str, PROFDB__RUNTIME_CATEGORY)))
		return st->err.code ? st->err.code : oom(st);
	if (k->caprows < k->n) {
		free(k->rows);
		k->caprows = 0;
		if (!(k->rows = malloc(k->n * sizeof *k->rows)))
			return oom(st);
		k->caprows = k->n;
	}
	k->nrows = 0;
	if (!(items = items_of(&c->opn, k, &n)))
		return oom(st);
	if (n > 1)
		qsort(items, n, sizeof *items, cmp_item);
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++)
		rc = profdb__rt_sweep_item(&m.w, &items[i]);
	if (rc == PROFDB_OK)
		rc = profdb__rt_sweep_end(&m.w);
	free(m.w.stack);
	free(items);
	k->swept = rc == PROFDB_OK;
	*done = k->swept;
	return rc;
}

int profdb__calls_append(struct profdb_store *st, const struct profdb__step_index *ix)
{
	struct profdb__calls_kept *k = &st->src.calls;
	struct profdb__op_stream *s = &st->src.opn;
	int64_t cat_id;
	if (!k->swept || !k->nrows)
		return PROFDB_OK;
	if (!(cat_id = profdb__intern(st->str, PROFDB__RUNTIME_CATEGORY)))
		return st->err.code ? st->err.code : oom(st);
	if (s->nheld + k->nrows > s->capheld) {
		struct profdb__op_held *v = realloc(s->held, (s->nheld + k->nrows) * sizeof *v);
		if (!v)
			return oom(st);
		s->held = v;
		s->capheld = s->nheld + k->nrows;
	}
	for (size_t i = 0; i < k->nrows; i++) {
		const struct profdb__rt_row *r = &k->rows[i];
		s->held[s->nheld++] = (struct profdb__op_held){
			.p = { .rank = r->rank, .step = profdb__step_index_at(ix, r->rank, r->start), .name_id = r->name_id,
			       .cat_id = cat_id, .tid = r->tid, .start = r->start, .dur = r->dur, .ext = PROFDB_NULL,
			       .seq = PROFDB_NULL },
			.self = r->self, .dev_self = PROFDB_NULL, .dev_total = PROFDB_NULL,
		};
	}
	return PROFDB_OK;
}
