/*
 * ingest_wallclock_csv.c - the wall-clock CSV a benchmark harness writes:
 * a header naming the columns, then one row per timed repeat.
 *
 *   api,backend,repeat,elapsed_us
 *   torch.matmul,cpu,1,812.5
 *
 * api and elapsed_us (microseconds, exact decimal) are required; repeat
 * (an integer) is optional (rows then count 1, 2, ... per api in file
 * order); every other column (backend included) is a tag of the run and
 * must hold one value in the whole file (empty cells are no value).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "csv_reader.h"
#include "banned.h"

struct wcsv {
	struct profdb__bench_out *o;
	struct profdb__csv_header h;
	int api, elapsed, repeat;  /* column indexes; repeat -1 if absent */
};

static int header(struct wcsv *w, const struct profdb__csv_row *row)
{
	const char *dup;
	int rc = profdb__csv_header_copy(&w->h, row, w->o->ctx->err);
	if (rc != PROFDB_OK)
		return rc;
	if ((dup = profdb__csv_header_dup(&w->h)) != NULL)
		return profdb__err_set(w->o->ctx->err, PROFDB_EFORMAT, "%s:%lld: column '%.80s' appears twice",
		                       w->o->path, (long long)row->line, dup);
	w->api = profdb__csv_header_find(&w->h, "api");
	w->elapsed = profdb__csv_header_find(&w->h, "elapsed_us");
	w->repeat = profdb__csv_header_find(&w->h, "repeat");
	if (w->api < 0 || w->elapsed < 0)
		return profdb__err_set(w->o->ctx->err, PROFDB_EFORMAT,
		                       "%s:%lld: the header needs columns 'api' and 'elapsed_us'",
		                       w->o->path, (long long)row->line);
	return PROFDB_OK;
}

static int on_row(void *arg, const struct profdb__csv_row *row)
{
	struct wcsv *w = arg;
	struct profdb__bench_out *o = w->o;
	int64_t ns, rep = PROFDB_NULL;
	int p, rc;

	if (row->index == 0)
		return header(w, row);
	if (row->n != w->h.n)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s:%lld: expected %zu columns, found %zu",
		                       o->path, (long long)row->line, w->h.n, row->n);
	for (size_t c = 0; c < row->n; c++)
		if ((int)c != w->api && (int)c != w->elapsed && (int)c != w->repeat && row->len[c] &&
		    (rc = profdb__bench_tag(o, w->h.name[c], row->field[c], row->line, "line")) != PROFDB_OK)
			return rc;
	if (!row->len[w->api])
		return profdb__bench_skip(o, "empty api", row->line);
	p = profdb__bench_parse_ns(row->field[w->elapsed], row->len[w->elapsed], 3, &ns);
	if (p == -1)
		return profdb__bench_skip(o, "elapsed_us is not a number in range", row->line);
	if (p == -2)
		return profdb__bench_skip(o, "negative elapsed_us", row->line);
	if (w->repeat >= 0 && profdb__parse_i64(row->field[w->repeat], row->len[w->repeat], &rep) != 0)
		return profdb__bench_skip(o, "repeat is not an integer", row->line);
	return profdb__bench_repeat(o, row->field[w->api], rep, ns, row->line);
}

static int read_results(const struct profdb_reader_ctx *ctx)
{
	struct profdb__bench_out o;
	struct wcsv w = { &o, { NULL, 0, NULL }, -1, -1, -1 };
	struct profdb_input *in = NULL;
	int rc;

	if ((rc = profdb__bench_begin(&o, ctx, "wallclock_csv", &in, NULL, NULL)) != PROFDB_OK)
		return rc;
	rc = profdb__csv_read(in, ctx->path, on_row, &w, NULL, ctx->err, ctx->progress, ctx->progress_arg);
	profdb__csv_header_free(&w.h);
	if (rc == PROFDB_OK && w.api < 0)
		rc = profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: no header", ctx->path);
	return profdb__bench_end(&o, in, rc);
}

/* A CSV with api and elapsed_us columns (ingest_bench.c).  Read only when
 * named: a folder walk never took wall-clock tables, which sit beside dumps as
 * analysis outputs more often than as captures. */
/* The header field [f, fe) trimmed of blanks and quotes, lower-cased into
 * buf: does it near-miss a column the reader needs (elapsed_ms, API)? */
static int near_column(const char *f, const char *fe, char *buf, size_t cap)
{
	static const char *const need[] = { "api", "elapsed_us" };
	size_t n = 0;
	while (f < fe && (*f == ' ' || *f == '"' || *f == '\t'))
		f++;
	while (fe > f && (fe[-1] == ' ' || fe[-1] == '"' || fe[-1] == '\r' || fe[-1] == '\t'))
		fe--;
	if (f == fe || (size_t)(fe - f) >= cap)
		return 0;
	for (; f < fe; f++)
		buf[n++] = (char)(*f >= 'A' && *f <= 'Z' ? *f - 'A' + 'a' : *f);
	buf[n] = '\0';
	return profdb_name_nearest(buf, need, 2) != NULL;
}

/* A CSV whose header near-misses ours (api,elapsed_ms or API,Elapsed_us)
 * was most likely meant as one: say which columns profdb reads instead of
 * "not a format profdb reads". */
static void near_miss(const struct profdb_sniff *s)
{
	size_t i = profdb__sniff_ws(s->buf, s->n, 0), off = 0;
	const char *p = s->buf + i, *nl = memchr(p, '\n', s->n - i);
	char found[160] = "", low[32];
	int near = 0;

	if (i >= s->n || *p == '{' || *p == '[' || !nl || !memchr(p, ',', (size_t)(nl - p)))
		return;
	while (p < nl) {
		const char *c = memchr(p, ',', (size_t)(nl - p)), *fe = c ? c : nl;
		size_t len = (size_t)(fe - p) - (fe > p && fe[-1] == '\r');
		near |= near_column(p, fe, low, sizeof low);
		if (off < sizeof found)
			off += (size_t)snprintf(found + off, sizeof found - off, "%s%.*s", off ? "," : "",
			                        (int)(len < 40 ? len : 40), p);
		p = c ? c + 1 : nl;
	}
	if (near)
		snprintf(s->reason, s->cap, "a CSV header profdb does not read (%s): a wall-clock CSV"
		         " needs columns named exactly 'api' and 'elapsed_us' (microseconds)", found);
}

static int sniff(const struct profdb_sniff *s)
{
	int a = profdb__bench_sniff(s, &profdb__reader_wallclock_csv);
	if (a == PROFDB_SNIFF_NO && !s->gzip && s->cap && !s->reason[0])
		near_miss(s);
	return a;
}

const struct profdb_reader profdb__reader_wallclock_csv = {
	.name = "wallclock_csv", .label = "wallclock_csv", .sniff = sniff, .read = read_results,
	.flags = 0,
};
