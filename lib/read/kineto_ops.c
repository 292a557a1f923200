/*
 * kineto_ops.c - host ops of one Kineto trace: kept compactly (strings
 * interned, about 130 bytes an op), sorted per thread and nested by
 * op_nest.c's profdb__nest (torch's key_averages rule), then sent to the
 * sink with self times.
 *
 * Memory is O(host ops + distinct strings) per file, so only for sinks
 * without nests_ops; the store nests ops as they arrive (store.c, the same
 * profdb__nest) and memory stays flat.  A file whose device events carry
 * correlation ids as External ids is linked through the launches here
 * too, by op_link.c's rule (read its comment).
 */
#include <stdlib.h>
#include <string.h>

#include "kineto_ops.h"
#include "model/op_nest.h"
#include "banned.h"

#define NONE ((size_t)-1)

struct kop {
	int64_t start, dur, ext, seq, tid;
	uint64_t thread;
	size_t name, cat, shapes, types, concrete, stack; /* pool offsets, 0 = NULL */
	int64_t self;              /* duration minus its direct children's */
	int64_t dev_self;          /* its device time, PROFDB_NULL without an External id */
	int64_t dev_total;         /* device time of it and its children */
};

/* A runtime call: its device time is found by its correlation id. */
struct klaunch {
	uint64_t thread;
	int64_t start, corr;
};

/* The collective args of a record_param_comms op (strings: pool offsets). */
struct kcoll {
	int64_t start;             /* the op's start: its kernels start later */
	int64_t in_nelems, out_nelems, group_size;
	size_t collective, dtype, pg_name, pg_desc, pg_ranks;
};

/* Device time per External id: open addressing, PROFDB_NULL = empty. */
struct extmap {
	int64_t *key, *val;
	size_t cap, used;
};

struct profdb__kops {
	struct kop *ops;
	size_t n, cap;
	char *pool;                /* interned strings; offset 0 is "" = NULL */
	size_t pool_len, pool_cap;
	size_t *slots;             /* string hash table: pool offsets, 0 = empty */
	size_t nslots, nstr;
	struct extmap dev;
	struct extmap dev_corr;    /* device time per correlation id */
	int64_t both, differ;      /* device events with both ids; with them unequal */
	struct klaunch *launches;
	size_t nlaunch, caplaunch;
	struct kcoll *colls;       /* record_param_comms args, in file order */
	size_t ncoll, capcoll;
	struct extmap coll_ix;     /* External id -> index in colls + 1 */
};

int profdb__kops_new(struct profdb__kops **out)
{
	struct profdb__kops *k = calloc(1, sizeof *k);
	*out = NULL;
	if (!k)
		return PROFDB_ERROR;
	k->pool_cap = 4096;
	k->pool = malloc(k->pool_cap);
	k->nslots = 1024;
	k->slots = calloc(k->nslots, sizeof *k->slots);
	if (!k->pool || !k->slots) {
		profdb__kops_free(k);
		return PROFDB_ERROR;
	}
	k->pool[0] = '\0';
	k->pool_len = 1;
	*out = k;
	return PROFDB_OK;
}

void profdb__kops_free(struct profdb__kops *k)
{
	if (!k)
		return;
	free(k->ops);
	free(k->pool);
	free(k->slots);
	free(k->dev.key);
	free(k->dev.val);
	free(k->dev_corr.key);
	free(k->dev_corr.val);
	free(k->launches);
	free(k->colls);
	free(k->coll_ix.key);
	free(k->coll_ix.val);
	free(k);
}

static uint64_t hash_bytes(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int rehash(struct profdb__kops *k)
{
	size_t n = k->nslots * 2;
	size_t *s = calloc(n, sizeof *s);
	if (!s)
		return -1;
	for (size_t i = 0; i < k->nslots; i++) {
		size_t j;
		if (!k->slots[i])
			continue;
		j = hash_bytes(k->pool + k->slots[i]) & (n - 1);
		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = k->slots[i];
	}
	free(k->slots);
	k->slots = s;
	k->nslots = n;
	return 0;
}

/* Pool offset of s (added if new); 0 for NULL; NONE when out of memory. */
static size_t intern(struct profdb__kops *k, const char *s)
{
	size_t j, len;
	if (!s)
		return 0;
	if ((k->nstr + 1) * 2 > k->nslots && rehash(k) != 0)
		return NONE;
	for (j = hash_bytes(s) & (k->nslots - 1); k->slots[j]; j = (j + 1) & (k->nslots - 1))
		if (strcmp(k->pool + k->slots[j], s) == 0)
			return k->slots[j];
	len = strlen(s) + 1;
	if (k->pool_len + len > k->pool_cap) {
		size_t cap = k->pool_cap;
		char *p;
		while (k->pool_len + len > cap)
			cap *= 2;
		p = realloc(k->pool, cap);
		if (!p)
			return NONE;
		k->pool = p;
		k->pool_cap = cap;
	}
	memcpy(k->pool + k->pool_len, s, len);
	k->slots[j] = k->pool_len;
	k->pool_len += len;
	k->nstr++;
	return k->slots[j];
}

int profdb__kops_add(struct profdb__kops *k, const struct profdb__kop_in *in)
{
	struct kop *o;
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 1024;
		struct kop *ops = realloc(k->ops, cap * sizeof *ops);
		if (!ops)
			return PROFDB_ERROR;
		k->ops = ops;
		k->cap = cap;
	}
	o = &k->ops[k->n];
	memset(o, 0, sizeof *o);
	o->start = in->start_ns;
	o->dur = in->dur_ns;
	o->ext = in->external_id;
	o->seq = in->seq;
	o->tid = in->tid;
	o->thread = in->thread;
	o->name = intern(k, in->name);
	o->cat = intern(k, in->category);
	o->shapes = intern(k, in->in_shapes);
	o->types = intern(k, in->in_types);
	o->concrete = intern(k, in->in_concrete);
	o->stack = intern(k, in->call_stack);
	if (o->name == NONE || o->cat == NONE || o->shapes == NONE || o->types == NONE ||
	    o->concrete == NONE || o->stack == NONE)
		return PROFDB_ERROR;
	k->n++;
	return PROFDB_OK;
}

static size_t ext_slot(const struct extmap *m, int64_t key)
{
	size_t j = (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 17) & (m->cap - 1);
	while (m->key[j] != PROFDB_NULL && m->key[j] != key)
		j = (j + 1) & (m->cap - 1);
	return j;
}

static int ext_grow(struct extmap *m)
{
	struct extmap n = { 0 };
	n.cap = m->cap ? m->cap * 2 : 1024;
	n.key = malloc(n.cap * sizeof *n.key);
	n.val = malloc(n.cap * sizeof *n.val);
	if (!n.key || !n.val) {
		free(n.key);
		free(n.val);
		return -1;
	}
	for (size_t i = 0; i < n.cap; i++)
		n.key[i] = PROFDB_NULL;
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i] != PROFDB_NULL) {
			size_t j = ext_slot(&n, m->key[i]);
			n.key[j] = m->key[i];
			n.val[j] = m->val[i];
		}
	n.used = m->used;
	free(m->key);
	free(m->val);
	*m = n;
	return 0;
}

static int ext_add(struct extmap *m, int64_t key, int64_t dur_ns)
{
	size_t j;
	if (key == PROFDB_NULL)
		return PROFDB_OK;
	if ((m->used + 1) * 2 > m->cap && ext_grow(m) != 0)
		return PROFDB_ERROR;
	j = ext_slot(m, key);
	if (m->key[j] == PROFDB_NULL) {
		m->key[j] = key;
		m->val[j] = 0;
		m->used++;
	}
	m->val[j] += dur_ns;
	return PROFDB_OK;
}

static int64_t ext_get(const struct extmap *m, int64_t key)
{
	size_t j;
	if (!m->cap || key == PROFDB_NULL)
		return 0;
	j = ext_slot(m, key);
	return m->key[j] == key ? m->val[j] : 0;
}

int profdb__kops_device(struct profdb__kops *k, int64_t external_id, int64_t correlation, int64_t dur_ns)
{
	if (external_id != PROFDB_NULL && correlation != PROFDB_NULL) {
		k->both++;
		k->differ += external_id != correlation;
	}
	if (ext_add(&k->dev, external_id, dur_ns) != PROFDB_OK ||
	    ext_add(&k->dev_corr, correlation, dur_ns) != PROFDB_OK)
		return PROFDB_ERROR;
	return PROFDB_OK;
}

int profdb__kops_launch(struct profdb__kops *k, uint64_t thread, int64_t start_ns, int64_t correlation)
{
	if (correlation == PROFDB_NULL)
		return PROFDB_OK;
	if (k->nlaunch == k->caplaunch) {
		size_t cap = k->caplaunch ? k->caplaunch * 2 : 1024;
		struct klaunch *v = realloc(k->launches, cap * sizeof *v);
		if (!v)
			return PROFDB_ERROR;
		k->launches = v;
		k->caplaunch = cap;
	}
	k->launches[k->nlaunch++] = (struct klaunch){ thread, start_ns, correlation };
	return PROFDB_OK;
}

static int cmp_launch(const void *pa, const void *pb)
{
	const struct klaunch *a = pa, *b = pb;
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

static int is_annotation(const struct profdb__kops *k, const struct kop *o)
{
	return o->cat && strcmp(k->pool + o->cat, "user_annotation") == 0;
}

/* Give launch l's device time to the innermost operator open at its start
 * on its thread (user annotations are passed over); one without an
 * External id links nothing, as in the store (op_link.c). */
static int link_launch(struct profdb__kops *k, struct profdb__nest *n, const struct klaunch *l)
{
	struct profdb__nest_op *o;
	int rc = profdb__nest_advance(n, l->start);
	for (size_t i = 0; rc == PROFDB_OK && (o = profdb__nest_open(n, i)) != NULL; i++) {
		if (is_annotation(k, &k->ops[o->id]))
			continue;
		if (o->dev_self[0] != PROFDB_NULL)
			o->dev_self[0] += ext_get(&k->dev_corr, l->corr);
		break;
	}
	return rc;
}

/* profdb__nest hands back each op when its children are all in. */
static int closed(void *arg, const struct profdb__nest_op *n)
{
	struct kop *o = &((struct profdb__kops *)arg)->ops[n->id];
	o->self = n->self;
	o->dev_self = n->dev_self[0];
	o->dev_total = n->dev_total[0];
	return PROFDB_OK;
}

/* qsort has no context argument: the ops are reached through the index. */
struct order {
	const struct kop *op;
	size_t index;              /* place in the file: ties keep file order */
};

static int cmp_order(const void *pa, const void *pb)
{
	const struct order *a = pa, *b = pb;
	int64_t ea = a->op->start + a->op->dur, eb = b->op->start + b->op->dur;
	if (a->op->thread != b->op->thread)
		return a->op->thread < b->op->thread ? -1 : 1;
	if (a->op->start != b->op->start)
		return a->op->start < b->op->start ? -1 : 1;
	if (ea != eb)
		return ea > eb ? -1 : 1; /* the longer one first: it is the parent */
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The nesting of one file's ops, thread after thread. */
struct feeder {
	struct profdb__kops *k;
	struct profdb__nest n;
	size_t li;                 /* next launch to link */
	int by_launch;
	int have;                  /* thread is the thread of the ops being nested */
	uint64_t thread;
};

/* Link the launches before time t on thread (all of it when last). */
static int link_before(struct feeder *f, uint64_t thread, int64_t t, int last)
{
	const struct klaunch *l = f->k->launches;
	int rc = PROFDB_OK;
	for (; f->by_launch && rc == PROFDB_OK && f->li < f->k->nlaunch &&
	       (last || l[f->li].thread < thread || (l[f->li].thread == thread && l[f->li].start < t)); f->li++)
		if (f->have && l[f->li].thread == f->thread)
			rc = link_launch(f->k, &f->n, &l[f->li]);
	return rc;
}

/* Feed op i, first linking the launches before it on its thread (at its
 * start: after it, inside it) and ending the previous thread. */
static int feed(struct feeder *f, size_t i)
{
	const struct kop *o = &f->k->ops[i];
	struct profdb__nest_op in = { .id = (int64_t)i, .start = o->start, .dur = o->dur };
	int rc = link_before(f, o->thread, o->start, 0);
	if (rc == PROFDB_OK && f->have && f->thread != o->thread)
		rc = profdb__nest_end(&f->n);
	f->have = 1;
	f->thread = o->thread;
	in.dev_self[0] = o->ext == PROFDB_NULL ? PROFDB_NULL : f->by_launch ? 0 : ext_get(&f->k->dev, o->ext);
	in.dev_self[1] = PROFDB_NULL;
	return rc == PROFDB_OK ? profdb__nest_add(&f->n, &in) : rc;
}

/*
 * Nest ops per thread (profdb__nest, torch's EventList._populate_cpu_children
 * rule) in (thread, start, end descending, file order) order.  Returns
 * PROFDB_ERROR when out of memory.
 */
static int nest(struct profdb__kops *k)
{
	struct order *ord = malloc((k->n ? k->n : 1) * sizeof *ord);
	struct feeder f = { .k = k, .by_launch = k->both > 0 && k->differ == 0 };
	int rc = PROFDB_OK;
	if (!ord)
		return PROFDB_ERROR;
	for (size_t i = 0; i < k->n; i++) {
		ord[i].op = &k->ops[i];
		ord[i].index = i;
	}
	qsort(ord, k->n, sizeof *ord, cmp_order);
	if (f.by_launch)
		qsort(k->launches, k->nlaunch, sizeof *k->launches, cmp_launch);
	profdb__nest_init(&f.n, 0, closed, k);
	for (size_t i = 0; i < k->n && rc == PROFDB_OK; i++)
		rc = feed(&f, ord[i].index);
	if (rc == PROFDB_OK)
		rc = link_before(&f, 0, 0, 1);
	if (rc == PROFDB_OK)
		rc = profdb__nest_end(&f.n);
	profdb__nest_free(&f.n);
	free(ord);
	return rc;
}

static const char *str_at(const struct profdb__kops *k, size_t off)
{
	return off ? k->pool + off : NULL;
}

int profdb__kops_coll_keep(struct profdb__kops *k, int64_t external_id, int64_t start_ns,
                           const struct profdb_coll_rec *c)
{
	struct kcoll *e;
	/* the first op of an External id keeps it (ids are unique per file) */
	if (external_id == PROFDB_NULL || ext_get(&k->coll_ix, external_id) != 0)
		return PROFDB_OK;
	if (k->ncoll == k->capcoll) {
		size_t cap = k->capcoll ? k->capcoll * 2 : 64;
		struct kcoll *v = realloc(k->colls, cap * sizeof *v);
		if (!v)
			return PROFDB_ERROR;
		k->colls = v;
		k->capcoll = cap;
	}
	e = &k->colls[k->ncoll];
	*e = (struct kcoll){
		.start = start_ns, .in_nelems = c->in_nelems, .out_nelems = c->out_nelems,
		.group_size = c->group_size, .collective = intern(k, c->collective), .dtype = intern(k, c->dtype),
		.pg_name = intern(k, c->pg_name), .pg_desc = intern(k, c->pg_desc), .pg_ranks = intern(k, c->pg_ranks),
	};
	if (e->collective == NONE || e->dtype == NONE || e->pg_name == NONE || e->pg_desc == NONE ||
	    e->pg_ranks == NONE)
		return PROFDB_ERROR;
	k->ncoll++;
	return ext_add(&k->coll_ix, external_id, (int64_t)k->ncoll);
}

const struct profdb_coll_rec *profdb__kops_coll_find(const struct profdb__kops *k, int64_t external_id,
                                                     int64_t correlation, int64_t start_ns,
                                                     struct profdb_coll_rec *out)
{
	int64_t i;
	const struct kcoll *e;
	/* equal ids: the file writes correlation ids as External ids
	 * (op_link.c), which name no op */
	if (external_id == PROFDB_NULL || external_id == correlation)
		return NULL;
	i = ext_get(&k->coll_ix, external_id);
	if (i <= 0)
		return NULL;
	e = &k->colls[i - 1];
	if (start_ns < e->start)
		return NULL; /* not launched by it: a kernel runs after its launch */
	*out = (struct profdb_coll_rec){
		.collective = str_at(k, e->collective), .in_nelems = e->in_nelems, .out_nelems = e->out_nelems,
		.dtype = str_at(k, e->dtype), .group_size = e->group_size, .pg_name = str_at(k, e->pg_name),
		.pg_desc = str_at(k, e->pg_desc), .pg_ranks = str_at(k, e->pg_ranks),
	};
	return out;
}

int profdb__kops_emit(struct profdb__kops *k, int64_t rank, int64_t time_offset_ns,
                      struct profdb_sink *sink)
{
	if (nest(k) != 0)
		return profdb__err_set(sink->err, PROFDB_ERROR, "out of memory");
	if (!sink->op)
		return PROFDB_OK;
	for (size_t i = 0; i < k->n; i++) {
		const struct kop *o = &k->ops[i];
		struct profdb_op_rec r;
		int rc;
		profdb__op_rec_init(&r);
		r.rank = rank;
		r.name = str_at(k, o->name);
		r.category = str_at(k, o->cat);
		r.tid = o->tid;
		r.start_ns = o->start + time_offset_ns;
		r.dur_ns = o->dur;
		r.self_ns = o->self;
		r.device_self_ns = o->dev_self;
		r.device_total_ns = o->dev_total;
		r.external_id = o->ext;
		r.seq = o->seq;
		r.in_shapes = str_at(k, o->shapes);
		r.in_types = str_at(k, o->types);
		r.in_concrete = str_at(k, o->concrete);
		r.call_stack = str_at(k, o->stack);
		if ((rc = sink->op(sink->arg, &r)) != PROFDB_OK)
			return rc;
	}
	return PROFDB_OK;
}
