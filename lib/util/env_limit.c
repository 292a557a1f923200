/*
 * env_limit.c - built-in limits the environment may lower (internal.h):
 * the gzip bound, the busy timeout, the name statistics' value cap.  Its
 * own file: the input, the database and the statistics ask it, and none
 * of them owns it (it lived among the number parsers).
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "banned.h"

uint64_t profdb__env_limit(const char *name, uint64_t limit)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;
	if (!s || !*s)
		return limit;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > limit)
		return limit;
	return v;
}
