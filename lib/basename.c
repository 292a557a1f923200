/* basename.c - placeholder normalisation, refined by the query work */
#include <stdio.h>
#include "internal.h"

void profdb_base_name(const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s", name);
}
