/*
 * json_scan.h - a streaming JSON scanner and a flat field extractor.
 *
 * The scanner reads a byte stream in chunks and hands out the byte bounds
 * of one JSON value at a time (an event of a trace), so a trace of any size
 * is read with memory bounded by its largest value, never by the file.  It
 * is iterative: nesting depth costs one bit per level, not stack frames.
 * The extractor then walks the members of one such value in place, without
 * building a tree and without allocating.
 */
#ifndef PROFDB_JSON_SCAN_H
#define PROFDB_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Where the scanner gets bytes: returns bytes read, 0 at end, -1 on error
 * (err filled).  profdb__input_read has this shape. */
typedef long (*profdb__json_read_fn)(void *arg, void *buf, size_t n, struct profdb_err *err);

/* Largest single value the scanner captures (an event, a metadata value),
 * not counting the dropped tails of long strings: the window holds it and
 * may double past it once, so ingest stays under 100 MB whatever the
 * value (a 200 MB number, an args array of 10^7 elements).  No profiler
 * writes an event near this size. */
#define PROFDB_JSON_MAX_VALUE ((size_t)16 << 20)
/* Longest string kept whole inside a captured value: a longer one keeps
 * its first bytes (a complete character or escape at the end) and the rest
 * is dropped as it is read.  8 x the stored text cap (intern.h), so even
 * a string of \u escapes (6 bytes each) still decodes past that cap and
 * is cut, marked and counted once more where it is stored. */
#define PROFDB_JSON_MAX_STRING ((size_t)512 << 10)

struct profdb__json_scan {
	profdb__json_read_fn read;  /* the byte source */
	void *arg;                 /* its argument */
	struct profdb_err *err;    /* where errors go */
	const char *name;          /* file name for messages */
	char *buf;                 /* window of the stream */
	size_t cap, len, pos;      /* allocated, filled, next byte to look at */
	uint64_t base;             /* stream offset of buf[0] */
	int eof;                   /* the source is exhausted */
	size_t max_value;          /* capture limit (PROFDB_JSON_MAX_VALUE) */
	size_t max_string;         /* string kept whole (PROFDB_JSON_MAX_STRING) */
	uint64_t elided;           /* bytes of long strings dropped (offset = base + pos + elided) */
	int64_t cut;               /* strings cut to max_string */
	int skip_big;              /* a value over max_value is read to its end
	                              without being held and handed back empty
	                              (big set), rather than refused */
	int big;                   /* the last value was such a one */
	unsigned char *nest;       /* bit stack of open containers: 1 = object */
	size_t nest_cap;           /* bytes in nest */
};

/* Set up s over a source.  name is borrowed.  Returns PROFDB_OK or
 * PROFDB_ERROR (out of memory). */
int profdb__json_scan_init(struct profdb__json_scan *s, profdb__json_read_fn read, void *arg,
                          const char *name, struct profdb_err *err);
/* Free s's buffers (s itself is the caller's).  Safe on a zeroed s. */
void profdb__json_scan_free(struct profdb__json_scan *s);
/* Stream offset of the next byte (for messages). */
uint64_t profdb__json_offset(const struct profdb__json_scan *s);
/*
 * Skip white space and return the next byte without consuming it: 0..255,
 * PROFDB_JSON_END at the end of the stream, or PROFDB_JSON_FAIL (err set).
 */
#define PROFDB_JSON_END (-1)
#define PROFDB_JSON_FAIL (-2)
int profdb__json_peek(struct profdb__json_scan *s);
/* Consume one byte (after profdb__json_peek said what it is). */
void profdb__json_advance(struct profdb__json_scan *s);
/*
 * Read the next value (after white space) and point *out at its text,
 * *len bytes, valid until the next call on s.  Brackets and strings are
 * checked to match; scalar tokens are only delimited.  Errors
 * (PROFDB_EFORMAT, message with the byte offset): truncated input, a
 * mismatched bracket, a value over max_value bytes (unless skip_big:
 * then *len is 0 and s->big is set).
 */
int profdb__json_value(struct profdb__json_scan *s, const char **out, size_t *len);
/* The same, without keeping the value: memory stays flat whatever its size. */
int profdb__json_skip(struct profdb__json_scan *s);

/* ---------------------------------------------------------------- in place */

enum profdb__jtype {
	PROFDB_J_NONE = 0, PROFDB_J_STRING, PROFDB_J_NUMBER, PROFDB_J_OBJECT,
	PROFDB_J_ARRAY, PROFDB_J_TRUE, PROFDB_J_FALSE, PROFDB_J_NULL
};

/* A slice of JSON text: a whole value (strings keep their quotes). */
struct profdb__jval {
	int type;                  /* enum profdb__jtype */
	const char *p;             /* first byte */
	size_t n;                  /* bytes */
};

/*
 * Iterate the members of the object text obj[0..len): *pos starts at 0.
 * Returns 1 with *key (a string value) and *val set, 0 after the last
 * member, -1 if the text is not a well-formed object at that point.
 * Number tokens are returned as they are (NaN, 1e999 included): the caller
 * parses them.
 */
int profdb__json_member(const char *obj, size_t len, size_t *pos,
                       struct profdb__jval *key, struct profdb__jval *val);
/* Iterate the elements of an array text the same way. */
int profdb__json_element(const char *arr, size_t len, size_t *pos, struct profdb__jval *val);
/* Does the string value v equal the plain (escape-free) text lit? */
int profdb__json_str_is(const struct profdb__jval *v, const char *lit);
/*
 * Decode string value v into out (cap bytes, NUL-terminated; cap must be
 * at least v->n): escapes become UTF-8, \u0000 and broken surrogates become
 * U+FFFD.  Returns the decoded length.
 */
size_t profdb__json_str_decode(const struct profdb__jval *v, char *out, size_t cap);
/* Copy value v into out (cap >= v->n + 1) without white space outside
 * strings: compact JSON text.  Returns its length. */
size_t profdb__json_compact(const struct profdb__jval *v, char *out, size_t cap);

/* ------------------------------------------------------------ one pass */

/* A member key to pick: escape-free text (len bytes) and the slot its
 * value goes to; two names may share a slot (the later member wins). */
struct profdb__json_key {
	const char *name;
	size_t len;
	int slot;
};

/*
 * What profdb__json_pick looks for: keys of the object, and (inner >= 0)
 * the slot whose object value is walked in the same pass for sub_keys.
 * Set the first six members, then call profdb__json_pick_init.
 */
#define PROFDB_JSON_PICK_MAX 64    /* keys per level */
/* index slots per level: twice the keys, so a probe stays short */
#define PROFDB_JSON_PICK_SLOTS (2 * PROFDB_JSON_PICK_MAX)
struct profdb__json_pick {
	const struct profdb__json_key *keys;
	size_t nkeys, nslots;
	int inner;                 /* slot walked for sub_keys, -1 for none */
	const struct profdb__json_key *sub_keys;
	size_t nsub_keys, nsub_slots;
	unsigned char index[2][PROFDB_JSON_PICK_SLOTS]; /* by profdb__json_pick_init: keys by hash */
};

/* Index spec's keys (a key is found in one probe, not by a search of
 * the list).  -1 if a level has more than PROFDB_JSON_PICK_MAX keys or an
 * empty key. */
int profdb__json_pick_init(struct profdb__json_pick *spec);

/*
 * Walk the object that starts at p[0] (after white space) in one pass:
 * vals[slot] (nslots; { PROFDB_J_NONE, NULL, 0 } when absent) gets the value of
 * each picked key, as a profdb__json_member walk would give it (the last
 * member of a key wins); sub[slot] (nsub_slots) gets the picked members
 * of the object in the inner slot, as a walk of that value would (all
 * absent when the last one is not an object).  Returns the object's length
 * (bytes up to its closing '}'), or 0 whenever the answer could differ
 * from a profdb__json_value scan followed by member walks: p[0..n) ends
 * first, a member or bracket is malformed, nesting is deeper than 64.
 * Then the caller takes the general path.
 */
size_t profdb__json_pick(const char *p, size_t n, const struct profdb__json_pick *spec,
                        struct profdb__jval *vals, struct profdb__jval *sub);
/*
 * profdb__json_value, with the value picked in the same pass when it is an
 * object that profdb__json_pick accepts (*picked = 1; else 0, vals and sub
 * undefined): the bytes are read once, not once to bound and again to walk.
 */
int profdb__json_value_pick(struct profdb__json_scan *s, const struct profdb__json_pick *spec,
                           struct profdb__jval *vals, struct profdb__jval *sub,
                           const char **out, size_t *len, int *picked);

#endif /* PROFDB_JSON_SCAN_H */
