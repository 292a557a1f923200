/*
 * store_async.c - a store whose batches are inserted on a thread of their
 * own while a parallel ingest lasts (batch_flusher.h says why).
 *
 * Full batches go to the flusher only inside windows around code that
 * fills batches and does nothing else with the connection: the kernel, op
 * and launch records (store.c), and a file's held ops and runtime calls
 * going into the op batch (ops_held.c).  Every other use of the
 * connection syncs with the flusher first: each other sink callback at its
 * start, interning a text the map does not hold (intern.c looks it up in
 * SQL), the passes after a file's held ops (store.c's file_passes), and
 * every profdb__batch_flush by itself.
 */
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

static int fail(struct profdb_store *st, int rc)
{
	if (st->err.code != PROFDB_OK) /* the first error is the cause */
		return st->err.code;
	if (rc == SQLITE_MISUSE)
		return profdb__err_set(&st->err, PROFDB_ERROR, "internal error: the store used the database"
		                       " while a batch was being inserted");
	return profdb__err_set(&st->err, PROFDB_ERROR, "storing rows: %s", sqlite3_errmsg(st->db->sql));
}

int profdb__store_sync(struct profdb_store *st)
{
	int rc;
	if (!st->flusher || (rc = profdb__flusher_sync(st->flusher)) == SQLITE_OK)
		return PROFDB_OK;
	return fail(st, rc);
}

/* intern.c's hook, before it looks a text up in SQL */
static int intern_sync(void *arg)
{
	return profdb__store_sync(arg);
}

void profdb__store_window(struct profdb_store *st, int open)
{
	if (st->flusher)
		profdb__flusher_window(st->flusher, open);
}

int profdb__store_async_begin(struct profdb_store *st)
{
	if (profdb__flusher_start(&st->flusher, st->db->sql) != SQLITE_OK)
		return profdb__err_set(&st->err, PROFDB_ERROR, "cannot start the insert thread");
	attach(st, st->flusher);
	profdb__intern_set_sync(st->str, intern_sync, st);
	return PROFDB_OK;
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
		rc = fail(st, SQLITE_MISUSE);
	st->flusher = NULL;
	return rc;
}
