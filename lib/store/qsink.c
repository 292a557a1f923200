/*
 * qsink.c - a sink that lets readers run on worker threads while one thread
 * writes SQLite.  Each worker's records are copied (strings included) into
 * batches of a bounded queue; the writer replays them into the store sink.
 *
 * Why copies: records borrow their strings only for the duration of the
 * sink call.  Why bounded: a fast parser must not pile up a 1 GB trace in
 * memory while the writer catches up, so producers wait when it is full.
 * Why in unit order: the writer replays one unit (file) after the other,
 * in the walk's order, whichever reader finishes first, so that the rows
 * and their ids are the same at any -j; the readers ahead of the
 * writer's unit wait once they have QUEUE_MAX batches queued between them,
 * while the batches of the writer's unit have a bound of their own (so it
 * always makes way).
 *
 * The writing and replaying of each record kind stay side by side: one
 * layout, written and read back.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "columns.h"
#include "qsink.h"
#include "banned.h"

#define BATCH_BYTES (256 * 1024) /* records per hand-over; amortises locking */
#define QUEUE_MAX 16             /* batches in flight, of the writer's unit and of
                                  * the others each: bounds memory at ~8 MB */
#define SLOTS 64                 /* reader slots, 0..63 (qsink.h) */

enum rec_type { R_SOURCE_BEGIN = 1, R_SOURCE_END, R_SKIP, R_KERNEL, R_OP, R_LAUNCH, R_STEP,
	R_STEP_METRIC, R_META, R_NOTE, R_RANK_FIXUP, R_KERNEL_COLL, R_COMM, R_MEMORY,
	R_OP_MEMORY };

struct batch {
	struct batch *next;
	int slot;                  /* reader slot the records came from */
	size_t unit;               /* the walk's unit they belong to */
	int last;                  /* the unit's last batch */
	size_t len, cap;
	unsigned char *data;       /* owned */
};

struct profdb__queue {
	pthread_mutex_t mu;
	pthread_cond_t nonempty, nonfull;
	struct batch *head, *tail;
	struct batch *spare;       /* drained batches kept for reuse, see recycle() */
	size_t count;
	size_t cur_unit;           /* the unit the writer replays */
	size_t ncur;               /* batches of it queued (in count) */
	int producers;             /* workers still running */
	size_t wait_unit[SLOTS];   /* per slot: 1 + the unit it waits to push, 0 */
	int abort;                 /* stop everything: an error happened */
	int unended;               /* batches left behind a unit that never ended */
};

/*
 * String fields of each record type, as offsets into the struct, from the
 * column lists (columns.h): a string field missing here would reach the
 * writer thread as a pointer into a reader's buffer, reused by then.
 */
static const size_t kernel_strs[] = { PROFDB__KERNEL_COLUMNS(PROFDB__COL_OFF_KERNEL) };
static const size_t op_strs[] = { PROFDB__OP_COLUMNS(PROFDB__COL_OFF_OP) };
static const size_t launch_strs[] = { PROFDB__LAUNCH_COLUMNS(PROFDB__COL_OFF_LAUNCH) };
/* a kernel's collective args travel in the kernel's record (R_KERNEL_COLL) */
static const size_t coll_strs[] = { PROFDB__COLL_COLUMNS(PROFDB__COL_OFF_COLL) };
static const size_t comm_strs[] = {
	offsetof(struct profdb_comm_rec, scope), offsetof(struct profdb_comm_rec, op_name),
	offsetof(struct profdb_comm_rec, group), offsetof(struct profdb_comm_rec, matrix_op),
	offsetof(struct profdb_comm_rec, transport), offsetof(struct profdb_comm_rec, size_dist)
};

static const size_t mem_strs[] = {
	offsetof(struct profdb_mem_rec, device_type), offsetof(struct profdb_mem_rec, component)
};
static const size_t opmem_strs[] = {
	offsetof(struct profdb_opmem_rec, device_type), offsetof(struct profdb_opmem_rec, name)
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- queue */

int profdb__queue_new(struct profdb__queue **out, int producers)
{
	struct profdb__queue *q = calloc(1, sizeof *q);
	*out = NULL;
	if (!q)
		return PROFDB_ERROR;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->nonempty, NULL);
	pthread_cond_init(&q->nonfull, NULL);
	q->producers = producers;
	*out = q;
	return PROFDB_OK;
}

static void batch_free(struct batch *b)
{
	if (b) {
		free(b->data);
		free(b);
	}
}

void profdb__queue_free(struct profdb__queue *q)
{
	if (!q)
		return;
	while (q->head) {
		struct batch *b = q->head;
		q->head = b->next;
		batch_free(b);
	}
	while (q->spare) {
		struct batch *b = q->spare;
		q->spare = b->next;
		batch_free(b);
	}
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->nonempty);
	pthread_cond_destroy(&q->nonfull);
	free(q);
}

void profdb__queue_abort(struct profdb__queue *q)
{
	pthread_mutex_lock(&q->mu);
	q->abort = 1;
	pthread_cond_broadcast(&q->nonfull);
	pthread_cond_broadcast(&q->nonempty);
	pthread_mutex_unlock(&q->mu);
}

void profdb__queue_producer_done(struct profdb__queue *q)
{
	pthread_mutex_lock(&q->mu);
	q->producers--;
	pthread_cond_broadcast(&q->nonempty);
	pthread_mutex_unlock(&q->mu);
}

/* Is there room for a batch of unit? (mu held) */
static int room_for(const struct profdb__queue *q, size_t unit)
{
	return unit == q->cur_unit ? q->ncur < QUEUE_MAX : q->count - q->ncur < QUEUE_MAX;
}

/* Hand b to the writer; waits while its unit's share of the queue is full.
 * Frees b on abort. */
static int push(struct profdb__queue *q, struct batch *b)
{
	pthread_mutex_lock(&q->mu);
	while (!room_for(q, b->unit) && !q->abort) {
		q->wait_unit[(size_t)b->slot % SLOTS] = b->unit + 1;
		pthread_cond_signal(&q->nonempty); /* pop tells a stall (below) */
		pthread_cond_wait(&q->nonfull, &q->mu);
		q->wait_unit[(size_t)b->slot % SLOTS] = 0;
	}
	if (q->abort) {
		pthread_mutex_unlock(&q->mu);
		batch_free(b);
		return PROFDB_ERROR;
	}
	if (q->tail)
		q->tail->next = b;
	else
		q->head = b;
	q->tail = b;
	q->count++;
	q->ncur += b->unit == q->cur_unit;
	pthread_cond_signal(&q->nonempty);
	pthread_mutex_unlock(&q->mu);
	return PROFDB_OK;
}

/* Unlink the batch after prev (NULL: the head); mu held. */
static struct batch *unlink_after(struct profdb__queue *q, struct batch *prev)
{
	struct batch *b = prev ? prev->next : q->head;
	if (prev)
		prev->next = b->next;
	else
		q->head = b->next;
	if (q->tail == b)
		q->tail = prev;
	b->next = NULL;
	q->count--;
	return b;
}

/* The writer's unit is done: the next one's batches already queued count
 * as its own from now on; mu held. */
static void next_unit(struct profdb__queue *q)
{
	q->cur_unit++;
	q->ncur = 0;
	for (const struct batch *b = q->head; b; b = b->next)
		q->ncur += b->unit == q->cur_unit;
}

/* Can no producer go on?  Each is done or waits for room it still lacks (a
 * waiter woken by the writer's last move may not have run yet); mu held. */
static int stalled(const struct profdb__queue *q)
{
	int waiting = 0;
	for (size_t i = 0; i < SLOTS; i++)
		if (q->wait_unit[i]) {
			if (room_for(q, q->wait_unit[i] - 1))
				return 0;
			waiting++;
		}
	return waiting == q->producers;
}

/* The next batch of the writer's unit, or NULL when every producer is done
 * (or on abort).  With none of that unit queued and every producer done or
 * waiting for room, none can come: a unit never ended (unended). */
static struct batch *pop(struct profdb__queue *q)
{
	struct batch *b = NULL, *prev = NULL;
	int found = 0;
	pthread_mutex_lock(&q->mu);
	for (;;) {
		prev = NULL;
		for (b = q->head; b && b->unit != q->cur_unit; b = b->next)
			prev = b;
		found = b != NULL;
		if (found || q->abort || stalled(q))
			break;
		pthread_cond_wait(&q->nonempty, &q->mu);
	}
	if (q->abort) {
		b = NULL;
	} else if (found) {
		b = unlink_after(q, prev);
		q->ncur--;
		if (b->last)
			next_unit(q);
	} else if (q->head) {
		q->unended = 1; /* a unit never ended: a caller's bug, made loud */
	}
	if (b)
		pthread_cond_broadcast(&q->nonfull);
	pthread_mutex_unlock(&q->mu);
	return b;
}

/*
 * Drained batches go back to the producers instead of to free(): a batch is
 * 256 KB, above glibc's first mmap threshold, and freeing it on the writer
 * thread returned its pages to the kernel, so every batch the reader filled
 * was a run of fresh page faults (a third of an 8-rank ingest's faults,
 * which cost ~5 us each on a virtual machine).  Only batches of the
 * standard size are kept, and a spare exists only where a batch was in
 * flight, so the batches allocated never exceed the queue's bound.
 */
static void recycle(struct profdb__queue *q, struct batch *b)
{
	if (b->cap != BATCH_BYTES) {
		batch_free(b);
		return;
	}
	pthread_mutex_lock(&q->mu);
	b->next = q->spare;
	q->spare = b;
	pthread_mutex_unlock(&q->mu);
}

/* A spare batch, emptied, or NULL when there is none. */
static struct batch *take_spare(struct profdb__queue *q)
{
	pthread_mutex_lock(&q->mu);
	struct batch *b = q->spare;
	if (b)
		q->spare = b->next;
	pthread_mutex_unlock(&q->mu);
	if (b) {
		b->next = NULL;
		b->len = 0;
	}
	return b;
}

/* ---------------------------------------------------------------- encoding */

struct profdb__qsink {
	struct profdb_sink sink;   /* what the reader calls */
	struct profdb_err err;     /* the reader's errors */
	struct profdb__queue *q;
	int slot;
	size_t unit;               /* the unit being read (profdb__qsink_begin_unit) */
	struct batch *cur;         /* being filled */
};

/* Hand the current batch over; last: the unit's last one, handed over
 * even when empty (the writer moves to the next unit on it). */
static int flush(struct profdb__qsink *s, int last)
{
	struct batch *b = s->cur;
	s->cur = NULL;
	if (!last && (!b || b->len == 0)) {
		batch_free(b);
		return PROFDB_OK;
	}
	if (!b && !(b = calloc(1, sizeof *b)))
		return profdb__err_set(&s->err, PROFDB_ERROR, "out of memory");
	b->slot = s->slot;
	b->unit = s->unit;
	b->last = last;
	if (push(s->q, b) != PROFDB_OK)
		return profdb__err_set(&s->err, PROFDB_ERROR, "ingest stopped");
	return PROFDB_OK;
}

/* Make room for n more bytes in the current batch. */
static unsigned char *reserve(struct profdb__qsink *s, size_t n)
{
	struct batch *b = s->cur;
	if (b && b->len + n > b->cap && flush(s, 0) != PROFDB_OK)
		return NULL;
	if (!s->cur) {
		size_t cap = n > BATCH_BYTES ? n : BATCH_BYTES;
		b = cap == BATCH_BYTES ? take_spare(s->q) : NULL;
		if (!b) {
			b = calloc(1, sizeof *b);
			if (!b || !(b->data = malloc(cap))) {
				free(b);
				profdb__err_set(&s->err, PROFDB_ERROR, "out of memory");
				return NULL;
			}
			b->cap = cap;
		}
		s->cur = b;
	}
	s->cur->len += n;
	return s->cur->data + s->cur->len - n;
}

static size_t str_size(const char *p)
{
	return p ? strlen(p) + 1 : 0;
}

/* Layout of one record: type byte, the struct, then per string field a
 * u32 length+1 (0 = NULL) and its bytes with the NUL, then extras. */
static size_t record_size(const void *rec, size_t size, const size_t *strs, size_t nstrs,
                          const struct profdb_metric *m, size_t nm)
{
	size_t need = size;
	for (size_t i = 0; i < nstrs; i++)
		need += 4 + str_size(*(const char *const *)((const char *)rec + strs[i]));
	for (size_t i = 0; i < nm; i++)
		need += sizeof(double) + 4 + str_size(m[i].name);
	return need;
}

/* The struct and its strings (record_size bytes) at p, without the type. */
static void record_write(unsigned char *p, const void *rec, size_t size, const size_t *strs, size_t nstrs,
                         const struct profdb_metric *m, size_t nm)
{
	size_t off = size;
	memcpy(p, rec, size);
	for (size_t i = 0; i < nstrs + nm; i++) {
		const char *str = i < nstrs ? *(const char *const *)((const char *)rec + strs[i]) : m[i - nstrs].name;
		uint32_t n = str ? (uint32_t)strlen(str) + 1 : 0;
		if (i >= nstrs) {
			memcpy(p + off, &m[i - nstrs].value, sizeof(double));
			off += sizeof(double);
		}
		memcpy(p + off, &n, 4);
		off += 4;
		if (n) {
			memcpy(p + off, str, n);
			off += n;
		}
	}
}

static int put_record(struct profdb__qsink *s, int type, const void *rec, size_t size,
                      const size_t *strs, size_t nstrs, const struct profdb_metric *m, size_t nm)
{
	unsigned char *p = reserve(s, 1 + record_size(rec, size, strs, nstrs, m, nm));
	if (!p)
		return s->err.code ? s->err.code : PROFDB_ERROR;
	p[0] = (unsigned char)type;
	record_write(p + 1, rec, size, strs, nstrs, m, nm);
	return PROFDB_OK;
}

/* Read back a string written by put_record; advances *off. */
static const char *get_str(const unsigned char *d, size_t *off)
{
	uint32_t n;
	const char *s;
	memcpy(&n, d + *off, 4);
	*off += 4;
	if (!n)
		return NULL;
	s = (const char *)d + *off;
	*off += n;
	return s;
}

/* Simple records: scalars and strings packed one after another. */
static int put_simple(struct profdb__qsink *s, int type, const int64_t *nums, size_t nn,
                      const char *const *strs, size_t ns, const void *blob, size_t blob_len)
{
	size_t need = 1 + nn * 8 + 8, off = 1;
	unsigned char *p;
	for (size_t i = 0; i < ns; i++)
		need += 4 + str_size(strs[i]);
	need += blob_len;
	p = reserve(s, need);
	if (!p)
		return s->err.code ? s->err.code : PROFDB_ERROR;
	p[0] = (unsigned char)type;
	memcpy(p + off, nums, nn * 8);
	off += nn * 8;
	for (size_t i = 0; i < ns; i++) {
		uint32_t n = strs[i] ? (uint32_t)strlen(strs[i]) + 1 : 0;
		memcpy(p + off, &n, 4);
		off += 4;
		if (n) {
			memcpy(p + off, strs[i], n);
			off += n;
		}
	}
	{
		uint64_t bl = blob ? blob_len : UINT64_MAX;
		memcpy(p + off, &bl, 8);
		off += 8;
	}
	if (blob_len)
		memcpy(p + off, blob, blob_len);
	return PROFDB_OK;
}

static int q_source_begin(void *arg, const char *path, const char *role, int64_t rank,
                          const unsigned char *content, size_t len)
{
	const char *strs[2] = { path, role };
	return put_simple(arg, R_SOURCE_BEGIN, &rank, 1, strs, 2, content, content ? len : 0);
}

static int q_source_end(void *arg, int64_t rows_read, const char *sha, uint64_t size)
{
	int64_t nums[2] = { rows_read, (int64_t)size };
	return put_simple(arg, R_SOURCE_END, nums, 2, &sha, 1, NULL, 0);
}

static int q_skip(void *arg, const char *reason, int64_t where)
{
	return put_simple(arg, R_SKIP, &where, 1, &reason, 1, NULL, 0);
}

static int q_kernel(void *arg, const struct profdb_kernel_rec *k)
{
	struct profdb__qsink *s = arg;
	size_t kn, cn;
	unsigned char *p;
	if (!k->coll)
		return put_record(arg, R_KERNEL, k, sizeof *k, kernel_strs, NELEM(kernel_strs),
		                  k->metrics, k->nmetrics);
	/* one reservation: the kernel and its args never straddle two batches */
	kn = record_size(k, sizeof *k, kernel_strs, NELEM(kernel_strs), k->metrics, k->nmetrics);
	cn = record_size(k->coll, sizeof *k->coll, coll_strs, NELEM(coll_strs), NULL, 0);
	if (!(p = reserve(s, 1 + kn + cn)))
		return s->err.code ? s->err.code : PROFDB_ERROR;
	p[0] = R_KERNEL_COLL;
	record_write(p + 1, k, sizeof *k, kernel_strs, NELEM(kernel_strs), k->metrics, k->nmetrics);
	record_write(p + 1 + kn, k->coll, sizeof *k->coll, coll_strs, NELEM(coll_strs), NULL, 0);
	return PROFDB_OK;
}

static int q_op(void *arg, const struct profdb_op_rec *o)
{
	return put_record(arg, R_OP, o, sizeof *o, op_strs, NELEM(op_strs), NULL, 0);
}

static int q_launch(void *arg, const struct profdb_launch_rec *l)
{
	return put_record(arg, R_LAUNCH, l, sizeof *l, launch_strs, NELEM(launch_strs), NULL, 0);
}

static int q_step(void *arg, const struct profdb_step_rec *st)
{
	return put_record(arg, R_STEP, st, sizeof *st, NULL, 0, NULL, 0);
}

static int q_comm(void *arg, const struct profdb_comm_rec *c)
{
	return put_record(arg, R_COMM, c, sizeof *c, comm_strs, NELEM(comm_strs), NULL, 0);
}

static int q_memory(void *arg, const struct profdb_mem_rec *m)
{
	return put_record(arg, R_MEMORY, m, sizeof *m, mem_strs, NELEM(mem_strs), NULL, 0);
}

static int q_op_memory(void *arg, const struct profdb_opmem_rec *m)
{
	return put_record(arg, R_OP_MEMORY, m, sizeof *m, opmem_strs, NELEM(opmem_strs), NULL, 0);
}

static int q_step_metric(void *arg, int64_t rank, int64_t step, const char *metric, double value)
{
	int64_t nums[3] = { rank, step, 0 };
	memcpy(&nums[2], &value, sizeof value);
	return put_simple(arg, R_STEP_METRIC, nums, 3, &metric, 1, NULL, 0);
}

static int q_meta(void *arg, int64_t rank, const char *key, const char *value)
{
	const char *strs[2] = { key, value };
	return put_simple(arg, R_META, &rank, 1, strs, 2, NULL, 0);
}

static int q_note(void *arg, const char *note)
{
	int64_t none = 0;
	return put_simple(arg, R_NOTE, &none, 1, &note, 1, NULL, 0);
}

static int q_rank_fixup(void *arg, int64_t provisional, int64_t rank, int64_t offset)
{
	int64_t nums[3] = { provisional, rank, offset };
	return put_simple(arg, R_RANK_FIXUP, nums, 3, NULL, 0, NULL, 0);
}

int profdb__qsink_new(struct profdb__qsink **out, struct profdb__queue *q, int slot)
{
	struct profdb__qsink *s = calloc(1, sizeof *s);
	*out = NULL;
	if (!s)
		return PROFDB_ERROR;
	s->q = q;
	s->slot = slot;
	s->sink = (struct profdb_sink){
		.arg = s, .err = &s->err,
		.source_begin = q_source_begin, .source_end = q_source_end, .skip = q_skip,
		.kernel = q_kernel, .op = q_op, .launch = q_launch, .step = q_step,
		.step_metric = q_step_metric, .meta = q_meta, .note = q_note, .comm = q_comm,
		.rank_fixup = q_rank_fixup,
		.nests_ops = 1, /* replayed into the store, which nests ops */
		.memory = q_memory, .op_memory = q_op_memory,
	};
	*out = s;
	return PROFDB_OK;
}

struct profdb_sink *profdb__qsink_sink(struct profdb__qsink *s) { return &s->sink; }
void profdb__qsink_begin_unit(struct profdb__qsink *s, size_t unit) { s->unit = unit; }
int profdb__qsink_end_unit(struct profdb__qsink *s) { return flush(s, 1); }

void profdb__qsink_free(struct profdb__qsink *s)
{
	if (s) {
		batch_free(s->cur);
		free(s);
	}
}

/* ---------------------------------------------------------------- replay */

/* Fix the string pointers of a struct copied out of a batch. */
static size_t load_strs(void *rec, const size_t *strs, size_t n, const unsigned char *d, size_t off)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = get_str(d, &off);
		memcpy((char *)rec + strs[i], &s, sizeof s);
	}
	return off;
}

/* A batch being replayed: where the next record starts, and the kernel
 * metrics array reused from record to record (owned, mcap entries). */
struct replay {
	const unsigned char *d;
	size_t off;
	struct profdb_sink *out;
	struct profdb_metric *metrics;
	size_t mcap;
};

/* A kernel record, and for R_KERNEL_COLL its collective args after it. */
static int replay_kernel(struct replay *p, int type)
{
	struct profdb_kernel_rec k;
	struct profdb_coll_rec coll;
	memcpy(&k, p->d + p->off, sizeof k);
	p->off = load_strs(&k, kernel_strs, NELEM(kernel_strs), p->d, p->off + sizeof k);
	if (k.nmetrics > p->mcap) {
		struct profdb_metric *m = realloc(p->metrics, k.nmetrics * sizeof *m);
		if (!m)
			return PROFDB_ERROR;
		p->metrics = m;
		p->mcap = k.nmetrics;
	}
	for (size_t i = 0; i < k.nmetrics; i++) {
		memcpy(&p->metrics[i].value, p->d + p->off, sizeof(double));
		p->off += sizeof(double);
		p->metrics[i].name = get_str(p->d, &p->off);
	}
	k.metrics = p->metrics;
	k.coll = NULL;
	if (type == R_KERNEL_COLL) {
		memcpy(&coll, p->d + p->off, sizeof coll);
		p->off = load_strs(&coll, coll_strs, NELEM(coll_strs), p->d, p->off + sizeof coll);
		k.coll = &coll;
	}
	return p->out->kernel(p->out->arg, &k);
}

/* The records copied as their struct: op, launch, step, communication,
 * memory. */
static int replay_struct(struct replay *p, int type)
{
	const unsigned char *d = p->d;
	struct profdb_op_rec o;
	struct profdb_launch_rec l;
	struct profdb_step_rec st;
	struct profdb_comm_rec c;
	struct profdb_mem_rec m;
	struct profdb_opmem_rec om;
	switch (type) {
	case R_OP_MEMORY:
		memcpy(&om, d + p->off, sizeof om);
		p->off = load_strs(&om, opmem_strs, NELEM(opmem_strs), d, p->off + sizeof om);
		return profdb__sink_op_memory(p->out, &om);
	case R_MEMORY:
		memcpy(&m, d + p->off, sizeof m);
		p->off = load_strs(&m, mem_strs, NELEM(mem_strs), d, p->off + sizeof m);
		return profdb__sink_memory(p->out, &m);
	case R_COMM:
		memcpy(&c, d + p->off, sizeof c);
		p->off = load_strs(&c, comm_strs, NELEM(comm_strs), d, p->off + sizeof c);
		return p->out->comm(p->out->arg, &c);
	case R_OP:
		memcpy(&o, d + p->off, sizeof o);
		p->off = load_strs(&o, op_strs, NELEM(op_strs), d, p->off + sizeof o);
		return p->out->op(p->out->arg, &o);
	case R_LAUNCH:
		memcpy(&l, d + p->off, sizeof l);
		p->off = load_strs(&l, launch_strs, NELEM(launch_strs), d, p->off + sizeof l);
		return p->out->launch(p->out->arg, &l);
	default:
		memcpy(&st, d + p->off, sizeof st);
		p->off += sizeof st;
		return p->out->step(p->out->arg, &st);
	}
}

/* The records of a source file's life: begin (with its head bytes), end,
 * a skipped row, a note.  Layouts as put_simple wrote them. */
static int replay_source(struct replay *p, int type)
{
	const unsigned char *d = p->d;
	int64_t nums[2];
	const char *s1, *s2;
	uint64_t bl;
	int rc;
	switch (type) {
	case R_SOURCE_BEGIN:
		memcpy(nums, d + p->off, 8);
		p->off += 8;
		s1 = get_str(d, &p->off);
		s2 = get_str(d, &p->off);
		memcpy(&bl, d + p->off, 8);
		p->off += 8;
		rc = p->out->source_begin(p->out->arg, s1, s2, nums[0], bl == UINT64_MAX ? NULL : d + p->off,
		                          bl == UINT64_MAX ? 0 : (size_t)bl);
		if (bl != UINT64_MAX)
			p->off += (size_t)bl;
		return rc;
	case R_SOURCE_END:
		memcpy(nums, d + p->off, 16);
		p->off += 16;
		s1 = get_str(d, &p->off);
		p->off += 8;
		return p->out->source_end(p->out->arg, nums[0], s1, (uint64_t)nums[1]);
	case R_SKIP:
		memcpy(nums, d + p->off, 8);
		p->off += 8;
		s1 = get_str(d, &p->off);
		p->off += 8;
		return p->out->skip(p->out->arg, s1, nums[0]);
	default:
		p->off += 8;
		s1 = get_str(d, &p->off);
		p->off += 8;
		return p->out->note(p->out->arg, s1);
	}
}

/* The records that annotate ranks and steps: a step metric, a meta
 * key/value, a rank fix-up. */
static int replay_annotation(struct replay *p, int type)
{
	const unsigned char *d = p->d;
	int64_t nums[3];
	const char *s1, *s2;
	double v;
	switch (type) {
	case R_STEP_METRIC:
		memcpy(nums, d + p->off, 24);
		p->off += 24;
		memcpy(&v, &nums[2], sizeof v);
		s1 = get_str(d, &p->off);
		p->off += 8;
		return p->out->step_metric(p->out->arg, nums[0], nums[1], s1, v);
	case R_META:
		memcpy(nums, d + p->off, 8);
		p->off += 8;
		s1 = get_str(d, &p->off);
		s2 = get_str(d, &p->off);
		p->off += 8;
		return p->out->meta(p->out->arg, nums[0], s1, s2);
	default:
		memcpy(nums, d + p->off, 24);
		p->off += 24 + 8;
		return p->out->rank_fixup(p->out->arg, nums[0], nums[1], nums[2]);
	}
}

static int replay_batch(const struct batch *b, struct profdb_sink *out)
{
	struct replay p = { b->data, 0, out, NULL, 0 };
	int rc = PROFDB_OK;

	while (p.off < b->len && rc == PROFDB_OK) {
		int type = p.d[p.off++];
		switch (type) {
		case R_KERNEL:
		case R_KERNEL_COLL:
			rc = replay_kernel(&p, type);
			break;
		case R_OP: case R_LAUNCH: case R_STEP: case R_COMM: case R_MEMORY: case R_OP_MEMORY:
			rc = replay_struct(&p, type);
			break;
		case R_SOURCE_BEGIN: case R_SOURCE_END: case R_SKIP: case R_NOTE:
			rc = replay_source(&p, type);
			break;
		case R_STEP_METRIC: case R_META: case R_RANK_FIXUP:
			rc = replay_annotation(&p, type);
			break;
		default:
			rc = PROFDB_ERROR; /* cannot happen: we wrote the batch */
		}
	}
	free(p.metrics);
	return rc;
}

int profdb__queue_drain(struct profdb__queue *q, struct profdb_store *st,
                       void (*after_batch)(void *arg), void *arg)
{
	struct profdb_sink *out = profdb__store_sink(st);
	struct batch *b;
	int rc = profdb__store_async_begin(st), end;
	while (rc == PROFDB_OK && (b = pop(q)) != NULL) {
		rc = replay_batch(b, out);
		recycle(q, b);
		if (rc != PROFDB_OK) {
			profdb__queue_abort(q);
			break;
		}
		if (after_batch)
			after_batch(arg);
	}
	if (rc == PROFDB_OK && q->unended)
		rc = profdb__err_set(out->err, PROFDB_ERROR, "internal error: the records of unit %zu of the"
		                     " ingest never ended", q->cur_unit);
	if (rc != PROFDB_OK)
		profdb__queue_abort(q);
	/* the batches in flight go in (or fail) before anything else runs */
	end = profdb__store_async_end(st);
	return rc != PROFDB_OK ? rc : end;
}
