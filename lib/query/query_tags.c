/*
 * query_tags.c - profdb_query_tags: the tags of the runs a filter selects,
 * one row per run and key, with where each comes from (user, file, meta).
 */
#include "query.h"
#include "banned.h"

int profdb_query_tags(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb_filter only;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	profdb__qfilter_runs_of(&only, f);
	if ((rc = profdb__qfilter_check(db, &only)) != PROFDB_OK)
		return rc;
	profdb__qbuf_add(&b, "SELECT r.name AS run, t.key, t.value, t.origin FROM run_tag_all t"
	             " JOIN (SELECT id AS run_id, name FROM run) r ON r.run_id = t.run_id WHERE 1");
	profdb__qfilter_where(&b, &only, "t", QF_STEP, 1);
	profdb__qbuf_add(&b, " ORDER BY t.run_id, t.key");
	rc = profdb__query_prepare(db, &b, &st, "cannot list tags");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &only);
	/* streamed when the CLI armed db (issue 20): a row per tag, however many */
	rc = profdb__result_from_stmt_stream(db, out, st, NULL);
	sqlite3_finalize(st);
	return rc;
}
