/*
 * basename.c - the base name of a kernel: its name without the parts that
 * differ between instances of the same kernel, so `--by base-name` groups
 * them.  The store computes it once per distinct name at ingest
 * (kernel.base_id, indexed); SQL has it as base_name(s).
 *
 * Rules, applied to names that look like C++ signatures (they contain "::"
 * or "<", or a "(" right after an identifier: CUDA/ROCm kernels):
 *  C1. a trailing " [clone ...]" (ROCm) and a trailing " const" go;
 *  C2. a trailing parameter list "(...)" goes;
 *  C3. every template argument list "<...>" goes (with what it contains);
 *  C4. a return type goes: what stays is the text after the last space
 *      outside brackets, the namespace-qualified function name:
 *        void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)
 *          -> at::native::vectorized_elementwise_kernel
 *        void (anonymous namespace)::softmax_warp_forward<...>(...)
 *          -> (anonymous namespace)::softmax_warp_forward
 *  Unbalanced brackets leave the name unchanged.
 *
 * Other names (Ascend/GE kernels, memcpy/memset, plain CUDA names):
 *  A1. trailing numeric instance groups "_N" or "-N" go, repeatedly, then
 *      trailing underscores: hcom_allReduce__868_0_1 -> hcom_allReduce,
 *      trans_TransData_0 -> trans_TransData, triton_poi_fused_add_0 ->
 *      triton_poi_fused_add (the trade-off: a trailing "_128" tile size
 *      goes too);
 *  A2. a CamelCase op name (a capital letter, then only letters and
 *      digits) loses the digits glued to its end: ZerosLike46 -> ZerosLike,
 *      ReduceSum7 -> ReduceSum, Conv2D1 -> Conv2D (Conv2D itself does not
 *      end in a digit and stays), except
 *        - a version suffix "V<digits>" after a letter stays: GatherV2,
 *          MatMulV3 (GatherV21 also stays: instance or version is
 *          ambiguous there, and the name is kept whole);
 *        - op names whose own name ends in digits keep them: Atan2, Expm1,
 *          Relu6, Exp2, Log2, Log10 (Relu63 -> Relu6).
 *  Names with spaces ("Memcpy HtoD (Pageable -> Device)") match neither
 *  C-rule trigger nor A2 and keep their text (A1 only at the very end).
 * A rule never empties a name: then the name stays as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "banned.h"

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int looks_cpp(const char *s)
{
	if (strstr(s, "::") || strchr(s, '<'))
		return 1;
	for (const char *p = strchr(s, '('); p; p = strchr(p + 1, '('))
		if (p > s && is_ident(p[-1]))
			return 1;
	return 0;
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* C1 + C2 on buf[0..*n): returns -1 on unbalanced parentheses. */
static int strip_tail(char *buf, size_t *n)
{
	size_t len = *n;
	if (len && buf[len - 1] == ']') {
		for (size_t i = len; i-- > 1;)
			if (buf[i] == '[' && buf[i - 1] == ' ') {
				len = i - 1;
				break;
			}
	}
	while (len && buf[len - 1] == ' ')
		len--;
	if (ends_with(buf, len, " const"))
		len -= 6;
	if (len && buf[len - 1] == ')') {
		int depth = 0;
		size_t i = len;
		while (i-- > 0) {
			if (buf[i] == ')')
				depth++;
			else if (buf[i] == '(' && --depth == 0)
				break;
		}
		if (depth != 0)
			return -1;
		/* a parameter list follows a name or a template argument list */
		if (i > 0 && (is_ident(buf[i - 1]) || buf[i - 1] == '>'))
			len = i;
	}
	*n = len;
	return 0;
}

/* C3: drop <...> groups from buf[0..n) into out; returns the new length or -1. */
static long strip_templates(const char *buf, size_t n, char *out)
{
	size_t o = 0;
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		if (c == '-' && i + 1 < n && buf[i + 1] == '>') {
			/* "->" is an arrow, not a closing bracket */
			if (depth == 0) {
				out[o++] = c;
				out[o++] = '>';
			}
			i++;
			continue;
		}
		if (c == '<') {
			depth++;
			continue;
		}
		if (c == '>') {
			if (depth == 0)
				return -1;
			depth--;
			continue;
		}
		if (depth == 0)
			out[o++] = c;
	}
	if (depth != 0)
		return -1;
	out[o] = '\0';
	return (long)o;
}

/* C4: the text after the last space outside (), {}, []. */
static const char *after_return_type(const char *s)
{
	const char *start = s;
	int depth = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '(' || *p == '{' || *p == '[')
			depth++;
		else if ((*p == ')' || *p == '}' || *p == ']') && depth > 0)
			depth--;
		else if (*p == ' ' && depth == 0 && p[1])
			start = p + 1;
	}
	return start;
}

/* The C rules; returns 0 with out filled, -1 to fall back to the name. */
static int cpp_base(const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);
	char *buf = malloc(n + 1), *tmp = malloc(n + 1);
	const char *base;
	int rc = -1;

	if (!buf || !tmp)
		goto out;
	memcpy(buf, name, n + 1);
	if (strip_tail(buf, &n) != 0)
		goto out;
	if (strip_templates(buf, n, tmp) < 0)
		goto out;
	base = after_return_type(tmp);
	if (!*base)
		goto out;
	snprintf(out, cap, "%s", base);
	rc = 0;
out:
	free(buf);
	free(tmp);
	return rc;
}

/* Op names whose own name ends in digits (rule A2), longest first. */
static const char *const digit_ops[] = { "Log10", "Atan2", "Expm1", "Relu6", "Exp2", "Log2", NULL };

/* A2 on out[0..*n). */
static void strip_camel_digits(char *out, size_t *n)
{
	size_t len = *n, d = len;
	if (len < 2 || !(out[0] >= 'A' && out[0] <= 'Z'))
		return;
	for (size_t i = 0; i < len; i++)
		if (!is_ident(out[i]) || out[i] == '_')
			return;
	while (d > 0 && is_digit(out[d - 1]))
		d--;
	if (d == len || d == 0)
		return;
	if (out[d - 1] == 'V' && d >= 2 && !is_digit(out[d - 2]))
		return;
	for (size_t e = 0; digit_ops[e]; e++) {
		size_t k = strlen(digit_ops[e]);
		if (k <= len && memcmp(out, digit_ops[e], k) == 0) {
			size_t i = k;
			while (i < len && is_digit(out[i]))
				i++;
			if (i == len) {
				*n = k;
				return;
			}
		}
	}
	*n = d;
}

void profdb__base_name(const char *name, char *out, size_t cap)
{
	size_t n, orig;

	if (cap == 0)
		return;
	if (looks_cpp(name) && cpp_base(name, out, cap) == 0)
		return;
	snprintf(out, cap, "%s", name);
	n = orig = strlen(out);
	/* A1: "_N" / "-N" groups at the end, then trailing underscores */
	for (;;) {
		size_t d = n;
		while (d > 0 && is_digit(out[d - 1]))
			d--;
		if (d == n || d < 2 || (out[d - 1] != '_' && out[d - 1] != '-'))
			break;
		n = d - 1;
	}
	if (n != orig)
		while (n > 1 && out[n - 1] == '_')
			n--;
	strip_camel_digits(out, &n);
	if (n == 0)
		n = orig;
	out[n] = '\0';
}
