/* ingest_ascend_db.c - placeholder, being written */
#include "internal.h"

int profdb_read_ascend_db(const struct profdb_reader_ctx *ctx)
{
	return profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: Ascend DB reader not written yet", ctx->path);
}
