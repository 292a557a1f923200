/*
 * name_short.c - one way to shorten a long kernel or operator name for a
 * narrow column (tables, md and html reports), keeping what tells names
 * apart.  Kernel names differ in their head (ncclDevKernel_SendRecv_ vs
 * _AllReduce_), in the functor inside their template parameters
 * (CUDAFunctor_add vs _mul) and in their tail, while the argument list
 * the scopes and the outer template parameters repeat from name to
 * name.  So: first the trailing argument list becomes "(...)", then a
 * leading "void " and scopes ("at::native::") go, then template
 * parameter lists become "<...>", the most deeply nested first (an outer
 * level goes only when its inner ones were not enough), and only then is
 * the middle cut to "...", the start and the end of what is left shown.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/utf8.h"
#include "banned.h"

#define DOTS "..."

/* Byte offset of character number ch in s (or the end). */
static size_t char_offset(const char *s, size_t ch)
{
	size_t i = 0, seen = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (seen == ch)
				return i;
			seen++;
		}
	}
	return i;
}

/* Replace s[open + 1, close) by "..." when that is shorter; 1 if so. */
static int elide(char *s, size_t open, size_t close)
{
	size_t len = strlen(s);
	if (close - open - 1 <= sizeof DOTS - 1)
		return 0;
	memcpy(s + open + 1, DOTS, sizeof DOTS - 1);
	memmove(s + open + sizeof DOTS, s + close, len - close + 1);
	return 1;
}

/* The trailing argument list "name(args)" (the last ')' of s, a blank or
 * " const" after it allowed) as "name(...)".  A '(' inside the name
 * ("(anonymous namespace)::f(int)") is left alone: only the last group. */
static int drop_args(char *s)
{
	size_t len = strlen(s), end = len, depth = 0;
	while (end > 0 && s[end - 1] == ' ')
		end--;
	if (end >= 6 && memcmp(s + end - 6, " const", 6) == 0)
		end -= 6;
	if (end == 0 || s[end - 1] != ')')
		return 0;
	for (size_t i = end; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			/* "(23.1%)" after a name in a list is a figure, not arguments */
			return i > 0 && !memchr(s + i, '%', end - i) && elide(s, i, end - 1);
	}
	return 0;
}

/* Drop a leading "void " and the scopes of qualified names ("at::native::",
 * "(anonymous namespace)::"): they repeat from kernel to kernel. */
static void drop_scopes(char *s)
{
	static const char anon[] = "(anonymous namespace)::";
	size_t r = 0, o = 0;
	if (strncmp(s, "void ", 5) == 0)
		r = 5;
	while (s[r]) {
		size_t id = r;
		if (strncmp(s + r, anon, sizeof anon - 1) == 0) {
			r += sizeof anon - 1;
			continue;
		}
		while ((s[id] >= 'a' && s[id] <= 'z') || (s[id] >= 'A' && s[id] <= 'Z') ||
		       (s[id] >= '0' && s[id] <= '9') || s[id] == '_')
			id++;
		if (id > r && s[id] == ':' && s[id + 1] == ':') {
			r = id + 2;
			continue;
		}
		if (id == r)
			id++;
		while (r < id)
			s[o++] = s[r++];
	}
	s[o] = '\0';
}

/* The deepest nesting level of '<' '>' pairs in s (unmatched '>' as in
 * "->" ignored), 0 when none. */
static size_t max_depth(const char *s)
{
	size_t d = 0, best = 0;
	for (; *s; s++) {
		if (*s == '<' && ++d > best)
			best = d;
		else if (*s == '>' && d)
			d--;
	}
	return best;
}

/* Every template parameter list at nesting level `level` as "<...>". */
static void drop_templates(char *s, size_t level)
{
	size_t d = 0, open = 0;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '<') {
			if (++d == level)
				open = i;
		} else if (s[i] == '>' && d) {
			if (d-- == level) {
				elide(s, open, i);
				i = open + (i - open - 1 > sizeof DOTS - 1 ? sizeof DOTS : i - open);
			}
		}
	}
}

static void cut_middle(char *s, size_t w);

/* The last outermost template parameter list cut in its middle to make s
 * fit in w, or all of it "<...>" when too little of it would be left. */
static void trim_outer(char *s, size_t w)
{
	size_t d = 0, open = 0, close = 0, keep, excess = profdb__utf8_width(s) - w;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '<' && d++ == 0)
			open = i;
		else if (s[i] == '>' && d && --d == 0)
			close = i;
	}
	if (!close)
		return;
	keep = close - open - 1 > excess + 2 * (sizeof DOTS - 1) ? close - open - 1 - excess - (sizeof DOTS - 1) : 0;
	if (keep == 0) {
		drop_templates(s, 1);
		return;
	}
	/* the list's own middle cut: its head and its tail both tell apart
	 * (<4, AddFunctor... vs <cutlass_..._nn_align1>) */
	s[close] = '\0';
	cut_middle(s + open + 1, keep + sizeof DOTS - 1);
	size_t now = strlen(s + open + 1);
	s[close] = '>';
	memmove(s + open + 1 + now, s + close, strlen(s + close) + 1);
}

/* Cut the middle of s to width w: head and tail around "...". */
static void cut_middle(char *s, size_t w)
{
	size_t n = profdb__utf8_width(s), head, tail, hb, tb, len;
	if (n <= w)
		return;
	head = (w - (sizeof DOTS - 1) + 1) / 2;
	tail = w - (sizeof DOTS - 1) - head;
	hb = char_offset(s, head);
	tb = char_offset(s, n - tail);
	len = strlen(s);
	memmove(s + hb + sizeof DOTS - 1, s + tb, len - tb + 1);
	memcpy(s + hb, DOTS, sizeof DOTS - 1);
}

/* Keep the head of s and its tail from byte `from` (an elided "(...)"),
 * "..." between, in width w: names that share an argument list differ in
 * their head (ncclDevKernel_AllReduce_... vs _AllGather_...). */
static void cut_head(char *s, size_t w, size_t from)
{
	size_t tail = profdb__utf8_width(s + from), hb;
	if (w < tail + 2 * (sizeof DOTS - 1)) {
		cut_middle(s, w);
		return;
	}
	hb = char_offset(s, w - tail - (sizeof DOTS - 1));
	memmove(s + hb + sizeof DOTS - 1, s + from, strlen(s + from) + 1);
	memcpy(s + hb, DOTS, sizeof DOTS - 1);
}

void profdb__name_shorten(char *s, size_t w)
{
	int args;
	if (profdb__utf8_width(s) <= w || w < sizeof DOTS)
		return;
	args = drop_args(s);
	if (profdb__utf8_width(s) > w)
		drop_scopes(s);
	for (size_t level = max_depth(s); level > 1 && profdb__utf8_width(s) > w; level--)
		drop_templates(s, level);
	if (profdb__utf8_width(s) > w)
		trim_outer(s, w);
	if (profdb__utf8_width(s) <= w)
		return;
	/* the argument list went: what is left to tell apart is the head */
	if (args && strlen(s) > 5 && strcmp(s + strlen(s) - 5, "(" DOTS ")") == 0)
		cut_head(s, w, strlen(s) - 5);
	else
		cut_middle(s, w);
}
