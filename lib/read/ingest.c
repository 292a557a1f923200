/*
 * ingest.c - the ingest driver: find what PATH holds (ingest_walk.c), apply
 * the session rules (ingest_session.c), hand each unit to the reader for
 * its format, all of one run into one store transaction; with --split one
 * run per session.
 */
#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "ingest_impl.h"
#include "bench.h"
#include "store/qsink.h"
#include "store/tags.h"
#include "banned.h"

#define MAX_WORKERS 64 /* reader threads; the store has as many source slots */

/* Progress over the whole ingest: readers report bytes of their own file;
 * this adds the sizes of the files already read. */
struct progress {
	profdb_progress_fn fn;     /* the caller's callback */
	void *arg;
	uint64_t done_before;      /* bytes of the files already read */
	uint64_t total;            /* bytes of all files */
};

static void progress_relay(void *arg, uint64_t done, uint64_t total)
{
	struct progress *p = arg;
	(void)total;
	p->fn(p->arg, p->done_before + done, p->total);
}

/* Bytes on disk under path (a file, or the files of a folder, one level of
 * ASCEND_PROFILER_OUTPUT deep is enough for an estimate). */
static uint64_t size_of(const char *path)
{
	struct stat sb;
	char sub[4096];
	DIR *d;
	struct dirent *e;
	uint64_t n = 0;
	if (stat(path, &sb) != 0)
		return 0;
	if (S_ISREG(sb.st_mode))
		return (uint64_t)sb.st_size;
	snprintf(sub, sizeof sub, "%s/ASCEND_PROFILER_OUTPUT", path);
	d = opendir(sub);
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char f[4400];
		snprintf(f, sizeof f, "%s/%s", sub, e->d_name);
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0 && stat(f, &sb) == 0 &&
		    S_ISREG(sb.st_mode))
			n += (uint64_t)sb.st_size;
	}
	closedir(d);
	return n;
}

/* Read every unit on this thread, straight into the store. */
static int read_serial(struct profdb__walk *w, struct profdb_sink *sink, struct progress *prog,
                       const struct profdb_limits *limits, int hash_elsewhere)
{
	int rc = PROFDB_OK;
	for (size_t i = 0; i < w->n && rc == PROFDB_OK; i++) {
		struct profdb_reader_ctx ctx = {
			.path = w->items[i].path,
			/* the n-th unit's fallback rank; readers prefer what the data says */
			.rank = w->n > 1 ? (int64_t)i : PROFDB_NULL,
			.sink = sink, .err = sink->err,
			.progress = prog->fn ? progress_relay : NULL,
			.progress_arg = prog,
			.limits = limits,
			.hash_elsewhere = hash_elsewhere,
		};
		rc = w->items[i].reader->read(&ctx);
		if (prog->fn) {
			prog->done_before += size_of(w->items[i].path);
			prog->fn(prog->arg, prog->done_before, prog->total);
		}
		if (rc != PROFDB_OK && sink->err->code == PROFDB_OK)
			profdb__err_set(sink->err, rc, "%s: read failed", w->items[i].path);
	}
	return rc;
}

/* State shared by the reader threads of one parallel ingest. */
struct pool {
	pthread_mutex_t mu;        /* guards next, done_before, slot_done */
	size_t next;               /* next unit to read */
	struct profdb__walk *w;
	struct profdb__queue *q;
	struct progress *prog;
	const struct profdb_limits *limits;
	uint64_t done_before;      /* bytes of finished units */
	uint64_t slot_done[MAX_WORKERS]; /* bytes of each worker's current unit */
};

struct worker {
	pthread_t thread;
	int slot;                  /* 1..: slot 0 stays the serial path's */
	struct pool *pool;
	struct profdb__qsink *qs;
	int rc;                    /* first error of this worker */
};

static void worker_progress(void *arg, uint64_t done, uint64_t total)
{
	struct worker *wk = arg;
	(void)total;
	pthread_mutex_lock(&wk->pool->mu);
	wk->pool->slot_done[wk->slot] = done;
	pthread_mutex_unlock(&wk->pool->mu);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct pool *p = wk->pool;
	struct profdb_sink *sink = profdb__qsink_sink(wk->qs);
	for (;;) {
		size_t i;
		pthread_mutex_lock(&p->mu);
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->w->n)
			break;
		struct profdb_reader_ctx ctx = {
			.path = p->w->items[i].path,
			.rank = p->w->n > 1 ? (int64_t)i : PROFDB_NULL,
			.sink = sink, .err = sink->err,
			.progress = p->prog->fn ? worker_progress : NULL,
			.progress_arg = wk,
			.limits = p->limits,
		};
		wk->rc = p->w->items[i].reader->read(&ctx);
		if (wk->rc == PROFDB_OK)
			wk->rc = profdb__qsink_flush(wk->qs);
		if (wk->rc != PROFDB_OK) {
			if (sink->err->code == PROFDB_OK)
				profdb__err_set(sink->err, wk->rc, "%s: read failed", ctx.path);
			profdb__queue_abort(p->q);
			break;
		}
		pthread_mutex_lock(&p->mu);
		p->done_before += size_of(ctx.path);
		p->slot_done[wk->slot] = 0;
		pthread_mutex_unlock(&p->mu);
	}
	profdb__queue_producer_done(p->q);
	return NULL;
}

static void pool_progress(void *arg)
{
	struct pool *p = arg;
	uint64_t done;
	if (!p->prog->fn)
		return;
	pthread_mutex_lock(&p->mu);
	done = p->done_before;
	for (size_t i = 0; i < MAX_WORKERS; i++)
		done += p->slot_done[i];
	pthread_mutex_unlock(&p->mu);
	p->prog->fn(p->prog->arg, done, p->prog->total);
}

/*
 * Readers on nworkers threads, this thread the only SQLite writer.  With one
 * big file this still overlaps parsing and storing; with many files they are
 * also parsed side by side.  The first error stops everything.
 */
static int read_parallel(struct profdb__walk *w, struct profdb_store *st, int nworkers,
                         struct progress *prog, const struct profdb_limits *limits, struct profdb_err *err)
{
	struct pool p = { .w = w, .prog = prog, .limits = limits };
	struct worker wk[MAX_WORKERS];
	int started = 0, rc;

	if (nworkers > (int)w->n)
		nworkers = (int)w->n;
	if (nworkers >= MAX_WORKERS)
		nworkers = MAX_WORKERS - 1;
	memset(wk, 0, sizeof wk);
	if (profdb__queue_new(&p.q, nworkers) != PROFDB_OK)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	pthread_mutex_init(&p.mu, NULL);
	for (int i = 0; i < nworkers; i++) {
		wk[i].slot = i + 1;
		wk[i].pool = &p;
		if (profdb__qsink_new(&wk[i].qs, p.q, wk[i].slot) != PROFDB_OK ||
		    pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]) != 0) {
			profdb__err_set(err, PROFDB_ERROR, "cannot start reader thread");
			profdb__queue_abort(p.q);
			/* the workers not started will never report done */
			for (int j = i; j < nworkers; j++)
				profdb__queue_producer_done(p.q);
			break;
		}
		started++;
	}
	rc = profdb__queue_drain(p.q, st, pool_progress, &p);
	if (rc != PROFDB_OK) {
		struct profdb_sink *s = profdb__store_sink(st);
		if (s->err->code != PROFDB_OK)
			*err = *s->err;
	}
	for (int i = 0; i < started; i++)
		pthread_join(wk[i].thread, NULL);
	/* a reader's own error is the cause; "ingest stopped" only follows one */
	for (int i = 0; i < started && err->code == PROFDB_OK; i++)
		if (wk[i].rc != PROFDB_OK && profdb__qsink_sink(wk[i].qs)->err->code != PROFDB_OK &&
		    strcmp(profdb__qsink_sink(wk[i].qs)->err->msg, "ingest stopped") != 0)
			*err = *profdb__qsink_sink(wk[i].qs)->err;
	for (int i = 0; i < nworkers; i++) {
		if (wk[i].rc != PROFDB_OK && rc == PROFDB_OK)
			rc = wk[i].rc;
		profdb__qsink_free(wk[i].qs);
	}
	if (rc == PROFDB_OK && err->code != PROFDB_OK)
		rc = err->code;
	profdb__store_select_slot(st, 0);
	pthread_mutex_destroy(&p.mu);
	profdb__queue_free(p.q);
	return rc;
}

/* The digests file_digests.c makes for w's units whose reader leaves them
 * to the caller (NULL paths for the others); NULL if none or no memory. */
static struct profdb__digests *digests_for(const struct profdb__walk *w)
{
	struct profdb__digests *g = NULL;
	const char **paths = calloc(w->n ? w->n : 1, sizeof *paths);
	size_t k = 0;
	if (!paths)
		return NULL;
	for (size_t i = 0; i < w->n; i++)
		if (w->items[i].reader->flags & PROFDB_READER_HASH_ELSEWHERE) {
			paths[i] = w->items[i].path;
			k++;
		}
	if (k && profdb__digests_new(&g, paths, w->n) != PROFDB_OK)
		g = NULL;
	free(paths);
	return g;
}

static int next_piece(void *arg)
{
	return profdb__digests_step(arg);
}

/* Each unit's digest into its source_file row, which its reader left NULL. */
static int store_digests(profdb *db, int64_t run_id, const struct profdb__walk *w, struct profdb__digests *g,
                         struct profdb_err *err)
{
	sqlite3_stmt *q = NULL, *u = NULL;
	int rc = PROFDB_OK;
	if (sqlite3_prepare_v2(db->sql, "SELECT id, size FROM source_file WHERE run_id = ?1 AND path = ?2"
	                       " AND sha256 IS NULL", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "UPDATE source_file SET sha256 = ?2 WHERE id = ?1", -1, &u, NULL) != SQLITE_OK)
		rc = profdb__err_set(err, PROFDB_ERROR, "storing file digests: %s", sqlite3_errmsg(db->sql));
	for (size_t i = 0; i < w->n && rc == PROFDB_OK; i++) {
		char hex[65];
		if (!(w->items[i].reader->flags & PROFDB_READER_HASH_ELSEWHERE))
			continue;
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_text(q, 2, w->items[i].path, -1, SQLITE_STATIC);
		if (sqlite3_step(q) != SQLITE_ROW)
			continue; /* no row: the reader stored nothing of it */
		if (profdb__digests_get(g, i, (uint64_t)sqlite3_column_int64(q, 1), hex) != PROFDB_OK) {
			rc = profdb__err_set(err, PROFDB_ERROR, "%s: cannot read it again for its SHA-256",
			                     w->items[i].path);
			break;
		}
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, sqlite3_column_int64(q, 0));
		sqlite3_bind_text(u, 2, hex, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(u) != SQLITE_DONE)
			rc = profdb__err_set(err, PROFDB_ERROR, "storing file digests: %s", sqlite3_errmsg(db->sql));
	}
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	return rc;
}

/*
 * -j2 over several files: this thread reads them one after the other, as
 * -j1 does, and the insert thread runs the INSERTs beside it.  A reader
 * thread on top would make three busy threads share the two cores, each
 * handing over to the next through a queue: ranks8 took 3-8% longer that
 * way, with ten times the context switches (bench/results.md).  This
 * thread then bounds the ingest, so the files' SHA-256 are made apart
 * (file_digests.c): by the insert thread while it waits for rows, and by
 * this one while the insert thread writes the last file's.  One file keeps
 * its reader thread: there the parse overlapping the store's passes over
 * the file is what -j2 gains.
 */
static int read_beside_inserts(profdb *db, struct profdb__walk *w, struct profdb_store *st, struct progress *prog,
                               struct profdb_err *err)
{
	struct profdb__digests *g = digests_for(w);
	int rc = profdb__store_async_begin(st, 1), end;
	if (rc == PROFDB_OK && g)
		profdb__store_set_filler(st, next_piece, g);
	if (rc == PROFDB_OK)
		rc = read_serial(w, profdb__store_sink(st), prog, &db->limits, g != NULL);
	while (rc == PROFDB_OK && g && profdb__digests_step(g))
		;
	/* the INSERTs in flight go in (or fail) before anything else runs */
	end = profdb__store_async_end(st);
	if (rc == PROFDB_OK)
		rc = end;
	if (rc == PROFDB_OK && g)
		rc = store_digests(db, profdb__store_run_id(st), w, g, err);
	profdb__digests_free(g);
	return rc;
}

/* Read every unit of w into st on as many threads as jobs allows. */
static int read_units(profdb *db, struct profdb__walk *w, struct profdb_store *st, int jobs, struct progress *prog,
                      struct profdb_err *err)
{
	if (jobs == 2 && w->n > 1)
		return read_beside_inserts(db, w, st, prog, err);
	if (jobs > 1)
		return read_parallel(w, st, jobs - 1, prog, &db->limits, err);
	return read_serial(w, profdb__store_sink(st), prog, &db->limits, 0);
}

/*
 * The default run name: PATH's base name, without the format's extensions
 * when PATH is a file ("rank-34.Jul_15.pt.trace.json.gz" is run
 * "rank-34.Jul_15", "base.json.gz" is "base"): the extension says how the
 * file was stored, not which run it is.  A folder keeps its whole name.
 */
static void base_of(const char *path, int is_file, char *out, size_t cap)
{
	static const char *const exts[] = { ".pt.trace.json.gz", ".pt.trace.json", ".json.gz",
	                                    ".jsonl", ".json", ".csv", ".db", ".gz", NULL };
	size_t n = strlen(path), len;
	const char *s;
	while (n > 1 && path[n - 1] == '/')
		n--;
	s = path + n;
	while (s > path && s[-1] != '/')
		s--;
	len = (size_t)(path + n - s);
	for (size_t i = 0; is_file && exts[i]; i++) {
		size_t e = strlen(exts[i]);
		if (len > e && strncmp(s + len - e, exts[i], e) == 0) {
			len -= e;
			break;
		}
	}
	snprintf(out, cap, "%.*s", (int)len, s);
}

/* One run of an ingest: the units to read, the notes that go with them. */
struct run_part {
	struct profdb__work *items;        /* borrowed from the walk */
	size_t n;
	char **notes;              /* borrowed */
	size_t nnotes;
};

/*
 * Read part into a new run named run, in one transaction.  *conflict is
 * set when two of its sources hold the same rank (nothing is stored then).
 */
static int ingest_part(profdb *db, const struct run_part *part, const char *run, const char *path,
                       const struct profdb_ingest_opts *opts, int64_t *out_id, int *conflict,
                       struct profdb_err *err)
{
	struct profdb__walk view = { .items = part->items, .n = part->n, .err = err };
	struct profdb_store *st = NULL;
	struct profdb_sink *sink;
	struct progress prog = { 0 };
	const char *format = NULL;
	int rc, jobs;

	*conflict = 0;
	/* diff and report take runs as a list split at ',': such a name could
	 * be stored but never named there */
	if (strchr(run, ','))
		return profdb__err_set(err, PROFDB_EUSAGE, "run name '%s' holds a ',', which diff and report"
		                       " read as a list of runs: name it with --run NAME (no ',')", run);
	rc = profdb__store_begin(&st, db, run, path, opts ? opts->replace : 0);
	if (rc != PROFDB_OK)
		return profdb__err_set(err, rc, "%s", profdb_errmsg(db));
	sink = profdb__store_sink(st);
	if (opts)
		profdb__store_set_phase(st, opts->phase, opts->progress_arg);
	if (opts && opts->ntags && (rc = profdb__tags_insert(db, profdb__store_run_id(st), opts->tags,
	                                                     opts->ntags)) != PROFDB_OK)
		profdb__err_set(err, rc, "%s", profdb_errmsg(db));
	for (size_t i = 0; i < part->nnotes && rc == PROFDB_OK; i++)
		rc = profdb__sink_note(sink, part->notes[i]);
	prog.fn = opts ? opts->progress : NULL;
	prog.arg = opts ? opts->progress_arg : NULL;
	for (size_t i = 0; prog.fn && i < view.n; i++)
		prog.total += size_of(view.items[i].path);
	for (size_t i = 0; i < view.n; i++) {
		const char *f = view.items[i].reader->label;
		format = !format || strcmp(format, f) == 0 ? f : "mixed";
	}
	jobs = opts && opts->jobs > 0 ? opts->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (rc == PROFDB_OK)
		rc = read_units(db, &view, st, jobs, &prog, err);
	if (rc == PROFDB_OK) {
		rc = profdb__ingest_check_ranks(db, profdb__store_run_id(st), err);
		*conflict = rc != PROFDB_OK && err->code == PROFDB_EFORMAT;
	}
	if (rc == PROFDB_OK)
		rc = profdb__ingest_note_empty_ranks(db, profdb__store_run_id(st), sink);
	if (rc != PROFDB_OK) {
		if (err->code == PROFDB_OK)
			*err = *sink->err;
		if (err->code == PROFDB_OK)
			profdb__err_set(err, rc, "%s: ingest failed", path);
		profdb__store_abort(st);
		return err->code;
	}
	profdb__store_set_format(st, format);
	*out_id = profdb__store_run_id(st);
	rc = profdb__store_commit(st, opts ? opts->repeats : 0);
	if (rc != PROFDB_OK)
		return profdb__err_set(err, rc, "%s", profdb_errmsg(db));
	if (opts && opts->run_done)
		opts->run_done(opts->run_done_arg, *out_id, run);
	return PROFDB_OK;
}

/* Does note (it starts with a path) concern the session of folder? */
static int note_of(const char *note, const char *folder, size_t len)
{
	return strncmp(note, folder, len) == 0 && (note[len] == '/' || note[len] == ':');
}

/* The notes of session g of the walk: those naming a path in its folder,
 * and for the first session those naming no session's folder. */
static void part_notes(const struct profdb__walk *w, const size_t *group, size_t g, struct run_part *part,
                       const char *root)
{
	part->nnotes = 0;
	for (size_t i = 0; i < w->nnotes; i++) {
		int owner = -1;
		for (size_t u = 0; u < w->n && owner < 0; u++) {
			size_t len = profdb__ingest_session_len(w->items[u].path, root);
			if (note_of(w->notes[i], w->items[u].path, len))
				owner = (int)group[u];
		}
		if (owner == (int)g || (owner < 0 && g == 0))
			part->notes[part->nnotes++] = w->notes[i];
	}
}

/* Remember a run made by --split (a copy of its name). */
static int remember(char **made, size_t *nmade, const char *name, struct profdb_err *err)
{
	if (!(made[*nmade] = strdup(name)))
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	(*nmade)++;
	return PROFDB_OK;
}

/* A session that holds one rank twice (two captures side by side in one
 * folder) is split once more: one run per unit, named after it. */
static int ingest_units(profdb *db, struct run_part *part, const char *root,
                        const struct profdb_ingest_opts *opts, int64_t *out_run_id,
                        char **made, size_t *nmade, struct profdb_err *err)
{
	int rc = PROFDB_OK, conflict;
	for (size_t i = 0; i < part->n && rc == PROFDB_OK; i++) {
		struct run_part one = { .items = &part->items[i], .n = 1 };
		char *name = profdb__ingest_unit_name(part->items[i].path, root, opts->run);
		if (!name)
			return profdb__err_set(err, PROFDB_ERROR, "out of memory");
		rc = ingest_part(db, &one, name, root, opts, out_run_id, &conflict, err);
		if (rc == PROFDB_OK)
			rc = remember(made, nmade, name, err);
		free(name);
	}
	return rc;
}

/*
 * --split: one run per session.  Runs are committed one by one; on an
 * error those already made by this call are deleted again, so the
 * database ends as it began.
 */
static int ingest_split(profdb *db, struct profdb__walk *w, const char *root,
                        const struct profdb_ingest_opts *opts, int64_t *out_run_id,
                        struct profdb_err *err)
{
	size_t *group = NULL, ng = 0, nmade = 0;
	char **names = NULL, **made = NULL;
	struct run_part part = { 0 };
	int rc;

	if ((rc = profdb__ingest_sessions(w, root, opts->run, &group, &names, &ng)) != PROFDB_OK)
		return rc;
	part.items = malloc(w->n * sizeof *part.items);
	/* dedupe adds at most one note per unit */
	part.notes = malloc((w->nnotes + w->n + 1) * sizeof *part.notes);
	made = calloc(w->n + 1, sizeof *made);
	if (!part.items || !part.notes || !made)
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
	for (size_t g = 0; g < ng && rc == PROFDB_OK; g++) {
		size_t nbefore = w->nnotes;
		int conflict = 0;
		part.n = 0;
		for (size_t i = 0; i < w->n; i++)
			if (group[i] == g)
				part.items[part.n++] = w->items[i];
		if ((rc = profdb__ingest_dedupe(w, part.items, &part.n)) != PROFDB_OK)
			break;
		part_notes(w, group, g, &part, root);
		for (size_t i = nbefore; i < w->nnotes; i++)
			part.notes[part.nnotes++] = w->notes[i];
		rc = ingest_part(db, &part, names[g], root, opts, out_run_id, &conflict, err);
		if (rc == PROFDB_OK)
			rc = remember(made, &nmade, names[g], err);
		else if (conflict && part.n > 1) {
			*err = (struct profdb_err){ 0 };
			rc = ingest_units(db, &part, root, opts, out_run_id, made, &nmade, err);
		}
	}
	if (rc != PROFDB_OK)
		for (size_t i = 0; i < nmade; i++)
			profdb_run_delete(db, made[i]);
	for (size_t i = 0; i < nmade; i++)
		free(made[i]);
	for (size_t g = 0; g < ng; g++)
		free(names[g]);
	free(names);
	free(group);
	free(part.items);
	free(part.notes);
	free(made);
	return rc;
}

/*
 * A benchmark file is one run: its rows are repeats of APIs, timed on one
 * backend.  Read beside other files as ranks of one run it would mix
 * backends and number repeats across files, so a walk that finds one with
 * anything else is refused, naming the way out.
 */
static int bench_alone(const struct run_part *all, const char *path, struct profdb_err *err)
{
	size_t nb = 0, first = 0;
	if (all->n < 2)
		return PROFDB_OK;
	for (size_t i = 0; i < all->n; i++)
		if (profdb__reader_is_bench(all->items[i].reader) && !nb++)
			first = i;
	if (!nb)
		return PROFDB_OK;
	return profdb__err_set(err, PROFDB_EFORMAT, "%s: %zu benchmark file(s) among %zu files, first %s:"
	                       " a benchmark file is a run of its own, never a rank of one; ingest each"
	                       " file by itself, or pass --split for one run per file", path, nb, all->n,
	                       all->items[first].path);
}

int profdb_ingest(profdb *db, int64_t *out_run_id, const char *path,
                  const struct profdb_ingest_opts *opts)
{
	struct profdb__walk w = { 0 };
	struct profdb_err err = { 0 };
	const struct profdb_ingest_opts none = PROFDB_INGEST_OPTS_INIT;
	struct stat sb;
	char name[1024], root[4096];
	const char *run;
	int64_t id = 0;
	int rc, conflict = 0;

	if (out_run_id)
		*out_run_id = 0;
	opts = opts ? opts : &none;
	if ((rc = profdb__version_check(db, opts->version, PROFDB_INGEST_OPTS_VERSION, "profdb_ingest_opts")) != PROFDB_OK)
		return rc;
	base_of(path, stat(path, &sb) == 0 && S_ISREG(sb.st_mode), name, sizeof name);
	/* the root without trailing slashes: --split names runs relative to it */
	snprintf(root, sizeof root, "%s", path);
	for (size_t n = strlen(root); n > 1 && root[n - 1] == '/'; n--)
		root[n - 1] = '\0';
	run = opts->run ? opts->run : name;
	if (!*run)
		return profdb__error(db, PROFDB_EUSAGE, "empty run name");
	if ((rc = profdb__tags_check(db, opts->tags, opts->ntags)) != PROFDB_OK)
		return rc;
	if (stat(path, &sb) != 0)
		return profdb__error(db, PROFDB_ENOTFOUND, "cannot read '%s': %s", path, strerror(errno));
	if (profdb__walk_init(&w, &err) != PROFDB_OK) {
		profdb__walk_free(&w);
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	rc = profdb__walk_find(&w, root, &sb);
	if (rc == PROFDB_OK && w.n == 0)
		rc = profdb__err_set(&err, PROFDB_ENOTFOUND,
		    "%s: no profiler data found (no *_ascend_pt folder, kernel_details.csv or trace JSON)%s%s",
		    path, w.nnotes ? "; " : "", w.nnotes ? w.notes[0] : "");
	if (rc == PROFDB_OK && opts->split) {
		rc = ingest_split(db, &w, root, opts, &id, &err);
	} else if (rc == PROFDB_OK) {
		/* a copy: the walk keeps owning every unit, read or dropped */
		struct run_part all = { .items = malloc(w.n * sizeof *all.items), .n = w.n };
		if (!all.items)
			rc = profdb__err_set(&err, PROFDB_ERROR, "out of memory");
		else
			memcpy(all.items, w.items, w.n * sizeof *all.items);
		if (rc == PROFDB_OK)
			rc = profdb__ingest_dedupe(&w, all.items, &all.n);
		if (rc == PROFDB_OK)
			rc = bench_alone(&all, path, &err);
		all.notes = w.notes;
		all.nnotes = w.nnotes;
		if (rc == PROFDB_OK)
			rc = ingest_part(db, &all, run, path, opts, &id, &conflict, &err);
		free(all.items);
	}
	if (rc != PROFDB_OK)
		profdb__error(db, err.code ? err.code : rc, "%s", err.msg[0] ? err.msg : "ingest failed");
	else if (out_run_id)
		*out_run_id = id;
	profdb__walk_free(&w);
	return rc != PROFDB_OK && err.code ? err.code : rc;
}
