/*
 * check_numbers.c - exact decimal parsing (numbers.c) and SHA-256 (sha256.c).
 * Expected values are worked out by hand from the decimal text.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int64_t ns(const char *s, int scale)
{
	int64_t v = -12345;
	ck_assert_int_eq(profdb__parse_ns(s, strlen(s), scale, &v), 0);
	return v;
}

static int bad(const char *s)
{
	int64_t v;
	return profdb__parse_ns(s, strlen(s), 3, &v) != 0;
}

START_TEST(ascend_start_times)
{
	/* the trailing TAB msprof appends, and the exact ns digits */
	ck_assert_int_eq(ns("1736405443881410.320\t", 3), 1736405443881410320LL);
	ck_assert_int_eq(ns("1736413971558972.912\t", 3), 1736413971558972912LL);
	ck_assert_int_eq(ns("1699529622790614.8", 3), 1699529622790614800LL);
	ck_assert_int_eq(ns("1695115378713661", 3), 1695115378713661000LL);
	ck_assert_int_eq(ns("  53.741 ", 3), 53741);
	ck_assert_int_eq(ns("1881.080000", 3), 1881080);
	ck_assert_int_eq(ns("0", 3), 0);
	ck_assert_int_eq(ns("0.0", 3), 0);
}
END_TEST

START_TEST(rounding_and_exponents)
{
	ck_assert_int_eq(ns("496.8508203", 3), 496851);  /* .8203 ns -> 1 */
	ck_assert_int_eq(ns("496.8504", 3), 496850);
	ck_assert_int_eq(ns("-2.5", 3), -2500);
	ck_assert_int_eq(ns("1.69512E+15", 3), 1695120000000000000LL);
	ck_assert_int_eq(ns("1e3", 0), 1000);
	ck_assert_int_eq(ns("4458676522690.655", 3), 4458676522690655LL);
	ck_assert_int_eq(ns("12", 0), 12);           /* ns input */
	ck_assert_int_eq(ns("1.5", 6), 1500000);     /* ms input */
}
END_TEST

START_TEST(rejects)
{
	ck_assert(bad(""));
	ck_assert(bad("N/A"));
	ck_assert(bad("12abc"));
	ck_assert(bad("1.2.3"));
	ck_assert(bad("nan"));
	ck_assert(bad("inf"));
	ck_assert(bad("1e"));
	ck_assert(bad("99999999999999999999999"));   /* > int64 ns */
	ck_assert(bad("9223372036854775.808"));      /* INT64_MAX + 1 ns */
}
END_TEST

START_TEST(plain_form_edges)
{
	/* 19 digits: the most the one-pass path takes */
	ck_assert_int_eq(ns("9223372036854775.807", 3), 9223372036854775807LL);
	ck_assert_int_eq(ns("-9223372036854775.807", 3), -9223372036854775807LL);
	ck_assert_int_eq(ns("9223372036854775807", 0), 9223372036854775807LL);
	ck_assert(bad("9223372036854775807"));         /* x 1000 */
	/* 20 digits: the general loop, rounding on the dropped digits */
	ck_assert_int_eq(ns("1736405443881410.3205", 3), 1736405443881410321LL);
	ck_assert_int_eq(ns("1736405443881410.3204", 3), 1736405443881410320LL);
	/* 21 digits: the 20th (4) decides, not the 21st (9) rounding it first */
	ck_assert_int_eq(ns("1736405443881410.32049", 3), 1736405443881410320LL);
	ck_assert_int_eq(ns("1736405443881410320.49", 0), 1736405443881410320LL);
	ck_assert_int_eq(ns("1736405443881410320.5", 0), 1736405443881410321LL);
	/* rounding: first dropped digit 5 rounds away from zero, 4 does not */
	ck_assert_int_eq(ns("0.0005", 3), 1);
	ck_assert_int_eq(ns("-0.0005", 3), -1);
	ck_assert_int_eq(ns("0.00049999", 3), 0);
	ck_assert_int_eq(ns("0.00005", 3), 0);
	ck_assert_int_eq(ns("2.9999999", 3), 3000);
	/* a point with digits on one side only; signs; zero */
	ck_assert_int_eq(ns(".5", 3), 500);
	ck_assert_int_eq(ns("5.", 3), 5000);
	ck_assert_int_eq(ns("+7", 3), 7000);
	ck_assert_int_eq(ns("-0.000", 3), 0);
	/* a scale that divides: 1234567 ns in us */
	ck_assert_int_eq(ns("1234567", -3), 1235);
	ck_assert_int_eq(ns("1234499", -3), 1234);
	ck_assert(bad("."));
	ck_assert(bad("-"));
	ck_assert(bad("1.2\t3"));
}
END_TEST

/*
 * Reference for "[-]INT[.FRAC]" text: move the decimal point scale places
 * in the digit string, keep the digits before it, round on the first one
 * after it; written on the text, without numbers.c's arithmetic.
 * Returns 0 and *out, or -1 when the result is not an int64.
 */
static int ref_ns(const char *ip, const char *fp, int neg, int scale, int64_t *out)
{
	char d[64];
	int len, pos;
	uint64_t v = 0;
	len = snprintf(d, sizeof d, "%s%s", ip, fp);
	pos = (int)strlen(ip) + scale;
	for (int i = 0; i < pos; i++) {
		unsigned dig = i < len ? (unsigned)(d[i] - '0') : 0;
		if (v > (UINT64_MAX - dig) / 10)
			return -1;
		v = v * 10 + dig;
	}
	if (pos >= 0 && pos < len && d[pos] >= '5')
		v++;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

START_TEST(plain_form_random)
{
	static const int scales[] = { 0, 3, 6, 9, -3 };
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	for (int round = 0; round < 200000; round++) {
		char ip[24], fp[24], text[64];
		int ni, nf, neg, scale, want_rc, got_rc;
		int64_t want = 0, got = 0;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ni = (int)(x % 21);
		nf = (int)((x >> 8) % 13);
		neg = (int)((x >> 16) % 4 == 0);
		scale = scales[(x >> 20) % 5];
		for (int i = 0; i < ni + nf; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			(i < ni ? ip : fp)[i < ni ? i : i - ni] = (char)('0' + (x >> 32) % 10);
		}
		ip[ni] = '\0';
		fp[nf] = '\0';
		if (ni + nf == 0)
			continue;
		snprintf(text, sizeof text, "%s%s%s%s%s", neg ? "-" : "", ip, nf || (x >> 40) % 2 ? "." : "", fp,
		         (x >> 41) % 3 == 0 ? "\t" : "");
		want_rc = ref_ns(ip, fp, neg, scale, &want);
		got_rc = profdb__parse_ns(text, strlen(text), scale, &got);
		ck_assert_msg(got_rc == want_rc && (want_rc != 0 || got == want),
		              "'%s' scale %d: got %d %lld, want %d %lld", text, scale, got_rc, (long long)got,
		              want_rc, (long long)want);
	}
}
END_TEST

START_TEST(integers_and_doubles)
{
	int64_t i;
	double d;
	ck_assert_int_eq(profdb__parse_i64(" 4294967295 ", 12, &i), 0);
	ck_assert_int_eq(i, 4294967295LL);
	ck_assert_int_ne(profdb__parse_i64("N/A", 3, &i), 0);
	ck_assert_int_ne(profdb__parse_i64("1.5", 3, &i), 0);
	ck_assert_int_eq(profdb__parse_double("79.295", 6, &d), 0);
	ck_assert_double_eq_tol(d, 79.295, 1e-12);
	ck_assert_int_ne(profdb__parse_double("NaN", 3, &d), 0);
	ck_assert_int_ne(profdb__parse_double("Infinity", 8, &d), 0);
	ck_assert_int_ne(profdb__parse_double("", 0, &d), 0);
}
END_TEST

START_TEST(sha256_vectors)
{
	/* FIPS 180-4 examples */
	struct profdb_sha256 s;
	char hex[65];
	profdb__sha256_init(&s);
	profdb__sha256_hex(&s, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	profdb__sha256_update(&s, "abc", 3);
	profdb__sha256_hex(&s, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	profdb__sha256_init(&s);
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	for (size_t i = 0; i < strlen(m); i++) /* byte by byte: exercises the buffer */
		profdb__sha256_update(&s, m + i, 1);
	profdb__sha256_hex(&s, hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(sha256_paths_agree)
{
	/* the SHA-NI and portable paths, over lengths around block bounds and
	 * chunkings that split blocks unevenly */
	static unsigned char data[5000];
	char a[65], b[65];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof data; i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (unsigned char)(x >> 16);
	}
	for (size_t len = 0; len < sizeof data; len += 61) {
		struct profdb_sha256 s;
		profdb__sha256_force_portable(1);
		profdb__sha256_init(&s);
		profdb__sha256_update(&s, data, len);
		profdb__sha256_hex(&s, a);
		profdb__sha256_force_portable(0);
		profdb__sha256_init(&s);
		for (size_t off = 0; off < len; off += 1 + off % 200) {
			size_t n = 1 + off % 200;
			profdb__sha256_update(&s, data + off, n < len - off ? n : len - off);
		}
		profdb__sha256_hex(&s, b);
		ck_assert_str_eq(a, b);
	}
}
END_TEST

/* A limit may be lowered, never raised or zeroed: a refused one leaves
 * the handle's limits as they were (push_streams alone goes up, to 8). */
START_TEST(set_limits_only_lowers)
{
	profdb *db = NULL;
	struct profdb_limits l = PROFDB_LIMITS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_uint_eq(l.hold_bytes, 8u << 20);
	ck_assert_uint_eq(l.gzip_max_bytes, 64ull << 30);
	ck_assert_uint_eq(l.push_streams, 2);
	l.hold_bytes = 42;
	ck_assert_int_eq(profdb_set_limits(db, &l), PROFDB_OK);
	ck_assert_uint_eq(db->limits.hold_bytes, 42);
	l.hold_bytes = (8u << 20) + 1;
	ck_assert_int_eq(profdb_set_limits(db, &l), PROFDB_EUSAGE);
	ck_assert_str_eq(profdb_errmsg(db), "limit hold_bytes: 8388609 is not from 1 to 8388608");
	ck_assert_uint_eq(db->limits.hold_bytes, 42);
	l.hold_bytes = 8u << 20;
	l.diff_rows = 0;
	ck_assert_int_eq(profdb_set_limits(db, &l), PROFDB_EUSAGE);
	l.diff_rows = 1;
	l.push_streams = 8;
	ck_assert_int_eq(profdb_set_limits(db, &l), PROFDB_OK);
	ck_assert_uint_eq(db->limits.push_streams, 8);
	ck_assert_uint_eq(db->limits.diff_rows, 1);
	l.push_streams = 9;
	ck_assert_int_eq(profdb_set_limits(db, &l), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_set_limits(db, NULL), PROFDB_OK);
	ck_assert_uint_eq(db->limits.diff_rows, 1500000);
	ck_assert_uint_eq(db->limits.push_streams, 2);
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("numbers");
	TCase *tc = tcase_create("parse_ns");
	tcase_add_test(tc, ascend_start_times);
	tcase_add_test(tc, rounding_and_exponents);
	tcase_add_test(tc, rejects);
	tcase_add_test(tc, plain_form_edges);
	tcase_add_test(tc, plain_form_random);
	suite_add_tcase(s, tc);
	tc = tcase_create("parse_other");
	tcase_add_test(tc, integers_and_doubles);
	suite_add_tcase(s, tc);
	tc = tcase_create("sha256");
	tcase_add_test(tc, sha256_vectors);
	tcase_add_test(tc, sha256_paths_agree);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, set_limits_only_lowers);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
