/* ingest_ascend_csv.c - placeholder, being written */
#include "internal.h"

int profdb_read_ascend_folder(const struct profdb_reader_ctx *ctx)
{
	return profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: Ascend CSV reader not written yet", ctx->path);
}

int profdb_read_kernel_details(const struct profdb_reader_ctx *ctx)
{
	return profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: Ascend CSV reader not written yet", ctx->path);
}
