/*
 * ch_kernels.c - what profdb kernels reads on a clickhouse:// snapshot,
 * and the pulls every query's preparation asks for (profdb__ch_ensure).
 * Grouped by name over whole runs (the common question), the answer comes
 * from the per-kernel statistics table the ingest computed and push
 * stored on the server (kernel_name_stat): only those rows travel, never
 * the kernels.  Any other grouping or filter is grouped by the server
 * (ch_groups.c): only the groups travel.  What the server does not group
 * (tag keys, a per-step step key) needs the kernel rows, and so does an
 * empty grouped answer, whose notes query_kernels.c takes from the rows
 * (it prepares PROFDB__NEED_KERNEL_ROWS then): they are pulled into the
 * snapshot.  Every way query_kernels.c answers on the snapshot, so the
 * bytes are those of the SQLite file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "query/query.h"
#include "banned.h"

/* Does kernel_name_stat answer q?  A subset of query_kernels.c's own test
 * (name_stats_apply), so it never then reads a kernel row that is not here. */
static int stats_suffice(profdb *db, const struct profdb_kernel_query *q)
{
	const struct profdb_filter *f = &q->filter;
	sqlite3_stmt *st = NULL;
	int old = 1;
	if ((q->by && *q->by && strcmp(q->by, "name") != 0) || q->per_step || f->kind ||
	    f->rank != PROFDB_NULL || f->step_lo != PROFDB_NULL || f->step_hi != PROFDB_NULL)
		return 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT count(*) FROM run WHERE name_stats = 0", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		old = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	return !old;
}

/* Pull the tables of want each run of the snapshot lacks. */
static int drop_marker(profdb *db, int64_t local)
{
	sqlite3_stmt *st = NULL;
	int rc = PROFDB_OK;
	if (sqlite3_prepare_v2(db->sql, "DELETE FROM kernel_step_stat WHERE run_id = ?1", -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot note the snapshot");
	sqlite3_bind_int64(st, 1, local);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = profdb__sqlerror(db, "cannot note the snapshot");
	sqlite3_finalize(st);
	return rc;
}

int profdb__ch_ensure(profdb *db, unsigned want)
{
	sqlite3_stmt *st = NULL, *up = NULL;
	int rc = PROFDB_OK;
	if (sqlite3_prepare_v2(db->sql, "SELECT local_id, remote_id, mask FROM temp.ch_run", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "UPDATE temp.ch_run SET mask = ?2 WHERE local_id = ?1", -1, &up, NULL) != SQLITE_OK)
		rc = profdb__sqlerror(db, "cannot read the snapshot");
	while (rc == PROFDB_OK && sqlite3_step(st) == SQLITE_ROW) {
		int64_t local = sqlite3_column_int64(st, 0);
		uint64_t remote = (uint64_t)sqlite3_column_int64(st, 1);
		unsigned have = (unsigned)sqlite3_column_int64(st, 2);
		if ((want & ~have) == 0)
			continue;
		/* diff's marker row (ch_compare.c) gives way to the rows */
		if ((want & ~have & profdb__ch_table_bit("kernel_step_stat")) &&
		    (rc = drop_marker(db, local)) != PROFDB_OK)
			break;
		rc = profdb__ch_pull_more(db, profdb__ch_url(db), remote, local, want & ~have);
		sqlite3_reset(up);
		sqlite3_bind_int64(up, 1, local);
		sqlite3_bind_int64(up, 2, have | want);
		if (rc == PROFDB_OK && sqlite3_step(up) != SQLITE_DONE)
			rc = profdb__sqlerror(db, "cannot note the snapshot");
	}
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	return rc;
}

int profdb__ch_prepare_kernel_rows(profdb *db, const struct profdb_kernel_query *q)
{
	return profdb__ch_ensure(db, stats_suffice(db, q) ?
	                         profdb__ch_table_bit("kernel_name_stat") | profdb__ch_table_bit("kernel_step_stat") :
	                         CH_ALL_TABLES);
}

int profdb__ch_prepare_kernels(profdb *db, const struct profdb_kernel_query *q, struct profdb__rel *rel)
{
	int rc;
	/* per_repeat and the note on work outside every step read the
	 * per-step table's rows without a step (query_kernels.c) */
	if (!q->per_step && !profdb__qfilter_has_steps(&q->filter) &&
	    (rc = profdb__ch_ensure(db, profdb__ch_table_bit("kernel_step_stat"))) != PROFDB_OK)
		return rc;
	if (!stats_suffice(db, q)) {
		if ((rc = profdb__ch_group_kernels(db, q)) < 0)
			return rc;
		if (rc == 1) {
			rel->kgroup = "temp.profdb_kgroup";
			rel->kden = "temp.profdb_kden";
			rel->krep = "temp.profdb_krep";
			return PROFDB_OK;
		}
	}
	return profdb__ch_prepare_kernel_rows(db, q);
}
