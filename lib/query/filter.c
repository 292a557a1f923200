/*
 * filter.c - struct profdb_filter turned into SQL: the WHERE conditions of
 * a query over kernels, ops or steps, with every user value bound as a
 * named parameter, and the checks that make a bad filter an error rather
 * than an empty answer; the --tag filter and the tag: grouping key.
 */
#include <stdio.h>
#include <string.h>

#include "query.h"
#include "store/tags.h"
#include "banned.h"

void profdb_filter_init(struct profdb_filter *f)
{
	const struct profdb_filter all = PROFDB_FILTER_INIT; /* the one list of defaults */
	*f = all;
}

void profdb__qfilter_where(struct profdb__qbuf *b, const struct profdb_filter *f, const char *a,
                   enum profdb__qfilter_target t, int for_total)
{
	if (f->nruns) {
		profdb__qbuf_addf(b, " AND %s.run_id IN (SELECT id FROM run WHERE name IN (", a);
		for (size_t i = 0; i < f->nruns; i++)
			profdb__qbuf_addf(b, "%s:run%zu", i ? ", " : "", i);
		profdb__qbuf_add(b, "))");
	}
	if (f->rank != PROFDB_NULL)
		profdb__qbuf_addf(b, " AND %s.rank = :rank", a);
	if (f->step_lo != PROFDB_NULL)
		profdb__qbuf_addf(b, " AND %s.step >= :slo", a);
	if (f->step_hi != PROFDB_NULL)
		profdb__qbuf_addf(b, " AND %s.step <= :shi", a);
	if (f->ntags) {
		char col[64];
		snprintf(col, sizeof col, "%s.run_id", a);
		profdb__tags_where(b, f, col);
	}
	if (for_total || t == QF_STEP)
		return;
	if (f->name_glob)
		profdb__qbuf_addf(b, " AND %s.name_id IN (SELECT id FROM str WHERE value GLOB :glob)", a);
	if (f->kind && t == QF_KERNEL)
		profdb__qbuf_addf(b, " AND %s.kind = (SELECT id FROM kind WHERE name = :kind)", a);
}

static void bind_named_i64(sqlite3_stmt *st, const char *name, int64_t v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (i > 0)
		sqlite3_bind_int64(st, i, v);
}

static void bind_named_text(sqlite3_stmt *st, const char *name, const char *v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (i > 0)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

void profdb__qfilter_bind(sqlite3_stmt *st, const struct profdb_filter *f)
{
	char name[32];
	for (size_t i = 0; i < f->nruns; i++) {
		snprintf(name, sizeof name, ":run%zu", i);
		bind_named_text(st, name, f->runs[i]);
	}
	if (f->rank != PROFDB_NULL)
		bind_named_i64(st, ":rank", f->rank);
	if (f->step_lo != PROFDB_NULL)
		bind_named_i64(st, ":slo", f->step_lo);
	if (f->step_hi != PROFDB_NULL)
		bind_named_i64(st, ":shi", f->step_hi);
	if (f->name_glob)
		bind_named_text(st, ":glob", f->name_glob);
	if (f->kind)
		bind_named_text(st, ":kind", f->kind);
	bind_named_i64(st, ":mintot", f->min_total_ns);
	profdb__tags_bind(st, f);
}

/* Does the one-parameter query sql find a row for value? -1 on error. */
static int exists(profdb *db, const char *sql, const char *value)
{
	sqlite3_stmt *st = NULL;
	int rc;
	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

void profdb__qfilter_runs_of(struct profdb_filter *dst, const struct profdb_filter *f)
{
	profdb_filter_init(dst);
	if (!f)
		return;
	dst->runs = f->runs;
	dst->nruns = f->nruns;
	dst->tags = f->tags;
	dst->ntags = f->ntags;
}

int profdb__qfilter_check(profdb *db, const struct profdb_filter *f)
{
	int e = profdb__version_check(db, f->version, PROFDB_FILTER_VERSION, "profdb_filter");
	if (e != PROFDB_OK)
		return e;
	for (size_t i = 0; i < f->nruns; i++) {
		e = exists(db, "SELECT 1 FROM run WHERE name = ?1", f->runs[i]);
		if (e < 0)
			return profdb__sqlerror(db, "cannot look up run '%s'", f->runs[i]);
		if (e == 0)
			return profdb__error(db, PROFDB_ENOTFOUND,
			                     "no run named '%s' ('profdb runs' lists them)", f->runs[i]);
	}
	if (f->kind) {
		e = exists(db, "SELECT 1 FROM kind WHERE name = ?1", f->kind);
		if (e < 0)
			return profdb__sqlerror(db, "cannot look up kind '%s'", f->kind);
		if (e == 0)
			return profdb__error(db, PROFDB_EUSAGE,
			    "unknown kind '%s' (kernel, memcpy, memset, communication, other, wallclock)", f->kind);
	}
	if ((e = profdb__tags_check(db, f->tags, f->ntags)) != PROFDB_OK)
		return e;
	if (f->step_lo != PROFDB_NULL && f->step_hi != PROFDB_NULL && f->step_lo > f->step_hi)
		return profdb__error(db, PROFDB_EUSAGE, "empty step range %lld..%lld",
		                     (long long)f->step_lo, (long long)f->step_hi);
	if (f->min_total_ns < 0)
		return profdb__error(db, PROFDB_EUSAGE, "minimum total must not be negative");
	return PROFDB_OK;
}

int profdb__qfilter_has_steps(const struct profdb_filter *f)
{
	return f->step_lo != PROFDB_NULL || f->step_hi != PROFDB_NULL;
}

void profdb__qfilter_selected_steps(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	/* a run whose kernels carry no step (steps known only on the host)
	 * cannot be split by step: it has no selected steps.  kernel_step_stat
	 * answers that from a few rows where the run has it (it is written
	 * from every kernel of the run once steps are final), and is all a
	 * remote source's snapshot may hold for a diff (source.h: its
	 * rel.kstep_load); kernel otherwise */
	profdb__qbuf_add(b, "SELECT s.run_id, s.step FROM step s WHERE (EXISTS (SELECT 1 FROM kernel_step_stat k0"
	            " WHERE k0.run_id = s.run_id AND k0.step IS NOT NULL) OR EXISTS (SELECT 1 FROM kernel k0"
	            " WHERE k0.run_id = s.run_id AND k0.step IS NOT NULL))");
	profdb__qfilter_where(b, f, "s", QF_STEP, 1);
	profdb__qbuf_add(b, " GROUP BY s.run_id, s.step");
}

void profdb__qfilter_repeats(struct profdb__qbuf *b, const struct profdb_filter *f, const char *run_alias)
{
	if (!profdb__qfilter_has_steps(f)) {
		profdb__qbuf_addf(b, "%s.repeats", run_alias);
		return;
	}
	profdb__qbuf_add(b, "(SELECT count(*) FROM (");
	profdb__qfilter_selected_steps(b, f);
	profdb__qbuf_addf(b, ") sel WHERE sel.run_id = %s.id)", run_alias);
}

/* The value filters of f that can leave a run with nothing, as the user
 * wrote them: "--name", "--min-total", "--name/--kind/--min-total". */
static const char *value_filters(const struct profdb_filter *f)
{
	static const char *const names[8] = {
		"--name/--kind", "--name", "--kind", "--name/--kind",
		"--min-total", "--name/--min-total", "--kind/--min-total", "--name/--kind/--min-total"
	};
	unsigned set = (f->name_glob != NULL) | (f->kind != NULL) << 1 | (f->min_total_ns > 0) << 2;
	return names[set];
}

/* The note for one run of an empty answer: what it has that f missed. */
static void explain_run(char *note, size_t cap, const struct profdb_filter *f, int need_steps,
                        sqlite3_stmt *st)
{
	const char *run = (const char *)sqlite3_column_text(st, 0);
	int64_t rlo = sqlite3_column_int64(st, 1), rhi = sqlite3_column_int64(st, 2);
	int64_t nrank = sqlite3_column_int64(st, 3), slo = sqlite3_column_int64(st, 4);
	int64_t shi = sqlite3_column_int64(st, 5), nstep = sqlite3_column_int64(st, 6);
	int has_rank = sqlite3_column_int64(st, 7) > 0;
	char ranks[96];

	if (nrank == 0) {
		snprintf(note, cap, "run '%s' has no device activities", run);
		return;
	}
	if (nrank == 1)
		snprintf(ranks, sizeof ranks, "rank %lld", (long long)rlo);
	else if (rhi - rlo + 1 == nrank)
		snprintf(ranks, sizeof ranks, "ranks %lld-%lld", (long long)rlo, (long long)rhi);
	else
		snprintf(ranks, sizeof ranks, "%lld ranks from %lld to %lld", (long long)nrank,
		         (long long)rlo, (long long)rhi);
	if (f->rank != PROFDB_NULL && !has_rank)
		snprintf(note, cap, "run '%s' has no rank %lld: it has %s", run, (long long)f->rank, ranks);
	else if ((need_steps || profdb__qfilter_has_steps(f)) && nstep == 0)
		snprintf(note, cap, "run '%s' has no steps (no kernel carries a step number)", run);
	else if (profdb__qfilter_has_steps(f))
		snprintf(note, cap, "run '%s' has steps %lld..%lld%s", run, (long long)slo, (long long)shi,
		         f->rank != PROFDB_NULL ? " on that rank" : "");
	else
		snprintf(note, cap, "nothing of run '%s' matches %s", run, value_filters(f));
}

int profdb__qfilter_explain_empty(profdb *db, profdb_result *r, const struct profdb_filter *f, int need_steps)
{
	struct profdb_filter runs_only;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	if (profdb_result_nrows(r) > 0)
		return PROFDB_OK;
	profdb_filter_init(&runs_only);
	runs_only.runs = f->runs;
	runs_only.nruns = f->nruns;
	/* the steps and ranks of the selected runs' kernels (index run, rank, step) */
	profdb__qbuf_add(&b, "SELECT r.name, min(k.rank), max(k.rank), count(DISTINCT k.rank),"
	             " min(CASE WHEN :rank IS NULL OR k.rank = :rank THEN k.step END),"
	             " max(CASE WHEN :rank IS NULL OR k.rank = :rank THEN k.step END),"
	             " count(CASE WHEN :rank IS NULL OR k.rank = :rank THEN k.step END),"
	             " sum(k.rank IS :rank) FROM (SELECT id AS run_id, name FROM run) r"
	             " LEFT JOIN kernel k ON k.run_id = r.run_id");
	profdb__qbuf_add(&b, " WHERE 1");
	profdb__qfilter_where(&b, &runs_only, "r", QF_KERNEL, 1);
	profdb__qbuf_add(&b, " GROUP BY r.run_id ORDER BY r.run_id");
	rc = profdb__query_prepare(db, &b, &st, "cannot explain an empty answer");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &runs_only);
	if (f->rank != PROFDB_NULL)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":rank"), f->rank);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char note[PROFDB_ERRMAX];
		explain_run(note, sizeof note, f, need_steps, st);
		if (profdb__result_add_note(r, note) != PROFDB_OK) {
			sqlite3_finalize(st);
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot explain an empty answer");
}

int profdb__qfilter_run_column(const struct profdb_filter *f)
{
	return f->nruns != 1;
}

/* ----------------------------------------------------------------- tags */

/* A filter "key=value" selects runs whose run_tag_all has that pair; values
 * given for the same key are alternatives, different keys must all match.
 * A tag: grouping key reads each run's value of one key. */

/* Same key? (the part before '=') */
static int same_key(const char *a, const char *b)
{
	size_t n = strcspn(a, "=");
	return strcspn(b, "=") == n && memcmp(a, b, n) == 0;
}

void profdb__tags_where(struct profdb__qbuf *b, const struct profdb_filter *f, const char *run_col)
{
	for (size_t i = 0; i < f->ntags; i++) {
		size_t j;
		for (j = 0; j < i && !same_key(f->tags[j], f->tags[i]); j++)
			;
		if (j < i)
			continue;              /* its key's condition is already there */
		profdb__qbuf_addf(b, " AND %s IN (SELECT run_id FROM run_tag_all WHERE key = :tk%zu AND value IN (",
		          run_col, i);
		for (j = i; j < f->ntags; j++)
			if (same_key(f->tags[j], f->tags[i]))
				profdb__qbuf_addf(b, "%s:tv%zu", j == i ? "" : ", ", j);
		profdb__qbuf_add(b, "))");
	}
}

void profdb__tags_bind(sqlite3_stmt *st, const struct profdb_filter *f)
{
	char name[32];
	for (size_t i = 0; i < f->ntags; i++) {
		size_t klen = strcspn(f->tags[i], "=");
		int k;
		snprintf(name, sizeof name, ":tk%zu", i);
		if ((k = sqlite3_bind_parameter_index(st, name)) > 0)
			sqlite3_bind_text(st, k, f->tags[i], (int)klen, SQLITE_STATIC);
		snprintf(name, sizeof name, ":tv%zu", i);
		if ((k = sqlite3_bind_parameter_index(st, name)) > 0)
			sqlite3_bind_text(st, k, f->tags[i][klen] ? f->tags[i] + klen + 1 : "", -1, SQLITE_STATIC);
	}
}

/* Can key be a grouping key?  A --by list splits at ',' and '+', a tag
 * at '=', and a control byte would steer the terminal the key's column
 * header is printed on. */
static int by_key_ok(const char *key, size_t n)
{
	if (!profdb__tags_key_ok(key, n) || memchr(key, '+', n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)key[i] < 0x20 || key[i] == 0x7f)
			return 0;
	return 1;
}

int profdb__tags_by_key(profdb *db, const char *s, size_t len, char *name)
{
	if (len < 4 || memcmp(s, "tag:", 4) != 0)
		return 0;
	if (!by_key_ok(s + 4, len - 4))
		return profdb__error(db, PROFDB_EUSAGE, "bad tag key '%.*s' in --by: a KEY is 1..%d bytes,"
		                     " none of them '=', ',', '+' or a control character",
		                     (int)(len - 4 > 80 ? 80 : len - 4), s + 4, PROFDB_TAG_KEY_MAX);
	memcpy(name, s + 4, len - 4);
	name[len - 4] = '\0';
	return 1;
}

void profdb__tags_by_ident(struct profdb__qbuf *b, const char *key)
{
	/* an SQL identifier in double quotes, inner quotes doubled: a key
	 * names an output column and stays text whatever it holds */
	profdb__qbuf_add(b, "\"");
	for (const char *q; (q = strchr(key, '"')) != NULL; key = q + 1)
		profdb__qbuf_addf(b, "%.*s\"\"", (int)(q - key), key);
	profdb__qbuf_addf(b, "%s\"", key);
}

const char *profdb__tags_by_col(size_t i)
{
	static const char *const cols[PROFDB_TAG_BY_MAX] = {
		"tag0", "tag1", "tag2", "tag3", "tag4", "tag5", "tag6", "tag7", "tag8", "tag9"
	};
	return cols[i < PROFDB_TAG_BY_MAX ? i : 0];
}

void profdb__tags_by_cte(struct profdb__qbuf *b, size_t i)
{
	/* one GROUP BY over the view, not a lookup in it per run: each lookup
	 * built an index of every run's tags (quadratic: kernels --by tag over
	 * 8 000 runs 2 s of CPU, 100 000 never finished).  The bare value
	 * comes from the row with the least origin = 'meta': a file tag before
	 * a meta one of the same key (a user tag already hides both). */
	profdb__qbuf_addf(b, "%s AS MATERIALIZED (SELECT run_id, value, min(origin = 'meta') FROM run_tag_all"
	          " WHERE key = :byt%zu GROUP BY run_id)", profdb__tags_by_cte_name(i), i);
}

const char *profdb__tags_by_cte_name(size_t i)
{
	static const char *const names[PROFDB_TAG_BY_MAX] = {
		"tagv0", "tagv1", "tagv2", "tagv3", "tagv4", "tagv5", "tagv6", "tagv7", "tagv8", "tagv9"
	};
	return names[i < PROFDB_TAG_BY_MAX ? i : 0];
}

void profdb__tags_by_bind(sqlite3_stmt *st, size_t i, const char *key)
{
	char name[32];
	int k;
	snprintf(name, sizeof name, ":byt%zu", i);
	if ((k = sqlite3_bind_parameter_index(st, name)) > 0)
		sqlite3_bind_text(st, k, key, -1, SQLITE_STATIC);
}
