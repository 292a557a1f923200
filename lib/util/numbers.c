/*
 * numbers.c - exact parsing of the number text found in profiler dumps.
 *
 * Times are decimal text in µs with ns fractions ("1736405443881410.320\t");
 * a double cannot hold 1.7e15 µs to the ns, so we parse the digits straight
 * into an int64 count of nanoseconds and never go through floating point.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "banned.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Trim white space from both ends of [*s, *s + *n). */
static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
	1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL
};

/*
 * profdb__parse_ns for the plain form "[-]DIGITS[.DIGITS]" with at most 19
 * digits (no exponent), the form of every time in a kernel_details row:
 * one pass, one multiply or divide.  Returns 1 when it handled s (result
 * in *rc and *out), 0 to leave s to the general loop below.  Same answers:
 * 19 digits fit a uint64, and rounding on the first dropped digit, which
 * the general loop does by dividing by ten one digit at a time, is
 * remainder >= half the divisor.
 */
static int parse_ns_plain(const char *s, size_t n, int scale_exp, int64_t *out, int *rc)
{
	uint64_t mant = 0;
	size_t i = 0, ndigits = 0, nfrac = 0;
	int neg = 0, exp10;

	if (n && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i++;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, ndigits++)
		mant = mant * 10 + (uint64_t)(s[i] - '0');
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, nfrac++)
			mant = mant * 10 + (uint64_t)(s[i] - '0');
	ndigits += nfrac;
	if (i != n || ndigits == 0 || ndigits > 19)
		return 0;
	exp10 = scale_exp - (int)nfrac;
	*rc = 0;
	if (mant == 0) {
		*out = 0;
		return 1;
	}
	if (exp10 >= 0) {
		if (exp10 > 18 || mant > (uint64_t)INT64_MAX / pow10_u64[exp10]) {
			*rc = -1;
			return 1;
		}
		mant *= pow10_u64[exp10];
	} else if (exp10 < -19) {
		mant = 0;                  /* below 0.1 of the unit */
	} else {
		uint64_t d = pow10_u64[-exp10], q = mant / d;
		mant = q + (mant - q * d >= d / 2);
	}
	if (mant > (uint64_t)INT64_MAX) {
		*rc = -1;
		return 1;
	}
	*out = neg ? -(int64_t)mant : (int64_t)mant;
	return 1;
}

/* A decimal number as the general parser reads it: mant * 10^exp10. */
struct dec {
	uint64_t mant;
	int exp10;                 /* starts at the unit's scale */
	int ndigits;
	int round_up;              /* the first digit dropped for room: 1 (>= 5), -1, 0 none */
};

/* The digits and decimal point of s from *i (left at the first other
 * byte) into d; -1 on a second point. */
static int dec_digits(const char *s, size_t n, size_t *i, struct dec *d)
{
	int seen_dot = 0;
	for (; *i < n; (*i)++) {
		char c = s[*i];
		if (c == '.') {
			if (seen_dot)
				return -1;
			seen_dot = 1;
			continue;
		}
		if (c < '0' || c > '9')
			break;
		d->ndigits++;
		if (d->mant <= (UINT64_MAX - 9) / 10) {
			d->mant = d->mant * 10 + (uint64_t)(c - '0');
			if (seen_dot)
				d->exp10--;
		} else if (!seen_dot) {
			d->exp10++; /* too many integer digits: magnitude only */
		} else if (d->ndigits && !d->round_up) {
			/* first digit we cannot keep decides rounding */
			d->round_up = c >= '5' ? 1 : -1;
		}
	}
	return 0;
}

/* An exponent "e[+-]DIGITS" at s[*i], if any, added to d->exp10; -1 for
 * an e without digits. */
static int dec_exponent(const char *s, size_t n, size_t *i, struct dec *d)
{
	int eneg = 0, ev = 0, edig = 0;
	if (*i >= n || (s[*i] != 'e' && s[*i] != 'E'))
		return 0;
	(*i)++;
	if (*i < n && (s[*i] == '+' || s[*i] == '-')) {
		eneg = s[*i] == '-';
		(*i)++;
	}
	for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; (*i)++, edig++)
		if (ev < 10000)
			ev = ev * 10 + (s[*i] - '0');
	if (!edig)
		return -1;
	d->exp10 += eneg ? -ev : ev;
	return 0;
}

/* d as a whole count of the unit, rounded half away from zero; -1 out of
 * range. */
static int dec_to_i64(struct dec *d, int neg, int64_t *out)
{
	uint64_t mant = d->mant;
	int exp10 = d->exp10;
	/* a digit dropped for room decides the rounding only when it is the
	 * first one after the unit; with exp10 < 0 the division below rounds on
	 * a kept digit (applying both rounded 0.45 up twice: 374905437364450655.4506839
	 * gave ...656) */
	if (d->round_up == 1 && exp10 == 0)
		mant++;
	if (mant == 0) {
		*out = 0;
		return 0;
	}
	while (exp10 > 0) {
		if (mant > UINT64_MAX / 10)
			return -1;
		mant *= 10;
		exp10--;
	}
	while (exp10 < 0) {
		uint64_t q = mant / 10, r = mant % 10;
		exp10++;
		/* round half away from zero on the last division only */
		mant = (exp10 == 0 && r >= 5) ? q + 1 : q;
		if (mant == 0)
			break;
	}
	if (mant > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)mant : (int64_t)mant;
	return 0;
}

int profdb__parse_ns(const char *s, size_t n, int scale_exp, int64_t *out)
{
	struct dec d = { 0, scale_exp, 0, 0 };
	size_t i = 0;
	int neg = 0, rc;

	trim(&s, &n);
	if (parse_ns_plain(s, n, scale_exp, out, &rc))
		return rc;
	if (n && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i++;
	}
	if (dec_digits(s, n, &i, &d) != 0 || d.ndigits == 0)
		return -1;
	if (dec_exponent(s, n, &i, &d) != 0 || i != n)
		return -1;
	return dec_to_i64(&d, neg, out);
}

int profdb__parse_i64(const char *s, size_t n, int64_t *out)
{
	char buf[32];
	char *end;
	long long v;

	trim(&s, &n);
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end || end == buf)
		return -1;
	*out = v;
	return 0;
}

int profdb__parse_double(const char *s, size_t n, double *out)
{
	char buf[64];
	char *end;
	double v;

	trim(&s, &n);
	if (n == 0 || n >= sizeof buf)
		return -1;
	/* strtod accepts "nan", "inf", hex floats: none is a profiler number */
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
			return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (*end || end == buf || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
