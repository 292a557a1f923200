/*
 * store_async.c - a store whose writes run on a thread of their own while
 * a parallel ingest lasts (batch_flusher.h says why).
 *
 * What goes to the flusher: full batches, inside windows around code that
 * fills batches and does nothing else with the connection (the kernel, op
 * and launch records, store.c); a file's held op rows (op_rows.c); and
 * the statements whose results the store does not read back (a source
 * file's row, its end and skip counts, steps, meta, notes), through
 * profdb__store_run.  Every other use of the connection syncs with the
 * flusher first: each other sink callback at its start, interning a text
 * the map does not hold (intern.c looks it up in SQL), the passes over a
 * file's rows, and every profdb__batch_flush by itself.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "store_impl.h"
#include "store_batch.h"
#include "batch_flusher.h"
#include "intern.h"
#include "banned.h"

/* The batches a flusher serves. */
static void attach(struct profdb_store *st, struct profdb__flusher *f)
{
	profdb__batch_set_flusher(st->ops, f);
	profdb__batch_set_flusher(st->kernels, f);
	profdb__batch_set_flusher(st->launches, f);
	profdb__batch_set_flusher(st->colls, f);
}

static int fail(struct profdb_store *st)
{
	if (st->err.code != PROFDB_OK) /* the first error is the cause */
		return st->err.code;
	return profdb__err_set(&st->err, PROFDB_ERROR, "%s", profdb__flusher_errmsg(st->flusher));
}

static int texts_send(struct profdb_store *st);

int profdb__store_sync(struct profdb_store *st)
{
	int rc;
	if (!st->flusher)
		return PROFDB_OK;
	if ((rc = texts_send(st)) != PROFDB_OK)
		return rc;
	if (profdb__flusher_sync(st->flusher) == SQLITE_OK)
		return PROFDB_OK;
	return fail(st);
}

void profdb__store_window(struct profdb_store *st, int open)
{
	if (st->flusher)
		profdb__flusher_window(st->flusher, open);
}

int profdb__store_submit(struct profdb_store *st, struct profdb__flush_job *job)
{
	if (profdb__flusher_submit(st->flusher, job) == SQLITE_OK)
		return PROFDB_OK;
	return fail(st);
}

int profdb__store_wait(struct profdb_store *st, const struct profdb__flush_job *job)
{
	if (!st->flusher || profdb__flusher_wait(st->flusher, job) == SQLITE_OK)
		return PROFDB_OK;
	return fail(st);
}

/* The batches' pending rows, in profdb__store_flush's order (kernels and
 * their collective args only when kernels): to the flusher inside its
 * window, else inserted now. */
int profdb__store_hand_over(struct profdb_store *st, int kernels)
{
	int open = st->flusher && profdb__flusher_window_open(st->flusher);
	int rc = PROFDB_OK;
	if (!open)
		profdb__store_window(st, 1);
	if (profdb__batch_hand_over(st->ops) != SQLITE_OK ||
	    (kernels && profdb__batch_hand_over(st->kernels) != SQLITE_OK) ||
	    profdb__batch_hand_over(st->launches) != SQLITE_OK ||
	    (kernels && profdb__batch_hand_over(st->colls) != SQLITE_OK))
		rc = st->err.code ? st->err.code
		     : st->flusher ? fail(st)
		     : profdb__err_set(&st->err, PROFDB_ERROR, "storing rows: %s", sqlite3_errmsg(st->db->sql));
	if (!open)
		profdb__store_window(st, 0);
	return rc;
}

/* ---------------------------------------------------------------- statements */

/* A statement and its values, copied: the flusher binds and steps it. */
struct stmt_job {
	struct profdb__flush_job job; /* first: the job is the struct */
	sqlite3_stmt *q;
	int n;
	struct profdb__val v[]; /* texts and blobs point into the same allocation */
};

static void bind_all(sqlite3_stmt *q, const struct profdb__val *v, int n)
{
	for (int i = 0; i < n; i++) {
		switch (v[i].type) {
		case PROFDB__VAL_INT:
			sqlite3_bind_int64(q, i + 1, v[i].i);
			break;
		case PROFDB__VAL_REAL:
			sqlite3_bind_double(q, i + 1, v[i].r);
			break;
		case PROFDB__VAL_TEXT:
			sqlite3_bind_text64(q, i + 1, v[i].p, v[i].len, SQLITE_STATIC, SQLITE_UTF8);
			break;
		case PROFDB__VAL_BLOB:
			sqlite3_bind_blob64(q, i + 1, v[i].p, v[i].len, SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(q, i + 1);
		}
	}
}

/* One step: SQLITE_OK when it is done. */
static int step_now(sqlite3_stmt *q, const struct profdb__val *v, int n)
{
	int rc;
	bind_all(q, v, n);
	rc = sqlite3_step(q);
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int stmt_run(struct profdb__flush_job *job)
{
	struct stmt_job *j = (struct stmt_job *)job;
	int rc = step_now(j->q, j->v, j->n);
	free(j);
	return rc;
}

static void stmt_drop(struct profdb__flush_job *job)
{
	free(job);
}

/* The job, with v's texts and blobs copied after the values. */
static struct stmt_job *stmt_job_new(sqlite3_stmt *q, const struct profdb__val *v, int n, const char *what)
{
	size_t bytes = sizeof(struct stmt_job) + (size_t)n * sizeof *v;
	struct stmt_job *j;
	char *data;
	for (int i = 0; i < n; i++)
		if (v[i].type == PROFDB__VAL_TEXT || v[i].type == PROFDB__VAL_BLOB)
			bytes += v[i].len + 1;
	if (!(j = malloc(bytes)))
		return NULL;
	j->job = (struct profdb__flush_job){ .run = stmt_run, .drop = stmt_drop, .what = what };
	j->q = q;
	j->n = n;
	memcpy(j->v, v, (size_t)n * sizeof *v);
	data = (char *)&j->v[n];
	for (int i = 0; i < n; i++)
		if (v[i].type == PROFDB__VAL_TEXT || v[i].type == PROFDB__VAL_BLOB) {
			if (v[i].len)
				memcpy(data, v[i].p, v[i].len);
			data[v[i].len] = 0;
			j->v[i].p = data;
			data += v[i].len + 1;
		}
	return j;
}

int profdb__store_run(struct profdb_store *st, sqlite3_stmt *q, const struct profdb__val *v, int n,
                      const char *what)
{
	struct stmt_job *j;
	if (!st->flusher) {
		if (step_now(q, v, n) == SQLITE_OK)
			return PROFDB_OK;
		return profdb__err_set(&st->err, PROFDB_ERROR, "storing %s: %s", what, sqlite3_errmsg(st->db->sql));
	}
	if (!(j = stmt_job_new(q, v, n, what)))
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	return profdb__store_submit(st, &j->job);
}

/* ---------------------------------------------------------------- texts */

/*
 * Texts new to the table (intern.c chose their ids) wait in st->texts and
 * go to the flusher TEXTS_PER_JOB at a time, or all before any sync: a job
 * each would wake the insert thread for each text of a trace's first
 * file, where it is otherwise idle, on the cores the reader and the
 * store's thread need.  Nothing reads str before a sync.
 */
#define TEXTS_PER_JOB 512

/* The map gives a new text the next id, so the waiting ones have ids
 * first, first + 1, ...: a text out of that line is sent after the others. */
struct profdb__texts {
	struct profdb__flush_job job; /* first: the job is the struct */
	sqlite3_stmt *q;
	int64_t first;             /* the id of the first text */
	size_t n;
	char *bytes;               /* owned: the texts, each NUL-terminated */
	size_t len, cap;
};

static void texts_free(struct profdb__texts *t)
{
	if (!t)
		return;
	free(t->bytes);
	free(t);
}

static int texts_run(struct profdb__flush_job *job)
{
	struct profdb__texts *t = (struct profdb__texts *)job;
	const char *s = t->bytes;
	int rc = SQLITE_OK;
	for (size_t i = 0; i < t->n && rc == SQLITE_OK; i++) {
		struct profdb__val v[2] = { profdb__val_int(t->first + (int64_t)i), profdb__val_text(s) };
		rc = step_now(t->q, v, 2);
		s += strlen(s) + 1;
	}
	texts_free(t);
	return rc;
}

static void texts_drop(struct profdb__flush_job *job)
{
	texts_free((struct profdb__texts *)job);
}

/* The waiting texts to the flusher, as one job. */
static int texts_send(struct profdb_store *st)
{
	struct profdb__texts *t = st->texts;
	if (!t || !t->n)
		return PROFDB_OK;
	st->texts = NULL;
	return profdb__store_submit(st, &t->job);
}

static int texts_add(struct profdb__texts *t, const char *s)
{
	size_t len = strlen(s) + 1;
	if (t->len + len > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *b;
		while (cap < t->len + len)
			cap *= 2;
		if (!(b = realloc(t->bytes, cap)))
			return -1;
		t->bytes = b;
		t->cap = cap;
	}
	memcpy(t->bytes + t->len, s, len);
	t->len += len;
	t->n++;
	return 0;
}

int profdb__store_intern_add(void *arg, int64_t id, const char *s)
{
	struct profdb_store *st = arg;
	struct profdb__val v[2] = { profdb__val_int(id), profdb__val_text(s) };
	if (!st->flusher) /* inserted now */
		return profdb__store_run(st, st->stmt[S_STR], v, 2, "text");
	if (st->texts && st->texts->n && id != st->texts->first + (int64_t)st->texts->n &&
	    texts_send(st) != PROFDB_OK)
		return st->err.code;
	if (!st->texts) {
		if (!(st->texts = calloc(1, sizeof *st->texts)))
			return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
		st->texts->job = (struct profdb__flush_job){ .run = texts_run, .drop = texts_drop, .what = "text" };
		st->texts->q = st->stmt[S_STR];
	}
	if (!st->texts->n)
		st->texts->first = id;
	if (texts_add(st->texts, s) != 0)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	return st->texts->n < TEXTS_PER_JOB ? PROFDB_OK : texts_send(st);
}

/* ---------------------------------------------------------------- begin, end */

/* intern.c's hook, before it looks a text up in SQL */
static int intern_sync(void *arg)
{
	return profdb__store_sync(arg);
}

int profdb__store_async_begin(struct profdb_store *st)
{
	if (profdb__flusher_start(&st->flusher, st->db->sql) != SQLITE_OK)
		return profdb__err_set(&st->err, PROFDB_ERROR, "cannot start the insert thread");
	attach(st, st->flusher);
	profdb__intern_set_sync(st->str, intern_sync, st);
	return PROFDB_OK;
}

void profdb__store_set_filler(struct profdb_store *st, int (*fill)(void *arg), void *arg)
{
	if (st->flusher)
		profdb__flusher_set_filler(st->flusher, fill, arg);
}

int profdb__store_async_end(struct profdb_store *st)
{
	int rc;
	if (!st->flusher)
		return PROFDB_OK;
	rc = profdb__store_sync(st);
	attach(st, NULL);
	profdb__intern_set_sync(st->str, NULL, NULL);
	if (profdb__flusher_stop(st->flusher) != SQLITE_OK && rc == PROFDB_OK)
		rc = profdb__err_set(&st->err, PROFDB_ERROR, "internal error: the store used the database"
		                     " while a write was running on the insert thread");
	st->flusher = NULL;
	return rc;
}
