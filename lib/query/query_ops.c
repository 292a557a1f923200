/*
 * query_ops.c - per host operator (profdb ops): calls, host self and total
 * time, device self and total time, and the kernels it launched.
 *
 *  - groups: run and operator name (and input shapes with by_shape);
 *  - host_self / host_total: sums of the ops' self and total durations;
 *    device_self / device_total: sums of what the source or the store gives
 *    per op (Ascend operator_details columns; Kineto: kernels with the op's
 *    External id, derived at ingest); NULL where the source has none;
 *  - top_kernels: up to three kernel names with their share of the
 *    group's linked kernel time, "name (62.5%); ...".  A kernel is linked to
 *    an op when it has the op's External id on the same run and rank
 *    (Kineto), or names it as its launch op (MindSpore "op/kernel" names).
 *    Ascend operator_details rows have no link: NULL.  With top_json, a
 *    JSON array of {name, total_us, share} (json: exact times, shares as
 *    fractions), '[]' without links;
 *  - runtime calls (cudaLaunchKernel, ...) are ops of category "runtime"
 *    (store/runtime_ops.c): rows of their own, their time out of the
 *    host_self of the op holding them, as torch's key_averages;
 *  - (no operator): one row per run with operators (runtime calls are
 *    none), not under --name: the run's device time (selected ranks and
 *    steps) less its ops' device_self, so that the rows add up to
 *    summary's total_device (graph replays and other work no operator
 *    launched);
 *  - host_self_pct: the group's share of every selected op's host self
 *    time in its run (before min_total and top); device_self_pct: of the
 *    run's device time; a note per run with those totals, as
 *    key_averages().table() prints them;
 *  - min_total compares with host_total;
 *  - ProfilerStep#N ops are one group, ProfilerStep*, as torch's
 *    key_averages shows them (key -1: no str id), unless step_rows;
 *  - a note names the operators shown whose device time is all their
 *    children's (aten::conv2d: aten::cudnn_convolution launched its
 *    kernels), so that an empty top_kernels is not taken for "no kernels".
 */
#include <stdio.h>
#include <string.h>

#include "query.h"
#include "banned.h"

struct op_col {
	const char *name;          /* output column and --sort name */
	const char *sort;          /* expression in the final SELECT */
	enum profdb_coltype type;
};

static const struct op_col op_cols[] = {
	{ "calls", "g.calls", PROFDB_COL_INT },
	{ "host_self", "g.host_self", PROFDB_COL_NS },
	{ "host_self_pct", "100.0 * g.host_self / nullif(tt.hs, 0)", PROFDB_COL_PCT },
	{ "host_total", "g.host_total", PROFDB_COL_NS },
	{ "host_avg", "g.host_avg", PROFDB_COL_NS },
	{ "device_self", "g.device_self", PROFDB_COL_NS },
	{ "device_self_pct", "100.0 * g.device_self / nullif(tt.ds, 0)", PROFDB_COL_PCT },
	{ "device_total", "g.device_total", PROFDB_COL_NS },
};
#define NOPCOLS (sizeof op_cols / sizeof op_cols[0])

/* The group's name: key -1 is the folded ProfilerStep#N. */
#define STEP_FOLD "ProfilerStep*"
/* key -2: the device time no operator claims, one row per run */
#define NO_OP "(no operator)"
#define NAME_EXPR "CASE WHEN g.k0 = -2 THEN '" NO_OP "' ELSE coalesce(n.value, '" STEP_FOLD "') END"

/* tk: the three largest linked kernels of each group as columns t1..t3,
 * one GROUP BY over lr joined once to g; a correlated lookup per group
 * and rank scanned all of lr each time (quadratic in the op names:
 * 8 000 took 7 s) */
static void add_top_pivot(struct profdb__qbuf *b, const struct profdb_op_query *q, const char *keys)
{
	const char *col = q->top_json ? "j" : "x";
	profdb__qbuf_addf(b, ",\n tk AS (SELECT %s", keys);
	for (int rn = 1; rn <= 3; rn++)
		profdb__qbuf_addf(b, ", max(CASE WHEN rn = %d THEN %s END) AS t%d", rn, col, rn);
	profdb__qbuf_addf(b, " FROM lr WHERE rn <= 3 GROUP BY %s)", keys);
}

static void add_sql(struct profdb__qbuf *b, const struct profdb_op_query *q)
{
	const struct profdb_filter *f = &q->filter;
	const char *keys = q->by_shape ? "run_id, k0, k1" : "run_id, k0";

	/* GLOB with a literal prefix is a range of str's unique index */
	if (q->step_rows)
		profdb__qbuf_add(b, "WITH f AS (SELECT o.*, o.name_id AS k0n FROM op o WHERE 1");
	else
		profdb__qbuf_add(b, "WITH ps AS (SELECT id FROM str WHERE value GLOB 'ProfilerStep#*'),\n"
		            " f AS (SELECT o.*, CASE WHEN o.name_id IN (SELECT id FROM ps) THEN -1"
		            " ELSE o.name_id END AS k0n FROM op o WHERE 1");
	profdb__qfilter_where(b, f, "o", QF_OP, 0);
	/* fa: every op of the selected runs, ranks and steps, whatever --name */
	profdb__qbuf_add(b, "),\n fa AS (SELECT o.run_id, sum(o.device_self_ns) AS ds FROM op o WHERE o.category_id IS NOT"
	            " (SELECT id FROM str WHERE value = 'runtime')"); /* runtime calls are no operators */
	profdb__qfilter_where(b, f, "o", QF_OP, 1);
	profdb__qbuf_add(b, " GROUP BY o.run_id),\n nop AS (SELECT fa.run_id, kt.dt - coalesce(fa.ds, 0) AS d FROM fa"
	            " JOIN (SELECT k.run_id, sum(k.dur_ns) AS dt FROM kernel k WHERE k.run_id IN (SELECT run_id FROM fa)");
	profdb__qfilter_where(b, f, "k", QF_KERNEL, 1);
	profdb__qbuf_add(b, " GROUP BY k.run_id) kt ON kt.run_id = fa.run_id WHERE kt.dt - coalesce(fa.ds, 0) <> 0");
	profdb__qbuf_add(b, "),\n g AS (SELECT f.run_id, f.k0n AS k0");
	if (q->by_shape)
		profdb__qbuf_add(b, ", f.in_shapes_id AS k1");
	profdb__qbuf_add(b, ", count(*) AS calls, sum(f.self_ns) AS host_self, sum(f.dur_ns) AS host_total,"
	            " avg(f.dur_ns) AS host_avg, sum(f.device_self_ns) AS device_self,"
	            " sum(f.device_total_ns) AS device_total FROM f GROUP BY f.run_id, k0");
	if (q->by_shape)
		profdb__qbuf_add(b, ", k1");
	if (f->min_total_ns > 0)
		profdb__qbuf_add(b, " HAVING sum(f.dur_ns) >= :mintot");
	/* the row (no operator): the run's device time (its selected ranks
	 * and steps) less what its operators claim as device_self, so the
	 * rows add up to summary's total_device; only in runs with operators,
	 * and not under --name (it is no operator's name) */
	if (!f->name_glob) {
		profdb__qbuf_addf(b, " UNION ALL SELECT nop.run_id, -2%s, NULL, NULL, NULL, NULL, nop.d, nop.d FROM nop",
		                  q->by_shape ? ", NULL" : "");
		if (f->min_total_ns > 0)
			profdb__qbuf_add(b, " WHERE 0");
	}
	/* the % columns' 100%: every selected op of the run, as torch's
	 * key_averages table divides by its total (before --min-total and
	 * --top); device_self's is the run's device time */
	profdb__qbuf_add(b, "),\n tot AS (SELECT f.run_id, sum(f.self_ns) AS hs, CASE WHEN max(fa.ds) IS NULL"
	            " AND max(nop.d) IS NULL THEN NULL ELSE coalesce(max(fa.ds), 0) + coalesce(max(nop.d), 0) END AS ds"
	            " FROM f LEFT JOIN fa ON fa.run_id = f.run_id LEFT JOIN nop ON nop.run_id = f.run_id"
	            " GROUP BY f.run_id");
	/* kernels linked to ops: by External id, and by launch op name */
	profdb__qbuf_add(b, "),\n lk AS (SELECT f.run_id, f.k0n AS k0");
	if (q->by_shape)
		profdb__qbuf_add(b, ", f.in_shapes_id AS k1");
	profdb__qbuf_add(b, ", k.name_id AS kn, k.dur_ns AS t FROM f JOIN kernel k ON k.run_id = f.run_id"
	            " AND k.rank = f.rank AND k.external_id = f.external_id WHERE f.external_id IS NOT NULL");
	if (!q->by_shape) {
		profdb__qbuf_add(b, " UNION ALL SELECT k.run_id, k.launch_op_id, k.name_id, k.dur_ns FROM kernel k"
		            " WHERE k.launch_op_id IS NOT NULL");
		profdb__qfilter_where(b, f, "k", QF_KERNEL, 1);
	}
	profdb__qbuf_addf(b, "),\n lt AS (SELECT %s, kn, sum(t) AS t FROM lk GROUP BY %s, kn),\n", keys, keys);
	profdb__qbuf_addf(b, " lr AS (SELECT lt.*, s.value || ' (' || printf('%%.1f', 100.0 * lt.t /"
	             " sum(lt.t) OVER (PARTITION BY %s)) || '%%)' AS x,", keys);
	/* the JSON form: total_us an exact decimal (integer ns / 1000, trailing
	 * zeros dropped) as the other JSON times, share of the op's kernel time */
	profdb__qbuf_addf(b, " json_object('name', s.value, 'total_us', json(rtrim(rtrim(printf('%%lld.%%03lld',"
	             " lt.t / 1000, lt.t %% 1000), '0'), '.')), 'share', 1.0 * lt.t /"
	             " sum(lt.t) OVER (PARTITION BY %s)) AS j,", keys);
	profdb__qbuf_addf(b, " row_number() OVER (PARTITION BY %s ORDER BY lt.t DESC, s.value) AS rn"
	             " FROM lt JOIN str s ON s.id = lt.kn)", keys);
	add_top_pivot(b, q, keys);
}

/* top_kernels: "a (62.5%); b (37.5%)" or with top_json '[{...}, {...}]'
 * ('[]' without any) */
static void add_top_kernels(struct profdb__qbuf *b, const struct profdb_op_query *q)
{
	const char *sep = q->top_json ? "," : "; ";
	profdb__qbuf_add(b, q->top_json ? ", '[' || coalesce(tk.t1" : ", tk.t1");
	for (int rn = 2; rn <= 3; rn++)
		profdb__qbuf_addf(b, " || coalesce('%s' || tk.t%d, '')", sep, rn);
	profdb__qbuf_add(b, q->top_json ? ", '') || ']' AS top_kernels" : " AS top_kernels");
}

/* CTE o: the output columns, run id and rank within the run; then the
 * final SELECT of the named columns.  Fills types. */
static int add_output(profdb *db, struct profdb__qbuf *b, const struct profdb_op_query *q,
                      enum profdb_coltype *types, size_t *ntypes)
{
	const char *sort = q->sort && *q->sort ? q->sort : "host_self";
	const char *order = NULL;
	const char *names[16];
	size_t n = 0;

	profdb__qbuf_add(b, ",\n o AS (SELECT g.run_id AS run_id_");
	if (profdb__qfilter_run_column(&q->filter)) {
		profdb__qbuf_add(b, ", r.name AS run");
		names[n] = "run";
		types[n++] = PROFDB_COL_TEXT;
	}
	for (size_t i = 0; i < NOPCOLS; i++) {
		profdb__qbuf_addf(b, ", %s AS %s", op_cols[i].sort, op_cols[i].name);
		names[n] = op_cols[i].name;
		types[n++] = op_cols[i].type;
		if (strcmp(sort, op_cols[i].name) == 0)
			order = op_cols[i].sort;
	}
	profdb__qbuf_add(b, ", " NAME_EXPR " AS name");
	names[n] = "name";
	types[n++] = PROFDB_COL_TEXT;
	if (q->by_shape) {
		profdb__qbuf_add(b, ", sh.value AS shape");
		names[n] = "shape";
		types[n++] = PROFDB_COL_TEXT;
	}
	add_top_kernels(b, q);
	names[n] = "top_kernels";
	types[n++] = q->top_json ? PROFDB_COL_JSON : PROFDB_COL_TEXT;
	if (!order && strcmp(sort, "name") == 0)
		order = NAME_EXPR;
	if (!order && q->by_shape && strcmp(sort, "shape") == 0)
		order = "sh.value";
	if (!order)
		return profdb__error(db, PROFDB_EUSAGE, "cannot sort by '%s' (calls, host_self, host_self_pct,"
		                     " host_total, host_avg, device_self, device_self_pct, device_total, name%s)", sort,
		                     q->by_shape ? ", shape" : "");
	/* text sorts A..Z; figures the source lacks (NULL) go last */
	if (strcmp(sort, "name") == 0 || strcmp(sort, "shape") == 0)
		profdb__qbuf_addf(b, ", row_number() OVER (PARTITION BY g.run_id ORDER BY %s", order);
	else
		profdb__qbuf_addf(b, ", row_number() OVER (PARTITION BY g.run_id ORDER BY %s IS NULL, %s %s",
		          order, order, q->ascending ? "ASC" : "DESC");
	profdb__qbuf_add(b, ", g.host_total DESC, " NAME_EXPR);
	if (q->by_shape)
		profdb__qbuf_add(b, ", sh.value");
	profdb__qbuf_add(b, ") AS rn_ FROM g JOIN run r ON r.id = g.run_id JOIN tot tt ON tt.run_id = g.run_id"
	            " LEFT JOIN str n ON n.id = g.k0 LEFT JOIN tk ON tk.run_id = g.run_id AND tk.k0 = g.k0");
	if (q->by_shape)
		profdb__qbuf_add(b, " AND tk.k1 IS g.k1 LEFT JOIN str sh ON sh.id = g.k1");
	profdb__qbuf_add(b, ")\nSELECT ");
	for (size_t i = 0; i < n; i++)
		profdb__qbuf_addf(b, "%s%s", i ? ", " : "", names[i]);
	profdb__qbuf_add(b, " FROM o");
	if (q->top > 0)
		profdb__qbuf_add(b, " WHERE rn_ <= :top");
	profdb__qbuf_add(b, " ORDER BY run_id_, rn_");
	*ntypes = n;
	return PROFDB_OK;
}

static size_t col_named(const profdb_result *r, const char *name)
{
	for (size_t c = 0; c < profdb_result_ncols(r); c++)
		if (strcmp(profdb_result_colname(r, c), name) == 0)
			return c;
	return (size_t)-1;
}

/* Whether name is already in the ", "-separated list. */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name ? name : "");
	for (const char *p = list; *p;) {
		const char *e = strstr(p, ", ");
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		if (!e)
			break;
		p = e + 2;
	}
	return 0;
}

/* The rows of the child-device-time note, named as they come. */
struct child_rows {
	size_t n, nshown, len;
	int more;
	char list[256];            /* the first three names, ", " between */
};

static void child_row(struct child_rows *c, const char *nm)
{
	int w;
	c->n++;
	if (listed(c->list, nm))
		return;
	if (c->nshown == 3 || c->len >= sizeof c->list) {
		c->more = 1;
		return;
	}
	c->nshown++;
	w = snprintf(c->list + c->len, sizeof c->list - c->len, "%s%s", c->len ? ", " : "", nm ? nm : "");
	c->len += w > 0 ? (size_t)w : 0;
}

/* The same rows from a second run of the answer's statement (sql), for an
 * answer that was streamed rather than held; the same test as the held
 * rows' loop below, in SQL. */
static int child_rows_sql(profdb *db, struct child_rows *c, const struct profdb__qbuf *sql,
                          const struct profdb_op_query *q)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;
	profdb__qbuf_add(&b, "SELECT name FROM (");
	profdb__qbuf_add(&b, sql->s);
	profdb__qbuf_add(&b, ") WHERE device_total > 0 AND (device_self IS NULL OR device_self <= 0)");
	rc = profdb__query_prepare(db, &b, &st, "cannot query operators");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	if (q->top > 0)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":top"), q->top);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		child_row(c, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot query operators");
}

/* The note on operators whose device time is all their children's: from
 * the rows r holds, or when they were streamed from the database. */
static int note_child_device_time(profdb *db, profdb_result *r, const struct profdb__qbuf *sql,
                                  const struct profdb_op_query *q)
{
	size_t self = col_named(r, "device_self"), total = col_named(r, "device_total");
	size_t name = col_named(r, "name");
	struct child_rows c = { 0 };
	char note[PROFDB_ERRMAX];
	int rc;
	if (self == (size_t)-1 || total == (size_t)-1 || name == (size_t)-1)
		return PROFDB_OK;
	if (profdb__result_streamed(r)) {
		if ((rc = child_rows_sql(db, &c, sql, q)) != PROFDB_OK)
			return rc;
	} else {
		for (size_t i = 0; i < profdb_result_nrows(r); i++)
			if (!profdb_result_isnull(r, i, total) && profdb_result_int(r, i, total) > 0 &&
			    (profdb_result_isnull(r, i, self) || profdb_result_int(r, i, self) <= 0))
				child_row(&c, profdb_result_text(r, i, name));
	}
	if (!c.n)
		return PROFDB_OK;
	snprintf(note, sizeof note, "%zu row%s (%s%s): the operator launched no kernels itself, its device"
	         " time is its child operators' (device_total), so top_kernels is empty; device_self counts"
	         " only kernels an operator launched itself", c.n, c.n == 1 ? "" : "s", c.list,
	         c.more ? ", ..." : "");
	if (profdb__result_add_note(r, note) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

/* The total line under the table, one per run: what the % columns divide
 * by, as key_averages().table() ends with "Self CPU time total".  *nruns:
 * the runs with selected operators. */
static int note_totals(profdb *db, profdb_result *r, const struct profdb_op_query *q, size_t *nruns)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	char note[PROFDB_ERRMAX];
	int rc;

	add_sql(&b, q);
	profdb__qbuf_add(&b, "\nSELECT r.name, tt.hs, tt.ds, nop.d FROM tot tt JOIN run r ON r.id = tt.run_id"
	                 " LEFT JOIN nop ON nop.run_id = tt.run_id ORDER BY r.id");
	rc = profdb__query_prepare(db, &b, &st, "cannot total operators");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &q->filter);
	while (rc == PROFDB_OK && sqlite3_step(st) == SQLITE_ROW) {
		int64_t hs = sqlite3_column_int64(st, 1), ds = sqlite3_column_int64(st, 2);
		int nd = sqlite3_column_type(st, 2) == SQLITE_NULL;
		int64_t no = sqlite3_column_int64(st, 3);
		char dev[160] = "none stored", th[PROFDB__NOTE_TIME_CAP], td[PROFDB__NOTE_TIME_CAP];
		char tn[PROFDB__NOTE_TIME_CAP];
		profdb__note_time(th, sizeof th, hs);
		profdb__note_time(td, sizeof td, ds);
		profdb__note_time(tn, sizeof tn, no);
		if (!nd && sqlite3_column_type(st, 3) != SQLITE_NULL)
			snprintf(dev, sizeof dev, "%s, the run's device time, of which %s launched outside every"
			         " operator: the row " NO_OP, td, tn);
		else if (!nd)
			snprintf(dev, sizeof dev, "%s", td);
		snprintf(note, sizeof note, "total of run '%s' (100%% in the %% columns): host_self %s,"
		         " device_self %s", (const char *)sqlite3_column_text(st, 0), th, dev);
		if (profdb__result_add_note(r, note) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		++*nruns;
	}
	sqlite3_finalize(st);
	return rc;
}

/* An empty answer says why: operators there, all under --min-total; or
 * none selected, explained from the runs' ranks and steps, as kernels. */
static int note_empty(profdb *db, profdb_result *r, const struct profdb_op_query *q, size_t nruns)
{
	const struct profdb_filter *f = &q->filter;
	if (profdb_result_nrows(r) > 0)
		return PROFDB_OK;
	if (nruns > 0 && f->min_total_ns > 0) {
		if (profdb__result_add_note(r, "no operator's host total reaches --min-total") != PROFDB_OK)
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		return PROFDB_OK;
	}
	if (!f->name_glob && f->rank == PROFDB_NULL && !profdb__qfilter_has_steps(f)) {
		if (profdb__result_add_note(r, "the selected runs have no host operators") != PROFDB_OK)
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		return PROFDB_OK;
	}
	return profdb__qfilter_explain_empty(db, r, f, 0);
}

/* A narrow terminal keeps key_averages' leading columns (format_table.c):
 * calls, host self time and share, device self time, the name. */
static const char *const headline_cols[] = {
	"calls", "host_self", "host_self_pct", "device_self", "name", NULL
};
static const char *const hide_cols[] = {
	"host_avg", "device_total", "host_total", "device_self_pct", "top_kernels", NULL
};

int profdb_query_ops(profdb *db, profdb_result **out, const struct profdb_op_query *q)
{
	enum profdb_coltype types[16];
	size_t ntypes = 0, nruns = 0;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if ((rc = profdb__version_check(db, q->version, PROFDB_OP_QUERY_VERSION, "profdb_op_query")) != PROFDB_OK)
		return rc;
	if ((rc = profdb__qfilter_check(db, &q->filter)) != PROFDB_OK)
		return rc;
	add_sql(&b, q);
	if ((rc = add_output(db, &b, q, types, &ntypes)) != PROFDB_OK)
		goto out;
	if ((rc = profdb__query_prepare(db, &b, &st, "cannot query operators")) != PROFDB_OK)
		goto out;
	profdb__qfilter_bind(st, &q->filter);
	if (q->top > 0)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":top"), q->top);
	/* streamed when the CLI asked (profdb_result_stream): the notes read
	 * the database, not the rows */
	rc = profdb__result_from_stmt_stream(db, out, st, types);
	if (rc == PROFDB_OK && (rc = note_totals(db, *out, q, &nruns)) == PROFDB_OK &&
	    (rc = note_child_device_time(db, *out, &b, q)) == PROFDB_OK)
		rc = note_empty(db, *out, q, nruns);
	if (rc != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
out:
	sqlite3_finalize(st);
	profdb__qbuf_free(&b);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}
