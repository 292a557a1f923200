/*
 * ch_rowbin.c - ClickHouse's RowBinary format, both ways.  Binary because
 * 18.16 parses Float64 text inexactly (measured: about 1 in 12 random
 * doubles came back different through TabSeparated) and the statistics
 * must round-trip bit for bit; it is also the cheapest to produce.
 * Integers and floats are little-endian, strings a LEB128 length and the
 * bytes, Nullable a flag byte (1 = NULL) before the value.
 */
#include <string.h>

#include "ch.h"
#include "banned.h"

int profdb__ch_put_u64(struct profdb__ch_buf *b, uint64_t v)
{
	unsigned char le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	return profdb__ch_buf_add(b, le, 8);
}

int profdb__ch_put_u32(struct profdb__ch_buf *b, uint32_t v)
{
	unsigned char le[4];
	for (int i = 0; i < 4; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	return profdb__ch_buf_add(b, le, 4);
}

int profdb__ch_put_f64(struct profdb__ch_buf *b, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	return profdb__ch_put_u64(b, bits);
}

int profdb__ch_put_str(struct profdb__ch_buf *b, const char *s, size_t n)
{
	unsigned char len[10];
	size_t k = 0;
	uint64_t v = n;
	do {
		len[k] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			len[k] |= 0x80;
		k++;
	} while (v);
	if (profdb__ch_buf_add(b, len, k) != 0)
		return -1;
	return profdb__ch_buf_add(b, s, n);
}

int profdb__ch_put_null(struct profdb__ch_buf *b, int null)
{
	unsigned char f = null ? 1 : 0;
	return profdb__ch_buf_add(b, &f, 1);
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* One value at p[0..n); bytes taken, 0 when incomplete. */
static size_t get_val(const unsigned char *p, size_t n, enum profdb__ch_type t, struct profdb__ch_val *v)
{
	size_t off = 0;
	memset(v, 0, sizeof *v);
	if (t == CH_NI64 || t == CH_NF64 || t == CH_NSTR) {
		if (n < 1)
			return 0;
		off = 1;
		if (p[0]) {
			v->null = 1;
			return 1;
		}
	}
	if (t == CH_STR || t == CH_NSTR) {
		uint64_t len = 0;
		int shift = 0;
		for (;;) {
			if (off >= n || shift > 63)
				return 0;
			unsigned char c = p[off++];
			len |= (uint64_t)(c & 0x7f) << shift;
			shift += 7;
			if (!(c & 0x80))
				break;
		}
		if (len > n - off)
			return 0;
		v->s = (const char *)p + off;
		v->n = (size_t)len;
		return off + (size_t)len;
	}
	if (t == CH_U32) {
		if (n < 4)
			return 0;
		v->i = (int64_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		return 4;
	}
	if (n - off < 8)
		return 0;
	uint64_t bits = get_u64(p + off);
	if (t == CH_F64 || t == CH_NF64)
		memcpy(&v->d, &bits, sizeof v->d);
	else
		v->i = (int64_t)bits;
	return off + 8;
}

size_t profdb__ch_get_row(const char *p, size_t n, const enum profdb__ch_type *types, size_t ncols,
                          struct profdb__ch_val *vals)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t off = 0;
	for (size_t i = 0; i < ncols; i++) {
		size_t k = get_val(u + off, n - off, types[i], &vals[i]);
		if (k == 0)
			return 0;
		off += k;
	}
	return off;
}
