/*
 * kernel_step.c - a kernel's step through its runtime call, when the
 * kernel row is written.
 *
 * What the commit did for every Kineto kernel (store_commit.c, finish_sql
 * 0): step = the smallest of profdb_step_at(rank, start) over the launch
 * rows with its rank and correlation id, one launch_corr lookup and one
 * rewrite of the kernel row and its kernel_run_step entry per kernel
 * (0.27 s of trace300's CPU).  Kineto writes a kernel after its runtime
 * call and after the ProfilerStep#N ops that become step rows, so the
 * store can answer when the kernel arrives from what it has seen: the
 * step spans of the run (kept here as the step table will hold them) and
 * the file's recent calls (a direct-mapped cache by correlation id:
 * 512 KB a file being read, whatever its size), and the kernels that came
 * before their call (Kineto writes a kernel just before its call): 512 KB more.
 *
 * That answer is the UPDATE's only if nothing changes it later, which
 * the commit checks (profdb__kstep_valid): the rank's final step spans
 * place every call time guesses were made for as the spans of the time
 * did (a file tiled from copies of one capture adds steps after the first
 * copy's kernels: they must not move them), and no (rank, correlation
 * id) has a second launch row (each file's ids are tracked in a bitmap,
 * and files of one rank must have disjoint id ranges).  If a check fails the guessed rows
 * are set back to NULL and the UPDATE places them; a kernel whose call
 * left the cache keeps NULL and is placed by the UPDATE too.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel_step.h"
#include "util/lower_bound.h"
#include "banned.h"

#define CACHE_SLOTS 16384                /* ids a kernel and its call can be apart by */
#define BITS_MAX ((size_t)8 << 20)       /* 8 MB of ids (64 M) a file, else doubt */
#define USES_MAX ((size_t)1 << 18)       /* segment bounds kept for the check: 4 MB */
/* Spans the segment rebuilds may go through in a run: a rebuild follows
 * each change of the spans, so a trace whose ProfilerStep#N ops come
 * between its kernels (a step each) rebuilt n times over n spans: 10 000
 * steps took 10 s.  Past it the guesses stop and the commit's UPDATE
 * places every kernel, as when a check fails (about 0.3 s of rebuilds;
 * kstep_seg_work of struct profdb_limits, 2^22 built in). */

/* A cached runtime call (val: its start), or a kernel waiting for its
 * call (val: its row id). */
struct profdb__kstep_call {
	int64_t corr, rank, val;
	int64_t used;
};

/* One rank's step spans, sorted by step, merged as the step table's
 * ON CONFLICT clause merges them. */
struct ks_rank {
	int64_t rank;
	struct profdb__step_span *v;  /* owned; start/end PROFDB_NULL as stored */
	size_t n, cap;
	uint64_t version;             /* bumped when a span changes */
};

/* A set of step spans guesses were made from, as segments, and the span
 * of the call times placed with it: at commit the final spans must place
 * every time in [lo, hi] the same way. */
struct ks_use {
	int64_t rank, lo, hi;
	struct profdb__step_segs segs; /* owned copy */
};

struct ks_range {
	int64_t rank, lo, hi;
};

struct profdb__kstep {
	struct ks_rank *ranks;        /* owned */
	size_t nranks, capranks;
	struct ks_range *ranges;      /* owned: the ended files' call ids */
	size_t nranges, capranges;
	struct ks_use *uses;          /* owned */
	size_t nuses, capuses, kept;  /* kept: segment bounds copied into uses */
	uint64_t seg_work;            /* spans rebuilt into segments so far */
	uint64_t seg_work_max;        /* ... before the guesses stop */
	int invalid;                  /* a file's guesses cannot be trusted (or
	                                 are not worth it): the UPDATE decides */
};

struct profdb__kstep *profdb__kstep_new(uint64_t seg_work_max)
{
	struct profdb__kstep *k = calloc(1, sizeof(struct profdb__kstep));
	if (k)
		k->seg_work_max = seg_work_max;
	return k;
}

void profdb__kstep_free(struct profdb__kstep *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nranks; i++)
		free(k->ranks[i].v);
	for (size_t i = 0; i < k->nuses; i++)
		profdb__step_segs_free(&k->uses[i].segs);
	free(k->uses);
	free(k->ranks);
	free(k->ranges);
	free(k);
}

static struct ks_rank *rank_find(struct profdb__kstep *k, int64_t rank, int add)
{
	struct ks_rank *r;
	for (size_t i = 0; i < k->nranks; i++)
		if (k->ranks[i].rank == rank)
			return &k->ranks[i];
	if (!add)
		return NULL;
	if (k->nranks == k->capranks) {
		size_t cap = k->capranks ? k->capranks * 2 : 8;
		r = realloc(k->ranks, cap * sizeof *r);
		if (!r)
			return NULL;
		k->ranks = r;
		k->capranks = cap;
	}
	r = &k->ranks[k->nranks++];
	memset(r, 0, sizeof *r);
	r->rank = rank;
	r->version = 1;
	return r;
}

/* The step table's merge: the earlier start, the later end, NULL only if both are. */
static int64_t merged(int64_t cur, int64_t in, int later)
{
	if (cur == PROFDB_NULL)
		return in;
	if (in != PROFDB_NULL && (later ? in > cur : in < cur))
		return in;
	return cur;
}

/* Merge span (step, start, end) into the list v[0..*n) sorted by step;
 * *changed set when it changed.  -1 out of memory. */
static int span_merge(struct profdb__step_span **v, size_t *n, size_t *cap, const struct profdb__step_span *in,
                      int *changed)
{
	size_t lo;
	*changed = 0;
	PROFDB__LOWER_BOUND(lo, 0, *n, mid, (*v)[mid].step < in->step);
	if (lo < *n && (*v)[lo].step == in->step) {
		struct profdb__step_span *s = &(*v)[lo];
		int64_t ns = merged(s->start, in->start, 0), ne = merged(s->end, in->end, 1);
		*changed = ns != s->start || ne != s->end;
		s->start = ns;
		s->end = ne;
		return 0;
	}
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct profdb__step_span *nv = realloc(*v, c * sizeof *nv);
		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	memmove(*v + lo + 1, *v + lo, (*n - lo) * sizeof **v);
	(*v)[lo] = *in;
	(*n)++;
	*changed = 1;
	return 0;
}

int profdb__kstep_step(struct profdb__kstep *k, int64_t rank, int64_t step, int64_t start, int64_t end)
{
	struct ks_rank *r = rank_find(k, rank, 1);
	struct profdb__step_span in = { step, start, end };
	int changed;
	if (!r || span_merge(&r->v, &r->n, &r->cap, &in, &changed) != 0)
		return -1;
	r->version += (uint64_t)changed;
	return 0;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct ks_rank *x = *(const struct ks_rank *const *)a, *y = *(const struct ks_rank *const *)b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

int profdb__kstep_index(const struct profdb__kstep *k, struct profdb__step_index **out)
{
	const struct ks_rank **order = malloc((k->nranks ? k->nranks : 1) * sizeof *order);
	struct profdb__step_span *sp = NULL;
	int64_t *rk = NULL;
	size_t n = 0, total = 0;
	int rc = SQLITE_NOMEM;
	*out = NULL;
	for (size_t i = 0; i < k->nranks; i++)
		total += k->ranks[i].n;
	if (!order || !(sp = malloc((total ? total : 1) * sizeof *sp)) || !(rk = malloc((total ? total : 1) * sizeof *rk)))
		goto out;
	for (size_t i = 0; i < k->nranks; i++)
		order[i] = &k->ranks[i];
	qsort(order, k->nranks, sizeof *order, cmp_rank);
	/* the rows step_index_load selects, in its order: each rank's spans
	 * are kept sorted by step */
	for (size_t i = 0; i < k->nranks; i++)
		for (size_t j = 0; j < order[i]->n; j++) {
			const struct profdb__step_span *s = &order[i]->v[j];
			if (s->start == PROFDB_NULL || s->end == PROFDB_NULL || s->start >= s->end)
				continue;
			rk[n] = order[i]->rank;
			sp[n++] = *s;
		}
	rc = profdb__step_index_build(out, rk, sp, n);
out:
	free(order);
	free(sp);
	free(rk);
	return rc;
}

int profdb__kstep_file_step(struct profdb__kstep_file *f, int64_t rank, int64_t step, int64_t start, int64_t end)
{
	struct profdb__step_span in = { step, start, end };
	int changed;
	if (f->nspans && rank != f->span_rank) {
		f->doubt = 1; /* one rank's ops a file */
		return 0;
	}
	f->span_rank = rank;
	if (span_merge(&f->spans, &f->nspans, &f->capspans, &in, &changed) != 0)
		return -1;
	f->span_version += (uint64_t)changed;
	return 0;
}

/* Mark id corr seen in f's bitmap; a repeat, or ids too far apart, is doubt. */
static int mark_seen(struct profdb__kstep_file *f, int64_t corr)
{
	size_t bit;
	if (corr < f->base) { /* room below: shift the bytes up */
		int64_t nb = corr - (((corr % 8) + 8) % 8);
		size_t shift = (size_t)((f->base - nb) / 8), need = f->nbytes + shift;
		unsigned char *b;
		if (need > BITS_MAX)
			return f->doubt = 1, 0;
		if (!(b = realloc(f->bits, need)))
			return -1;
		memmove(b + shift, b, f->nbytes);
		memset(b, 0, shift);
		f->bits = b;
		f->nbytes = need;
		f->base = nb;
	}
	bit = (size_t)(corr - f->base);
	if (bit / 8 >= f->nbytes) {
		size_t need = bit / 8 + 1, cap = f->nbytes * 2 > need ? f->nbytes * 2 : need;
		unsigned char *b;
		if (need > BITS_MAX)
			return f->doubt = 1, 0;
		if (cap > BITS_MAX)
			cap = BITS_MAX;
		if (!(b = realloc(f->bits, cap)))
			return -1;
		memset(b + f->nbytes, 0, cap - f->nbytes);
		f->bits = b;
		f->nbytes = cap;
	}
	if (f->bits[bit / 8] & (1u << (bit % 8)))
		f->doubt = 1;
	f->bits[bit / 8] |= (unsigned char)(1u << (bit % 8));
	return 0;
}

/* What profdb_step_at reads of spans v[0..n): both ends, start < end;
 * appended to out (room for n more). */
static size_t effective(const struct profdb__step_span *v, size_t n, struct profdb__step_span *out)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].start != PROFDB_NULL && v[i].end != PROFDB_NULL && v[i].start < v[i].end)
			out[w++] = v[i];
	return w;
}

/* The spans a guess for rank r of file f uses: the run's so far merged
 * with the file's own ProfilerStep#N ops (whose step records a reader
 * sends only once the file ends when its rank was a guess); the commit
 * checks that the step table ends up with exactly these. */
static int merged_set(const struct ks_rank *r, const struct profdb__kstep_file *f, struct profdb__step_span **out,
                      size_t *n)
{
	struct profdb__step_span *v = NULL;
	size_t nv = 0, cap = 0;
	int changed;
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (span_merge(&v, &nv, &cap, &r->v[i], &changed) != 0)
			goto oom;
	if (f->nspans && f->span_rank == r->rank)
		for (size_t i = 0; i < f->nspans; i++)
			if (span_merge(&v, &nv, &cap, &f->spans[i], &changed) != 0)
				goto oom;
	if (!(*out = malloc((nv ? nv : 1) * sizeof **out)))
		goto oom;
	*n = effective(v, nv, *out);
	free(v);
	return 0;
oom:
	free(v);
	return -1;
}

/* f's segments for rank r as of now (rebuilt when a span changed), and
 * the set they came from.  -1 out of memory. */
static int segs_now(struct profdb__kstep *k, struct ks_rank *r, struct profdb__kstep_file *f)
{
	struct profdb__step_span *set;
	size_t n;
	if (f->segs_built && f->seg_rank == r->rank && f->seg_rv == r->version && f->seg_fv == f->span_version)
		return 0;
	profdb__step_segs_free(&f->segs);
	free(f->set);
	f->set = NULL;
	f->segs_built = f->seg_checked = 0;
	if (merged_set(r, f, &set, &n) != 0)
		return -1;
	f->set = set;
	f->seg_n = n;
	k->seg_work += n;
	if (n && profdb__step_segs_build(&f->segs, set, n) != 0)
		return -1;
	f->segs_built = 1;
	f->seg_rank = r->rank;
	f->seg_rv = r->version;
	f->seg_fv = f->span_version;
	return 0;
}

/* A guess for call time t from f's segments: the first one from them
 * keeps a copy of them (bounded: USES_MAX bounds in all, else the
 * commit's UPDATE decides), later ones widen its [lo, hi].  -1 out of memory. */
static int note_use(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t rank, int64_t t)
{
	struct ks_use *u;
	size_t nb = f->segs.nbound;
	if (f->seg_checked) {
		u = &k->uses[f->use];
		u->lo = t < u->lo ? t : u->lo;
		u->hi = t > u->hi ? t : u->hi;
		return 0;
	}
	if (k->kept + nb > USES_MAX) {
		k->invalid = 1;
		return 0;
	}
	if (k->nuses == k->capuses) {
		size_t cap = k->capuses ? k->capuses * 2 : 16;
		if (!(u = realloc(k->uses, cap * sizeof *u)))
			return -1;
		k->uses = u;
		k->capuses = cap;
	}
	u = &k->uses[k->nuses];
	*u = (struct ks_use){ rank, t, t, { nb, malloc(nb * sizeof(int64_t)), malloc(nb * sizeof(int64_t)) } };
	if (!u->segs.bound || !u->segs.seg) {
		profdb__step_segs_free(&u->segs);
		return -1;
	}
	memcpy(u->segs.bound, f->segs.bound, nb * sizeof(int64_t));
	memcpy(u->segs.seg, f->segs.seg, (nb - 1) * sizeof(int64_t));
	f->use = k->nuses++;
	f->seg_checked = 1;
	k->kept += nb;
	return 0;
}

/* The step of rank's segments holding ns, into *step (PROFDB_NULL: none);
 * the set it came from is noted for the commit's check.  -1 out of memory. */
static int step_at(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t rank, int64_t ns, int64_t *step)
{
	struct ks_rank *r;
	*step = PROFDB_NULL;
	if (k->invalid) /* every guess goes back to NULL at commit: none is made */
		return 0;
	if (!(r = rank_find(k, rank, 1)) || segs_now(k, r, f) != 0)
		return -1;
	if (k->seg_work > k->seg_work_max) {
		k->invalid = 1;
		return 0;
	}
	if (!f->seg_n || (*step = profdb__step_segs_at(&f->segs, ns)) == PROFDB_NULL)
		return 0;
	f->guessed = 1;
	return note_use(k, f, rank, ns);
}

/* The caches, allocated with the file's first call or waiting kernel. */
static int caches(struct profdb__kstep_file *f)
{
	if (f->cache)
		return 0;
	f->cache = calloc(2 * CACHE_SLOTS, sizeof *f->cache);
	return f->cache ? 0 : -1;
}

int profdb__kstep_launch(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t rank, int64_t corr,
                        int64_t start, int64_t *kid, int64_t *step)
{
	struct profdb__kstep_call *c, *w;
	*kid = 0;
	*step = PROFDB_NULL;
	if (f->doubt)
		return 0;
	if (caches(f) != 0)
		return -1;
	if (!f->ncalls_any) {
		f->ncalls_any = 1;
		f->rank = rank;
		f->lo = f->hi = corr;
		f->base = corr - (((corr % 8) + 8) % 8);
	} else if (rank != f->rank) {
		f->doubt = 1;
		return 0;
	}
	f->lo = corr < f->lo ? corr : f->lo;
	f->hi = corr > f->hi ? corr : f->hi;
	if (mark_seen(f, corr) != 0)
		return -1;
	if (f->doubt)
		return 0;
	c = &f->cache[(uint64_t)corr % CACHE_SLOTS];
	*c = (struct profdb__kstep_call){ corr, rank, start, 1 };
	/* its kernel came first (Kineto writes a kernel just before its call) */
	w = &f->cache[CACHE_SLOTS + (uint64_t)corr % CACHE_SLOTS];
	if (!w->used || w->corr != corr || w->rank != rank)
		return 0;
	w->used = 0;
	*kid = w->val;
	return step_at(k, f, rank, start, step);
}

int profdb__kstep_guess(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t rank, int64_t corr,
                       int64_t kid, int64_t *step)
{
	const struct profdb__kstep_call *c;
	*step = PROFDB_NULL;
	if (f->doubt)
		return 0;
	if (caches(f) != 0)
		return -1;
	c = &f->cache[(uint64_t)corr % CACHE_SLOTS];
	if (c->used && c->corr == corr && c->rank == rank)
		return step_at(k, f, rank, c->val, step);
	/* its call may come next: the kernel waits for it */
	f->cache[CACHE_SLOTS + (uint64_t)corr % CACHE_SLOTS] = (struct profdb__kstep_call){ corr, rank, kid, 1 };
	return 0;
}

void profdb__kstep_fixup(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t guessed, int64_t rank)
{
	if (f->guessed)
		k->invalid = 1; /* rows guessed under the wrong rank */
	if (f->rank == guessed)
		f->rank = rank;
	if (f->cache) /* the calls' times moved too */
		memset(f->cache, 0, 2 * CACHE_SLOTS * sizeof *f->cache);
}

void profdb__kstep_file_free(struct profdb__kstep_file *f)
{
	free(f->cache);
	free(f->bits);
	free(f->spans);
	free(f->set);
	profdb__step_segs_free(&f->segs);
	memset(f, 0, sizeof *f);
}

int profdb__kstep_file_end(struct profdb__kstep *k, struct profdb__kstep_file *f)
{
	int rc = 0;
	if (f->doubt)
		k->invalid = 1;
	else if (f->ncalls_any) {
		if (k->nranges == k->capranges) {
			size_t cap = k->capranges ? k->capranges * 2 : 16;
			struct ks_range *v = realloc(k->ranges, cap * sizeof *v);
			if (!v)
				rc = -1;
			else {
				k->ranges = v;
				k->capranges = cap;
			}
		}
		if (rc == 0)
			k->ranges[k->nranges++] = (struct ks_range){ f->rank, f->lo, f->hi };
	}
	profdb__kstep_file_free(f);
	return rc;
}

static int cmp_range(const void *a, const void *b)
{
	const struct ks_range *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Whether segments a and b place every time in [lo, hi] in the same step:
 * both are constant between their bounds, so lo and each bound inside
 * (lo, hi] are the points to compare. */
static int same_over(const struct profdb__step_segs *a, const struct profdb__step_segs *b, int64_t lo, int64_t hi)
{
	const struct profdb__step_segs *both[2] = { a, b };
	if (profdb__step_segs_at(a, lo) != profdb__step_segs_at(b, lo))
		return 0;
	for (int w = 0; w < 2; w++)
		for (size_t i = 0; i < both[w]->nbound; i++) {
			int64_t p = both[w]->bound[i];
			if (p > lo && p <= hi && profdb__step_segs_at(a, p) != profdb__step_segs_at(b, p))
				return 0;
		}
	return 1;
}

/* Whether the rank's final spans place the guesses' call times as they were. */
static int uses_hold(struct profdb__kstep *k, const struct ks_rank *r)
{
	struct profdb__step_segs fin = { 0 };
	struct profdb__step_span *v;
	size_t n;
	int ok = 1;
	if (!(v = malloc((r->n ? r->n : 1) * sizeof *v)))
		return 0; /* unsure: the UPDATE decides */
	n = effective(r->v, r->n, v);
	if (n && profdb__step_segs_build(&fin, v, n) != 0)
		ok = 0;
	for (size_t i = 0; ok && i < k->nuses; i++)
		if (k->uses[i].rank == r->rank)
			ok = same_over(&k->uses[i].segs, &fin, k->uses[i].lo, k->uses[i].hi);
	profdb__step_segs_free(&fin);
	free(v);
	return ok;
}

int profdb__kstep_valid(struct profdb__kstep *k)
{
	if (k->invalid)
		return 0;
	for (size_t i = 0; i < k->nranks; i++)
		if (!uses_hold(k, &k->ranks[i]))
			return 0;
	/* two files' calls of one rank with overlapping ids may repeat one */
	if (k->nranges > 1) /* qsort(NULL, 0) is undefined (UBSan) */
		qsort(k->ranges, k->nranges, sizeof *k->ranges, cmp_range);
	for (size_t i = 1, first = 0; i < k->nranges; i++) {
		int64_t hi = k->ranges[first].hi; /* the highest id of the rank's files so far */
		if (k->ranges[i].rank != k->ranges[first].rank) {
			first = i;
			continue;
		}
		if (k->ranges[i].lo <= hi)
			return 0;
		if (k->ranges[i].hi > hi)
			first = i;
	}
	return 1;
}
