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
 * At commit it also writes kernel_step_stat (per rank, step, name and kind
 * totals), which `profdb diff` samples instead of every kernel row.
 */
#include <stdlib.h>
#include <string.h>

#include "name_stats.h"
#include "stats.h"
#include "banned.h"

struct name_group {
	int64_t name_id;
	unsigned kinds;            /* bit (1 << kind) per kind seen */
	int64_t calls, total, min, max;
	struct profdb_moments mom; /* in arrival order, as stddev() sees rows */
	uint32_t *dur;             /* owned; NULL once over the budget */
	size_t ndur, capdur;
};

struct profdb_name_stats {
	struct name_group *g;      /* owned */
	size_t ng, capg;
	size_t *map;               /* name_id hash -> group index + 1; owned */
	size_t nmap;               /* power of two */
	size_t nvalues, max_values;
	int over;                  /* durations dropped: percentiles by SQL */
};

struct profdb_name_stats *profdb__name_stats_new(void)
{
	struct profdb_name_stats *ns = calloc(1, sizeof *ns);
	const char *env = getenv("PROFDB_NAME_STATS_VALUES");

	if (!ns)
		return NULL;
	ns->max_values = PROFDB_NAME_STATS_VALUES;
	if (env && *env) {
		unsigned long long v = strtoull(env, NULL, 10);
		if (v < ns->max_values)
			ns->max_values = (size_t)v;
	}
	return ns;
}

static void drop_durations(struct profdb_name_stats *ns)
{
	for (size_t i = 0; i < ns->ng; i++) {
		free(ns->g[i].dur);
		ns->g[i].dur = NULL;
		ns->g[i].ndur = ns->g[i].capdur = 0;
	}
	ns->over = 1;
}

void profdb__name_stats_free(struct profdb_name_stats *ns)
{
	if (!ns)
		return;
	drop_durations(ns);
	free(ns->g);
	free(ns->map);
	free(ns);
}

static size_t slot_of(int64_t name_id, size_t nmap)
{
	return (size_t)(((uint64_t)name_id * 0x9E3779B97F4A7C15ull) >> 20) & (nmap - 1);
}

static int grow_map(struct profdb_name_stats *ns)
{
	size_t n = ns->nmap ? ns->nmap * 2 : 256;
	size_t *m = calloc(n, sizeof *m);
	if (!m)
		return -1;
	for (size_t i = 0; i < ns->ng; i++) {
		size_t j = slot_of(ns->g[i].name_id, n);
		while (m[j])
			j = (j + 1) & (n - 1);
		m[j] = i + 1;
	}
	free(ns->map);
	ns->map = m;
	ns->nmap = n;
	return 0;
}

static struct name_group *group_of(struct profdb_name_stats *ns, int64_t name_id)
{
	size_t j;

	if ((ns->ng + 1) * 2 > ns->nmap && grow_map(ns) != 0)
		return NULL;
	for (j = slot_of(name_id, ns->nmap); ns->map[j]; j = (j + 1) & (ns->nmap - 1))
		if (ns->g[ns->map[j] - 1].name_id == name_id)
			return &ns->g[ns->map[j] - 1];
	if (ns->ng == ns->capg) {
		size_t cap = ns->capg ? ns->capg * 2 : 64;
		struct name_group *g = realloc(ns->g, cap * sizeof *g);
		if (!g)
			return NULL;
		ns->g = g;
		ns->capg = cap;
	}
	memset(&ns->g[ns->ng], 0, sizeof ns->g[ns->ng]);
	ns->g[ns->ng].name_id = name_id;
	ns->map[j] = ++ns->ng;
	return &ns->g[ns->ng - 1];
}

int profdb__name_stats_add(struct profdb_name_stats *ns, int64_t name_id, int kind, int64_t dur_ns)
{
	struct name_group *g = group_of(ns, name_id);

	if (!g)
		return -1;
	if (g->calls == 0 || dur_ns < g->min)
		g->min = dur_ns;
	if (g->calls == 0 || dur_ns > g->max)
		g->max = dur_ns;
	g->calls++;
	g->total += dur_ns;
	g->kinds |= 1u << (kind & 31);
	profdb__moments_add(&g->mom, (double)dur_ns);
	if (ns->over)
		return 0;
	if (ns->nvalues >= ns->max_values || dur_ns < 0 || dur_ns > (int64_t)UINT32_MAX) {
		/* a kernel over 4.29 s is rare enough to send the run to SQL */
		drop_durations(ns);
		return 0;
	}
	if (g->ndur == g->capdur) {
		size_t cap = g->capdur ? g->capdur * 2 : 16;
		uint32_t *d = realloc(g->dur, cap * sizeof *d);
		if (!d) {
			/* not fatal: the SQL pass at commit needs no memory of ours */
			drop_durations(ns);
			return 0;
		}
		g->dur = d;
		g->capdur = cap;
	}
	g->dur[g->ndur++] = (uint32_t)dur_ns;
	ns->nvalues++;
	return 0;
}

/*
 * The statistics by SQL over the run's rows, with profdb's aggregates.
 * SQLite sorts the rows by name in memory up to its cache size before
 * spilling to a temporary file: a small cache keeps this pass in bounded
 * memory (the store restores the connection's cache size when it is done).
 */
static int write_by_sql(sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_exec(db, "PRAGMA cache_size = -8192", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_prepare_v2(db,
	    "INSERT INTO kernel_name_stat(run_id, name_id, kinds, calls, total_ns, min_ns, max_ns,"
	    " avg_ns, median_ns, stddev_ns, p90_ns, p99_ns)"
	    " SELECT ?1, name_id, sum(DISTINCT 1 << kind), count(*), sum(dur_ns), min(dur_ns),"
	    " max(dur_ns), avg(dur_ns), median(dur_ns), stddev(dur_ns), percentile(dur_ns, 90),"
	    " percentile(dur_ns, 99) FROM kernel WHERE run_id = ?1 GROUP BY name_id", -1, &q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(q, 1, run_id);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int write_groups(struct profdb_name_stats *ns, sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *q = NULL;
	double *v = NULL;
	size_t capv = 0;
	int rc = sqlite3_prepare_v2(db,
	    "INSERT INTO kernel_name_stat(run_id, name_id, kinds, calls, total_ns, min_ns, max_ns,"
	    " avg_ns, median_ns, stddev_ns, p90_ns, p99_ns)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)", -1, &q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	for (size_t i = 0; i < ns->ng && rc == SQLITE_OK; i++) {
		struct name_group *g = &ns->g[i];
		double sd = profdb__moments_stddev(&g->mom);

		/* sorted as integers, then the doubles stats.c interpolates on */
		qsort(g->dur, g->ndur, sizeof *g->dur, cmp_u32);
		if (g->ndur > capv) {
			double *nv = realloc(v, g->ndur * sizeof *v);
			if (!nv) {
				rc = SQLITE_NOMEM;
				break;
			}
			v = nv;
			capv = g->ndur;
		}
		for (size_t j = 0; j < g->ndur; j++)
			v[j] = (double)g->dur[j];
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_int64(q, 2, g->name_id);
		sqlite3_bind_int64(q, 3, g->kinds);
		sqlite3_bind_int64(q, 4, g->calls);
		sqlite3_bind_int64(q, 5, g->total);
		sqlite3_bind_int64(q, 6, g->min);
		sqlite3_bind_int64(q, 7, g->max);
		sqlite3_bind_double(q, 8, (double)g->total / (double)g->calls);
		sqlite3_bind_double(q, 9, profdb__percentile_sorted(v, g->ndur, 50));
		if (sd < 0)
			sqlite3_bind_null(q, 10);
		else
			sqlite3_bind_double(q, 10, sd);
		sqlite3_bind_double(q, 11, profdb__percentile_sorted(v, g->ndur, 90));
		sqlite3_bind_double(q, 12, profdb__percentile_sorted(v, g->ndur, 99));
		rc = sqlite3_step(q);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		sqlite3_reset(q);
		free(g->dur); /* done with it: memory back before the next sort */
		g->dur = NULL;
		g->ndur = g->capdur = 0;
	}
	free(v);
	sqlite3_finalize(q);
	return rc;
}

int profdb__name_stats_write(struct profdb_name_stats *ns, sqlite3 *db, int64_t run_id,
                             int64_t kernel_rows)
{
	int64_t counted = 0;
	sqlite3_stmt *q = NULL;
	int rc;

	for (size_t i = 0; i < ns->ng; i++)
		counted += ns->g[i].calls;
	if (ns->over || counted != kernel_rows)
		rc = write_by_sql(db, run_id);
	else
		rc = write_groups(ns, db, run_id);
	if (rc != SQLITE_OK)
		return rc;
	/* per-step totals: steps are final only now (commit places Kineto
	 * kernels by their launches), so one GROUP BY over the run's rows */
	rc = sqlite3_prepare_v2(db, "INSERT INTO kernel_step_stat(run_id, rank, step, name_id, base_id,"
	                        " kind, calls, total_ns) SELECT ?1, rank, step, name_id, min(base_id), kind,"
	                        " count(*), sum(dur_ns) FROM kernel WHERE run_id = ?1"
	                        " GROUP BY rank, step, name_id, kind", -1, &q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(q, 1, run_id);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return rc;
	rc = sqlite3_prepare_v2(db, "UPDATE run SET name_stats = 1 WHERE id = ?1", -1, &q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(q, 1, run_id);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
