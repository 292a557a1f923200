/*
 * query_kernels.c - per-kernel statistics (profdb kernels): for each group
 * of device activities (by name, base name, type, core, kind, shape, rank,
 * device, stream or step) the share of device time, total, calls, mean,
 * median, min, max, sample stddev, p90, p99 and time per repeat; or, with
 * per_step, the mean and stddev of each group's per-step total.
 *
 * Definitions (doc/commands.md "profdb kernels"):
 *  - share_pct: the group's total over the device time of its run that
 *    passes the run, rank and step filters (name and kind filters do not
 *    shrink the denominator, so `--name 'MatMul*'` tells how much of the
 *    run MatMuls take).
 *  - median, p90, p99: exact percentiles, linear interpolation (stats.h).
 *  - stddev: sample standard deviation, NULL for a single call.
 *  - per_repeat: total / the run's repeat count, or with a step range
 *    total / the selected steps (query.h, profdb__qfilter_repeats); where
 *    the repeats are the run's profiler steps, the time inside them /
 *    the steps (the per-step mean; the work outside every step is noted
 *    apart, outside_steps.c; a group wholly outside has none); in a
 *    benchmark file's run, total / calls (each row one repeat of its API)
 *    and no share_pct.
 *  - top N and the order apply within each run; runs come in id order.
 *  - grouped by name alone over whole runs (no rank or step filter), the
 *    figures come from kernel_name_stat, which the ingest filled (runs
 *    ingested before schema 3 have none and are scanned): the same
 *    definitions, a few hundred rows read instead of every kernel.
 *  - per_step: the steps of a run are its selected steps (query.h: in the
 *    rank and step range, whatever --name and --kind keep; kernels outside
 *    every step are left out); a group absent from a step counts 0 there,
 *    so mean = total / steps = per_repeat under a step range; max_step is the
 *    step with the largest total (the lowest such step on a tie).
 */
#include <stdio.h>
#include <string.h>

#include "query.h"
#include "result.h"
#include "source.h"
#include "store/tags.h"
#include "kernels_keys.h"
#include "banned.h"

/* A statistic column: output name, what to sort on in CTE o, type.
 * Statistics sort largest first unless ascending is asked. */
struct stat_col {
	const char *name;
	const char *sort;          /* expression in CTE o to sort on */
	enum profdb_coltype type;
};

static const struct stat_col plain_cols[] = {
	{ "share_pct", "g.total", PROFDB_COL_PCT },
	{ "total", "g.total", PROFDB_COL_NS },
	{ "calls", "g.calls", PROFDB_COL_INT },
	{ "avg", "g.avg", PROFDB_COL_NS },
	{ "median", "g.median", PROFDB_COL_NS },
	{ "min", "g.min", PROFDB_COL_NS },
	{ "max", "g.max", PROFDB_COL_NS },
	{ "stddev", "g.stddev", PROFDB_COL_NS },
	{ "p90", "g.p90", PROFDB_COL_NS },
	{ "p99", "g.p99", PROFDB_COL_NS },
	{ "per_repeat", "g.total", PROFDB_COL_NS },
};

static const struct stat_col step_cols[] = {
	{ "steps", "g.steps", PROFDB_COL_INT },
	{ "calls", "g.calls", PROFDB_COL_INT },
	{ "mean", "g.mean", PROFDB_COL_NS },
	{ "stddev", "g.stddev", PROFDB_COL_NS },
	{ "min", "g.min", PROFDB_COL_NS },
	{ "max", "g.max", PROFDB_COL_NS },
	{ "max_step", "g.max_step", PROFDB_COL_INT },
};

/* The value expression of key i inside CTE o. */
static void key_value(struct profdb__qbuf *b, const struct keys *ks, size_t i)
{
	/* the joined text itself: an alias of the same SELECT cannot be used */
	if (ks->k[i]->resolve == 3)
		profdb__qbuf_addf(b, "g.k%zu", i);
	else if (ks->k[i]->resolve)
		profdb__qbuf_addf(b, "s%zu.%s", i, ks->k[i]->resolve == 2 ? "name" : "value");
	else
		profdb__qbuf_addf(b, "g.k%zu", i);
}

/* ORDER BY text for the window of CTE o; EUSAGE for an unknown column. */
static int order_by(profdb *db, struct profdb__qbuf *b, const struct keys *ks, const struct stat_col *cols,
                    size_t ncols, const char *sort, int ascending, const char *deflt)
{
	const char *s = sort && *sort ? sort : deflt;
	int k = profdb__kernels_has_key(ks, s);
	size_t i;

	if (strcmp(s, "share") == 0)
		s = "share_pct";
	if (k < 0 && strcmp(s, "base-name") == 0)
		k = profdb__kernels_has_key(ks, "base_name");
	if (k >= 0) {
		key_value(b, ks, (size_t)k);
		/* text keys read best A..Z; numbers follow the asked direction
		 * (ascending for a key like step or rank unless told) */
		(void)ascending;
		profdb__qbuf_add(b, " ASC");
	} else {
		for (i = 0; i < ncols; i++)
			if (strcmp(cols[i].name, s) == 0)
				break;
		if (i == ncols) {
			char list[512] = "", hint[96];
			const char *names[64];
			size_t off = 0, nn = 0;
			for (size_t j = 0; j < ncols && nn < 64; j++)
				names[nn++] = cols[j].name;
			for (size_t j = 0; j < ks->n && nn < 64; j++)
				names[nn++] = ks->k[j]->col;
			for (size_t j = 0; j < ncols && off < sizeof list; j++)
				off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", j ? ", " : "", cols[j].name);
			for (size_t j = 0; j < ks->n && off < sizeof list; j++)
				off += (size_t)snprintf(list + off, sizeof list - off, ", %s", ks->k[j]->col);
			return profdb__error(db, PROFDB_EUSAGE, "cannot sort by '%s'%s (%s)", s,
			                     profdb__did_you_mean(hint, sizeof hint, s, names, nn), list);
		}
		profdb__qbuf_addf(b, "%s %s", cols[i].sort, ascending ? "ASC" : "DESC");
	}
	/* ties: larger total first, then the keys, so the order is stable */
	profdb__qbuf_add(b, ", g.total DESC");
	for (size_t j = 0; j < ks->n; j++) {
		profdb__qbuf_add(b, ", ");
		key_value(b, ks, j);
	}
	return PROFDB_OK;
}

/*
 * Can kernel_name_stat answer?  Grouped by name only, whole runs, every
 * selected run's statistics stored, and for a kind filter every name of
 * those runs ran as one kind (a name seen as two kinds has one row).
 * 1 yes, 0 no, or a profdb error code (negative).
 */
static int name_stats_apply(profdb *db, const struct keys *ks, const struct profdb_kernel_query *q)
{
	const struct profdb_filter *f = &q->filter;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	if (ks->n != 1 || strcmp(ks->k[0]->opt, "name") != 0 || q->per_step ||
	    f->rank != PROFDB_NULL || f->step_lo != PROFDB_NULL || f->step_hi != PROFDB_NULL)
		return 0;
	profdb__qbuf_add(&b, "SELECT (SELECT count(*) FROM (SELECT id AS run_id, name_stats FROM run) r"
	             " WHERE r.name_stats = 0");
	profdb__qfilter_where(&b, f, "r", QF_KERNEL, 1);
	profdb__qbuf_add(&b, ")");
	if (f->kind) {
		profdb__qbuf_add(&b, " + (SELECT count(*) FROM kernel_name_stat s WHERE (s.kinds & (s.kinds - 1)) != 0");
		profdb__qfilter_where(&b, f, "s", QF_KERNEL, 1);
		profdb__qbuf_add(&b, ")");
	}
	rc = profdb__query_prepare(db, &b, &st, "cannot query kernels");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	rc = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) == 0 : -1;
	sqlite3_finalize(st);
	return rc >= 0 ? rc : profdb__sqlerror(db, "cannot query kernels");
}

/* CTEs den and g of plain statistics, read from kernel_name_stat. */
static void add_stored_groups(struct profdb__qbuf *b, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, "WITH f AS (SELECT s.* FROM kernel_name_stat s WHERE 1");
	profdb__qfilter_where(b, f, "s", QF_KERNEL, 1);
	/* the per-name time outside every step, from the per-step table's
	 * rows without a step, of the selected runs only */
	profdb__qbuf_add(b, "),\n ox AS (SELECT x.run_id, x.name_id, sum(x.total_ns) AS t FROM kernel_step_stat x"
	                 " WHERE x.step IS NULL");
	profdb__qfilter_where(b, f, "x", QF_KERNEL, 1);
	profdb__qbuf_add(b, " GROUP BY x.run_id, x.name_id)");
	profdb__qbuf_add(b, ",\n den AS (SELECT run_id, sum(total_ns) AS t FROM f GROUP BY run_id),\n"
	            " g AS (SELECT f.run_id, f.name_id AS k0, total_ns AS total, calls, avg_ns AS avg,"
	            " median_ns AS median, min_ns AS min, max_ns AS max, stddev_ns AS stddev,"
	            " p90_ns AS p90, p99_ns AS p99, coalesce(ox.t, 0) AS outside FROM f"
	            " LEFT JOIN ox ON ox.run_id = f.run_id AND ox.name_id = f.name_id WHERE 1");
	if (f->name_glob)
		profdb__qbuf_add(b, " AND f.name_id IN (SELECT id FROM str WHERE value GLOB :glob)");
	if (f->kind)
		profdb__qbuf_add(b, " AND kinds = 1 << (SELECT id FROM kind WHERE name = :kind)");
	if (f->min_total_ns > 0)
		profdb__qbuf_add(b, " AND total_ns >= :mintot");
	profdb__qbuf_add(b, ")");
}

/* "f" (filtered kernels, with the tag keys' values) and "den" (device
 * time per run) CTEs. */
static void add_filtered(struct profdb__qbuf *b, const struct keys *ks, const struct profdb_filter *f,
                         int steps_only)
{
	profdb__qbuf_add(b, "WITH ");
	if (ks->ntags) {
		/* the tag values once per run, not once per kernel */
		for (size_t i = 0; i < ks->ntags; i++) {
			profdb__tags_by_cte(b, i);
			profdb__qbuf_add(b, ",\n ");
		}
		profdb__qbuf_add(b, "tv AS (SELECT r.id AS run_id");
		for (size_t i = 0; i < ks->ntags; i++)
			profdb__qbuf_addf(b, ", %s.value AS %s", profdb__tags_by_cte_name(i), profdb__tags_by_col(i));
		profdb__qbuf_add(b, " FROM run r");
		for (size_t i = 0; i < ks->ntags; i++)
			profdb__qbuf_addf(b, " LEFT JOIN %s ON %s.run_id = r.id", profdb__tags_by_cte_name(i),
			                  profdb__tags_by_cte_name(i));
		profdb__qbuf_add(b, "),\n ");
	}
	profdb__qbuf_add(b, "f AS (SELECT k.*");
	for (size_t i = 0; i < ks->ntags; i++)
		profdb__qbuf_addf(b, ", tv.%s", profdb__tags_by_col(i));
	profdb__qbuf_add(b, ks->ntags ? " FROM kernel k JOIN tv ON tv.run_id = k.run_id WHERE 1" : " FROM kernel k WHERE 1");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 0);
	if (steps_only)
		profdb__qbuf_add(b, " AND k.step IS NOT NULL");
	profdb__qbuf_add(b, "),\n den AS (SELECT k.run_id, sum(k.dur_ns) AS t FROM kernel k WHERE 1");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 1);
	profdb__qbuf_add(b, " GROUP BY k.run_id)");
}

static void add_plain_groups(struct profdb__qbuf *b, const struct keys *ks, const struct profdb_filter *f)
{
	profdb__qbuf_add(b, ",\n g AS (SELECT f.run_id");
	for (size_t i = 0; i < ks->n; i++)
		profdb__qbuf_addf(b, ", f.%s AS k%zu", ks->k[i]->expr, i);
	profdb__qbuf_add(b, ", sum(f.dur_ns) AS total, count(*) AS calls, avg(f.dur_ns) AS avg,"
	            " median(f.dur_ns) AS median, min(f.dur_ns) AS min, max(f.dur_ns) AS max,"
	            " stddev(f.dur_ns) AS stddev, percentile(f.dur_ns, 90) AS p90,"
	            " percentile(f.dur_ns, 99) AS p99,"
	            " sum(CASE WHEN f.step IS NULL THEN f.dur_ns ELSE 0 END) AS outside FROM f GROUP BY f.run_id");
	profdb__kernels_key_list(b, ks, "");
	if (f->min_total_ns > 0)
		profdb__qbuf_add(b, " HAVING sum(f.dur_ns) >= :mintot");
	profdb__qbuf_add(b, ")");
}

/* The steps per-step figures are taken over: the selected steps (query.h),
 * and any other step a filtered kernel carries (none in a consistent store;
 * kept so that no kernel time is lost), read from the kernel rows, or from
 * the source's groups kgroup when step_key >= 0 (source.h: the key
 * k<step_key> is the step). */
static void add_step_set(struct profdb__qbuf *b, const struct profdb_filter *f, const char *kgroup, long step_key)
{
	profdb__qbuf_add(b, "SELECT run_id, step FROM (");
	profdb__qfilter_selected_steps(b, f);
	if (step_key >= 0) {
		profdb__qbuf_addf(b, ") UNION SELECT run_id, CAST(k%ld AS INTEGER) FROM %s WHERE k%ld IS NOT NULL",
		                  step_key, kgroup, step_key);
		return;
	}
	profdb__qbuf_add(b, ") UNION SELECT k.run_id, k.step FROM kernel k WHERE k.step IS NOT NULL");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 0);
}

/* The group CTE g of per-step statistics (see the file comment), from the
 * kernel rows f, or from the source's groups per step (kgroup not NULL). */
static void add_step_groups(struct profdb__qbuf *b, const struct keys *ks, const struct profdb_filter *f,
                            const char *kgroup)
{
	long step_key = kgroup ? (long)ks->n : -1;
	if (kgroup) {
		profdb__qbuf_add(b, ",\n gs AS (SELECT run_id");
		profdb__kernels_key_list(b, ks, "");
		/* CAST: the step with INTEGER affinity, as the step table's,
		 * or the join below cannot index it (minutes at 30 k steps) */
		profdb__qbuf_addf(b, ", CAST(k%ld AS INTEGER) AS step, total AS t, calls AS c FROM %s"
		                  " WHERE k%ld IS NOT NULL", step_key, kgroup, step_key);
	} else {
		profdb__qbuf_add(b, ",\n gs AS (SELECT f.run_id");
		for (size_t i = 0; i < ks->n; i++)
			profdb__qbuf_addf(b, ", f.%s AS k%zu", ks->k[i]->expr, i);
		profdb__qbuf_add(b, ", f.step, sum(f.dur_ns) AS t, count(*) AS c FROM f GROUP BY f.run_id");
		profdb__kernels_key_list(b, ks, "");
		profdb__qbuf_add(b, ", f.step");
	}
	profdb__qbuf_add(b, "),\n st AS (");
	add_step_set(b, f, kgroup, step_key);
	profdb__qbuf_add(b, "),\n g0 AS (SELECT DISTINCT run_id");
	profdb__kernels_key_list(b, ks, "");
	profdb__qbuf_add(b, " FROM gs),\n grid AS (SELECT g0.run_id");
	profdb__kernels_key_list(b, ks, "g0.");
	profdb__qbuf_add(b, ", st.step, coalesce(gs.t, 0) AS t, coalesce(gs.c, 0) AS c FROM g0"
	            " JOIN st ON st.run_id = g0.run_id LEFT JOIN gs ON gs.run_id = g0.run_id"
	            " AND gs.step = st.step");
	for (size_t i = 0; i < ks->n; i++)
		profdb__qbuf_addf(b, " AND gs.k%zu IS g0.k%zu", i, i);
	profdb__qbuf_add(b, "),\n rk AS (SELECT grid.*, row_number() OVER (PARTITION BY run_id");
	profdb__kernels_key_list(b, ks, "");
	profdb__qbuf_add(b, " ORDER BY t DESC, step) AS r1 FROM grid),\n g AS (SELECT run_id");
	profdb__kernels_key_list(b, ks, "");
	profdb__qbuf_add(b, ", sum(c > 0) AS steps, sum(c) AS calls, sum(t) AS total, avg(t) AS mean,"
	            " stddev(t) AS stddev, min(t) AS min, max(t) AS max,"
	            " max(CASE WHEN r1 = 1 THEN step END) AS max_step FROM rk GROUP BY run_id");
	profdb__kernels_key_list(b, ks, "");
	if (f->min_total_ns > 0)
		profdb__qbuf_add(b, " HAVING sum(t) >= :mintot");
	profdb__qbuf_add(b, ")");
}

int profdb__format_is_wallclock(const char *format)
{
	static const char *const f[] = { "wallclock_csv", "wallclock_jsonl", "pytest_benchmark", "gbench" };
	for (size_t i = 0; format && i < sizeof f / sizeof f[0]; i++)
		if (strcmp(format, f[i]) == 0)
			return 1;
	return 0;
}

/* CTE o (names resolved, share, per repeat, rank within run) and the
 * final SELECT; fills types. */
static int add_output(profdb *db, struct profdb__qbuf *b, const struct keys *ks,
                      const struct profdb_kernel_query *q, const struct profdb__rel *rel,
                      enum profdb_coltype *types, size_t *ntypes)
{
	const struct stat_col *cols = q->per_step ? step_cols : plain_cols;
	size_t ncols = q->per_step ? sizeof step_cols / sizeof step_cols[0] :
	               sizeof plain_cols / sizeof plain_cols[0];
	int rc;

	if (rel->krep) { /* the source counted the selected steps */
		profdb__qbuf_addf(b, ",\n rep AS (SELECT run_id, n FROM %s)", rel->krep);
	} else {
		profdb__qbuf_add(b, ",\n rep AS (SELECT r.id AS run_id, ");
		profdb__qfilter_repeats(b, &q->filter, "r");
		profdb__qbuf_add(b, " AS n FROM run r)");
	}
	profdb__qbuf_add(b, ",\n o AS (SELECT g.*, r.name AS run_name");
	if (!q->per_step)
		/* a benchmark file's rows are repeats of their own API: no
		 * share of one device time, and each API has its own count */
		profdb__qbuf_add(b, ", CASE WHEN r.format IN " PROFDB__WALLCLOCK_FORMATS_SQL " THEN NULL"
		                 " ELSE 100.0 * g.total / den.t END AS share_pct, CASE WHEN r.format IN "
		                 PROFDB__WALLCLOCK_FORMATS_SQL " THEN g.total * 1.0 / g.calls");
	if (!q->per_step && !profdb__qfilter_has_steps(&q->filter))
		/* repeats that are the profiler's steps: a repeat is a step, so
		 * work outside every step is no part of one (a group wholly
		 * outside has none) */
		profdb__qbuf_add(b, " WHEN r.repeats_source = 'steps' AND g.outside > 0 THEN"
		                 " CASE WHEN g.outside >= g.total THEN NULL"
		                 " ELSE (g.total - g.outside) * 1.0 / rep.n END");
	if (!q->per_step)
		profdb__qbuf_add(b, " ELSE g.total * 1.0 / rep.n END AS per_repeat");
	for (size_t i = 0; i < ks->n; i++)
		if (ks->k[i]->resolve == 3)
			profdb__qbuf_addf(b, ", g.k%zu AS v%zu", i, i);
		else if (ks->k[i]->resolve)
			profdb__qbuf_addf(b, ", s%zu.%s AS v%zu", i, ks->k[i]->resolve == 2 ? "name" : "value", i);
	profdb__qbuf_add(b, ", row_number() OVER (PARTITION BY g.run_id ORDER BY ");
	/* grouped by step alone, rows read best in step order unless told
	 * otherwise (with other keys the largest groups still come first) */
	rc = order_by(db, b, ks, cols, ncols, q->sort, q->ascending,
	              ks->n == 1 && profdb__kernels_has_key(ks, "step") == 0 ? "step" : q->per_step ? "mean" : "total");
	if (rc != PROFDB_OK)
		return rc;
	profdb__qbuf_add(b, ") AS rn FROM g JOIN run r ON r.id = g.run_id");
	if (!q->per_step)
		profdb__qbuf_add(b, " JOIN den ON den.run_id = g.run_id JOIN rep ON rep.run_id = g.run_id");
	for (size_t i = 0; i < ks->n; i++)
		if (ks->k[i]->resolve && ks->k[i]->resolve != 3)
			profdb__qbuf_addf(b, " LEFT JOIN %s s%zu ON s%zu.id = g.k%zu",
			          ks->k[i]->resolve == 2 ? "kind" : "str", i, i, i);
	profdb__qbuf_add(b, ")\nSELECT ");
	*ntypes = 0;
	if (profdb__qfilter_run_column(&q->filter)) {
		profdb__qbuf_add(b, "run_name AS run, ");
		types[(*ntypes)++] = PROFDB_COL_TEXT;
	}
	for (size_t i = 0; i < ks->n; i++)
		if (!ks->k[i]->resolve) {
			profdb__qbuf_addf(b, "k%zu AS %s, ", i, ks->k[i]->col);
			types[(*ntypes)++] = PROFDB_COL_INT;
		}
	for (size_t i = 0; i < ncols; i++) {
		profdb__qbuf_addf(b, "%s%s", i ? ", " : "", cols[i].name);
		types[(*ntypes)++] = cols[i].type;
	}
	for (size_t i = 0; i < ks->n; i++)
		if (ks->k[i]->resolve) {
			profdb__qbuf_addf(b, ", v%zu AS ", i);
			profdb__tags_by_ident(b, ks->k[i]->col); /* a tag's key is the user's text */
			types[(*ntypes)++] = PROFDB_COL_TEXT;
		}
	profdb__qbuf_add(b, " FROM o");
	if (q->top > 0)
		profdb__qbuf_add(b, " WHERE rn <= :top");
	profdb__qbuf_add(b, " ORDER BY run_id, rn");
	return PROFDB_OK;
}

/* A note per run saying over how many steps per-step figures are taken. */
static int add_step_notes(profdb *db, profdb_result *r, const struct profdb_filter *f, const char *kgroup,
                          long step_key)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	profdb__qbuf_add(&b, "SELECT r.name, count(*), min(x.step), max(x.step) FROM (");
	add_step_set(&b, f, kgroup, step_key);
	profdb__qbuf_add(&b, ") x JOIN run r ON r.id = x.run_id GROUP BY x.run_id ORDER BY x.run_id");
	rc = profdb__query_prepare(db, &b, &st, "cannot count steps");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char note[PROFDB_ERRMAX];
		snprintf(note, sizeof note, "run '%s': per-step figures over %lld steps (%lld..%lld);"
		         " a kernel absent from a step counts 0 there",
		         (const char *)sqlite3_column_text(st, 0), (long long)sqlite3_column_int64(st, 1),
		         (long long)sqlite3_column_int64(st, 2), (long long)sqlite3_column_int64(st, 3));
		if (profdb__result_add_note(r, note) != PROFDB_OK) {
			sqlite3_finalize(st);
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot count steps");
}

/* What a narrow terminal keeps of a kernels table (format_table.c): the
 * answer (total, calls, per repeat, --per-step's mean over steps) and the
 * name; the spread goes first, then the mean, the extremes, the median and
 * last the share (the total says it too). */
static const char *const headline_cols[] = {
	"total", "calls", "per_repeat", "mean", "steps", "name", NULL
};
static const char *const hide_cols[] = {
	"p99", "p90", "stddev", "avg", "max_step", "max", "min", "median", "share_pct", NULL
};

/* The answer to q with keys ks, reading rel's groups where it names them. */
static int kernels_answer(profdb *db, profdb_result **out, const struct profdb_kernel_query *q,
                          const struct keys *ks, const struct profdb__rel *rel)
{
	enum profdb_coltype types[MAXKEYS + 16];
	size_t ntypes = 0;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc = rel->kgroup ? 2 : name_stats_apply(db, ks, q);

	if (rc < 0)
		return rc;
	if (rc == 2 && q->per_step) {
		profdb__qbuf_addf(&b, "WITH den AS (SELECT run_id, t FROM %s)", rel->kden);
		add_step_groups(&b, ks, &q->filter, rel->kgroup);
	} else if (rc == 2) {
		profdb__qbuf_addf(&b, "WITH den AS (SELECT run_id, t FROM %s),\n g AS (SELECT * FROM %s)",
		                  rel->kden, rel->kgroup);
	} else if (rc == 1) {
		add_stored_groups(&b, &q->filter);
	} else {
		add_filtered(&b, ks, &q->filter, q->per_step);
		if (q->per_step)
			add_step_groups(&b, ks, &q->filter, NULL);
		else
			add_plain_groups(&b, ks, &q->filter);
	}
	if ((rc = add_output(db, &b, ks, q, rel, types, &ntypes)) != PROFDB_OK)
		goto out;
	if ((rc = profdb__query_prepare(db, &b, &st, "cannot query kernels")) != PROFDB_OK)
		goto out;
	profdb__qfilter_bind(st, &q->filter);
	for (size_t i = 0; i < ks->ntags; i++)
		profdb__tags_by_bind(st, i, ks->tagname[i]);
	if (q->top > 0)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":top"), q->top);
	rc = profdb__result_from_stmt_stream(db, out, st, types);
	/* (an empty answer from groups is asked again of the rows) */
	if (rc == PROFDB_OK && !rel->kgroup &&
	    (rc = profdb__qfilter_explain_empty(db, *out, &q->filter, q->per_step)) != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	if (rc == PROFDB_OK && !q->per_step &&
	    (rc = profdb__outside_steps_notes(db, *out, &q->filter, "per_repeat is the per-step mean")) != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	if (rc == PROFDB_OK && q->per_step &&
	    (rc = add_step_notes(db, *out, &q->filter, rel->kgroup, rel->kgroup ? (long)ks->n : -1)) != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
out:
	sqlite3_finalize(st);
	profdb__qbuf_free(&b);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}

int profdb_query_kernels(profdb *db, profdb_result **out, const struct profdb_kernel_query *q)
{
	struct profdb__rel rel;
	struct keys ks;
	int rc;

	*out = NULL;
	if ((rc = profdb__version_check(db, q->version, PROFDB_KERNEL_QUERY_VERSION, "profdb_kernel_query")) != PROFDB_OK)
		return rc;
	memset(&ks, 0, sizeof ks);
	if ((rc = profdb__qfilter_check(db, &q->filter)) != PROFDB_OK)
		return rc;
	if ((rc = profdb__kernels_parse_by(db, q->by, &ks)) != PROFDB_OK)
		return rc;
	if (q->per_step && profdb__kernels_has_key(&ks, "step") >= 0)
		return profdb__error(db, PROFDB_EUSAGE, "per-step statistics cannot also group by step");
	if ((rc = profdb__source_prepare(db, PROFDB__NEED_KERNEL_GROUPS, q, &rel)) != PROFDB_OK)
		return rc;
	if (rel.kgroup) {
		rc = kernels_answer(db, out, q, &ks, &rel);
		/* (streamed csv/json: earlier parts are out, the last may be empty) */
		if (rc != PROFDB_OK || profdb_result_nrows(*out) > 0 || (*out)->written > 0)
			return rc;
		/* an empty answer's notes say what the runs' rows lack */
		profdb_result_free(*out);
		*out = NULL;
		if ((rc = profdb__source_prepare(db, PROFDB__NEED_KERNEL_ROWS, q, &rel)) != PROFDB_OK)
			return rc;
	}
	return kernels_answer(db, out, q, &ks, &rel);
}
