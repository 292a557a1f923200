/*
 * ascend_csv.h - what the files of the Ascend text-export reader share:
 * ingest_ascend_csv.c (folder + kernel_details.csv), ingest_ascend_tables.c
 * (operator_details, step_trace_time, op_statistic) and
 * ingest_ascend_meta.c (profiler_info / profiler_metadata, rank) and
 * ingest_ascend_comm.c (communication.json, communication_matrix.json).
 */
#ifndef PROFDB_ASCEND_CSV_H
#define PROFDB_ASCEND_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "csv_reader.h"

/* The largest summary file (op_statistic, step_trace_time, the JSON files)
 * whose bytes are kept in source_file.content for 'verify'. */
#define ASCEND_CONTENT_MAX ((size_t)8 << 20)

/* What every file of one export shares. */
struct profdb__ascend_src {
	const struct profdb_reader_ctx *ctx;
	int64_t rank;              /* resolved rank of the export */
	int mindspore;             /* names are "<launch op>/<kernel>" (MindSpore) */
	uint64_t done_before;      /* bytes of this export's files already read
	                            * (progress is reported per export, not per file) */
};

/* One kernel_details.csv (or msprof op_summary with its raw column names). */
int profdb__ascend_read_kernels(const struct profdb__ascend_src *src, const char *path);
/* operator_details.csv: one host op per row. */
int profdb__ascend_read_operators(const struct profdb__ascend_src *src, const char *path);
/* step_trace_time.csv: step metrics and step numbers. */
int profdb__ascend_read_step_trace(const struct profdb__ascend_src *src, const char *path);
/* op_statistic.csv: kept whole (content) for verify, rows counted. */
int profdb__ascend_read_op_statistic(const struct profdb__ascend_src *src, const char *path);
/* communication.json and communication_matrix.json: the HCCL ops' times
 * and bytes per transport, and the links between ranks
 * (ingest_ascend_comm.c). */
int profdb__ascend_read_comm(const struct profdb__ascend_src *src, const char *path);
int profdb__ascend_read_comm_matrix(const struct profdb__ascend_src *src, const char *path);
/* analysis.db: its communication tables when comm (the folder has no
 * communication*.json), its StepTraceTime when steps (no
 * step_trace_time.csv) (ingest_ascend_analysis.c). */
int profdb__ascend_read_analysis(const struct profdb__ascend_src *src, const char *path, int comm, int steps);
/* memory_record.csv: the allocator's totals per component, into the
 * memory table (ingest_ascend_memory.c). */
int profdb__ascend_read_memory_record(const struct profdb__ascend_src *src, const char *path);
/* operator_memory.csv: the blocks each operator allocated, into the
 * op_memory table (ingest_ascend_memory.c). */
int profdb__ascend_read_operator_memory(const struct profdb__ascend_src *src, const char *path);
/* npu_module_mem.csv: each CANN module's reserved bytes, samples of the
 * memory table (ingest_ascend_memory.c). */
int profdb__ascend_read_npu_module_mem(const struct profdb__ascend_src *src, const char *path);
/* trace_view.json: its device events, when the export has no kernel
 * table (ingest_ascend_trace_view.c). */
int profdb__ascend_read_trace_view(const struct profdb__ascend_src *src, const char *path);

/*
 * Read the profiler_info*.json and profiler_metadata.json of an export
 * folder: sources with their content, run_meta rows, and the rank
 * (rank_id, else the N of profiler_info_N.json, else "rank<N>" in the folder
 * name, else ctx->rank, else 0) and MindSpore dialect into src.  The
 * sources are sent after the rank is known.
 */
int profdb__ascend_read_meta(struct profdb__ascend_src *src, const char *folder);

/* Stream one CSV of the export through fn as a source of this role
 * (source_begin, rows, source_end with the row count less the header).
 * "PATH: empty file" when it has no row at all. */
int profdb__ascend_stream_csv(const struct profdb__ascend_src *src, const char *path, const char *role,
                      profdb__csv_row_fn fn, void *arg);
/* The same for a small summary file whose bytes are kept as the source's
 * content (up to ASCEND_CONTENT_MAX; larger files are streamed). */
int profdb__ascend_small_csv(const struct profdb__ascend_src *src, const char *path, const char *role,
                     profdb__csv_row_fn fn, void *arg);

/* Read a whole small file (at most max bytes) with its SHA-256; *out is the
 * caller's (free) and NUL-terminated.  Returns 1, reading nothing and
 * leaving err alone, when the file is larger than max; errors as
 * profdb_input_*. */
int profdb__ascend_slurp(const char *path, size_t max, uint64_t gzip_max, unsigned char **out, size_t *len,
                 char sha[65], uint64_t *size, struct profdb_err *err);

/* Is the Name column of this header "<launch op>/<kernel>"?  Folder (or a
 * path below it) named *_ascend_ms. */
int profdb__ascend_path_is_mindspore(const char *path);

/* If header fields look like a Cambricon torch_mlu table, fill err with
 * "LABEL:1: this is a Cambricon torch_mlu FILE (header '...'), which profdb
 * does not read" and return PROFDB_EFORMAT; else PROFDB_OK. */
int profdb__ascend_refuse_cambricon(char *const *field, size_t n, const char *label, const char *what,
                            struct profdb_err *err);

#endif
