/*
 * compare_merge.c - the kernel lines of a comparison, one grouping key at a
 * time: every run of both sides is read in key order (compare_rows.c)
 * and merged, so only the current key's samples are held (N per side), not
 * N per side for every key: two runs of 100 k names x 1 000 steps took
 * 1.65 GB that way.  What stays is one line per key, held or spooled
 * (compare_lines.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "banned.h"

/* One run of one side, read in key order. */
struct cursor {
	struct profdb__kcursor kc; /* owned (compare_rows.c) */
	int si;                    /* side */
	size_t run;                /* run of the side */
};

/* The merge: the cursors and the current key's sums. */
struct merge {
	struct profdb__compare_state *s;
	struct cursor *cur;        /* owned, ncur */
	size_t ncur;
	double *samp[2];           /* owned: the current key's samples per side */
	double *kcalls[2];         /* owned: its calls per sample */
	int64_t total[2], calls[2]; /* the current key's sums per side */
	uint64_t draws_left;       /* bootstrap draws the budget still allows */
	size_t no_ci;              /* keys left without an interval past it */
};

/*
 * The bootstrap draws one diff may make, B x (n + m) per key: 50 k names
 * x 50 steps took 44 s.  Past it (keys in key order) a key gets its test
 * and verdict but no interval, and a warning counts them.  About 5 s:
 * diff_bootstrap_draws of struct profdb_limits.
 */

static const char *key_of(const struct cursor *c)
{
	return c->kc.key;
}

/* Step cursor c; PROFDB_OK or the error. */
static int advance(struct merge *m, struct cursor *c)
{
	if (profdb__kcursor_next(&c->kc) != 0)
		return profdb__sqlerror(m->s->db, "cannot read kernels of '%s'",
		                        m->s->side[c->si].runs[c->run].name);
	return PROFDB_OK;
}

static int merge_open(struct merge *m, const char *keyexpr)
{
	struct profdb__compare_state *s = m->s;
	int rc;
	m->ncur = s->side[0].n + s->side[1].n;
	m->cur = calloc(m->ncur ? m->ncur : 1, sizeof *m->cur);
	m->samp[0] = calloc(s->side[0].N ? s->side[0].N : 1, sizeof(double));
	m->samp[1] = calloc(s->side[1].N ? s->side[1].N : 1, sizeof(double));
	m->kcalls[0] = calloc(s->side[0].N ? s->side[0].N : 1, sizeof(double));
	m->kcalls[1] = calloc(s->side[1].N ? s->side[1].N : 1, sizeof(double));
	if (!m->cur || !m->samp[0] || !m->samp[1] || !m->kcalls[0] || !m->kcalls[1])
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	for (size_t k = 0, si = 0; si < 2; si++)
		for (size_t i = 0; i < s->side[si].n; i++, k++) {
			m->cur[k].si = (int)si;
			m->cur[k].run = i;
			if ((rc = profdb__kcursor_open(s, (int)si, i, keyexpr, &m->cur[k].kc)) != PROFDB_OK)
				return rc;
		}
	return PROFDB_OK;
}

static void merge_close(struct merge *m)
{
	for (size_t k = 0; m->cur && k < m->ncur; k++)
		profdb__kcursor_close(&m->cur[k].kc);
	profdb__kcursor_prefetch_free(m->s);
	free(m->cur);
	free(m->samp[0]);
	free(m->samp[1]);
	free(m->kcalls[0]);
	free(m->kcalls[1]);
}

/* The smallest current key of the live cursors, copied; NULL when none
 * is left (*rc PROFDB_OK) or out of memory (*rc set). */
static char *next_key(struct merge *m, int *rc)
{
	const char *min = NULL;
	char *key;
	*rc = PROFDB_OK;
	for (size_t k = 0; k < m->ncur; k++)
		if (m->cur[k].kc.live && (!min || strcmp(key_of(&m->cur[k]), min) < 0))
			min = key_of(&m->cur[k]);
	if (!min)
		return NULL;
	key = strdup(min);
	if (!key)
		*rc = profdb__error(m->s->db, PROFDB_ERROR, "out of memory");
	return key;
}

/* Read every row of key from the cursors into the merge's sums. */
static int read_key(struct merge *m, const char *key)
{
	int rc;
	for (int si = 0; si < 2; si++) {
		memset(m->samp[si], 0, (m->s->side[si].N ? m->s->side[si].N : 1) * sizeof(double));
		memset(m->kcalls[si], 0, (m->s->side[si].N ? m->s->side[si].N : 1) * sizeof(double));
		m->total[si] = m->calls[si] = 0;
	}
	for (size_t k = 0; k < m->ncur; k++) {
		struct cursor *c = &m->cur[k];
		while (c->kc.live && strcmp(key_of(c), key) == 0) {
			if (profdb__compare_add_row(m->s, c->si, c->run, &c->kc, m->samp[c->si], m->kcalls[c->si])) {
				m->total[c->si] += c->kc.sum;
				m->calls[c->si] += c->kc.calls;
			}
			if ((rc = advance(m, c)) != PROFDB_OK)
				return rc;
		}
	}
	/* the whole-run device time sums every key (profdb__compare_build_runs) */
	for (int si = 0; si < 2; si++) {
		struct profdb__compare_side *sd = &m->s->side[si];
		for (size_t j = 0; j < sd->N; j++)
			sd->dev[j] += m->samp[si][j];
		sd->dev_total += m->total[si];
	}
	return PROFDB_OK;
}

/* A benchmark side's samples of the current key: only the repeats it
 * ran (its own rows), moved to the front; their count. */
static size_t own_repeats(struct merge *m, int si)
{
	size_t k = 0;
	for (size_t j = 0; j < m->s->side[si].N; j++)
		if (m->kcalls[si][j] > 0)
			m->samp[si][k++] = m->samp[si][j];
	return k;
}

/* The line of key (owned by the line from here) in l. */
static void key_line(struct merge *m, profdb_comparison *c, struct profdb__cmp_line *l, char *key)
{
	const struct profdb__compare_side *b = &m->s->side[0], *nw = &m->s->side[1];
	/* from PROFDB_BOOTSTRAP_MAX_N samples a side, one pass (delta method) */
	int one_pass = b->N >= PROFDB_BOOTSTRAP_MAX_N && nw->N >= PROFDB_BOOTSTRAP_MAX_N;
	uint64_t draws = (uint64_t)(one_pass ? 1 : c->resamples > 0 ? c->resamples : 0) * (b->N + nw->N);
	profdb_comparison plain;
	memset(l, 0, sizeof *l);
	if (draws > m->draws_left && m->calls[0] > 0 && m->calls[1] > 0) {
		plain = *c;            /* the same settings, no resampling */
		plain.resamples = 0;
		c = &plain;
		m->no_ci++;
	} else if (m->calls[0] > 0 && m->calls[1] > 0) {
		m->draws_left -= draws;
	}
	l->key = key;
	l->base = (double)m->total[0] / b->repeats;
	l->next = (double)m->total[1] / nw->repeats;
	l->base_calls = (double)m->calls[0] / b->repeats;
	l->next_calls = (double)m->calls[1] / nw->repeats;
	/* a benchmark file's API: per repeat over its own repeats (kernels) */
	if (b->wall && m->calls[0] > 0) {
		l->base = (double)m->total[0] / (double)m->calls[0];
		l->base_calls = 1;
	}
	if (nw->wall && m->calls[1] > 0) {
		l->next = (double)m->total[1] / (double)m->calls[1];
		l->next_calls = 1;
	}
	profdb__compare_decide(c, l, m->samp[0], b->wall ? own_repeats(m, 0) : b->N, m->samp[1],
	                       nw->wall ? own_repeats(m, 1) : nw->N, m->calls[0] > 0, m->calls[1] > 0, 1, NAN);
}

int profdb__compare_merge_kernels(struct profdb__compare_state *s, profdb_comparison *c, const char *keyexpr)
{
	struct profdb__cmp_lines L;
	struct profdb__cmp_line line;
	struct merge m;
	char *key = NULL;
	int rc;

	memset(&m, 0, sizeof m);
	memset(&L, 0, sizeof L);
	L.db = s->db;
	L.c = c;
	m.s = s;
	m.draws_left = s->db->limits.diff_bootstrap_draws;
	if ((rc = merge_open(&m, keyexpr)) != PROFDB_OK)
		goto out;
	while ((key = next_key(&m, &rc)) != NULL) {
		if ((rc = read_key(&m, key)) != PROFDB_OK)
			goto out;
		/* --min-total: drop kernels small on both sides; a kernel that
		 * ran only outside every step is in no repeat of either side */
		if ((m.total[0] < s->o->filter.min_total_ns && m.total[1] < s->o->filter.min_total_ns) ||
		    (m.calls[0] == 0 && m.calls[1] == 0)) {
			free(key);
			continue;
		}
		key_line(&m, c, &line, key);
		key = NULL;
		profdb__compare_note_short(c, &line);
		/* held while they fit the budget, spooled past it (compare_lines.c) */
		if ((rc = profdb__cmp_lines_add(&L, &line)) != PROFDB_OK)
			goto out;
	}
	if (rc == PROFDB_OK)
		rc = profdb__cmp_lines_done(&L);
	if (rc == PROFDB_OK && m.no_ci &&
	    profdb__compare_warn(c, "%zu kernels have no confidence interval: the bootstrap's budget of"
	                         " %llu draws was spent on the keys before them (a test and a verdict"
	                         " still; fewer --resamples, or --steps, give them one)", m.no_ci,
	                         (unsigned long long)s->db->limits.diff_bootstrap_draws) != PROFDB_OK)
		rc = profdb__error(s->db, PROFDB_ERROR, "out of memory");
out:
	profdb__cmp_lines_abort(&L);
	free(key);
	merge_close(&m);
	return rc;
}
