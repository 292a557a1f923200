/*
 * name_stats.c - per kernel name statistics gathered while an ingest's
 * kernel rows pass through the store.
 *
 * Why: `profdb kernels` over a run of ten million kernels took 30 s as a
 * GROUP BY over the rows (a median needs every duration of a name).  The
 * store sees every kernel anyway, so it keeps each name's durations, sorts
 * them once at commit and writes one kernel_name_stat row per name; the
 * query then reads a few hundred rows.  The figures use the definitions of
 * stats.h, the same code the SQL functions use, so both paths agree.
 * At commit it also has kernel_step_stat written (per rank, step, name and
 * kind totals, step_stats.c), which `profdb diff` samples instead of every
 * kernel row.
 *
 * Past name_stats_names names the per-name state is dropped and
 * both tables are computed by ordered scans of the run's rows at commit
 * (the "spilled" path at the end).  The three paths share the group, its
 * counting and its row writer.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "name_stats.h"
#include "util/stats.h"
#include "banned.h"

/*
 * Page cache while the spilled path sorts, KiB.  SQLite's sorter holds up
 * to a cache's worth of rows before it spills to a temporary file, and the
 * step statistics run two sorts at once: with the ingest's 32 MB cache the
 * commit of 1 M names peaked at 127 MB (the cache, full, plus 64 MB of
 * sorts).  At 4 MB: 64 MB, and no slower (8 MB: 72 MB).
 */
#define SPILL_CACHE_KIB 4096

struct name_group {
	int64_t name_id;
	int64_t calls, total, min, max;
	struct profdb__moments mom; /* in arrival order, as stddev() sees rows */
	/* one of the two: dur while the run's durations fit, v in the scans
	 * after dur was dropped (16 bytes a name less: 1 M names) */
	union {
		uint32_t *dur;         /* owned; NULL once over the budget */
		double *v;             /* owned: its durations read back by a scan */
	};
	union {
		/* values in dur and its room: at most name_stats_values
		 * (kinds sit after cell so that a group packs into 96 bytes, a
		 * size the name bound's budget is reckoned in) */
		struct {
			uint32_t ndur, capdur;
		};
		size_t nv;             /* values in v */
	};
	size_t cell;               /* step_stats.c's scan: its first cell in the step, if valid */
	unsigned kinds;            /* bit (1 << kind) per kind seen */
};

/*
 * Bytes of the per-name state that the budget counts: the group array's
 * and the map's room (during their growth the old and the new one, both
 * held by realloc or the rehash), and each duration array's room plus
 * what malloc adds to a block (a size word, rounded to 16 bytes: a
 * 4-value array is a 32-byte block).
 */
#define DUR_BLOCK_EXTRA 16

/*
 * A duration array doubles up to this many values (256 KiB), then grows
 * by a quarter: the room doubling leaves unused, up to half of a big
 * name's array, counts against the budget.  A generated 6.5 M-kernel
 * kernel_details.csv of 18 names needed 29.5 MB of doubled arrays, 27.9 MB
 * so, and keeps its durations under 28 MB.  Big arrays are mmapped blocks
 * that realloc moves without a copy, so the more frequent growth is cheap.
 */
#define DUR_GROW_SLOW ((size_t)1 << 16)

struct profdb__name_stats {
	struct name_group *g;      /* owned */
	size_t ng, capg;
	uint32_t *map;             /* name_id hash -> group index + 1; owned */
	size_t nmap;               /* power of two */
	size_t capvalues;          /* durations the arrays have room for */
	size_t max_values;         /* ... at most (name_stats_values) */
	size_t namebytes;          /* the groups' and the map's, as counted above */
	size_t durbytes;           /* the duration arrays', as counted above */
	size_t max_bytes;          /* ... at most (name_stats_bytes) */
	int over;                  /* durations dropped: read back by scans */
	int wide;                  /* a kernel's duration does not fit 4 bytes: scans read doubles */
	size_t max_names;          /* groups kept at most (name_stats_names) */
	int spilled;               /* groups dropped: both tables by ordered scans */
	int64_t lo, hi;            /* kernel rowids of the run */
};

struct profdb__name_stats *profdb__name_stats_new(const struct profdb_limits *l)
{
	struct profdb__name_stats *ns = calloc(1, sizeof *ns);

	if (!ns)
		return NULL;
	ns->max_values = (size_t)l->name_stats_values;
	ns->max_names = (size_t)l->name_stats_names;
	ns->max_bytes = (size_t)l->name_stats_bytes;
	return ns;
}

static void drop_durations(struct profdb__name_stats *ns)
{
	for (size_t i = 0; i < ns->ng; i++) {
		free(ns->g[i].dur);
		ns->g[i].dur = NULL;
		ns->g[i].ndur = ns->g[i].capdur = 0;
	}
	ns->capvalues = 0;
	ns->durbytes = 0;
	ns->over = 1;
}

static void free_values(struct profdb__name_stats *ns)
{
	for (size_t i = 0; i < ns->ng; i++) {
		free(ns->g[i].v);
		ns->g[i].v = NULL;
		ns->g[i].nv = 0;
	}
}

void profdb__name_stats_free(struct profdb__name_stats *ns)
{
	if (!ns)
		return;
	drop_durations(ns);
	free_values(ns);
	free(ns->g);
	free(ns->map);
	free(ns);
}

/* Too many names: drop every group (the commit scans the rows instead). */
static void spill(struct profdb__name_stats *ns)
{
	drop_durations(ns);
	free(ns->g);
	free(ns->map);
	ns->g = NULL;
	ns->map = NULL;
	ns->ng = ns->capg = ns->nmap = 0;
	ns->namebytes = 0;
	ns->spilled = 1;
}

/*
 * Whether the names' state may grow by add bytes.  Past the budget the
 * durations go first (the commit reads them back from the rows), then, if
 * the names alone pass it, the names (spill: the commit's ordered scans).
 * Returns 0 when the bytes fit, 1 when the names were dropped.
 */
static int names_room(struct profdb__name_stats *ns, size_t add)
{
	if (ns->namebytes + ns->durbytes + add <= ns->max_bytes)
		return 0;
	if (!ns->over)
		drop_durations(ns);
	if (ns->namebytes + add <= ns->max_bytes)
		return 0;
	spill(ns);
	return 1;
}

static size_t slot_of(int64_t name_id, size_t nmap)
{
	return (size_t)(((uint64_t)name_id * 0x9E3779B97F4A7C15ull) >> 20) & (nmap - 1);
}

/* Returns 0, -1 when out of memory, 1 when the names were dropped. */
static int grow_map(struct profdb__name_stats *ns)
{
	size_t n = ns->nmap ? ns->nmap * 2 : 256;
	uint32_t *m;
	if (names_room(ns, n * sizeof *m)) /* the old map is held while this one fills */
		return 1;
	if (!(m = calloc(n, sizeof *m)))
		return -1;
	for (size_t i = 0; i < ns->ng; i++) {
		size_t j = slot_of(ns->g[i].name_id, n);
		while (m[j])
			j = (j + 1) & (n - 1);
		m[j] = (uint32_t)(i + 1);
	}
	free(ns->map);
	ns->namebytes += (n - ns->nmap) * sizeof *m;
	ns->map = m;
	ns->nmap = n;
	return 0;
}

/* Room for one more group: 0, -1 when out of memory, 1 when the names
 * were dropped. */
static int grow_groups(struct profdb__name_stats *ns)
{
	size_t cap = ns->capg ? ns->capg * 2 : 64;
	struct name_group *g;
	int r;
	if ((ns->ng + 1) * 2 > ns->nmap && (r = grow_map(ns)) != 0)
		return r;
	if (ns->ng < ns->capg)
		return 0;
	if (names_room(ns, cap * sizeof *g)) /* realloc may hold both arrays */
		return 1;
	if (!(g = realloc(ns->g, cap * sizeof *g)))
		return -1;
	ns->namebytes += (cap - ns->capg) * sizeof *g;
	ns->g = g;
	ns->capg = cap;
	return 0;
}

static struct name_group *group_find(struct profdb__name_stats *ns, int64_t name_id)
{
	for (size_t j = slot_of(name_id, ns->nmap); ns->map[j]; j = (j + 1) & (ns->nmap - 1))
		if (ns->g[ns->map[j] - 1].name_id == name_id)
			return &ns->g[ns->map[j] - 1];
	return NULL;
}

/* name_id's group, added when new; NULL when out of memory or when the
 * names were dropped (ns->spilled). */
static struct name_group *group_of(struct profdb__name_stats *ns, int64_t name_id)
{
	struct name_group *g = ns->nmap ? group_find(ns, name_id) : NULL;
	size_t j;

	if (g)
		return g;
	/* the map grows only for a new name: at the bound, 2^17 names keep a
	 * map of 2^18 slots (1 MB), not one doubled for a name never added */
	if (ns->ng >= ns->max_names || ns->ng >= UINT32_MAX - 1) {
		spill(ns);
		return NULL;
	}
	if (grow_groups(ns) != 0)
		return NULL;
	for (j = slot_of(name_id, ns->nmap); ns->map[j]; j = (j + 1) & (ns->nmap - 1))
		;
	memset(&ns->g[ns->ng], 0, sizeof ns->g[ns->ng]);
	ns->g[ns->ng].name_id = name_id;
	ns->map[j] = (uint32_t)++ns->ng;
	return &ns->g[ns->ng - 1];
}

/* One kernel into g's figures (all but the durations). */
static void group_count(struct name_group *g, int kind, int64_t dur_ns)
{
	if (g->calls == 0 || dur_ns < g->min)
		g->min = dur_ns;
	if (g->calls == 0 || dur_ns > g->max)
		g->max = dur_ns;
	g->calls++;
	g->total += dur_ns;
	g->kinds |= 1u << (kind & 31);
	profdb__moments_add(&g->mom, (double)dur_ns);
}

int profdb__name_stats_add(struct profdb__name_stats *ns, int64_t kernel_id, int64_t name_id, int kind,
                           int64_t dur_ns)
{
	struct name_group *g;

	if (ns->lo == 0 || kernel_id < ns->lo)
		ns->lo = kernel_id;
	if (kernel_id > ns->hi)
		ns->hi = kernel_id;
	if (ns->spilled)
		return 0;
	g = group_of(ns, name_id);
	if (!g)
		return ns->spilled ? 0 : -1;
	group_count(g, kind, dur_ns);
	if (dur_ns < 0 || dur_ns > (int64_t)UINT32_MAX) {
		/* a kernel over 4.29 s is rare enough to send the run to the
		 * scans, which then read doubles */
		ns->wide = 1;
		if (!ns->over)
			drop_durations(ns);
		return 0;
	}
	if (ns->over)
		return 0;
	if (g->ndur == g->capdur) {
		/* the budget counts room, not values: a growing array holds more
		 * than it uses, and that is what the process holds */
		/* 4 to start: most of a run's names are called a few times, and
		 * a run of 1 M names held 80 MB of arrays of 16 */
		size_t cap = g->capdur == 0 ? 4 : g->capdur < DUR_GROW_SLOW ? (size_t)g->capdur * 2
		                                 : (size_t)g->capdur + g->capdur / 4;
		size_t add = (cap - g->capdur) * sizeof *g->dur + (g->capdur ? 0 : DUR_BLOCK_EXTRA);
		uint32_t *d;
		if (ns->capvalues - g->capdur + cap > ns->max_values ||
		    ns->namebytes + ns->durbytes + add > ns->max_bytes) {
			drop_durations(ns);
			return 0;
		}
		d = realloc(g->dur, cap * sizeof *d);
		if (!d) {
			/* not fatal: the scans at commit need less memory */
			drop_durations(ns);
			return 0;
		}
		ns->capvalues += cap - g->capdur;
		ns->durbytes += add;
		g->dur = d;
		g->capdur = (uint32_t)cap;
	}
	g->dur[g->ndur++] = (uint32_t)dur_ns;
	return 0;
}

int profdb__name_stats_path(const struct profdb__name_stats *ns, size_t *bytes)
{
	*bytes = ns->namebytes + ns->durbytes;
	return ns->spilled ? 2 : ns->over ? 1 : 0;
}

static const char insert_sql[] =
    "INSERT INTO kernel_name_stat(run_id, name_id, kinds, calls, total_ns, min_ns, max_ns,"
    " avg_ns, median_ns, stddev_ns, p90_ns, p99_ns)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";

/* One kernel_name_stat row: g's figures, percentiles over sorted v[0..n). */
static int put_row(sqlite3_stmt *q, int64_t run_id, const struct name_group *g, const double *v, size_t n)
{
	double sd = profdb__moments_stddev(&g->mom);
	int rc;
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_int64(q, 2, g->name_id);
	sqlite3_bind_int64(q, 3, g->kinds);
	sqlite3_bind_int64(q, 4, g->calls);
	sqlite3_bind_int64(q, 5, g->total);
	sqlite3_bind_int64(q, 6, g->min);
	sqlite3_bind_int64(q, 7, g->max);
	sqlite3_bind_double(q, 8, (double)g->total / (double)g->calls);
	sqlite3_bind_double(q, 9, profdb__percentile_sorted(v, n, 50));
	if (sd < 0)
		sqlite3_bind_null(q, 10);
	else
		sqlite3_bind_double(q, 10, sd);
	sqlite3_bind_double(q, 11, profdb__percentile_sorted(v, n, 90));
	sqlite3_bind_double(q, 12, profdb__percentile_sorted(v, n, 99));
	rc = sqlite3_step(q);
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/*
 * Sort a[0..n) ascending: a least-significant-digit radix sort, three
 * passes of 11 bits through tmp (room for n), each pass skipped when every
 * value has the same digit (short kernels: the top pass always).  The
 * commit sorts every name's durations, so a comparison sort there would
 * cost more than the rest of the commit; this is linear.  Short arrays by
 * insertion.
 */
#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)
static void sort_u32(uint32_t *a, size_t n, uint32_t *tmp)
{
	uint32_t *src = a, *dst = tmp, *t;
	if (n < 64) {
		for (size_t i = 1; i < n; i++) {
			uint32_t x = a[i];
			size_t j = i;
			for (; j > 0 && a[j - 1] > x; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	for (unsigned shift = 0; shift < 32; shift += RADIX_BITS) {
		size_t c[RADIX_SIZE] = { 0 }, sum = 0;
		for (size_t i = 0; i < n; i++)
			c[(src[i] >> shift) & (RADIX_SIZE - 1)]++;
		if (c[(src[0] >> shift) & (RADIX_SIZE - 1)] == n)
			continue; /* one digit: the order stands */
		for (size_t d = 0; d < RADIX_SIZE; d++) {
			size_t k = c[d];
			c[d] = sum;
			sum += k;
		}
		for (size_t i = 0; i < n; i++) /* stable: equal digits keep their order */
			dst[c[(src[i] >> shift) & (RADIX_SIZE - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* Every name's durations were kept: sort each and write its row. */
static int write_kept(struct profdb__name_stats *ns, sqlite3_stmt *q, int64_t run_id)
{
	double *v = NULL;
	size_t capv = 0;
	int rc = SQLITE_OK;
	for (size_t i = 0; i < ns->ng && rc == SQLITE_OK; i++) {
		struct name_group *g = &ns->g[i];

		if (g->ndur > capv) {
			double *nv = realloc(v, g->ndur * sizeof *v);
			if (!nv) {
				rc = SQLITE_NOMEM;
				break;
			}
			v = nv;
			capv = g->ndur;
		}
		/* sorted as integers (v's bytes as the radix sort's room: 8 per
		 * value, it needs 4), then the doubles stats.c interpolates on */
		sort_u32(g->dur, g->ndur, (uint32_t *)v);
		for (size_t j = 0; j < g->ndur; j++)
			v[j] = (double)g->dur[j];
		rc = put_row(q, run_id, g, v, g->ndur);
		free(g->dur); /* done with it: memory back before the next sort */
		g->dur = NULL;
		g->ndur = g->capdur = 0;
	}
	free(v);
	return rc;
}

/*
 * Bytes one scan may hold: what the budget leaves beside the names, which
 * stay held (and no more than name_stats_values as 4-byte values
 * and their sort's room took before, 4 bytes a value in all).
 */
static size_t scan_room(const struct profdb__name_stats *ns)
{
	size_t room = ns->max_bytes > ns->namebytes ? ns->max_bytes - ns->namebytes : 0;
	if (room > ns->max_values * 4)
		room = ns->max_values * 4;
	return room;
}

/* The block a name's read-back durations take in a scan: 4 bytes a value,
 * or 8 (doubles) when some kernel did not fit 4 bytes. */
static size_t value_block(const struct name_group *g, int wide)
{
	return (size_t)g->calls * (wide ? sizeof(double) : sizeof(uint32_t)) + DUR_BLOCK_EXTRA;
}

/*
 * The batch from first: names first..return-1, their blocks plus the
 * largest one's doubles (the radix sort's room, then the values
 * put_row reads; qsort's copy when wide) within room.  One name at least.
 */
static size_t scan_batch(const struct profdb__name_stats *ns, size_t first, size_t room, int wide,
                         size_t *maxn)
{
	size_t last = first, used = 0;
	*maxn = 0;
	do {
		used += value_block(&ns->g[last], wide);
		if ((size_t)ns->g[last].calls > *maxn)
			*maxn = (size_t)ns->g[last].calls;
		last++;
	} while (last < ns->ng &&
	         used + value_block(&ns->g[last], wide) +
	                 ((size_t)ns->g[last].calls > *maxn ? (size_t)ns->g[last].calls : *maxn) * sizeof(double) <=
	             room);
	return last;
}

/* Sort the batch's names' values and write their rows; buf has room for
 * maxn doubles. */
static int scan_write(struct profdb__name_stats *ns, sqlite3_stmt *ins, int64_t run_id, size_t first,
                      size_t last, int wide, double *buf)
{
	int rc = SQLITE_OK;
	for (size_t i = first; i < last && rc == SQLITE_OK; i++) {
		struct name_group *g = &ns->g[i];
		if (g->nv != (size_t)g->calls)
			return SQLITE_CORRUPT; /* the rows are not the ones counted */
		if (wide) {
			profdb__sort_doubles(g->v, g->nv);
			rc = put_row(ins, run_id, g, g->v, g->nv);
		} else {
			/* as write_kept: sorted as integers, then as doubles */
			sort_u32(g->dur, g->nv, (uint32_t *)buf);
			for (size_t j = 0; j < g->nv; j++)
				buf[j] = (double)g->dur[j];
			rc = put_row(ins, run_id, g, buf, g->nv);
		}
		free(g->v);
		g->v = NULL;
		g->nv = 0;
	}
	return rc;
}

/*
 * The durations did not fit: read them back from the run's rows (one
 * rowid range, in order), a batch of names at a time (scan_batch; a name
 * bigger than that gets a scan of its own), and write each batch's rows.
 * As 4-byte values sorted by radix unless some kernel did not fit 4 bytes:
 * the 131 072 x 62 case took 9 scans as doubles, 3 so.  Exact, bounded by
 * the budget, and without the sort of every row an SQL GROUP BY would make
 * (it held a 10 M-kernel run in 150 MB).
 */
static int write_scanned(struct profdb__name_stats *ns, sqlite3 *db, sqlite3_stmt *ins, int64_t run_id)
{
	size_t room = scan_room(ns), first = 0, maxn;
	int wide = ns->wide, rc;
	double *buf = NULL;
	sqlite3_stmt *q = NULL;
	rc = sqlite3_prepare_v2(db, "SELECT name_id, dur_ns FROM kernel"
	                        " WHERE id BETWEEN ?1 AND ?2 AND run_id = ?3", -1, &q, NULL);
	while (rc == SQLITE_OK && first < ns->ng) {
		size_t last = scan_batch(ns, first, room, wide, &maxn);
		for (size_t i = first; i < last && rc == SQLITE_OK; i++)
			if (!(ns->g[i].v = malloc(value_block(&ns->g[i], wide) - DUR_BLOCK_EXTRA + 1)))
				rc = SQLITE_NOMEM;
		if (rc == SQLITE_OK && !wide) {
			free(buf);
			if (!(buf = malloc(maxn * sizeof *buf + 1)))
				rc = SQLITE_NOMEM;
		}
		sqlite3_bind_int64(q, 1, ns->lo);
		sqlite3_bind_int64(q, 2, ns->hi);
		sqlite3_bind_int64(q, 3, run_id);
		while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
			struct name_group *g = group_find(ns, sqlite3_column_int64(q, 0));
			rc = SQLITE_OK;
			if (!g || !g->v || g->nv >= (size_t)g->calls)
				continue;
			if (wide)
				g->v[g->nv++] = (double)sqlite3_column_int64(q, 1);
			else
				g->dur[g->nv++] = (uint32_t)sqlite3_column_int64(q, 1);
		}
		sqlite3_reset(q);
		if (rc == SQLITE_DONE)
			rc = scan_write(ns, ins, run_id, first, last, wide, buf);
		first = last;
	}
	free(buf);
	free_values(ns);
	sqlite3_finalize(q);
	return rc;
}

size_t *profdb__name_stats_cell(struct profdb__name_stats *ns, int64_t name_id)
{
	struct name_group *g = ns->map ? group_find(ns, name_id) : NULL;
	return g ? &g->cell : NULL;
}

/*
 * Spilled, kernel_name_stat: the run's rows sorted by name (SQLite's
 * sorter, which spills to temporary files past its cache), each name's
 * rows in id order (the order name_stats_add saw them, so the standard
 * deviation's sums come out the same), one name's durations held at a time.
 */
static int write_streamed(struct profdb__name_stats *ns, sqlite3 *db, sqlite3_stmt *ins, int64_t run_id)
{
	struct name_group g = { 0 };
	double *v = NULL;
	size_t cap = 0;
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT name_id, kind, dur_ns FROM kernel"
	                            " WHERE run_id = ?1 AND id BETWEEN ?2 AND ?3 ORDER BY name_id, id", -1, &q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_int64(q, 2, ns->lo);
	sqlite3_bind_int64(q, 3, ns->hi);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t name_id = sqlite3_column_int64(q, 0), dur = sqlite3_column_int64(q, 2);
		if (g.calls && name_id != g.name_id) {
			profdb__sort_doubles(v, (size_t)g.calls);
			if ((rc = put_row(ins, run_id, &g, v, (size_t)g.calls)) != SQLITE_OK)
				goto out;
			memset(&g, 0, sizeof g);
		}
		if ((size_t)g.calls == cap) {
			size_t nc = cap ? cap * 2 : 64;
			double *t = realloc(v, nc * sizeof *t);
			if (!t) {
				rc = SQLITE_NOMEM;
				goto out;
			}
			v = t;
			cap = nc;
		}
		g.name_id = name_id;
		v[g.calls] = (double)dur;
		group_count(&g, sqlite3_column_int(q, 1), dur);
	}
	if (rc != SQLITE_DONE)
		goto out;
	rc = SQLITE_OK;
	if (g.calls) {
		profdb__sort_doubles(v, (size_t)g.calls);
		rc = put_row(ins, run_id, &g, v, (size_t)g.calls);
	}
out:
	free(v);
	sqlite3_finalize(q);
	return rc;
}

/* The spilled path: both tables by SQL sorts, in a smaller cache (the
 * ingest's comes back after; pages spilled meanwhile are read again). */
static int write_spilled(struct profdb__name_stats *ns, sqlite3 *db, sqlite3_stmt *q, int64_t run_id)
{
	int64_t was = profdb__store_cache_size(db);
	int rc;
	profdb__store_set_cache_size(db, -SPILL_CACHE_KIB);
	rc = write_streamed(ns, db, q, run_id);
	if (rc == SQLITE_OK)
		rc = profdb__step_stats_write(ns, NULL, db, run_id, 1);
	profdb__store_set_cache_size(db, was);
	return rc;
}

int profdb__name_stats_write(struct profdb__name_stats *ns, struct profdb__step_sums *sums, sqlite3 *db,
                             int64_t run_id)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(db, insert_sql, -1, &q, NULL);

	if (rc != SQLITE_OK)
		return rc;
	if (ns->spilled) {
		rc = write_spilled(ns, db, q, run_id);
		sqlite3_finalize(q);
		q = NULL;
	} else {
		rc = ns->over ? write_scanned(ns, db, q, run_id) : write_kept(ns, q, run_id);
		sqlite3_finalize(q);
		q = NULL;
		if (rc == SQLITE_OK)
			rc = profdb__step_stats_write(ns, sums, db, run_id, 0);
	}
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_prepare_v2(db, "UPDATE run SET name_stats = 1 WHERE id = ?1", -1, &q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(q, 1, run_id);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
