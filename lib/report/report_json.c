/*
 * report_json.c - a comparison as one JSON document following
 * schemas/diff.schema.json: the inputs and settings, warnings, verdict
 * counts, whole-run lines and kernel lines.  Times are microseconds;
 * values that do not exist (no base, no test) are null, never NaN.
 * 'profdb diff --format json' and 'profdb report --format json' both print
 * this document.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "compare/compare.h"
#include "util/utf8.h"
#include "banned.h"

static void add_num(cJSON *o, const char *k, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, v);
}

static cJSON *line_json(const struct profdb__cmp_line *l)
{
	cJSON *o = cJSON_CreateObject();
	double s = l->is_count ? 1 : 1000; /* ns -> us */
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "key", l->key);
	cJSON_AddStringToObject(o, "verdict", profdb__verdict_name(l->verdict));
	cJSON_AddStringToObject(o, "unit", l->is_count ? "count" : "us");
	add_num(o, "base", l->base / s);
	add_num(o, "new", l->next / s);
	add_num(o, "delta", l->delta / s);
	add_num(o, "change_pct", 100 * l->rel);
	add_num(o, "base_calls", l->base_calls);
	add_num(o, "new_calls", l->next_calls);
	add_num(o, "p_value", l->p);
	add_num(o, "ci_low_pct", 100 * l->ci_lo);
	add_num(o, "ci_high_pct", 100 * l->ci_hi);
	cJSON_AddNumberToObject(o, "n_base", (double)l->nbase);
	cJSON_AddNumberToObject(o, "n_new", (double)l->nnext);
	cJSON_AddStringToObject(o, "why", l->why);
	return o;
}

static cJSON *names_json(char *const *names, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(names[i]));
	return a;
}

/*
 * The first n kernel lines as the items of the "kernels" array, one at a
 * time, so 1 M lines are not a tree of 1 M objects: each printed alone
 * and indented two levels deeper (two tabs after each of cJSON's line
 * breaks; strings escape theirs), joined by ", " as cJSON joins them.
 */
static int kernel_items(FILE *out, const profdb_comparison *c, size_t n)
{
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l;
	int rc = PROFDB_OK;
	profdb__cmp_walk_start(&w, c, 0);
	for (size_t i = 0; i < n && rc == PROFDB_OK && (l = profdb__cmp_walk_next(&w)) != NULL; i++) {
		cJSON *o = line_json(l);
		char *t = o ? cJSON_Print(o) : NULL, *tmp;
		const char *safe;
		cJSON_Delete(o);
		if (!t) {
			rc = PROFDB_ERROR;
			break;
		}
		if (i)
			fputs(", ", out);
		safe = profdb__utf8_safe(t, &tmp);
		for (const char *p = safe, *nl; *p; p = nl + 1) {
			if (!(nl = strchr(p, '\n'))) {
				fputs(p, out);
				break;
			}
			fwrite(p, 1, (size_t)(nl - p) + 1, out);
			fputs("\t\t", out);
		}
		free(tmp);
		cJSON_free(t);
	}
	return profdb__cmp_walk_end(&w) != PROFDB_OK ? PROFDB_ERROR : rc;
}

int profdb__report_json(const profdb_comparison *c, FILE *out)
{
	static const enum profdb_verdict all[] = {
		PROFDB_VERDICT_REGRESSION, PROFDB_VERDICT_IMPROVEMENT, PROFDB_VERDICT_UNCHANGED,
		PROFDB_VERDICT_INCONCLUSIVE, PROFDB_VERDICT_NEW, PROFDB_VERDICT_GONE
	};
	cJSON *root = cJSON_CreateObject(), *set, *cnt, *a;
	char *text = NULL;
	size_t nk;
	int rc = PROFDB_ERROR;

	if (!root)
		return PROFDB_ERROR;
	cJSON_AddStringToObject(root, "profdb_version", PROFDB_VERSION);
	cJSON_AddItemToObject(root, "base", names_json(c->base_runs, c->nbase));
	cJSON_AddItemToObject(root, "new", names_json(c->new_runs, c->nnew));
	set = cJSON_AddObjectToObject(root, "settings");
	if (set) {
		cJSON_AddStringToObject(set, "by", c->by);
		cJSON_AddStringToObject(set, "test", profdb__test_name(c->test));
		cJSON_AddStringToObject(set, "test_title", profdb__test_title(c->test));
		cJSON_AddNumberToObject(set, "alpha", c->alpha);
		cJSON_AddNumberToObject(set, "threshold_pct", 100 * c->threshold);
		cJSON_AddNumberToObject(set, "min_delta_us", (double)c->min_delta_ns / 1000);
		cJSON_AddNumberToObject(set, "ci_level", c->ci_level);
		cJSON_AddNumberToObject(set, "resamples", c->resamples);
		cJSON_AddNumberToObject(set, "seed", (double)c->seed);
		cJSON_AddStringToObject(set, "samples", "per-step totals; a step without the kernel counts 0;"
		                        " a run without steps gives one sample (total / repeats)");
	}
	cJSON_AddItemToObject(root, "warnings", names_json(c->warnings, c->nwarnings));
	cnt = cJSON_AddObjectToObject(root, "counts");
	for (size_t i = 0; cnt && i < sizeof all / sizeof all[0]; i++)
		cJSON_AddNumberToObject(cnt, profdb__verdict_name(all[i]),
		                        (double)profdb_comparison_count(c, 1, all[i]));
	a = cJSON_AddArrayToObject(root, "runs");
	for (size_t i = 0; a && i < c->nruns; i++)
		cJSON_AddItemToArray(a, line_json(&c->runs[i]));
	/* diff --top N keeps the N largest changes (the lines are sorted by
	 * |delta|); counts still count every kernel */
	nk = c->top && c->nkernels > c->top ? c->top : c->nkernels;
	/* the last member, written empty: its lines go in one at a time */
	cJSON_AddArrayToObject(root, "kernels");
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (text) {
		char *tail = strstr(text, "[]\n}"); /* the kernels array's, the last */
		char *tmp;
		if (tail && !tail[4]) {
			tail[1] = '\0';
			fputs(profdb__utf8_safe(text, &tmp), out);
			free(tmp);
			rc = kernel_items(out, c, nk);
			fputs("]\n}\n", out);
		}
		if (rc == PROFDB_OK)
			rc = ferror(out) ? PROFDB_ERROR : PROFDB_OK;
		cJSON_free(text);
	}
	return rc;
}
