/*
 * check_file_digests.c - the SHA-256 of an ingest's files made a piece at a
 * time (file_digests.c): each digest equals coreutils' sha256sum of the
 * same bytes, which shares no code with profdb, whether one thread or two
 * step the pieces; a count of bytes other than the pieces covered (a file
 * that grew after it was read) is hashed again, of that many bytes; a file
 * that cannot be read, or not as far as asked, is an error, not a digest.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"

/* sha256sum of path's first bytes bytes (all of them: -1), by coreutils. */
static void sha256sum(const char *path, long long bytes, char hex[65])
{
	char cmd[512];
	FILE *p;
	if (bytes < 0)
		snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
	else
		snprintf(cmd, sizeof cmd, "head -c %lld '%s' | sha256sum", bytes, path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(fscanf(p, "%64s", hex), 1);
	ck_assert_int_eq(pclose(p), 0);
}

/* A file of n pseudo-random bytes (seeded), its path in a static buffer. */
static const char *file_of(const char *dir, const char *name, size_t n, unsigned seed)
{
	static char paths[4][512];
	static int next;
	char *path = paths[next++ % 4];
	unsigned char *b = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (unsigned char)(seed >> 16);
	}
	snprintf(path, sizeof paths[0], "%s/%s", dir, name);
	ck_assert_int_eq(tu_write_file(path, b, n), 0);
	free(b);
	return path;
}

/* Digests of paths[0, n), every piece stepped on this thread. */
static struct profdb__digests *stepped_to_end(const char *const *paths, size_t n)
{
	struct profdb__digests *g = NULL;
	ck_assert_int_eq(profdb__digests_new(&g, paths, n), PROFDB_OK);
	while (profdb__digests_step(g))
		;
	return g;
}

/* Digest i of g, of its first bytes bytes, is sha256sum's of path's first
 * bytes bytes. */
static void digest_is_sha256sum(struct profdb__digests *g, size_t i, uint64_t bytes, const char *path)
{
	char hex[65], want[65];
	ck_assert_int_eq(profdb__digests_get(g, i, bytes, hex), PROFDB_OK);
	sha256sum(path, (long long)bytes, want);
	ck_assert_str_eq(hex, want);
}

/* Digest i of g, asked for bytes bytes, is an error and no digest. */
static void digest_fails(struct profdb__digests *g, size_t i, uint64_t bytes)
{
	char hex[65];
	ck_assert_int_eq(profdb__digests_get(g, i, bytes, hex), PROFDB_ERROR);
	ck_assert_str_eq(hex, "");
}

/* "abc" and the empty file, FIPS 180-2's vectors; a NULL path is skipped
 * and asking for it is an error. */
START_TEST(known_vectors)
{
	const char *dir = tu_tmpdir();
	const char *paths[3];
	struct profdb__digests *g = NULL;
	char hex[65];
	paths[0] = file_of(dir, "empty", 0, 1);
	paths[1] = NULL;
	paths[2] = file_of(dir, "abc", 0, 1);
	ck_assert_int_eq(tu_write_file(paths[2], "abc", 3), 0);
	ck_assert_int_eq(profdb__digests_new(&g, paths, 3), PROFDB_OK);
	ck_assert_int_eq(profdb__digests_get(g, 0, 0, hex), PROFDB_OK);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	ck_assert_int_eq(profdb__digests_get(g, 2, 3, hex), PROFDB_OK);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	digest_fails(g, 1, 0);
	digest_fails(g, 3, 0);
	profdb__digests_free(g);
}
END_TEST

struct stepper {
	struct profdb__digests *g;
	long pieces;
};

static void *step_all(void *arg)
{
	struct stepper *s = arg;
	while (profdb__digests_step(s->g))
		s->pieces++;
	return NULL;
}

/* Files of many pieces (256 KB each), one ending on a piece's edge, stepped
 * by two threads at once: every digest is sha256sum's. */
START_TEST(two_threads_many_pieces)
{
	const char *dir = tu_tmpdir();
	const char *paths[3];
	size_t sizes[3] = { 3u * 1024 * 1024 + 17, 512u * 1024, 1 };
	struct profdb__digests *g = NULL;
	struct stepper a, b;
	pthread_t t;
	paths[0] = file_of(dir, "a", sizes[0], 7);
	paths[1] = file_of(dir, "b", sizes[1], 8);
	paths[2] = file_of(dir, "c", sizes[2], 9);
	ck_assert_int_eq(profdb__digests_new(&g, paths, 3), PROFDB_OK);
	a = (struct stepper){ g, 0 };
	b = (struct stepper){ g, 0 };
	ck_assert_int_eq(pthread_create(&t, NULL, step_all, &a), 0);
	step_all(&b);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	/* each step one move: a's open, 13 reads of bytes and its read of 0;
	 * b's 1 + 2 + 1; c's 1 + 1 + 1 (no move is made twice or lost) */
	ck_assert_int_eq(a.pieces + b.pieces, 15 + 4 + 3);
	for (size_t i = 0; i < 3; i++)
		digest_is_sha256sum(g, i, sizes[i], paths[i]);
	profdb__digests_free(g);
}
END_TEST

/* The file grew after the reader read it, before its pieces were hashed:
 * the digest is of the bytes read, made again; more bytes than the file
 * holds, or a file gone, is an error. */
START_TEST(other_counts_hashed_again)
{
	const char *dir = tu_tmpdir();
	const char *paths[2] = { file_of(dir, "grown", 300000, 3), file_of(dir, "gone", 10, 4) };
	struct profdb__digests *g;
	FILE *f = fopen(paths[0], "ab"); /* the reader has read 300000 bytes */
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs("grown after the read", f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
	g = stepped_to_end(paths, 2);
	digest_is_sha256sum(g, 0, 300000, paths[0]);
	digest_is_sha256sum(g, 0, 300020, paths[0]);
	digest_fails(g, 0, 300021);
	ck_assert_int_eq(remove(paths[1]), 0);
	digest_fails(g, 1, 9); /* its pieces covered 10 bytes, it is gone */
	profdb__digests_free(g);
}
END_TEST

/* A path that cannot be opened ends its digest as failed, not the others'. */
START_TEST(unreadable_is_an_error)
{
	const char *paths[2] = { "/nonexistent/profdb/trace.json", file_of(tu_tmpdir(), "ok", 1000, 5) };
	struct profdb__digests *g = stepped_to_end(paths, 2);
	digest_fails(g, 0, 0);
	digest_is_sha256sum(g, 1, 1000, paths[1]);
	profdb__digests_free(g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("file_digests");
	TCase *tc = tcase_create("digests");
	tcase_add_test(tc, known_vectors);
	tcase_add_test(tc, two_threads_many_pieces);
	tcase_add_test(tc, other_counts_hashed_again);
	tcase_add_test(tc, unreadable_is_an_error);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
