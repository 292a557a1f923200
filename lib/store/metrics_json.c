/*
 * metrics_json.c - a kernel's PMU metrics as the JSON object stored in
 * kernel.metrics: {"aic_mac_ratio":0.52,"aicore_time(us)":265.027}.
 *
 * Why JSON text: one column per kernel row costs the writer nothing like the
 * one B-tree insert per metric a metric table did, any SQLite client can
 * read it with json_each/json_extract (the kernel_metric view does), and the
 * metric columns vary with the profiler's aic_metrics setting, so they
 * cannot be fixed columns.
 *
 * Numbers are written as the shortest text that reads back to the same
 * double (integers without a fraction), so the stored value is exact.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "banned.h"

static int reserve(char **buf, size_t *cap, size_t need)
{
	char *b;
	size_t n;
	if (need <= *cap)
		return 0;
	n = *cap ? *cap : 256;
	while (n < need)
		n *= 2;
	b = realloc(*buf, n);
	if (!b)
		return -1;
	*buf = b;
	*cap = n;
	return 0;
}

/*
 * v as d fraction digits when some d <= 9 gives an integer m = v * 10^d
 * below 2^53 with m / 10^d == v: both are exact doubles and IEEE division
 * rounds correctly, so the text "m e-d" reads back as v.  Profiler metrics
 * are mostly such short decimals, and printf's %g costs ten times more.
 * Returns the length, or 0 when no such d exists.
 */
static int decimal_text(char *out, double v)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	double a = fabs(v);
	char digits[24];
	int n = 0, len = 0;

	for (int d = 0; d < 10; d++) {
		double m = a * p10[d];
		uint64_t mi;
		if (!(m < 9007199254740992.0))
			return 0;
		mi = (uint64_t)m;
		if ((double)mi != m || (double)mi / p10[d] != a)
			continue;
		do {
			digits[n++] = (char)('0' + mi % 10);
			mi /= 10;
		} while (mi);
		while (n <= d)
			digits[n++] = '0'; /* 0.05: leading zeros of the fraction */
		if (v < 0)
			out[len++] = '-';
		for (int i = n - 1; i >= 0; i--) {
			out[len++] = digits[i];
			if (i == d && d > 0)
				out[len++] = '.';
		}
		return len;
	}
	return 0;
}

int profdb__number_text(char *out, size_t size, double v)
{
	int n;
	if (isinf(v))
		return snprintf(out, size, "%s", v > 0 ? "9e999" : "-9e999"); /* SQLite reads these as +-Inf */
	if ((n = decimal_text(out, v)) > 0)
		return n;
	for (int prec = 15; prec < 17; prec++) {
		n = snprintf(out, size, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return n;
	}
	return snprintf(out, size, "%.17g", v);
}

/* Append s as a JSON string (quotes, backslashes and controls escaped). */
static size_t put_string(char *p, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	p[n++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			p[n++] = '\\';
			p[n++] = (char)c;
		} else if (c < 0x20) {
			memcpy(p + n, "\\u00", 4);
			n += 4;
			p[n++] = hex[c >> 4];
			p[n++] = hex[c & 15];
		} else {
			p[n++] = (char)c;
		}
	}
	p[n++] = '"';
	return n;
}

int profdb__metrics_json(const struct profdb_metric *m, size_t n, char **buf, size_t *cap)
{
	size_t len = 0;

	if (reserve(buf, cap, 3) != 0)
		return -1;
	(*buf)[len++] = '{';
	for (size_t i = 0; i < n; i++) {
		char num[40];
		size_t j;
		int nl;

		if (isnan(m[i].value))
			continue; /* JSON has no NaN; readers store no value for N/A */
		/* a name given twice: the last value stands, as a column would */
		for (j = i + 1; j < n; j++)
			if (strcmp(m[j].name, m[i].name) == 0)
				break;
		if (j < n)
			continue;
		nl = profdb__number_text(num, sizeof num, m[i].value);
		if (reserve(buf, cap, len + 6 * strlen(m[i].name) + (size_t)nl + 8) != 0)
			return -1;
		if (len > 1)
			(*buf)[len++] = ',';
		len += put_string(*buf + len, m[i].name);
		(*buf)[len++] = ':';
		memcpy(*buf + len, num, (size_t)nl);
		len += (size_t)nl;
	}
	(*buf)[len++] = '}';
	(*buf)[len] = '\0';
	return 0;
}
