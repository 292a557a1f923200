/*
 * compare_samples.c - the samples profdb_compare tests: the runs of each
 * side and the steps their samples are taken over, and per grouping key the
 * kernel time of each sample (per step, or per repeat without steps, read
 * in key order: compare_merge.c), with
 * host self time and step spans for the whole-run lines.  Reads the store
 * tables directly (kernel, step, op, run, str) with bound parameters only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "query/query.h"
#include "util/lower_bound.h"
#include "banned.h"

/* ---------------------------------------------------------------- keys */

/* The parts a grouping key may have, their SQL (fixed text only), and
 * whether kernel_step_stat has the column (name, base name, kind). */
static const struct {
	const char *name;
	const char *sql;
	int in_step_stat;
} key_parts[] = {
	{ "name", "n.value", 1 },
	{ "base-name", "b.value", 1 },
	{ "type", "coalesce(t.value, '')", 0 },
	{ "shape", "coalesce(s.value, '')", 0 },
	{ "kind", "kd.name", 1 },
	{ "core", "coalesce(c.value, '')", 0 },
};
#define NPARTS (sizeof key_parts / sizeof key_parts[0])

/* Build "<part> || ' | ' || <part>" from a spec like "type+shape"; set
 * *in_step_stat when every part is a column of kernel_step_stat. */
int profdb__compare_key_sql(profdb *db, const char *by, char *out, size_t cap, int *in_step_stat)
{
	const char *p = by;
	size_t len = 0;
	out[0] = '\0';
	*in_step_stat = 1;
	while (*p) {
		size_t n = strcspn(p, "+,"), i;
		for (i = 0; i < NPARTS; i++)
			if (strlen(key_parts[i].name) == n && strncmp(p, key_parts[i].name, n) == 0)
				break;
		if (i == NPARTS) {
			const char *names[NPARTS];
			char word[64], hint[96];
			for (size_t j = 0; j < NPARTS; j++)
				names[j] = key_parts[j].name;
			snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), p);
			return profdb__error(db, PROFDB_EUSAGE, "unknown key '%.*s' in '%s'%s"
			                     " (name, base-name, type, shape, kind, core)", (int)n, p, by,
			                     profdb__did_you_mean(hint, sizeof hint, word, names, NPARTS));
		}
		len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s",
		                        len ? " || ' | ' || " : "", key_parts[i].sql);
		*in_step_stat &= key_parts[i].in_step_stat;
		if (len >= cap)
			return profdb__error(db, PROFDB_EUSAGE, "key '%s' is too long", by);
		p += n;
		if (*p)
			p++;
	}
	if (!len)
		return profdb__error(db, PROFDB_EUSAGE, "empty grouping key");
	return PROFDB_OK;
}

uint64_t profdb__compare_fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* ---------------------------------------------------------------- runs */

void profdb__compare_bind_filter(sqlite3_stmt *q, const struct profdb_filter *f)
{
	if (f->rank != PROFDB_NULL)
		sqlite3_bind_int64(q, 2, f->rank);
	if (f->step_lo != PROFDB_NULL)
		sqlite3_bind_int64(q, 3, f->step_lo);
	if (f->step_hi != PROFDB_NULL)
		sqlite3_bind_int64(q, 4, f->step_hi);
}


static int load_run(profdb *db, struct profdb__cmp_run *r, const char *name)
{
	sqlite3_stmt *q = NULL;
	int rc;
	r->name = name;
	if (sqlite3_prepare_v2(db->sql, "SELECT id, repeats, ranks, format, name_stats, repeats_source = 'steps' FROM run WHERE name = ?1",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot look up runs");
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		r->id = sqlite3_column_int64(q, 0);
		r->repeats = sqlite3_column_int64(q, 1);
		r->ranks = sqlite3_column_int64(q, 2);
		r->format = strdup((const char *)sqlite3_column_text(q, 3));
		r->stats = sqlite3_column_int(q, 4);
		r->repeats_steps = sqlite3_column_int(q, 5);
		rc = r->format ? PROFDB_OK : profdb__error(db, PROFDB_ERROR, "out of memory");
	} else if (rc == SQLITE_DONE) {
		rc = profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s'", name);
	} else {
		rc = profdb__sqlerror(db, "cannot look up run '%s'", name);
	}
	sqlite3_finalize(q);
	return rc;
}

/*
 * The steps a run's samples are taken over: its selected steps (query.h,
 * the same set that kernels --steps and summary --steps count), none when
 * its kernels carry no step (then the run has one sample).
 */
static int load_steps(profdb *db, const struct profdb_filter *f, int64_t run_id,
                      int64_t **out, size_t *n)
{
	struct profdb_filter sf = *f;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *q = NULL;
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	sf.runs = NULL; /* the comparison names its runs itself */
	sf.nruns = 0;
	profdb__qbuf_add(&b, "SELECT step FROM (");
	profdb__qfilter_selected_steps(&b, &sf);
	profdb__qbuf_add(&b, ") WHERE run_id = :rid ORDER BY step");
	rc = profdb__query_prepare(db, &b, &q, "cannot read steps");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(q, &sf);
	sqlite3_bind_int64(q, sqlite3_bind_parameter_index(q, ":rid"), run_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (*n == cap) {
			int64_t *t = realloc(*out, (cap = cap ? cap * 2 : 64) * sizeof *t);
			if (!t) {
				sqlite3_finalize(q);
				return profdb__error(db, PROFDB_ERROR, "out of memory");
			}
			*out = t;
		}
		(*out)[(*n)++] = sqlite3_column_int64(q, 0);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(db, "cannot read steps");
	return PROFDB_OK;
}

/* The index of step in steps (sorted), or -1.  *hint: where the last
 * one was; a key's rows come in step order, so the next step is most
 * often the next one, and a hit there spares a binary search's
 * unpredictable branches on every row of a big diff. */
static long step_index(const int64_t *steps, size_t n, int64_t step, size_t *hint)
{
	size_t lo;
	if (*hint < n && steps[*hint] == step)
		return (long)*hint;
	if (*hint + 1 < n && steps[*hint + 1] == step)
		return (long)++*hint;
	PROFDB__LOWER_BOUND(lo, 0, n, mid, steps[mid] < step);
	if (lo < n && steps[lo] == step)
		return (long)(*hint = lo);
	return -1;
}

int profdb__compare_side_init(profdb *db, const struct profdb_filter *f, struct profdb__compare_side *sd,
                     const char *const *names, size_t n)
{
	int rc;
	sd->n = n;
	sd->runs = calloc(n, sizeof *sd->runs);
	sd->offset = calloc(n, sizeof *sd->offset);
	sd->steps = calloc(n, sizeof *sd->steps);
	sd->nsteps = calloc(n, sizeof *sd->nsteps);
	sd->divisor = calloc(n, sizeof *sd->divisor);
	sd->by_step = calloc(n ? n : 1, sizeof *sd->by_step);
	sd->out_n = calloc(n ? n : 1, sizeof *sd->out_n);
	sd->out_ns = calloc(n ? n : 1, sizeof *sd->out_ns);
	if (!sd->runs || !sd->offset || !sd->steps || !sd->nsteps || !sd->divisor || !sd->by_step ||
	    !sd->out_n || !sd->out_ns)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if ((rc = load_run(db, &sd->runs[i], names[i])) != PROFDB_OK)
			return rc;
		if ((rc = load_steps(db, f, sd->runs[i].id, &sd->steps[i], &sd->nsteps[i])) != PROFDB_OK)
			return rc;
		sd->offset[i] = sd->N;
		sd->N += sd->nsteps[i] ? sd->nsteps[i] : 1;
		/* with a step range, a repeat is one selected step (query.h) */
		sd->divisor[i] = profdb__qfilter_has_steps(f) && sd->nsteps[i] ?
		                 (double)sd->nsteps[i] : (double)sd->runs[i].repeats;
		/* the repeats warning compares the divisor in use: under --steps
		 * 2 vs 4 stored repeats is no difference when both select 1 step */
		sd->runs[i].repeats = (int64_t)sd->divisor[i];
		sd->by_step[i] = sd->runs[i].repeats_steps && sd->nsteps[i] && !profdb__qfilter_has_steps(f);
		sd->repeats += sd->divisor[i];
	}
	sd->wall = n > 0;
	for (size_t i = 0; i < n; i++)
		sd->wall &= profdb__format_is_wallclock(sd->runs[i].format);
	sd->count = calloc(sd->N ? sd->N : 1, sizeof *sd->count);
	sd->cpu = calloc(sd->N ? sd->N : 1, sizeof *sd->cpu);
	sd->dev = calloc(sd->N ? sd->N : 1, sizeof *sd->dev);
	if (!sd->count || !sd->cpu || !sd->dev)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

void profdb__compare_side_free(struct profdb__compare_side *sd)
{
	for (size_t i = 0; i < sd->n; i++) {
		if (sd->runs)
			free(sd->runs[i].format);
		if (sd->steps)
			free(sd->steps[i]);
	}
	free(sd->runs);
	free(sd->offset);
	free(sd->steps);
	free(sd->nsteps);
	free(sd->divisor);
	free(sd->by_step);
	free(sd->out_n);
	free(sd->out_ns);
	free(sd->count);
	free(sd->dev);
	free(sd->cpu);
	free(sd->span);
}

/* ---------------------------------------------------------------- samples */

/* --by op: per operator name two keys, "<name> device" (device_total_ns
 * of the instances that ran device work: their kernels and those of the
 * ops they call) and "<name> host_self" (self_ns), the stored columns the
 * ops command reads; the ProfilerStep#N spans are steps, not operators.
 * Rows as the kernel cursor's: key, step, sum, count, in key order. */
static int op_cursor(struct profdb__compare_state *s, int si, size_t i, sqlite3_stmt **out)
{
	static const char sql[] =
		"WITH o AS (SELECT o.step, n.value AS name, o.self_ns, o.device_total_ns FROM op o"
		" JOIN str n ON n.id = o.name_id WHERE o.run_id = ?1 AND (?2 IS NULL OR o.rank = ?2)"
		" AND (?3 IS NULL OR o.step >= ?3) AND (?4 IS NULL OR o.step <= ?4)"
		" AND n.value NOT GLOB 'ProfilerStep#*')"
		" SELECT key, step, sum(ns), count(*) FROM ("
		"  SELECT name || ' device' AS key, step, device_total_ns AS ns FROM o WHERE device_total_ns > 0"
		"  UNION ALL SELECT name || ' host_self', step, coalesce(self_ns, 0) FROM o)"
		" GROUP BY 1, 2 ORDER BY 1";
	sqlite3_stmt *q = NULL;
	if (sqlite3_prepare_v2(s->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read operators");
	sqlite3_bind_int64(q, 1, s->side[si].runs[i].id);
	profdb__compare_bind_filter(q, &s->o->filter);
	*out = q;
	return PROFDB_OK;
}

int profdb__compare_kernel_cursor(struct profdb__compare_state *s, sqlite3_stmt **out, int si, size_t i,
                                  const char *keyexpr)
{
	struct profdb__compare_side *sd = &s->side[si];
	const struct profdb_filter *f = &s->o->filter;
	sqlite3_stmt *q = NULL;
	char sql[2048];

	/* kernel_step_stat has the totals per rank, step, name and kind: keys
	 * made of those read it instead of every kernel row */
	int stats = sd->runs[i].stats && s->key_in_step_stat;
	/* other keys read the source's sums per rank, step and key column
	 * where it has them (rel.keygroup), else kernel rows */
	const char *groups = stats ? NULL : s->rel.keygroup;

	*out = NULL;
	if (s->by_op)
		return op_cursor(s, si, i, out);
	/* in key order (BINARY: strcmp's order), so the keys of every run of
	 * both sides are merged one at a time (compare_merge.c) */
	snprintf(sql, sizeof sql, "SELECT CAST((%s) AS TEXT), k.step, %s FROM %s k"
	         " JOIN str n ON n.id = k.name_id JOIN str b ON b.id = k.base_id"
	         " JOIN kind kd ON kd.id = k.kind%s"
	         " WHERE k.run_id = ?1 AND (?2 IS NULL OR k.rank = ?2)"
	         " AND (?3 IS NULL OR k.step >= ?3) AND (?4 IS NULL OR k.step <= ?4)"
	         " AND (?5 IS NULL OR n.value GLOB ?5) AND (?6 IS NULL OR kd.name = ?6)"
	         " GROUP BY 1, 2 ORDER BY 1", keyexpr,
	         stats ? "sum(k.total_ns), sum(k.calls)" : groups ? "sum(k.dur_ns), sum(k.calls)" : "sum(k.dur_ns), count(*)",
	         stats ? "kernel_step_stat" : groups ? groups : "kernel",
	         stats ? "" : " LEFT JOIN str t ON t.id = k.type_id"
	         " LEFT JOIN str s ON s.id = k.in_shapes_id LEFT JOIN str c ON c.id = k.core_id");
	if (sqlite3_prepare_v2(s->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read kernels");
	sqlite3_bind_int64(q, 1, sd->runs[i].id);
	profdb__compare_bind_filter(q, f);
	if (f->name_glob)
		sqlite3_bind_text(q, 5, f->name_glob, -1, SQLITE_STATIC);
	if (f->kind)
		sqlite3_bind_text(q, 6, f->kind, -1, SQLITE_STATIC);
	*out = q;
	return PROFDB_OK;
}

int profdb__compare_add_row(struct profdb__compare_state *s, int si, size_t i,
                            struct profdb__kcursor *c, double *samp, double *calls)
{
	struct profdb__compare_side *sd = &s->side[si];
	int64_t sum = c->sum, cnt = c->calls;
	size_t at = sd->offset[i];
	long j;

	if (!sd->nsteps[i]) {
		sd->kernels += cnt;
		samp[at] += (double)sum / sd->divisor[i];
		sd->count[at] += (double)cnt / sd->divisor[i];
		calls[at] += (double)cnt;
		return 1;
	}
	j = !c->has_step ? -1 : step_index(sd->steps[i], sd->nsteps[i], c->step, &c->step_hint);
	if (j < 0 && sd->by_step[i] && !s->by_op) {
		/* a repeat is a step: no part of any (README "Per-repeat
		 * averages and step filters") */
		sd->out_n[i] += cnt;
		sd->out_ns[i] += sum;
		return 0;
	}
	sd->kernels += cnt;
	if (j < 0) {
		/* outside every step (no launch inside a step span): spread
		 * evenly over the run's steps, so the mean of the samples
		 * stays the per-repeat time and the CI brackets it */
		for (size_t t = 0; t < sd->nsteps[i]; t++) {
			samp[at + t] += (double)sum / (double)sd->nsteps[i];
			sd->count[at + t] += (double)cnt / (double)sd->nsteps[i];
			calls[at + t] += (double)cnt / (double)sd->nsteps[i];
		}
		return 1;
	}
	samp[at + (size_t)j] += (double)sum;
	sd->count[at + (size_t)j] += (double)cnt;
	calls[at + (size_t)j] += (double)cnt;
	return 1;
}

/* Host self time per step, and the step spans, of run i of side si. */
int profdb__compare_read_host(struct profdb__compare_state *s, int si, size_t i)
{
	struct profdb__compare_side *sd = &s->side[si];
	sqlite3_stmt *q = NULL;
	size_t hint = 0;           /* step_index's: the rows come in step order */
	int rc;

	/* the source's op sums per rank and step where it has them
	 * (rel.opstep): the same integer sums, without moving every op */
	char sql[512];
	if (s->rel.opstep)
		snprintf(sql, sizeof sql, "SELECT step, sum(self_ns), sum(ops) FROM %s"
		         " WHERE run_id = ?1" COMPARE_RANK_STEP_WHERE " GROUP BY step", s->rel.opstep);
	else
		snprintf(sql, sizeof sql, "SELECT step, sum(coalesce(self_ns, 0)), count(*) FROM op"
		         " WHERE run_id = ?1" COMPARE_RANK_STEP_WHERE " GROUP BY step");
	if (sqlite3_prepare_v2(s->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read host operators");
	sqlite3_bind_int64(q, 1, sd->runs[i].id);
	profdb__compare_bind_filter(q, &s->o->filter);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t sum = sqlite3_column_int64(q, 1);
		size_t at = sd->offset[i];
		sd->cpu_total += sum;
		sd->ops += sqlite3_column_int64(q, 2);
		if (!sd->nsteps[i]) {
			sd->cpu[at] += (double)sum / sd->divisor[i];
		} else {
			long j = sqlite3_column_type(q, 0) == SQLITE_NULL ? -1 :
			         step_index(sd->steps[i], sd->nsteps[i], sqlite3_column_int64(q, 0), &hint);
			if (j >= 0)
				sd->cpu[at + (size_t)j] += (double)sum;
			else /* outside every step: spread, as for kernels */
				for (size_t t = 0; t < sd->nsteps[i]; t++)
					sd->cpu[at + t] += (double)sum / (double)sd->nsteps[i];
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(s->db, "cannot read host operators");
	/* a step lasts as long as its slowest rank */
	if (sqlite3_prepare_v2(s->db->sql, "SELECT step, max(end_ns - start_ns) FROM step"
	    " WHERE run_id = ?1" COMPARE_RANK_STEP_WHERE " AND start_ns IS NOT NULL AND end_ns IS NOT NULL"
	    " GROUP BY step ORDER BY step", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read steps");
	sqlite3_bind_int64(q, 1, sd->runs[i].id);
	profdb__compare_bind_filter(q, &s->o->filter);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (sd->nspan == sd->capspan) {
			double *t = realloc(sd->span, (sd->capspan = sd->capspan ? sd->capspan * 2 : 64) * sizeof *t);
			if (!t) {
				sqlite3_finalize(q);
				return profdb__error(s->db, PROFDB_ERROR, "out of memory");
			}
			sd->span = t;
		}
		sd->span[sd->nspan++] = (double)sqlite3_column_int64(q, 1);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(s->db, "cannot read steps");
	return PROFDB_OK;
}

