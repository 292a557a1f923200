/*
 * store_records.c - the sink's records that go to one prepared statement
 * each (store.c prepares them, S_*): profiler steps and their metrics,
 * Ascend communication rows, memory events and operator memory rows, run
 * metadata and notes; and, after the reads, the source files' digests
 * made apart (profdb__store_fill_digests).  The bulk tables (kernel, launch, op) go through
 * batches instead (store.c).  A statement whose result the store never
 * reads runs through profdb__store_run, on the insert thread when there is
 * one; the others sync with it first (store_async.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel_step.h"
#include "store_impl.h"
#include "banned.h"

int profdb__store_on_step(void *arg, const struct profdb_step_rec *s)
{
	struct profdb_store *st = arg;
	struct profdb__val v[5] = { profdb__val_int(st->run_id), profdb__val_int(profdb__store_rank(s->rank)),
	                            profdb__val_int(s->step), profdb__val_i64(s->start_ns), profdb__val_i64(s->end_ns) };
	if (profdb__store_run(st, st->stmt[S_STEP], v, 5, "step") != PROFDB_OK)
		return st->err.code;
	/* kept as the row now is, for the kernels' steps (kernel_step.c) */
	if (profdb__kstep_step(st->ksteps, profdb__store_rank(s->rank), s->step, s->start_ns, s->end_ns) != 0)
		return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

int profdb__store_on_step_metric(void *arg, int64_t rank, int64_t step, const char *metric, double value)
{
	struct profdb_store *st = arg;
	if (profdb__store_sync(st) != PROFDB_OK) /* store_async.c */
		return st->err.code;
	sqlite3_stmt *q = st->stmt[S_STEP_METRIC];
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, profdb__store_rank(rank));
	profdb__store_bind_i64(q, 3, step);
	sqlite3_bind_text(q, 4, metric, -1, SQLITE_STATIC);
	sqlite3_bind_double(q, 5, value);
	return profdb__store_step_done(st, q, "step metric");
}

static void bind_real(sqlite3_stmt *q, int i, double v)
{
	if (v != v) /* NAN: absent */
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_double(q, i, v);
}

/* One record of Ascend communication.json / _matrix.json (schema 009). */
int profdb__store_on_comm(void *arg, const struct profdb_comm_rec *c)
{
	struct profdb_store *st = arg;
	if (profdb__store_sync(st) != PROFDB_OK) /* store_async.c */
		return st->err.code;
	sqlite3_stmt *q;
	if (c->what == PROFDB_COMM_OP) {
		const int64_t v[] = { c->start_ns, c->elapse_ns, c->transit_ns, c->wait_ns, c->sync_ns, c->idle_ns };
		q = st->stmt[S_COMM_OP];
		sqlite3_bind_text(q, 5, c->op_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 6, c->group, -1, SQLITE_STATIC);
		for (int i = 0; i < 6; i++)
			profdb__store_bind_i64(q, 7 + i, v[i]);
		bind_real(q, 13, c->wait_ratio);
		bind_real(q, 14, c->sync_ratio);
	} else if (c->what == PROFDB_COMM_TRANSPORT) {
		q = st->stmt[S_COMM_TRANSPORT];
		sqlite3_bind_int64(q, 1, st->run_id);
		sqlite3_bind_int64(q, 2, profdb__store_rank(c->rank));
		sqlite3_bind_text(q, 3, c->op_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, c->transport, -1, SQLITE_STATIC);
		profdb__store_bind_i64(q, 5, c->bytes);
		profdb__store_bind_i64(q, 6, c->transit_ns);
		bind_real(q, 7, c->bandwidth_gbps);
		bind_real(q, 8, c->large_packet_ratio);
		sqlite3_bind_text(q, 9, c->size_dist, -1, SQLITE_STATIC);
		return profdb__store_step_done(st, q, "communication transport");
	} else {
		q = st->stmt[S_COMM_LINK];
		sqlite3_bind_text(q, 5, c->matrix_op, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 6, c->group, -1, SQLITE_STATIC);
		profdb__store_bind_i64(q, 7, c->src_rank);
		profdb__store_bind_i64(q, 8, c->dst_rank);
		sqlite3_bind_text(q, 9, c->transport, -1, SQLITE_STATIC);
		profdb__store_bind_i64(q, 10, c->bytes);
		profdb__store_bind_i64(q, 11, c->transit_ns);
		bind_real(q, 12, c->bandwidth_gbps);
		sqlite3_bind_text(q, 13, c->op_name, -1, SQLITE_STATIC);
	}
	/* OP and LINK share their first four columns; they are the file's rows */
	st->src.stored++;
	sqlite3_bind_int64(q, 1, st->run_id);
	sqlite3_bind_int64(q, 2, profdb__store_rank(c->rank));
	profdb__store_bind_i64(q, 3, c->step);
	sqlite3_bind_text(q, 4, c->scope, -1, SQLITE_STATIC);
	return profdb__store_step_done(st, q, "communication");
}

/* One allocator event or sample (schema 012). */
int profdb__store_on_memory(void *arg, const struct profdb_mem_rec *m)
{
	struct profdb_store *st = arg;
	if (profdb__store_sync(st) != PROFDB_OK) /* store_async.c */
		return st->err.code;
	sqlite3_stmt *q = st->stmt[S_MEMORY];
	const int64_t v[] = { m->device_id, PROFDB_NULL, m->ts_ns, m->bytes, m->addr, m->total_allocated,
	                      m->total_reserved, m->total_active, m->step, m->tid };
	sqlite3_bind_int64(q, 1, st->run_id);
	profdb__store_bind_i64(q, 2, st->src.id ? st->src.id : PROFDB_NULL);
	sqlite3_bind_int64(q, 3, profdb__store_rank(m->rank));
	sqlite3_bind_text(q, 4, m->device_type, -1, SQLITE_STATIC);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		profdb__store_bind_i64(q, 5 + (int)i, v[i]);
	if (m->component)
		sqlite3_bind_text(q, 6, m->component, -1, SQLITE_STATIC);
	st->src.stored++;
	st->src.nmemory++;
	return profdb__store_step_done(st, q, "memory");
}

/* One operator_memory.csv row (schema 014). */
int profdb__store_on_op_memory(void *arg, const struct profdb_opmem_rec *m)
{
	struct profdb_store *st = arg;
	if (profdb__store_sync(st) != PROFDB_OK) /* store_async.c */
		return st->err.code;
	sqlite3_stmt *q = st->stmt[S_OP_MEMORY];
	const int64_t v[] = { m->bytes, m->alloc_ns, m->release_ns, m->active_release_ns,
	                      m->alloc_total[0], m->alloc_total[1], m->alloc_total[2], m->release_total[0],
	                      m->release_total[1], m->release_total[2], m->stream_ptr, m->step };
	sqlite3_bind_int64(q, 1, st->run_id);
	profdb__store_bind_i64(q, 2, st->src.id ? st->src.id : PROFDB_NULL);
	sqlite3_bind_int64(q, 3, profdb__store_rank(m->rank));
	sqlite3_bind_text(q, 4, m->device_type, -1, SQLITE_STATIC);
	profdb__store_bind_i64(q, 5, m->device_id);
	sqlite3_bind_text(q, 6, m->name, -1, SQLITE_STATIC);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		profdb__store_bind_i64(q, 7 + (int)i, v[i]);
	st->src.stored++;
	st->src.nopmem++;
	return profdb__store_step_done(st, q, "operator memory");
}

int profdb__store_on_meta(void *arg, int64_t rank, const char *key, const char *value)
{
	struct profdb_store *st = arg;
	struct profdb__val v[4] = { profdb__val_int(st->run_id), profdb__val_i64(rank), profdb__val_text(key),
	                            profdb__val_text(value) };
	return profdb__store_run(st, st->stmt[S_META], v, 4, "metadata");
}

int profdb__store_on_note(void *arg, const char *note)
{
	struct profdb_store *st = arg;
	struct profdb__val v[2] = { profdb__val_int(st->run_id), profdb__val_text(note) };
	return profdb__store_run(st, st->stmt[S_NOTE], v, 2, "note");
}

int profdb__store_fill_digests(struct profdb_store *st,
                               int (*digest)(void *arg, const char *path, uint64_t size, char hex[65]), void *arg)
{
	sqlite3 *sql = st->db->sql;
	sqlite3_stmt *q = NULL, *u = NULL;
	int rc = PROFDB_OK, got;
	if (sqlite3_prepare_v2(sql, "SELECT id, path, size FROM source_file WHERE run_id = ?1 AND sha256 IS NULL"
	                       " ORDER BY id", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(sql, "UPDATE source_file SET sha256 = ?2 WHERE id = ?1", -1, &u, NULL) != SQLITE_OK) {
		rc = profdb__err_set(&st->err, PROFDB_ERROR, "storing file digests: %s", sqlite3_errmsg(sql));
		goto out;
	}
	sqlite3_bind_int64(q, 1, st->run_id);
	/* the UPDATE changes only rows the scan has passed, and no column of
	 * the index it walks (source_file_run) */
	while (rc == PROFDB_OK && (got = sqlite3_step(q)) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(q, 1);
		char hex[65];
		int d = digest(arg, path, (uint64_t)sqlite3_column_int64(q, 2), hex);
		if (d == 1)
			continue;
		if (d != 0) {
			rc = profdb__err_set(&st->err, PROFDB_ERROR, "%s: cannot read it again for its SHA-256", path);
			break;
		}
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, sqlite3_column_int64(q, 0));
		sqlite3_bind_text(u, 2, hex, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(u) != SQLITE_DONE)
			rc = profdb__err_set(&st->err, PROFDB_ERROR, "storing file digests: %s", sqlite3_errmsg(sql));
	}
	if (rc == PROFDB_OK && got != SQLITE_DONE)
		rc = profdb__err_set(&st->err, PROFDB_ERROR, "storing file digests: %s", sqlite3_errmsg(sql));
out:
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	return rc;
}
