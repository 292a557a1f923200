/* ingest_kineto.c - placeholder, being written */
#include "internal.h"

int profdb_read_kineto(const struct profdb_reader_ctx *ctx)
{
	return profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: Kineto reader not written yet", ctx->path);
}
