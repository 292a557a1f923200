/*
 * idle_busy.c - the ranks' busy time for profdb idle (query_idle.c): the
 * union of every device activity of a rank, built by one ordered sweep,
 * and its length before a time t.  The union is held in memory up to
 * idle_hold intervals (struct profdb_limits; 40 bytes each: 20 MB built
 * in), a bisection per lookup; past it it goes to a temporary table, read
 * forward by a cursor.
 */
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "idle_busy.h"
#include "util/lower_bound.h"
#include "banned.h"

/* One interval of a rank's union, with the union's length before it. */
struct uiv {
	int64_t run, rank, s, e, cum;
};

/* The ranks' unions are held in memory up to idle_hold intervals (struct
 * profdb_limits; 40 bytes each: 20 MB built in), a bisection per lookup;
 * past it they go to a temporary table, an indexed lookup each. */

/* key (run, rank, s) order */
static int uiv_after(const struct uiv *u, int64_t run, int64_t rank, int64_t t)
{
	if (u->run != run)
		return u->run > run;
	if (u->rank != rank)
		return u->rank > rank;
	return u->s > t;
}

/* busy_before over the held intervals: the last one of the rank starting
 * at or before t, by bisection. */
static int64_t busy_held(const struct profdb__idle_busy *c, int64_t t)
{
	size_t lo;
	const struct uiv *u;
	PROFDB__LOWER_BOUND(lo, 0, c->nu, mid, !uiv_after(&c->u[mid], c->run, c->rank, t));
	if (lo == 0)
		return 0;
	u = &c->u[lo - 1];
	if (u->run != c->run || u->rank != c->rank)
		return 0;
	return u->cum + (t < u->e ? t : u->e) - u->s;
}

/* The spilled union's cursor on the last interval of the rank starting at
 * or before t (one indexed lookup) and the one after it; 0 or -1 (an error). */
static int ucur_seek(struct profdb__idle_busy *c, int64_t t)
{
	struct ucur *u = &c->cur;
	int rc;
	sqlite3_bind_int64(c->u_at, 1, c->run);
	sqlite3_bind_int64(c->u_at, 2, c->rank);
	sqlite3_bind_int64(c->u_at, 3, t);
	rc = sqlite3_step(c->u_at);
	u->have = rc == SQLITE_ROW;
	for (int i = 0; i < 3 && u->have; i++)
		u->at[i] = sqlite3_column_int64(c->u_at, i);
	sqlite3_reset(c->u_at);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -1;
	sqlite3_reset(c->u_next);
	sqlite3_bind_int64(c->u_next, 1, c->run);
	sqlite3_bind_int64(c->u_next, 2, c->rank);
	sqlite3_bind_int64(c->u_next, 3, u->have ? u->at[0] : INT64_MIN);
	u->ok = 1, u->run = c->run, u->rank = c->rank;
	return 0;
}

/* The cursor's next interval read into next[]; 0 or -1 (an error). */
static int ucur_read(struct profdb__idle_busy *c)
{
	int rc = sqlite3_step(c->u_next);
	c->cur.more = rc == SQLITE_ROW;
	for (int i = 0; i < 3 && c->cur.more; i++)
		c->cur.next[i] = sqlite3_column_int64(c->u_next, i);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/*
 * busy_before over the spilled union: a walk asks for times that never
 * decrease along a stream (a gap's start, then its end), so the cursor
 * steps forward over the few intervals between two of them and seeks by
 * the index only for a new rank or stream, or past UCUR_STEPS intervals
 * (an indexed lookup per gap end is most of the time on millions of
 * kernels).
 */
#define UCUR_STEPS 32

static int64_t busy_spilled(struct profdb__idle_busy *c, int64_t t)
{
	struct ucur *u = &c->cur;
	int n = 0;
	if (!u->ok || u->run != c->run || u->rank != c->rank || t < u->t) {
		if (ucur_seek(c, t) < 0 || ucur_read(c) < 0)
			return -1;
	}
	while (u->more && u->next[0] <= t) {
		if (++n > UCUR_STEPS) {
			if (ucur_seek(c, t) < 0 || ucur_read(c) < 0)
				return -1;
			break;
		}
		memcpy(u->at, u->next, sizeof u->at);
		u->have = 1;
		if (ucur_read(c) < 0)
			return -1;
	}
	u->t = t;
	return u->have ? u->at[2] + (t < u->at[1] ? t : u->at[1]) - u->at[0] : 0;
}

int64_t profdb__idle_busy_before(struct profdb__idle_busy *c, int64_t t)
{
	return c->spilled ? busy_spilled(c, t) : busy_held(c, t);
}

static const char union_sql[] =
	"CREATE TEMP TABLE profdb_idle_u(run_id INTEGER, rank INTEGER, s INTEGER, e INTEGER, cum INTEGER,"
	" PRIMARY KEY (run_id, rank, s)) WITHOUT ROWID;"
	"CREATE TEMP TABLE profdb_idle_o(run_id INTEGER, rank INTEGER, origin INTEGER,"
	" PRIMARY KEY (run_id, rank)) WITHOUT ROWID";

/* The ranks' union and first starts: temporary tables, on disk past
 * SQLite's cache, so a rank of any size holds no memory of its own. */
static int union_open(struct profdb__idle_busy *c)
{
	sqlite3 *s = c->db->sql;
	if (sqlite3_exec(s, union_sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s, "INSERT INTO temp.profdb_idle_u VALUES (?1, ?2, ?3, ?4, ?5)", -1, &c->u_ins,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s, "SELECT s, e, cum FROM temp.profdb_idle_u WHERE run_id = ?1 AND rank = ?2"
	                       " AND s <= ?3 ORDER BY s DESC LIMIT 1", -1, &c->u_at, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s, "SELECT s, e, cum FROM temp.profdb_idle_u WHERE run_id = ?1 AND rank = ?2"
	                       " AND s > ?3 ORDER BY s", -1, &c->u_next, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s, "INSERT INTO temp.profdb_idle_o VALUES (?1, ?2, ?3)", -1, &c->o_ins, NULL) !=
	            SQLITE_OK ||
	    sqlite3_prepare_v2(s, "SELECT origin FROM temp.profdb_idle_o WHERE run_id = ?1 AND rank = ?2", -1,
	                       &c->o_at, NULL) != SQLITE_OK)
		return profdb__sqlerror(c->db, "cannot keep the ranks' busy time");
	return PROFDB_OK;
}

void profdb__idle_busy_close(struct profdb__idle_busy *c)
{
	sqlite3_finalize(c->u_ins);
	sqlite3_finalize(c->u_at);
	sqlite3_finalize(c->u_next);
	sqlite3_finalize(c->o_ins);
	sqlite3_finalize(c->o_at);
	c->u_ins = c->u_at = c->u_next = c->o_ins = c->o_at = NULL;
	free(c->u);
	c->u = NULL;
	sqlite3_exec(c->db->sql, "DROP TABLE IF EXISTS temp.profdb_idle_u; DROP TABLE IF EXISTS temp.profdb_idle_o",
	             NULL, NULL, NULL);
}

/* Run st (an insert) bound to v[0..n). */
static int put_ints(profdb *db, sqlite3_stmt *st, int n, const int64_t *v)
{
	int rc;
	for (int i = 0; i < n; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot keep the ranks' busy time");
}

/* The held intervals to the table: the hold is full (or memory is short). */
static int union_spill(struct profdb__idle_busy *c)
{
	int rc = PROFDB_OK;
	for (size_t i = 0; i < c->nu && rc == PROFDB_OK; i++) {
		const struct uiv *u = &c->u[i];
		int64_t v[5] = { u->run, u->rank, u->s, u->e, u->cum };
		rc = put_ints(c->db, c->u_ins, 5, v);
	}
	free(c->u);
	c->u = NULL;
	c->nu = c->ucap = 0;
	c->spilled = 1;
	return rc;
}

/* v = { run, rank, start, end, cum }: the merged interval stored, cum past it. */
static int union_put(struct profdb__idle_busy *c, int64_t *v)
{
	int rc = PROFDB_OK;
	if (!c->spilled && c->nu == c->ucap) {
		size_t ncap = c->ucap ? c->ucap * 2 : 1024;
		struct uiv *n = ncap <= c->uhold ? realloc(c->u, ncap * sizeof *n) : NULL;
		if (n)
			c->u = n, c->ucap = ncap;
		else
			rc = union_spill(c);
	}
	if (rc == PROFDB_OK && c->spilled)
		rc = put_ints(c->db, c->u_ins, 5, v);
	else if (rc == PROFDB_OK)
		c->u[c->nu++] = (struct uiv){ v[0], v[1], v[2], v[3], v[4] };
	v[4] += v[3] - v[2];
	return rc;
}

/*
 * First sweep: every activity of the filter in (run, rank, start) order,
 * merged as it comes into each rank's union (touching intervals join, empty
 * ones add nothing), and each rank's first start (the gaps' origin).
 */
static int union_fill(struct profdb__idle_busy *c, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int64_t v[5] = { 0, 0, 0, 0, 0 };
	int rc, have = 0, open = 0, err = PROFDB_OK;

	profdb__qbuf_add(&b, "SELECT k.run_id, k.rank, k.start_ns, k.start_ns + k.dur_ns FROM kernel k WHERE 1");
	profdb__qfilter_where(&b, f, "k", QF_KERNEL, 0);
	profdb__qbuf_add(&b, " ORDER BY k.run_id, k.rank, k.start_ns");
	rc = profdb__query_prepare(c->db, &b, &st, "cannot read device activities");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	while (err == PROFDB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0), rank = sqlite3_column_int64(st, 1);
		int64_t s = sqlite3_column_int64(st, 2), e = sqlite3_column_int64(st, 3);
		if (!have || run != v[0] || rank != v[1]) {
			int64_t o[3] = { run, rank, s };
			if (open && (err = union_put(c, v)) != PROFDB_OK)
				break;
			v[0] = run, v[1] = rank, v[4] = 0, have = 1, open = 0;
			if ((err = put_ints(c->db, c->o_ins, 3, o)) != PROFDB_OK)
				break;
		}
		if (e <= s)
			continue;
		if (open && s <= v[3]) {
			v[3] = e > v[3] ? e : v[3];
			continue;
		}
		if (open && (err = union_put(c, v)) != PROFDB_OK)
			break;
		v[2] = s, v[3] = e, open = 1;
	}
	if (err == PROFDB_OK && rc == SQLITE_DONE && open)
		err = union_put(c, v);
	sqlite3_finalize(st);
	if (err != PROFDB_OK)
		return err;
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(c->db, "cannot read device activities");
}

int profdb__idle_busy_open(struct profdb__idle_busy *c, profdb *db, const struct profdb_filter *f)
{
	int rc;
	memset(c, 0, sizeof *c);
	c->db = db;
	c->uhold = (size_t)db->limits.idle_hold;
	rc = union_open(c);
	return rc == PROFDB_OK ? union_fill(c, f) : rc;
}

int64_t profdb__idle_busy_rank(struct profdb__idle_busy *c, int64_t run, int64_t rank, int64_t dflt)
{
	int64_t origin = dflt;
	c->run = run, c->rank = rank;
	sqlite3_bind_int64(c->o_at, 1, run);
	sqlite3_bind_int64(c->o_at, 2, rank);
	if (sqlite3_step(c->o_at) == SQLITE_ROW)
		origin = sqlite3_column_int64(c->o_at, 0);
	sqlite3_reset(c->o_at);
	return origin;
}
