/*
 * schema_sql.h - the embedded schema files (schemas/NNN_*.sql and JSON Schemas), generated
 * into schema_sql.c at build time by schemas/embed.py.
 */
#ifndef PROFDB_SCHEMA_SQL_H
#define PROFDB_SCHEMA_SQL_H

struct profdb__schema_file {
	const char *name;          /* file name, e.g. "001_core.sql" */
	const char *text;          /* its bytes, NUL-terminated */
};

/* In file order; ends with { NULL, NULL }. */
extern const struct profdb__schema_file profdb__schema_files[];

#endif
