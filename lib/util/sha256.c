/*
 * sha256.c - SHA-256 (FIPS 180-4) for source-file content hashes, so that a
 * file already stored in another run is recognised.  Small and dependency
 * free: hashing runs inside the input reader, over bytes already in cache.
 */
#include <stdatomic.h>
#include <string.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI_PATH 1
#endif

#include "internal.h"
#include "banned.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

#ifdef HAVE_SHA_NI_PATH
/*
 * The same compression with the x86 SHA extensions (Intel Goldmont+, AMD
 * Zen+): about 5x the portable code, which otherwise costs a quarter of a
 * Kineto ingest.  Each group g does rounds 4g..4g+3; msg1/msg2 compute the
 * message schedule four words ahead (msg1 for g in 1..12, msg2 for 3..14).
 */
__attribute__((target("sha,sse4.1")))
static void blocks_ni(uint32_t h[8], const unsigned char *p, size_t n)
{
	const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i tmp = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i st1 = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i st0, msg, w[4], abef, cdgh;

	tmp = _mm_shuffle_epi32(tmp, 0xB1);        /* CDAB */
	st1 = _mm_shuffle_epi32(st1, 0x1B);        /* EFGH */
	st0 = _mm_alignr_epi8(tmp, st1, 8);        /* ABEF */
	st1 = _mm_blend_epi16(st1, tmp, 0xF0);     /* CDGH */
	for (; n > 0; n--, p += 64) {
		abef = st0;
		cdgh = st1;
		/* unrolled, w[] lives in registers and the ifs go: 3x faster */
#pragma GCC unroll 16
		for (int g = 0; g < 16; g++) {
			__m128i *cur = &w[g & 3], *prev = &w[(g + 3) & 3], *next = &w[(g + 1) & 3];
			if (g < 4)
				*cur = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), mask);
			msg = _mm_add_epi32(*cur, _mm_loadu_si128((const __m128i *)&K[4 * g]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
			if (g >= 3 && g <= 14) {
				tmp = _mm_alignr_epi8(*cur, *prev, 4);
				*next = _mm_sha256msg2_epu32(_mm_add_epi32(*next, tmp), *cur);
			}
			msg = _mm_shuffle_epi32(msg, 0x0E);
			st0 = _mm_sha256rnds2_epu32(st0, st1, msg);
			if (g >= 1 && g <= 12)
				*prev = _mm_sha256msg1_epu32(*prev, *cur);
		}
		st0 = _mm_add_epi32(st0, abef);
		st1 = _mm_add_epi32(st1, cdgh);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1B);        /* FEBA */
	st1 = _mm_shuffle_epi32(st1, 0xB1);        /* DCHG */
	st0 = _mm_blend_epi16(tmp, st1, 0xF0);     /* DCBA */
	st1 = _mm_alignr_epi8(st1, tmp, 8);        /* ABEF */
	_mm_storeu_si128((__m128i *)&h[0], st0);
	_mm_storeu_si128((__m128i *)&h[4], st1);
}

static int has_sha_ni(void)
{
	/* reader threads hash side by side: each may compute it, all the same
	 * value, and an atomic keeps that a defined race (ThreadSanitizer
	 * flagged the plain int at -j3) */
	static _Atomic int known = -1;
	int k = atomic_load_explicit(&known, memory_order_relaxed);
	unsigned a, b, c, d;
	if (k < 0) {
		int sha = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
		int sse41 = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 19));
		k = sha && sse41;
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k;
}
#endif

static int force_portable; /* tests compare both paths */

void profdb__sha256_force_portable(int on)
{
	force_portable = on;
}

/* Compress n whole blocks. */
static void blocks(uint32_t h[8], const unsigned char *p, size_t n)
{
#ifdef HAVE_SHA_NI_PATH
	if (!force_portable && has_sha_ni()) {
		blocks_ni(h, p, n);
		return;
	}
#endif
	for (; n > 0; n--, p += 64)
		block(h, p);
}

void profdb__sha256_init(struct profdb_sha256 *s)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	                                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, iv, sizeof iv);
	s->len = 0;
	s->nbuf = 0;
}

void profdb__sha256_update(struct profdb_sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;
	s->len += n;
	if (s->nbuf) {
		size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take;
		p += take;
		n -= take;
		if (s->nbuf < 64)
			return;
		blocks(s->h, s->buf, 1);
		s->nbuf = 0;
	}
	blocks(s->h, p, n / 64);
	p += n / 64 * 64;
	n %= 64;
	memcpy(s->buf, p, n);
	s->nbuf = n;
}

void profdb__sha256_hex(const struct profdb_sha256 *s0, char hex[65])
{
	struct profdb_sha256 s = *s0; /* finishing pads: work on a copy */
	unsigned char pad[72] = { 0x80 };
	uint64_t bits = s.len * 8;
	size_t padlen = (s.nbuf < 56) ? 56 - s.nbuf : 120 - s.nbuf;
	unsigned char lenbe[8];
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 8; i++)
		lenbe[i] = (unsigned char)(bits >> (56 - 8 * i));
	profdb__sha256_update(&s, pad, padlen);
	profdb__sha256_update(&s, lenbe, 8);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++) {
			unsigned char byte = (unsigned char)(s.h[i] >> (24 - 8 * j));
			hex[8 * i + 2 * j] = digits[byte >> 4];
			hex[8 * i + 2 * j + 1] = digits[byte & 15];
		}
	hex[64] = '\0';
}
