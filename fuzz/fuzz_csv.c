/*
 * fuzz_csv.c - fuzz the Ascend kernel_details.csv reader: the input bytes
 * are one kernel_details.csv, read through a sink that checks every record.
 */
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_sink s;
	struct profdb_reader_ctx ctx;
	int rc;

	fuzz_sink_init(&s);
	memset(&ctx, 0, sizeof ctx);
	ctx.path = fuzz_write_input("kernel_details.csv", data, size);
	ctx.rank = PROFDB_NULL;
	ctx.sink = &s.sink;
	ctx.err = &s.err;
	rc = profdb_read_kernel_details(&ctx);
	fuzz_check_error(rc, s.err.msg);
	if (rc == PROFDB_OK && s.open_sources != 0)
		fuzz_die("source_begin without source_end");
	return 0;
}
