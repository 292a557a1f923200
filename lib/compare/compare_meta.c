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
	"record_shapes", "profile_memory", "with_stack", "with_flops", "with_modules",
	"profiler_level", NULL
};

/*
 * Keys of an Ascend profiler_info config that say where and in which form
 * the results were written, not what was measured: a text and a db export
 * of one session differ only there (the input format warning covers it).
 */
static const char *const output_only[] = { "export_type", "on_trace_ready", NULL };

/*
 * One fact of a side: its label, a key within the label ("" when the label
 * has one value, like the rank count) and the value compared.  Shown as
 * "key=value", or the value alone.
 */
struct fact {
	int label;
	char *key;
	char *value;
};

struct facts {
	struct fact *f;
	size_t n, cap;
};

static int fact_add(struct facts *fs, int lab, const char *key, const char *value)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].label == lab && strcmp(fs->f[i].key, key) == 0 &&
		    strcmp(fs->f[i].value, value) == 0)
			return PROFDB_OK;
	if (fs->n == fs->cap) {
		struct fact *t = realloc(fs->f, (fs->cap = fs->cap ? fs->cap * 2 : 16) * sizeof *t);
		if (!t)
			return PROFDB_ERROR;
		fs->f = t;
	}
	fs->f[fs->n].label = lab;
	fs->f[fs->n].key = strdup(key);
	fs->f[fs->n].value = strdup(value);
	if (!fs->f[fs->n].key || !fs->f[fs->n].value) {
		free(fs->f[fs->n].key);
		free(fs->f[fs->n].value);
		return PROFDB_ERROR;
	}
	fs->n++;
	return PROFDB_OK;
}

static void facts_free(struct facts *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->f[i].key);
		free(fs->f[i].value);
	}
	free(fs->f);
}

/* deviceProperties: the device names with their counts ("8 x NVIDIA
 * A100-PG509-200").  Other properties are left out on purpose: the same
 * GPU model reports a different totalGlobalMem under another driver, which
 * is no other device.  Each name is counted in one pass against the names
 * already listed (a pairwise count took 154 s for 100 000 devices); past
 * SHOWN_MAX distinct names the 256-byte display is full anyway (", x" is 3
 * bytes), so later names are not listed. */
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
	return fact_add(fs, F_DEVICE, "", names[0] ? names : "(unnamed devices)");
}

static int is_output_only(const char *name)
{
	for (size_t i = 0; output_only[i]; i++)
		if (strcmp(name, output_only[i]) == 0)
			return 1;
	return 0;
}

/*
 * The leaves of an Ascend config object as facts "schedule.warmup=10",
 * "aic_metrics=ACL_AICORE_NONE": the common_config/experimental_config
 * level and the leading '_' of torch_npu's private names dropped, so that
 * "_profiler_level" is the same fact as the stored profiler_level key.
 */
static int config_leaves(struct facts *fs, const cJSON *node, const char *path)
{
	const cJSON *c;
	char key[160], *txt;
	int rc = PROFDB_OK;

	cJSON_ArrayForEach(c, node) {
		const char *name = c->string ? c->string : "";
		while (*name == '_')
			name++;
		if (is_output_only(name))
			continue;
		if (!*path && (strcmp(name, "common_config") == 0 || strcmp(name, "experimental_config") == 0))
			snprintf(key, sizeof key, "%s", "");
		else
			snprintf(key, sizeof key, "%s%s%s", path, *path ? "." : "", name);
		if (cJSON_IsObject(c)) {
			rc = config_leaves(fs, c, key);
		} else if (cJSON_IsString(c)) {
			rc = fact_add(fs, F_CONFIG, key, c->valuestring);
		} else {
			if (!(txt = cJSON_PrintUnformatted(c)))
				return PROFDB_ERROR;
			rc = fact_add(fs, F_CONFIG, key, txt);
			cJSON_free(txt);
		}
		if (rc != PROFDB_OK)
			return rc;
	}
	return PROFDB_OK;
}

/* profiler_info*.json of Ascend: config object and the version keys. */
static int profiler_info_facts(struct facts *fs, const char *value)
{
	cJSON *j = cJSON_Parse(value);
	const cJSON *cfg, *v;
	int rc = PROFDB_OK;
	if (!j)
		return PROFDB_OK;
	cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
	if (cJSON_IsObject(cfg))
		rc = config_leaves(fs, cfg, "");
	v = cJSON_GetObjectItemCaseSensitive(j, "torch_npu_version");
	if (rc == PROFDB_OK && cJSON_IsString(v))
		rc = fact_add(fs, F_VERSIONS, "torch_npu", v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(j, "cann_version");
	if (rc == PROFDB_OK && cJSON_IsString(v))
		rc = fact_add(fs, F_VERSIONS, "CANN", v->valuestring);
	cJSON_Delete(j);
	return rc;
}

static int meta_fact(struct facts *fs, const char *key, const char *value)
{
	char buf[64];
	if (strcmp(key, "deviceProperties") == 0)
		return device_fact(fs, value);
	if (strncmp(key, "profiler_info", 13) == 0)
		return profiler_info_facts(fs, value);
	snprintf(buf, sizeof buf, "%.60s", value);
	for (size_t i = 0; kineto_config[i]; i++)
		if (strcmp(key, kineto_config[i]) == 0)
			return fact_add(fs, F_CONFIG, key, buf);
	/* cuda_runtime_version, torch_version, cann_version ...; schemaVersion
	 * is the trace file's own format, not the software's */
	if (strstr(key, "version") && strcmp(key, "schemaVersion") != 0)
		return fact_add(fs, F_VERSIONS, key, buf);
	return PROFDB_OK;
}

static int run_facts(profdb *db, struct facts *fs, const struct profdb__cmp_run *r, int64_t rank)
{
	sqlite3_stmt *q = NULL;
	char buf[64];
	int rc = PROFDB_OK, src;

	snprintf(buf, sizeof buf, "%lld", (long long)r->ranks);
	if (fact_add(fs, F_RANKS, "", buf) != PROFDB_OK)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	snprintf(buf, sizeof buf, "%lld", (long long)r->repeats);
	if (fact_add(fs, F_REPEATS, "", buf) != PROFDB_OK ||
	    fact_add(fs, F_FORMAT, "", r->format) != PROFDB_OK)
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

/* Does side fs have fact f (label, key and value)? */
static int has_fact(const struct facts *fs, const struct fact *f)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].label == f->label && strcmp(fs->f[i].key, f->key) == 0 &&
		    strcmp(fs->f[i].value, f->value) == 0)
			return 1;
	return 0;
}

/* Is key of label lab among the facts one side has and the other lacks? */
static int key_differs(const struct facts fs[2], int lab, const char *key)
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < fs[s].n; i++)
			if (fs[s].f[i].label == lab && strcmp(fs[s].f[i].key, key) == 0 &&
			    !has_fact(&fs[1 - s], &fs[s].f[i]))
				return 1;
	return 0;
}

/* Join side fs's facts of label lab whose key differs between the sides
 * ("key=value; ..."), in sorted order; "(not recorded)" when it has none. */
static void join_differing(const struct facts fs[2], int side, int lab, char *out, size_t cap)
{
	const struct facts *f = &fs[side];
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < f->n && len < cap; i++) {
		const struct fact *x = &f->f[i];
		if (x->label != lab || !key_differs(fs, lab, x->key))
			continue;
		len += (size_t)snprintf(out + len, cap - len, "%s%s%s%s", len ? "; " : "", x->key,
		                        x->key[0] ? "=" : "", x->value);
	}
	if (!len)
		snprintf(out, cap, "(not recorded)");
}

static int cmp_fact(const void *a, const void *b)
{
	const struct fact *x = a, *y = b;
	int c = x->label - y->label;
	if (!c)
		c = strcmp(x->key, y->key);
	return c ? c : strcmp(x->value, y->value);
}

/*
 * Only a real difference warns: a label warns when a fact (key and value)
 * is on one side and not on the other, and the warning shows, per side,
 * just the keys that differ, so it never reads "X vs X".
 */
int profdb__compare_warnings(profdb *db, profdb_comparison *c, const struct profdb__cmp_run *base,
                             size_t nbase, const struct profdb__cmp_run *next, size_t nnext,
                             int64_t rank)
{
	struct facts fs[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	char da[512], dbuf[512];
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
		join_differing(fs, 0, lab, da, sizeof da);
		join_differing(fs, 1, lab, dbuf, sizeof dbuf);
		if (strcmp(da, dbuf) == 0)
			continue; /* no key differs (both "(not recorded)") */
		if (profdb__compare_warn(c, "base and new runs differ in %s: %.160s vs %.160s",
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
