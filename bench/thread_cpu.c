/*
 * thread_cpu.c - an LD_PRELOAD shim that says how a process's CPU time is
 * split between its main thread and the threads it starts: for profdb's
 * ingest, the store's (main) thread and its insert thread against the
 * readers.  bench/run uses it
 * to project the ingest onto more cores (writer-bound speedup).
 *
 * Each thread made by pthread_create adds its CLOCK_THREAD_CPUTIME_ID to a
 * total when its start routine returns: the store's insert thread (named
 * profdb-insert, lib/store/batch_flusher.c) to its own, the readers to
 * "others"; at exit the main thread reads its own clock.  One line goes to
 * the file named by THREAD_CPU_OUT (appended), else to stderr:
 *   thread_cpu: main 1.234567 others 0.456789 threads 2 insert 0.901234
 * Thread CPU, not wall: on a shared machine a thread waiting for a core
 * costs no CPU, so the split holds whatever the load.
 * Built by bench/meson.build as build-bench/bench/libthread_cpu.so.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static _Atomic long long others_ns; /* CPU of the threads that have returned */
static _Atomic long long insert_ns; /* of which the store's insert thread's (profdb-insert) */
static _Atomic int nthreads;        /* threads started */

struct start {
	void *(*fn)(void *);
	void *arg;
};

static long long thread_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *trampoline(void *arg)
{
	struct start s = *(struct start *)arg;
	char name[17] = "";
	void *ret;
	free(arg);
	ret = s.fn(s.arg);
	prctl(PR_GET_NAME, name, 0, 0, 0);
	atomic_fetch_add(strcmp(name, "profdb-insert") == 0 ? &insert_ns : &others_ns, thread_ns());
	return ret;
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	static create_fn real;
	struct start *s;
	int rc;
	if (!real) {
		/* POSIX: dlsym's object pointer converts to a function pointer;
		 * ISO C does not say so, hence the copy */
		void *sym = dlsym(RTLD_NEXT, "pthread_create");
		memcpy(&real, &sym, sizeof real);
	}
	s = malloc(sizeof *s);
	if (!s)
		return real(t, attr, fn, arg);
	s->fn = fn;
	s->arg = arg;
	rc = real(t, attr, trampoline, s);
	if (rc != 0)
		free(s);
	else
		atomic_fetch_add(&nthreads, 1);
	return rc;
}

/* Runs on the thread that calls exit: profdb's main thread. */
__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("THREAD_CPU_OUT");
	FILE *f = path && *path ? fopen(path, "a") : NULL;
	fprintf(f ? f : stderr, "thread_cpu: main %.6f others %.6f threads %d insert %.6f\n", thread_ns() / 1e9,
	        atomic_load(&others_ns) / 1e9, atomic_load(&nthreads), atomic_load(&insert_ns) / 1e9);
	if (f)
		fclose(f);
}
