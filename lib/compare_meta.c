/*
 * compare_meta.c - comparability of the two sides of a diff: a timing
 * difference means little when the runs ran on other devices, with another
 * rank count, profiler level or software version.  Collects such facts per
 * side from run and run_meta and turns each difference into a warning that
 * every report format shows.
 */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "compare.h"
#include "banned.h"

enum {
	F_DEVICE, F_RANKS, F_CONFIG, F_VERSIONS, F_REPEATS, F_FORMAT, F_COUNT
};
static const char *const label[F_COUNT] = {
	"device", "rank count", "profiler level/config", "torch/CANN/CUDA versions", "repeats",
	"input format"
};

/* Kineto top-level keys that describe how the profiler was configured. */
static const char *const kineto_config[] = {
	"record_shapes", "profile_memory", "with_stack", "with_flops", "with_modules", NULL
};

struct fact {
	int label;
	char *value;               /* compared */
	char *display;             /* shown */
};

struct facts {
	struct fact *f;
	size_t n, cap;
};

static int fact_add(struct facts *fs, int lab, const char *value, const char *display)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].label == lab && strcmp(fs->f[i].value, value) == 0)
			return PROFDB_OK;
	if (fs->n == fs->cap) {
		struct fact *t = realloc(fs->f, (fs->cap = fs->cap ? fs->cap * 2 : 16) * sizeof *t);
		if (!t)
			return PROFDB_ERROR;
		fs->f = t;
	}
	fs->f[fs->n].label = lab;
	fs->f[fs->n].value = strdup(value);
	fs->f[fs->n].display = strdup(display);
	if (!fs->f[fs->n].value || !fs->f[fs->n].display) {
		free(fs->f[fs->n].value);
		free(fs->f[fs->n].display);
		return PROFDB_ERROR;
	}
	fs->n++;
	return PROFDB_OK;
}

static void facts_free(struct facts *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->f[i].value);
		free(fs->f[i].display);
	}
	free(fs->f);
}

/* deviceProperties: compare the whole text, show the device names
 * ("8 x NVIDIA A100-PG509-200").  Each name is counted in one pass against
 * the names already listed (a pairwise count took 154 s for 100 000
 * devices); past SHOWN_MAX distinct names the 256-byte display is full
 * anyway (", x" is 3 bytes), so later names are not listed. */
#define SHOWN_MAX 128
static int device_fact(struct facts *fs, const char *value)
{
	char names[256] = "";
	size_t len = 0, nseen = 0, k;
	struct { const char *name; int n; } seen[SHOWN_MAX];
	cJSON *j = cJSON_Parse(value), *e;
	cJSON_ArrayForEach(e, j) {
		const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
		if (!cJSON_IsString(nm))
			continue;
		for (k = 0; k < nseen && strcmp(seen[k].name, nm->valuestring) != 0; k++)
			;
		if (k < nseen) {
			seen[k].n++;
		} else if (nseen < SHOWN_MAX) {
			seen[nseen].name = nm->valuestring;
			seen[nseen++].n = 1;
		}
	}
	for (k = 0; k < nseen && len < sizeof names; k++) {
		if (seen[k].n > 1)
			len += (size_t)snprintf(names + len, sizeof names - len, "%s%d x %s",
			                        len ? ", " : "", seen[k].n, seen[k].name);
		else
			len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
			                        len ? ", " : "", seen[k].name);
	}
	cJSON_Delete(j);
	return fact_add(fs, F_DEVICE, value, names[0] ? names : "(unnamed devices)");
}

/* profiler_info*.json of Ascend: config object and the version keys. */
static int profiler_info_facts(struct facts *fs, const char *value)
{
	cJSON *j = cJSON_Parse(value);
	const cJSON *cfg, *lvl, *v;
	char *txt = NULL, buf[128];
	int rc = PROFDB_OK;
	if (!j)
		return PROFDB_OK;
	cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
	if (cfg && (txt = cJSON_PrintUnformatted(cfg)) != NULL) {
		lvl = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(cfg, "experimental_config"), "_profiler_level");
		snprintf(buf, sizeof buf, "profiler config (level %s)",
		         cJSON_IsString(lvl) ? lvl->valuestring : "unknown");
		rc = fact_add(fs, F_CONFIG, txt, buf);
		cJSON_free(txt);
	}
	v = cJSON_GetObjectItemCaseSensitive(j, "torch_npu_version");
	if (rc == PROFDB_OK && cJSON_IsString(v)) {
		snprintf(buf, sizeof buf, "torch_npu %s", v->valuestring);
		rc = fact_add(fs, F_VERSIONS, buf, buf);
	}
	v = cJSON_GetObjectItemCaseSensitive(j, "cann_version");
	if (rc == PROFDB_OK && cJSON_IsString(v)) {
		snprintf(buf, sizeof buf, "CANN %s", v->valuestring);
		rc = fact_add(fs, F_VERSIONS, buf, buf);
	}
	cJSON_Delete(j);
	return rc;
}

static int meta_fact(struct facts *fs, const char *key, const char *value)
{
	char buf[160];
	if (strcmp(key, "deviceProperties") == 0)
		return device_fact(fs, value);
	if (strncmp(key, "profiler_info", 13) == 0)
		return profiler_info_facts(fs, value);
	for (size_t i = 0; kineto_config[i]; i++)
		if (strcmp(key, kineto_config[i]) == 0 || strcmp(key, "profiler_level") == 0) {
			snprintf(buf, sizeof buf, "%s=%.60s", key, value);
			return fact_add(fs, F_CONFIG, buf, buf);
		}
	/* cuda_runtime_version, torch_version, cann_version ...; schemaVersion
	 * is the trace file's own format, not the software's */
	if (strstr(key, "version") && strcmp(key, "schemaVersion") != 0) {
		snprintf(buf, sizeof buf, "%s=%.60s", key, value);
		return fact_add(fs, F_VERSIONS, buf, buf);
	}
	return PROFDB_OK;
}

static int run_facts(profdb *db, struct facts *fs, const struct profdb_cmp_run *r, int64_t rank)
{
	sqlite3_stmt *q = NULL;
	char buf[64];
	int rc = PROFDB_OK, src;

	snprintf(buf, sizeof buf, "%lld", (long long)r->ranks);
	if (fact_add(fs, F_RANKS, buf, buf) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	snprintf(buf, sizeof buf, "%lld", (long long)r->repeats);
	if (fact_add(fs, F_REPEATS, buf, buf) != PROFDB_OK ||
	    fact_add(fs, F_FORMAT, r->format, r->format) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	if (sqlite3_prepare_v2(db->sql, "SELECT key, value FROM run_meta WHERE run_id = ?1"
	    " AND value IS NOT NULL AND (?2 IS NULL OR rank IS NULL OR rank = ?2)"
	    " ORDER BY key, value", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot read run metadata");
	sqlite3_bind_int64(q, 1, r->id);
	if (rank != PROFDB_NULL)
		sqlite3_bind_int64(q, 2, rank);
	while ((src = sqlite3_step(q)) == SQLITE_ROW)
		if (meta_fact(fs, (const char *)sqlite3_column_text(q, 0),
		              (const char *)sqlite3_column_text(q, 1)) != PROFDB_OK) {
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
			break;
		}
	if (rc == PROFDB_OK && src != SQLITE_DONE)
		rc = profdb__sqlerror(db, "cannot read run metadata");
	sqlite3_finalize(q);
	return rc;
}

/* Join the values (or displays) of one label, in stored order. */
static void join(const struct facts *fs, int lab, int display, char *out, size_t cap)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < fs->n && len < cap; i++)
		if (fs->f[i].label == lab)
			len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? "; " : "",
			                        display ? fs->f[i].display : fs->f[i].value);
	if (!len)
		snprintf(out, cap, "(not recorded)");
}

static int cmp_fact(const void *a, const void *b)
{
	const struct fact *x = a, *y = b;
	return x->label != y->label ? x->label - y->label : strcmp(x->value, y->value);
}

int profdb__compare_warnings(profdb *db, profdb_comparison *c, const struct profdb_cmp_run *base,
                             size_t nbase, const struct profdb_cmp_run *next, size_t nnext,
                             int64_t rank)
{
	struct facts fs[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	char a[8192], b[8192]; /* longer values compare by their first 8 KiB */
	char da[256], dbuf[256];
	int rc = PROFDB_OK;

	for (size_t i = 0; i < nbase && rc == PROFDB_OK; i++)
		rc = run_facts(db, &fs[0], &base[i], rank);
	for (size_t i = 0; i < nnext && rc == PROFDB_OK; i++)
		rc = run_facts(db, &fs[1], &next[i], rank);
	if (rc != PROFDB_OK)
		goto out;
	/* order-independent: the same set of values on both sides is no difference */
	qsort(fs[0].f, fs[0].n, sizeof *fs[0].f, cmp_fact);
	qsort(fs[1].f, fs[1].n, sizeof *fs[1].f, cmp_fact);
	for (int lab = 0; lab < F_COUNT; lab++) {
		join(&fs[0], lab, 0, a, sizeof a);
		join(&fs[1], lab, 0, b, sizeof b);
		if (strcmp(a, b) == 0)
			continue;
		join(&fs[0], lab, 1, da, sizeof da);
		join(&fs[1], lab, 1, dbuf, sizeof dbuf);
		if (profdb__compare_warn(c, "base and new runs differ in %s: %.100s vs %.100s",
		                         label[lab], da, dbuf) != PROFDB_OK) {
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
			goto out;
		}
	}
out:
	facts_free(&fs[0]);
	facts_free(&fs[1]);
	return rc;
}
