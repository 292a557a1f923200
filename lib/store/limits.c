/*
 * limits.c - profdb_set_limits: the bounds a handle works within come from
 * its caller (profdb.h, struct profdb_limits), never from the environment,
 * so two handles in one program may differ and a library user sees every
 * setting that changes what profdb does.
 */
#include <stddef.h>

#include "internal.h"
#include "banned.h"

/* Each field with its built-in value, which it may lower but not pass:
 * the documented bounds hold whatever the caller asks. */
#define LIMIT_FIELDS(X)                                                       \
	X(gzip_max_bytes) X(busy_timeout_ms) X(intern_cached) X(name_stats_values) \
	X(name_stats_names) X(name_stats_bytes) X(kstep_seg_work) X(ops_held_bytes) \
	X(link_calls_max) X(comm_max_bytes) X(hold_bytes) X(idle_hold) X(diff_rows) \
	X(diff_bytes) X(diff_bootstrap_draws) X(push_split_rows) X(step_sums_cells)

static const struct {
	const char *name;
	size_t off;
} fields[] = {
#define FIELD(f) { #f, offsetof(struct profdb_limits, f) },
	LIMIT_FIELDS(FIELD)
#undef FIELD
};
/* every field is checked: version and push_streams apart, all are in
 * LIMIT_FIELDS (the uint64_t fields follow version) */
_Static_assert(sizeof fields / sizeof fields[0] + 1 ==
               (sizeof(struct profdb_limits) - offsetof(struct profdb_limits, gzip_max_bytes)) / sizeof(uint64_t),
               "a field of struct profdb_limits is missing from LIMIT_FIELDS");

int profdb_set_limits(profdb *db, const struct profdb_limits *limits)
{
	static const struct profdb_limits built_in = PROFDB_LIMITS_INIT;
	const struct profdb_limits *l = limits ? limits : &built_in;
	if (!db)
		return PROFDB_EUSAGE;
	if (profdb__version_check(db, l->version, PROFDB_LIMITS_VERSION, "profdb_limits") != PROFDB_OK)
		return PROFDB_EUSAGE;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		uint64_t v = *(const uint64_t *)(const void *)((const char *)l + fields[i].off);
		uint64_t most = *(const uint64_t *)(const void *)((const char *)&built_in + fields[i].off);
		if (v == 0 || v > most)
			return profdb__error(db, PROFDB_EUSAGE, "limit %s: %llu is not from 1 to %llu", fields[i].name,
			                     (unsigned long long)v, (unsigned long long)most);
	}
	if (l->push_streams == 0 || l->push_streams > PROFDB_PUSH_STREAMS_MAX)
		return profdb__error(db, PROFDB_EUSAGE, "limit push_streams: %llu is not from 1 to %d",
		                     (unsigned long long)l->push_streams, PROFDB_PUSH_STREAMS_MAX);
	db->limits = *l;
	if (db->sql)
		sqlite3_busy_timeout(db->sql, (int)l->busy_timeout_ms);
	return PROFDB_OK;
}
