/*
 * cli_limits.c - the library's limits (struct profdb_limits) and remote
 * settings (struct profdb_remote_opts) from the environment.  The library
 * takes them from its caller only; the command line lets tests and
 * benchmarks lower the limits, each through the variable named here, on
 * every handle it opens.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "cmd.h"

static const struct {
	const char *env;
	size_t off;
} vars[] = {
#define VAR(env, field) { env, offsetof(struct profdb_limits, field) }
	VAR("PROFDB_GZIP_MAX_BYTES", gzip_max_bytes),
	VAR("PROFDB_BUSY_TIMEOUT_MS", busy_timeout_ms),
	VAR("PROFDB_INTERN_CACHED", intern_cached),
	VAR("PROFDB_NAME_STATS_VALUES", name_stats_values),
	VAR("PROFDB_NAME_STATS_NAMES", name_stats_names),
	VAR("PROFDB_NAME_STATS_BYTES", name_stats_bytes),
	VAR("PROFDB_KSTEP_SEG_WORK", kstep_seg_work),
	VAR("PROFDB_OPS_HELD_BYTES", ops_held_bytes),
	VAR("PROFDB_LINK_CALLS_MAX", link_calls_max),
	VAR("PROFDB_COMM_MAX_BYTES", comm_max_bytes),
	VAR("PROFDB_HOLD_BYTES", hold_bytes),
	VAR("PROFDB_IDLE_HOLD", idle_hold),
	VAR("PROFDB_DIFF_ROWS", diff_rows),
	VAR("PROFDB_DIFF_BYTES", diff_bytes),
	VAR("PROFDB_DIFF_BOOTSTRAP_DRAWS", diff_bootstrap_draws),
	VAR("PROFDB_PUSH_SPLIT_ROWS", push_split_rows),
	VAR("PROFDB_STEP_SUMS_CELLS", step_sums_cells),
#undef VAR
};

/* The variable's value when it is a whole number from 1 to most, else
 * most: a limit is lowered, never raised, and a typo keeps the bound. */
static uint64_t lowered(const char *name, uint64_t most)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;
	if (!s || !*s)
		return most;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > most)
		return most;
	return v;
}

void cli_limits_from_env(struct profdb_limits *l)
{
	const char *streams = getenv("PROFDB_PUSH_STREAMS");
	*l = (struct profdb_limits)PROFDB_LIMITS_INIT;
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		uint64_t *f = (uint64_t *)(void *)((char *)l + vars[i].off);
		*f = lowered(vars[i].env, *f);
	}
	/* the one limit that may be raised: 1 to PROFDB_PUSH_STREAMS_MAX when
	 * set (else the most), the built-in 2 when not */
	if (streams && *streams)
		l->push_streams = lowered("PROFDB_PUSH_STREAMS", PROFDB_PUSH_STREAMS_MAX);
}

/* --read-timeout sets the timeout (cli.c); the rest is read at each use. */
static struct profdb_remote_opts remote = PROFDB_REMOTE_OPTS_INIT;

static const char *env_set(const char *name)
{
	const char *s = getenv(name);
	return s && *s ? s : NULL;
}

const struct profdb_remote_opts *cli_remote(void)
{
	remote.password = env_set("PROFDB_CLICKHOUSE_PASSWORD");
	remote.netrc = env_set("NETRC");
	remote.cainfo = env_set("PROFDB_CLICKHOUSE_CAINFO");
	return &remote;
}

int cli_remote_timeout(int seconds)
{
	if (seconds < 1 || seconds > PROFDB_REMOTE_TIMEOUT_MAX)
		return -1;
	remote.read_timeout_s = seconds;
	return 0;
}

int cli_limits_apply(profdb *db)
{
	struct profdb_limits l;
	int rc;
	cli_limits_from_env(&l);
	if ((rc = profdb_set_limits(db, &l)) != PROFDB_OK)
		return rc;
	return profdb_set_remote(db, cli_remote());
}
