/*
 * source.c - profdb_open: the URL's scheme picks the source of the runs
 * (source.h), as curl's scheme picks a protocol handler.  A text with no
 * scheme of this table is a path: a file named "x://y" stays openable.
 * This table is the one place outside lib/clickhouse/ that names it, and
 * sits in lib/ above both sources, so neither folder names the other.
 */
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "banned.h"

static const struct {
	const char *scheme;        /* before "://" */
	const struct profdb__source *source;
	int remote;                /* read-only; the URL may hold a password */
} schemes[] = {
	{ "file", &profdb__source_file, 0 },
	{ "clickhouse", &profdb__source_clickhouse, 1 },
	{ "clickhouses", &profdb__source_clickhouse, 1 },
};

/* The row of url's scheme, or -1 (a path). */
static int scheme_of(const char *url)
{
	const char *colon = url ? strstr(url, "://") : NULL;
	if (!colon)
		return -1;
	for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
		if (strlen(schemes[i].scheme) == (size_t)(colon - url) &&
		    strncmp(url, schemes[i].scheme, (size_t)(colon - url)) == 0)
			return (int)i;
	return -1;
}

int profdb_is_remote(const char *url)
{
	int i = scheme_of(url);
	return i >= 0 && schemes[i].remote;
}

/* A copy of s into *to (NULL stays NULL): 0, -1 out of memory. */
static int copy_str(char **to, const char *s)
{
	*to = s ? strdup(s) : NULL;
	return s && !*to ? -1 : 0;
}

int profdb_set_remote(profdb *db, const struct profdb_remote_opts *o)
{
	struct profdb_remote_opts def = PROFDB_REMOTE_OPTS_INIT;
	struct profdb__remote r = { NULL, NULL, NULL, 0 };
	if (!o)
		o = &def;
	if (profdb__version_check(db, o->version, PROFDB_REMOTE_OPTS_VERSION, "profdb_remote_opts") != PROFDB_OK)
		return PROFDB_EUSAGE;
	if (o->read_timeout_s < 1 || o->read_timeout_s > PROFDB_REMOTE_TIMEOUT_MAX)
		return profdb__error(db, PROFDB_EUSAGE, "the read timeout must be 1 to %d seconds, not %d",
		                     PROFDB_REMOTE_TIMEOUT_MAX, o->read_timeout_s);
	if (copy_str(&r.password, o->password) || copy_str(&r.netrc, o->netrc) || copy_str(&r.cainfo, o->cainfo)) {
		free(r.password);
		free(r.netrc);
		free(r.cainfo);
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	r.read_timeout_s = o->read_timeout_s;
	free(db->remote_opts.password);
	free(db->remote_opts.netrc);
	free(db->remote_opts.cainfo);
	db->remote_opts = r;
	return PROFDB_OK;
}

int profdb_open_with(profdb **out, const char *url, const struct profdb_open_opts *o)
{
	struct profdb_open_opts def = PROFDB_OPEN_OPTS_INIT;
	profdb *db;
	int i = scheme_of(url), rc;

	*out = NULL;
	if (!(db = calloc(1, sizeof *db)))
		return PROFDB_ERROR;
	*out = db;
	if (!o)
		o = &def;
	db->limits = (struct profdb_limits)PROFDB_LIMITS_INIT;
	db->source = i < 0 ? &profdb__source_file : schemes[i].source;
	if (profdb__version_check(db, o->version, PROFDB_OPEN_OPTS_VERSION, "profdb_open_opts") != PROFDB_OK)
		return PROFDB_EUSAGE;
	if ((rc = profdb_set_remote(db, o->remote)) != PROFDB_OK)
		return rc;
	return db->source->open(db, url, o);
}

int profdb_open(profdb **out, const char *path, unsigned flags)
{
	struct profdb_open_opts o = PROFDB_OPEN_OPTS_INIT;
	o.flags = flags;
	return profdb_open_with(out, path, &o);
}
