/*
 * ingest.c - the ingest driver: walk PATH, decide what each part is, hand it
 * to the reader for its format, all into one store transaction.
 *
 * A folder is searched recursively.  A folder that holds
 * ASCEND_PROFILER_OUTPUT (a *_ascend_pt / *_ascend_ms folder) is one Ascend
 * export: read from its CSV form when kernel_details.csv is there, else from
 * its SQLite form, and never searched further (its trace_view.json repeats
 * the kernels as hardware tasks).  Elsewhere every *.json / *.json.gz is
 * sniffed: traces are read, other JSON is skipped with a note.
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
#include "walk_seen.h"
#include "detect.h"
#include "qsink.h"
#include "banned.h"

#define MAX_DEPTH 32 /* deeper folders are not profiler dumps; also stops loops */
#define MAX_WORKERS 64 /* reader threads; the store has as many source slots */

/* One unit of work found by the walk. */
struct work {
	char *path;                /* owned */
	int kind;                  /* enum profdb_source_kind */
};

struct walk {
	struct work *items;        /* found units, in walk order */
	size_t n, cap;
	char **notes;              /* owned notes for the run */
	size_t nnotes;
	dev_t *dev;                /* folders on the current path (loop guard) */
	ino_t *ino;
	size_t depth;
	struct profdb_walk_seen *seen; /* folders entered, by device and inode (walk_seen.c) */
	struct profdb_err *err;
};

static int add_work(struct walk *w, const char *path, int kind)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct work *items = realloc(w->items, cap * sizeof *items);
		if (!items)
			return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
		w->items = items;
		w->cap = cap;
	}
	w->items[w->n].path = strdup(path);
	if (!w->items[w->n].path)
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	w->items[w->n++].kind = kind;
	return PROFDB_OK;
}

static int add_note(struct walk *w, const char *fmt, const char *a, const char *b)
{
	char buf[PROFDB_ERRMAX * 2];
	char **notes = realloc(w->notes, (w->nnotes + 1) * sizeof *notes);
	if (!notes)
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	w->notes = notes;
	snprintf(buf, sizeof buf, fmt, a, b);
	w->notes[w->nnotes] = strdup(buf);
	if (!w->notes[w->nnotes])
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	w->nnotes++;
	return PROFDB_OK;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Does folder hold a file whose name matches prefix*suffix? */
static int has_file_like(const char *folder, const char *prefix, const char *suffix)
{
	DIR *d = opendir(folder);
	struct dirent *e;
	int found = 0;
	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL)
		found = strncmp(e->d_name, prefix, strlen(prefix)) == 0 && ends_with(e->d_name, suffix);
	closedir(d);
	return found;
}

/* Is folder an Ascend export (holds ASCEND_PROFILER_OUTPUT)?  Adds it. */
static int try_ascend_folder(struct walk *w, const char *folder, int *taken)
{
	char out[4096], csv[4200];
	*taken = 0;
	snprintf(out, sizeof out, "%s/ASCEND_PROFILER_OUTPUT", folder);
	if (!is_dir(out))
		return PROFDB_OK;
	*taken = 1;
	snprintf(csv, sizeof csv, "%s/kernel_details.csv", out);
	if (is_file(csv)) {
		int rc = add_work(w, folder, PROFDB_SRC_ASCEND_FOLDER);
		if (rc == PROFDB_OK && has_file_like(out, "ascend_pytorch_profiler", ".db"))
			rc = add_note(w, "%s: read from its CSV export (kernel_details.csv); its SQLite"
			              " export holds the same capture%s", folder, " and was not read");
		return rc;
	}
	if (has_file_like(out, "ascend_pytorch_profiler", ".db"))
		return add_work(w, folder, PROFDB_SRC_ASCEND_DB_FOLDER);
	if (is_file(out) || has_file_like(out, "", ".csv"))
		return add_work(w, folder, PROFDB_SRC_ASCEND_FOLDER);
	return add_note(w, "%s: Ascend export without kernel_details.csv or a .db export%s", folder,
	                ": nothing to read");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_dir(struct walk *w, const char *folder);

static int walk_entry(struct walk *w, const char *path, const char *name)
{
	struct stat sb;
	char reason[PROFDB_ERRMAX];
	int kind;

	if (stat(path, &sb) != 0)
		return add_note(w, "%s: skipped: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return walk_dir(w, path);
	if (!S_ISREG(sb.st_mode))
		return add_note(w, "%s: skipped: %s", path, "not a regular file");
	if (ends_with(name, ".json") || ends_with(name, ".json.gz") || ends_with(name, ".gz")) {
		reason[0] = '\0';
		kind = profdb__detect_file(path, reason, sizeof reason);
		if (kind == PROFDB_SRC_KINETO)
			return add_work(w, path, kind);
		return add_note(w, "%s: skipped: %s", path, reason);
	}
	if (strcmp(name, "kernel_details.csv") == 0)
		return add_work(w, path, PROFDB_SRC_KERNEL_CSV);
	if (ends_with(name, ".db") && (strncmp(name, "msprof_", 7) == 0 ||
	                               strncmp(name, "ascend_pytorch_profiler", 23) == 0))
		return add_work(w, path, PROFDB_SRC_ASCEND_DB);
	return PROFDB_OK; /* other files of a dump folder are not ours: no note */
}

static int walk_dir(struct walk *w, const char *folder)
{
	DIR *d;
	struct dirent *e;
	struct stat sb;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = PROFDB_OK, taken = 0;

	if (stat(folder, &sb) != 0)
		return add_note(w, "%s: skipped: %s", folder, strerror(errno));
	for (size_t i = 0; i < w->depth; i++)
		if (w->dev[i] == sb.st_dev && w->ino[i] == sb.st_ino)
			return add_note(w, "%s: skipped: %s", folder, "symbolic link loop");
	if (w->depth >= MAX_DEPTH)
		return add_note(w, "%s: skipped: %s", folder, "too deep");
	if ((rc = profdb__walk_seen_add(&w->seen, sb.st_dev, sb.st_ino)) != 0)
		return rc < 0 ? profdb__err_set(w->err, PROFDB_ERROR, "out of memory") :
		       add_note(w, "%s: skipped: %s", folder, "the same folder was read through another path");
	if ((rc = try_ascend_folder(w, folder, &taken)) != PROFDB_OK || taken)
		return rc;
	d = opendir(folder);
	if (!d)
		return add_note(w, "%s: skipped: %s", folder, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof *nn);
			if (!nn) {
				rc = profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
				goto out;
			}
			names = nn;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
			goto out;
		}
		n++;
	}
	/* sorted, so runs ingest the same way on every file system */
	if (n > 1) /* qsort's array must not be NULL, even for 0 elements */
		qsort(names, n, sizeof *names, cmp_str);
	w->dev[w->depth] = sb.st_dev;
	w->ino[w->depth] = sb.st_ino;
	w->depth++;
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++) {
		char path[4096];
		if ((size_t)snprintf(path, sizeof path, "%s/%s", folder, names[i]) >= sizeof path)
			rc = add_note(w, "%s/%s: skipped: path too long", folder, names[i]);
		else
			rc = walk_entry(w, path, names[i]);
	}
	w->depth--;
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return rc;
}

static void walk_free(struct walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->items[i].path);
	free(w->items);
	for (size_t i = 0; i < w->nnotes; i++)
		free(w->notes[i]);
	free(w->notes);
	free(w->dev);
	free(w->ino);
	profdb__walk_seen_free(w->seen);
}

static const char *format_label(int kind)
{
	switch (kind) {
	case PROFDB_SRC_ASCEND_FOLDER:
	case PROFDB_SRC_KERNEL_CSV: return "ascend_csv";
	case PROFDB_SRC_ASCEND_DB_FOLDER:
	case PROFDB_SRC_ASCEND_DB: return "ascend_db";
	case PROFDB_SRC_KINETO: return "kineto";
	default: return "unknown";
	}
}

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
		if (ends_with(e->d_name, ".csv") && stat(f, &sb) == 0 && S_ISREG(sb.st_mode))
			n += (uint64_t)sb.st_size;
	}
	closedir(d);
	return n;
}

static int read_one(const struct work *item, const struct profdb_reader_ctx *ctx)
{
	switch (item->kind) {
	case PROFDB_SRC_ASCEND_FOLDER: return profdb_read_ascend_folder(ctx);
	case PROFDB_SRC_KERNEL_CSV: return profdb_read_kernel_details(ctx);
	case PROFDB_SRC_KINETO: return profdb_read_kineto(ctx);
	case PROFDB_SRC_ASCEND_DB_FOLDER:
	case PROFDB_SRC_ASCEND_DB: return profdb_read_ascend_db(ctx);
	default: return profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: not a format profdb reads", item->path);
	}
}

/* Read every unit on this thread, straight into the store. */
static int read_serial(struct walk *w, struct profdb_sink *sink, struct progress *prog)
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
		};
		rc = read_one(&w->items[i], &ctx);
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
	struct walk *w;
	struct profdb_queue *q;
	struct progress *prog;
	uint64_t done_before;      /* bytes of finished units */
	uint64_t slot_done[MAX_WORKERS]; /* bytes of each worker's current unit */
};

struct worker {
	pthread_t thread;
	int slot;                  /* 1..: slot 0 stays the serial path's */
	struct pool *pool;
	struct profdb_qsink *qs;
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
	struct profdb_sink *sink = profdb_qsink_sink(wk->qs);
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
		};
		wk->rc = read_one(&p->w->items[i], &ctx);
		if (wk->rc == PROFDB_OK)
			wk->rc = profdb_qsink_flush(wk->qs);
		if (wk->rc != PROFDB_OK) {
			if (sink->err->code == PROFDB_OK)
				profdb__err_set(sink->err, wk->rc, "%s: read failed", ctx.path);
			profdb_queue_abort(p->q);
			break;
		}
		pthread_mutex_lock(&p->mu);
		p->done_before += size_of(ctx.path);
		p->slot_done[wk->slot] = 0;
		pthread_mutex_unlock(&p->mu);
	}
	profdb_queue_producer_done(p->q);
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
static int read_parallel(struct walk *w, struct profdb_store *st, int nworkers,
                         struct progress *prog, struct profdb_err *err)
{
	struct pool p = { .w = w, .prog = prog };
	struct worker wk[MAX_WORKERS];
	int started = 0, rc;

	if (nworkers > (int)w->n)
		nworkers = (int)w->n;
	if (nworkers >= MAX_WORKERS)
		nworkers = MAX_WORKERS - 1;
	memset(wk, 0, sizeof wk);
	if (profdb_queue_new(&p.q, nworkers) != PROFDB_OK)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	pthread_mutex_init(&p.mu, NULL);
	for (int i = 0; i < nworkers; i++) {
		wk[i].slot = i + 1;
		wk[i].pool = &p;
		if (profdb_qsink_new(&wk[i].qs, p.q, wk[i].slot) != PROFDB_OK ||
		    pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]) != 0) {
			profdb__err_set(err, PROFDB_ERROR, "cannot start reader thread");
			profdb_queue_abort(p.q);
			/* the workers not started will never report done */
			for (int j = i; j < nworkers; j++)
				profdb_queue_producer_done(p.q);
			break;
		}
		started++;
	}
	rc = profdb_queue_drain(p.q, st, pool_progress, &p);
	if (rc != PROFDB_OK) {
		struct profdb_sink *s = profdb_store_sink(st);
		if (s->err->code != PROFDB_OK)
			*err = *s->err;
	}
	for (int i = 0; i < started; i++)
		pthread_join(wk[i].thread, NULL);
	/* a reader's own error is the cause; "ingest stopped" only follows one */
	for (int i = 0; i < started && err->code == PROFDB_OK; i++)
		if (wk[i].rc != PROFDB_OK && profdb_qsink_sink(wk[i].qs)->err->code != PROFDB_OK &&
		    strcmp(profdb_qsink_sink(wk[i].qs)->err->msg, "ingest stopped") != 0)
			*err = *profdb_qsink_sink(wk[i].qs)->err;
	for (int i = 0; i < nworkers; i++) {
		if (wk[i].rc != PROFDB_OK && rc == PROFDB_OK)
			rc = wk[i].rc;
		profdb_qsink_free(wk[i].qs);
	}
	if (rc == PROFDB_OK && err->code != PROFDB_OK)
		rc = err->code;
	profdb_store_select_slot(st, 0);
	pthread_mutex_destroy(&p.mu);
	profdb_queue_free(p.q);
	return rc;
}

/* The default run name: the path's last component. */
static void base_of(const char *path, char *out, size_t cap)
{
	size_t n = strlen(path);
	const char *s;
	while (n > 1 && path[n - 1] == '/')
		n--;
	s = path + n;
	while (s > path && s[-1] != '/')
		s--;
	snprintf(out, cap, "%.*s", (int)(path + n - s), s);
}

int profdb_ingest(profdb *db, int64_t *out_run_id, const char *path,
                  const struct profdb_ingest_opts *opts)
{
	struct walk w = { 0 };
	struct profdb_err err = { 0 };
	struct profdb_store *st = NULL;
	struct profdb_sink *sink;
	struct stat sb;
	char name[1024];
	const char *run;
	const char *format = NULL;
	struct progress prog = { 0 };
	int rc, jobs;

	if (out_run_id)
		*out_run_id = 0;
	base_of(path, name, sizeof name);
	run = opts && opts->run ? opts->run : name;
	if (!*run)
		return profdb__error(db, PROFDB_EUSAGE, "empty run name");
	if (stat(path, &sb) != 0)
		return profdb__error(db, PROFDB_ENOTFOUND, "cannot read '%s': %s", path, strerror(errno));
	w.err = &err;
	w.dev = calloc(MAX_DEPTH + 1, sizeof *w.dev);
	w.ino = calloc(MAX_DEPTH + 1, sizeof *w.ino);
	if (!w.dev || !w.ino) {
		walk_free(&w);
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	if (S_ISDIR(sb.st_mode)) {
		rc = walk_dir(&w, path);
	} else if (S_ISREG(sb.st_mode)) {
		char reason[PROFDB_ERRMAX] = "";
		int kind = profdb__detect_file(path, reason, sizeof reason);
		if (kind == PROFDB_SRC_NONE)
			rc = profdb__err_set(&err, PROFDB_EFORMAT, "%s: %s", path, reason);
		else
			rc = add_work(&w, path, kind);
	} else {
		rc = profdb__err_set(&err, PROFDB_EFORMAT, "%s: not a regular file or folder", path);
	}
	if (rc != PROFDB_OK)
		goto out;
	if (w.n == 0) {
		rc = profdb__err_set(&err, PROFDB_ENOTFOUND,
		    "%s: no profiler data found (no *_ascend_pt folder, kernel_details.csv or trace JSON)%s%s",
		    path, w.nnotes ? "; " : "", w.nnotes ? w.notes[0] : "");
		goto out;
	}
	rc = profdb_store_begin(&st, db, run, path, opts ? opts->replace : 0);
	if (rc != PROFDB_OK)
		goto out_nomsg;
	sink = profdb_store_sink(st);
	for (size_t i = 0; i < w.nnotes && rc == PROFDB_OK; i++)
		rc = sink->note(sink->arg, w.notes[i]);
	prog.fn = opts ? opts->progress : NULL;
	prog.arg = opts ? opts->progress_arg : NULL;
	for (size_t i = 0; prog.fn && i < w.n; i++)
		prog.total += size_of(w.items[i].path);
	for (size_t i = 0; i < w.n; i++) {
		const char *f = format_label(w.items[i].kind);
		format = !format || strcmp(format, f) == 0 ? f : "mixed";
	}
	jobs = opts && opts->jobs > 0 ? opts->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (rc == PROFDB_OK && jobs > 1)
		rc = read_parallel(&w, st, jobs - 1, &prog, &err);
	else if (rc == PROFDB_OK)
		rc = read_serial(&w, sink, &prog);
	if (rc != PROFDB_OK) {
		if (err.code == PROFDB_OK)
			err = *sink->err;
		if (err.code == PROFDB_OK)
			profdb__err_set(&err, rc, "%s: ingest failed", path);
		profdb_store_abort(st);
		goto out;
	}
	profdb_store_set_format(st, format);
	if (out_run_id)
		*out_run_id = profdb_store_run_id(st);
	rc = profdb_store_commit(st, opts ? opts->repeats : 0);
	goto out_nomsg;
out:
	if (rc != PROFDB_OK)
		profdb__error(db, err.code ? err.code : rc, "%s", err.msg[0] ? err.msg : "ingest failed");
	rc = err.code ? err.code : rc;
out_nomsg:
	walk_free(&w);
	return rc;
}
