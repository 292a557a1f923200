/*
 * store_ops.c - the store's host ops that the reader sent with nest = 1
 * (Kineto): nested as they arrive (op_nest.c's profdb__nest, one per
 * (rank, tid) of the file) and inserted once, when they close, with their
 * final self time, so that no sort and no UPDATE per op is needed; inserted into the op batch (store_batch.c), which
 * profdb__store_ops_flush empties before anything reads the file's ops.
 *
 * Two things are not known when an op closes.  A Kineto file writes its
 * kernels after all its ops, and its steps (and, for old traces, the
 * kernels' links, op_link.c) only once the file has ended: so after the
 * file ONE pass reads the file's op rows in rowid order (a range scan, no
 * sort) and rewrites only those that have device time or a wrong step,
 * their device totals rebuilt from the order the ops closed in (children
 * before their parent, each op's descendant count kept: 4 bytes an op).
 * The step is guessed when an op closes, from the file's ProfilerStep#N
 * ops seen so far, and checked in that pass: on a tiled HTA trace (326 k
 * ops) it rewrites 39% of the rows (those with device time) instead of
 * all of them, after an ORDER BY of all of them.  A file
 * whose ops do not arrive in start order per thread (tb_plugin samples of
 * 2021) is noticed at the first such op: its ops are then nested after
 * the file by op_nest.c's SQL pass, and a run note says so.
 *
 * A closed op goes through ops_held.c first, which holds the file's ops
 * until it ends, up to a budget, and then feeds the same pass
 * (profdb__op_pass_row) from memory and inserts each op once with its
 * final values; the pass over the table is for files past the budget.
 */
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "step_index.h"
#include "store_impl.h"
#include "banned.h"

/* The log codes (store_impl.h). */
#define RAW PROFDB__OP_RAW
#define CODE_GUESS PROFDB__OP_GUESS
#define CODE_CHILD PROFDB__OP_CHILD

/* A ProfilerStep#N op of the file: the step its ops are likely in. */
struct op_step_span {
	int64_t step, start, end;
};

static int os_fail(struct profdb_store *st, const char *what)
{
	return profdb__err_set(&st->err, PROFDB_ERROR, "storing %s: %s", what, sqlite3_errmsg(st->db->sql));
}

static int oom(struct profdb_store *st)
{
	return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
}

static void bind_v(sqlite3_stmt *q, int i, int64_t v)
{
	if (v == PROFDB_NULL)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_int64(q, i, v);
}

static int log_code(struct profdb_store *st, uint32_t code)
{
	struct profdb__op_stream *s = &st->src.opn;
	if (s->unsorted)
		return PROFDB_OK; /* the SQL pass needs no log */
	if (s->nlog == s->caplog) {
		size_t cap = s->caplog ? s->caplog * 2 : 4096;
		uint32_t *v = realloc(s->log, cap * sizeof *v);
		if (!v)
			return oom(st);
		s->log = v;
		s->caplog = cap;
	}
	s->log[s->nlog++] = code;
	return PROFDB_OK;
}

/* One op row, into the op batch with the next op id (store.c);
 * self, dev_self and dev_total PROFDB_NULL for the SQL pass. */
int profdb__store_op_insert(struct profdb_store *st, const struct profdb__op_pending *p, int64_t self,
                            int64_t dev_self, int64_t dev_total)
{
	struct profdb__batch *b = st->ops;
	const int64_t ids[] = { p->cat_id, p->shapes_id, p->types_id, p->stack_id, p->concrete_id };
	const int cols[] = { OP_COL_CATEGORY_ID, OP_COL_IN_SHAPES_ID, OP_COL_IN_TYPES_ID, OP_COL_CALL_STACK_ID,
	                     OP_COL_IN_CONCRETE_ID };
	int64_t id;
	st->ops_elsewhere = 1;
	if (profdb__batch_row(b) != SQLITE_OK)
		return os_fail(st, "op");
	id = st->next_op_id++;
	profdb__batch_int(b, OP_COL_ID, id);
	profdb__batch_int(b, OP_COL_RUN_ID, st->run_id);
	profdb__batch_int(b, OP_COL_RANK, p->rank);
	profdb__batch_i64(b, OP_COL_STEP, p->step);
	profdb__batch_int(b, OP_COL_NAME_ID, p->name_id);
	profdb__batch_i64(b, OP_COL_TID, p->tid);
	profdb__batch_i64(b, OP_COL_START_NS, p->start);
	profdb__batch_i64(b, OP_COL_DUR_NS, p->dur);
	profdb__batch_i64(b, OP_COL_SELF_NS, self);
	profdb__batch_i64(b, OP_COL_DEVICE_SELF_NS, dev_self);
	profdb__batch_i64(b, OP_COL_DEVICE_TOTAL_NS, dev_total);
	profdb__batch_i64(b, OP_COL_EXTERNAL_ID, p->ext);
	profdb__batch_i64(b, OP_COL_SEQ, p->seq);
	if (dev_self == PROFDB_NULL && p->ext != PROFDB_NULL)
		st->ops_no_device++;
	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
		if (ids[i]) /* 0: NULL, a new row's cells are */
			profdb__batch_int(b, cols[i], ids[i]);
	return profdb__store_note_row(st, &st->src.ops, id);
}

/*
 * Store op p with the step of the file's latest ProfilerStep#N spans that
 * holds its start (the smallest N), a guess that saves rewriting the row
 * for its step: the pass after the file checks it against the step table
 * (profdb_step_at, once the file's steps are in) and corrects a wrong one.
 */
static int guess_and_insert(struct profdb_store *st, const struct profdb__op_pending *p, int64_t self)
{
	const struct profdb__op_stream *s = &st->src.opn;
	struct profdb__op_pending g = *p;
	for (size_t i = s->nspans, k = 0; i > 0 && k < 8; i--, k++) {
		const struct op_step_span *sp = &s->spans[i - 1];
		if (p->start >= sp->start && p->start < sp->end && (g.step == PROFDB_NULL || sp->step < g.step))
			g.step = sp->step;
	}
	return profdb__store_op_put(st, &g, self, p->ext == PROFDB_NULL ? PROFDB_NULL : 0, 0);
}

/* Keep the span of a ProfilerStep#N op (what the reader makes a step of). */
static int note_step_span(struct profdb_store *st, int64_t rank, const char *name, int64_t start, int64_t dur)
{
	struct profdb__op_stream *s = &st->src.opn;
	int64_t step;
	if (strncmp(name, "ProfilerStep#", 13) != 0 || profdb__parse_i64(name + 13, strlen(name + 13), &step) != 0)
		return PROFDB_OK;
	if (s->nspans == s->capspans) {
		size_t cap = s->capspans ? s->capspans * 2 : 16;
		struct op_step_span *v = realloc(s->spans, cap * sizeof *v);
		if (!v)
			return oom(st);
		s->spans = v;
		s->capspans = cap;
	}
	s->spans[s->nspans++] = (struct op_step_span){ step, start, start + dur };
	/* and for the kernels' steps (kernel_step.c) */
	if (profdb__kstep_file_step(&st->src.ks, rank, step, start, start + dur) != 0)
		return oom(st);
	return PROFDB_OK;
}

/* Slot i of the open ops is free again. */
static int release(struct profdb_store *st, size_t i)
{
	struct profdb__op_stream *s = &st->src.opn;
	if (s->nfree == s->capfree) {
		size_t cap = s->capfree ? s->capfree * 2 : 64;
		size_t *v = realloc(s->free_slots, cap * sizeof *v);
		if (!v)
			return oom(st);
		s->free_slots = v;
		s->capfree = cap;
	}
	s->free_slots[s->nfree++] = i;
	return PROFDB_OK;
}

/* profdb__nest's emit: the op closed.  Its device times wait for the pass
 * after the file (0 and NULL-or-0 now, what an op without kernels has). */
static int closed(void *arg, const struct profdb__nest_op *o)
{
	struct profdb_store *st = arg;
	struct profdb__op_stream *s = &st->src.opn;
	const struct profdb__op_pending *p = &s->pend[o->tag];
	int rc;
	if (s->unsorted) /* emptying the stacks on the way to the SQL pass */
		rc = profdb__store_op_insert(st, p, PROFDB_NULL, PROFDB_NULL, PROFDB_NULL);
	else if (o->desc >= (int64_t)(RAW / 4))
		rc = profdb__err_set(&st->err, PROFDB_ERROR, "storing op: %lld ops nested in one",
		                     (long long)o->desc);
	else if (p->step != PROFDB_NULL)
		rc = profdb__store_op_put(st, p, o->self, p->ext == PROFDB_NULL ? PROFDB_NULL : 0, 0);
	else
		rc = guess_and_insert(st, p, o->self);
	if (rc == PROFDB_OK && !s->unsorted)
		rc = log_code(st, (uint32_t)o->desc << 2 | (p->step == PROFDB_NULL ? CODE_GUESS : 0) |
		                  (o->depth > 0 ? CODE_CHILD : 0));
	if (release(st, (size_t)o->tag) != PROFDB_OK)
		return st->err.code;
	return rc;
}

/* The nesting of thread (rank, tid) of the current file (tid PROFDB_NULL
 * is a thread of its own, as in the SQL pass). */
static struct profdb__nest *thread_of(struct profdb_store *st, int64_t rank, int64_t tid)
{
	struct profdb__op_stream *s = &st->src.opn;
	struct profdb__op_thread *t;
	if (s->nthreads && s->threads[s->last].rank == rank && s->threads[s->last].tid == tid)
		return &s->threads[s->last].nest;
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].rank == rank && s->threads[i].tid == tid) {
			s->last = i;
			return &s->threads[i].nest;
		}
	if (s->nthreads == s->capthreads) {
		size_t cap = s->capthreads ? s->capthreads * 2 : 8;
		struct profdb__op_thread *v = realloc(s->threads, cap * sizeof *v);
		if (!v)
			return NULL;
		s->threads = v;
		s->capthreads = cap;
	}
	t = &s->threads[s->nthreads];
	t->rank = rank;
	t->tid = tid;
	t->nest = (struct profdb__nest){ 0 };
	profdb__nest_init(&t->nest, 0, closed, st);
	s->last = s->nthreads++;
	return &t->nest;
}

/* A slot for op p while it is open. */
static int pend(struct profdb_store *st, const struct profdb__op_pending *p, size_t *slot)
{
	struct profdb__op_stream *s = &st->src.opn;
	if (s->nfree) {
		*slot = s->free_slots[--s->nfree];
	} else {
		if (s->npend == s->cappend) {
			size_t cap = s->cappend ? s->cappend * 2 : 64;
			struct profdb__op_pending *v = realloc(s->pend, cap * sizeof *v);
			if (!v)
				return oom(st);
			s->pend = v;
			s->cappend = cap;
		}
		*slot = s->npend++;
	}
	s->pend[*slot] = *p;
	return PROFDB_OK;
}

int profdb__store_ops_close(struct profdb_store *st)
{
	struct profdb__op_stream *s = &st->src.opn;
	int rc = PROFDB_OK;
	for (size_t i = 0; i < s->nthreads && rc == PROFDB_OK; i++)
		rc = profdb__nest_end(&s->threads[i].nest);
	return rc;
}

int profdb__store_ops_flush(struct profdb_store *st)
{
	int rc = profdb__store_ops_close(st);
	if (rc == PROFDB_OK && profdb__batch_flush(st->ops) != SQLITE_OK)
		rc = os_fail(st, "op");
	return rc;
}

/* An op came before an earlier one of its thread: the rows stored so far
 * lose their times, the open ops are stored as they are, and the file's
 * ops are nested after it by the SQL pass (profdb__op_nest). */
static int go_unsorted(struct profdb_store *st)
{
	struct profdb__op_stream *s = &st->src.opn;
	const struct profdb__row_runs *r = &st->src.ops;
	sqlite3_stmt *q = NULL;
	int rc;
	/* the ops held so far go in first, as they closed */
	if ((rc = profdb__store_ops_release(st)) != PROFDB_OK)
		return rc;
	s->unsorted = 1;
	st->ops_no_device++; /* the UPDATE below takes device times away */
	if ((rc = profdb__store_ops_flush(st)) != PROFDB_OK)
		return rc;
	s->closed_upto = r->n ? r->v[r->n - 1].hi : 0;
	s->nlog = 0;
	if (sqlite3_prepare_v2(st->db->sql, "UPDATE op SET self_ns = NULL, device_self_ns = NULL,"
	                       " device_total_ns = NULL WHERE id BETWEEN ?1 AND ?2", -1, &q, NULL) != SQLITE_OK)
		return os_fail(st, "op");
	if (profdb__row_runs_exec(q, 1, r->v, r->n) != SQLITE_DONE) {
		sqlite3_finalize(q);
		return os_fail(st, "op");
	}
	sqlite3_finalize(q);
	return PROFDB_OK;
}

/* The str id of s (0 for NULL); -1 on error. */
static int64_t str_id(struct profdb_store *st, const char *s)
{
	int64_t id;
	if (!s)
		return 0;
	id = profdb__intern(st->str, s);
	return id ? id : -1;
}

int profdb__store_op_nest(struct profdb_store *st, const struct profdb_op_rec *o)
{
	struct profdb__op_stream *s = &st->src.opn;
	struct profdb__op_pending p = { o->rank == PROFDB_NULL ? 0 : o->rank, o->step, str_id(st, o->name),
	                                str_id(st, o->category), o->tid, o->start_ns, o->dur_ns, o->external_id,
	                                o->seq, str_id(st, o->in_shapes), str_id(st, o->in_types),
	                                str_id(st, o->call_stack), str_id(st, o->in_concrete) };
	struct profdb__nest_op n = { 0 };
	struct profdb__nest *t;
	size_t slot = 0;
	int rc;
	if (!o->name || p.name_id <= 0 || p.cat_id < 0 || p.shapes_id < 0 || p.types_id < 0 || p.stack_id < 0 ||
	    p.concrete_id < 0)
		return st->err.code ? st->err.code : os_fail(st, "op");
	st->src.stored++;
	st->src.nops++;
	if (s->unsorted || p.start == PROFDB_NULL || p.dur == PROFDB_NULL) {
		/* stored as it is; without times it is nested by nobody */
		if ((rc = profdb__store_op_put(st, &p, o->self_ns, o->device_self_ns, o->device_total_ns)) != PROFDB_OK)
			return rc;
		return log_code(st, RAW);
	}
	if (note_step_span(st, p.rank, o->name, p.start, p.dur) != PROFDB_OK)
		return st->err.code;
	if (!(t = thread_of(st, p.rank, p.tid)) || pend(st, &p, &slot) != PROFDB_OK)
		return oom(st);
	n.id = s->arrived++;
	n.start = p.start;
	n.dur = p.dur;
	n.dev_self[0] = n.dev_self[1] = PROFDB_NULL;
	n.tag = (int64_t)slot;
	rc = profdb__nest_add(t, &n);
	if (rc == PROFDB__NEST_UNSORTED) {
		if ((rc = release(st, slot)) != PROFDB_OK || (rc = go_unsorted(st)) != PROFDB_OK)
			return rc;
		return profdb__store_op_insert(st, &p, PROFDB_NULL, PROFDB_NULL, PROFDB_NULL);
	}
	if (rc == PROFDB_ERROR && st->err.code == PROFDB_OK)
		return oom(st);
	return rc;
}

/* A closed subtree whose parent has not been read yet (the pass after the file). */
struct done_tree {
	int64_t size, dev_total;   /* size: its ops, itself included */
};

struct profdb__pass_thread {
	int64_t rank, tid;
	struct done_tree *v;       /* owned */
	size_t n, cap;
};

static struct profdb__pass_thread *pass_thread(struct profdb__op_pass *p, int64_t rank, int64_t tid)
{
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i].rank == rank && p->threads[i].tid == tid)
			return &p->threads[i];
	if (p->nthreads == p->capthreads) {
		size_t cap = p->capthreads ? p->capthreads * 2 : 8;
		struct profdb__pass_thread *v = realloc(p->threads, cap * sizeof *v);
		if (!v)
			return NULL;
		p->threads = v;
		p->capthreads = cap;
	}
	p->threads[p->nthreads] = (struct profdb__pass_thread){ .rank = rank, .tid = tid };
	return &p->threads[p->nthreads++];
}

/* Device total of an op with desc descendants: its own plus the closed
 * subtrees on top of its thread's list that hold them (they closed just
 * before it, children before their parent). */
static int take_children(struct profdb__op_pass *p, struct profdb__pass_thread *t, int64_t desc, int64_t *sum)
{
	*sum = 0;
	while (desc > 0) {
		if (t->n == 0 || t->v[t->n - 1].size > desc)
			return profdb__err_set(&p->st->err, PROFDB_ERROR, "op times: ops closed out of order");
		desc -= t->v[t->n - 1].size;
		*sum += t->v[--t->n].dev_total;
	}
	return PROFDB_OK;
}

static int keep_tree(struct profdb__op_pass *p, struct profdb__pass_thread *t, int64_t size, int64_t total)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct done_tree *v = realloc(t->v, cap * sizeof *v);
		if (!v)
			return oom(p->st);
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (struct done_tree){ size, total };
	return PROFDB_OK;
}

int profdb__op_pass_begin(struct profdb__op_pass *p, struct profdb_store *st, int kept)
{
	const struct profdb__source_state *c = &st->src;
	*p = (struct profdb__op_pass){ .st = st };
	if (kept && !c->kids_off)
		return profdb__dev_times_from(&p->dev, c->kids, c->nkids, &st->err);
	if (profdb__store_sync(st) != PROFDB_OK)
		return st->err.code;
	return profdb__dev_times_load(&p->dev, st->db->sql, c->kernels.v, c->kernels.n, &st->err);
}

int profdb__op_pass_row(struct profdb__op_pass *p, uint32_t code, int64_t rank, int64_t tid, int64_t ext,
                        int64_t step, int64_t at, struct profdb__op_final *f)
{
	int64_t sum, self = PROFDB_NULL, want;
	struct profdb__pass_thread *t;
	int rc;
	f->changed = 0;
	if (code == RAW)
		return PROFDB_OK;
	if (!(t = pass_thread(p, rank, tid)))
		return oom(p->st);
	if ((rc = take_children(p, t, code >> 2, &sum)) != PROFDB_OK)
		return rc;
	if (ext != PROFDB_NULL) {
		self = profdb__dev_times_get(&p->dev, rank, ext);
		sum += self;
	}
	if ((code & CODE_CHILD) && (rc = keep_tree(p, t, (int64_t)(code >> 2) + 1, sum)) != PROFDB_OK)
		return rc;
	/* the reader's step stays (as coalesce(step, profdb_step_at(..)) did) */
	want = (code & CODE_GUESS) || step == PROFDB_NULL ? at : step;
	if (want == step && sum == 0)
		return PROFDB_OK; /* stored as it is: right step, no device time */
	*f = (struct profdb__op_final){ want, self, sum, 1 };
	return PROFDB_OK;
}

void profdb__op_pass_end(struct profdb__op_pass *p)
{
	profdb__dev_times_free(&p->dev);
	for (size_t i = 0; i < p->nthreads; i++)
		free(p->threads[i].v);
	free(p->threads);
	p->threads = NULL;
	p->nthreads = p->capthreads = 0;
}

static int64_t col_i64(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? PROFDB_NULL : sqlite3_column_int64(q, i);
}

/* One op row of the pass from the table: columns id, rank, tid,
 * external_id, step, profdb_step_at(rank, start_ns); code its log entry. */
static int pass_row(struct profdb__op_pass *p, sqlite3_stmt *sel, sqlite3_stmt *upd, uint32_t code)
{
	struct profdb__op_final f;
	int rc = profdb__op_pass_row(p, code, sqlite3_column_int64(sel, 1), col_i64(sel, 2), col_i64(sel, 3),
	                             col_i64(sel, 4), col_i64(sel, 5), &f);
	if (rc != PROFDB_OK || !f.changed)
		return rc;
	sqlite3_bind_int64(upd, 1, sqlite3_column_int64(sel, 0));
	bind_v(upd, 2, f.step);
	bind_v(upd, 3, f.dev_self);
	sqlite3_bind_int64(upd, 4, f.dev_total);
	rc = sqlite3_step(upd);
	sqlite3_reset(upd);
	return rc == SQLITE_DONE ? PROFDB_OK : os_fail(p->st, "op times");
}

/* After the file: steps and device times of the ops nested as they came. */
static int after_file(struct profdb_store *st)
{
	struct profdb__source_state *c = &st->src;
	struct profdb__op_pass p;
	sqlite3_stmt *sel = NULL, *upd = NULL;
	size_t k = 0;
	int rc = PROFDB_OK, step;
	if (c->opn.nlog != (size_t)c->nops)
		return profdb__err_set(&st->err, PROFDB_ERROR, "op times: %zu ops logged, %lld stored",
		                       c->opn.nlog, (long long)c->nops);
	if ((rc = profdb__op_pass_begin(&p, st, 0)) != PROFDB_OK)
		goto out;
	/* id is the rowid: the rows come in the order they were written */
	if (sqlite3_prepare_v2(st->db->sql, "SELECT id, rank, tid, external_id, step, profdb_step_at(rank, start_ns)"
	                       " FROM op WHERE id BETWEEN ?1 AND ?2 ORDER BY id", -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db->sql, "UPDATE op SET step = ?2, device_self_ns = ?3, device_total_ns = ?4"
	                       " WHERE id = ?1", -1, &upd, NULL) != SQLITE_OK) {
		rc = os_fail(st, "op times");
		goto out;
	}
	sqlite3_bind_int64(sel, 1, c->ops.v[0].lo);
	sqlite3_bind_int64(sel, 2, c->ops.v[c->ops.n - 1].hi);
	while (rc == PROFDB_OK && (step = sqlite3_step(sel)) == SQLITE_ROW)
		if (profdb__row_runs_has(c->ops.v, c->ops.n, sqlite3_column_int64(sel, 0)))
			rc = pass_row(&p, sel, upd, c->opn.log[k++]);
	if (rc == PROFDB_OK && step != SQLITE_DONE)
		rc = os_fail(st, "op times");
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	profdb__op_pass_end(&p);
	return rc;
}

/* The note for a file whose ops were nested by the SQL pass. */
static int note_unsorted(struct profdb_store *st)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (sqlite3_prepare_v2(st->db->sql, "INSERT INTO run_note(run_id, note) SELECT ?1, 'host ops of ' || path ||"
	                       " ' are not in start order per thread: nested after the file by sorting them'"
	                       " FROM source_file WHERE id = ?2", -1, &q, NULL) != SQLITE_OK)
		return os_fail(st, "note");
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, st->src.id);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : os_fail(st, "note");
}

int profdb__store_ops_finish(struct profdb_store *st)
{
	struct profdb__source_state *c = &st->src;
	int rc;
	if (!c->ops.n)
		return PROFDB_OK;
	if (!c->opn.unsorted)
		return after_file(st);
	if ((rc = profdb__op_nest(st->db->sql, st->run_id, c->ops.v, c->ops.n, c->opn.closed_upto, c->kernels.v,
	                          c->kernels.n, &st->err)) != PROFDB_OK)
		return rc;
	return note_unsorted(st);
}

void profdb__store_ops_reset(struct profdb__op_stream *s)
{
	for (size_t i = 0; i < s->nthreads; i++)
		profdb__nest_free(&s->threads[i].nest);
	s->nthreads = s->last = 0;
	s->npend = s->nfree = s->nlog = 0;
	s->arrived = 0;
	s->nspans = 0;
	s->unsorted = 0;
	s->closed_upto = INT64_MAX;
	profdb__store_ops_held_free(s);
	s->hold_off = 0;
}

void profdb__store_ops_free(struct profdb__op_stream *s)
{
	profdb__store_ops_reset(s);
	free(s->threads);
	free(s->pend);
	free(s->free_slots);
	free(s->log);
	free(s->spans);
}
