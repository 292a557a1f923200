/*
 * ch_tables.c - which SQLite columns a run is copied from and to which
 * ClickHouse columns (schemas/clickhouse/001_tables.sql), shared by push
 * and pull so the two cannot drift; applying the ClickHouse schema; the
 * list of runs on a server.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "banned.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct profdb__ch_col run_cols[] = {
	{ "id", CH_U64, NULL, CHC_RUN_ID },
	{ "name", CH_STR, "name", 0 },
	{ "content_hash", CH_STR, NULL, CHC_HASH },
	{ "source_path", CH_STR, "source_path", 0 },
	{ "format", CH_STR, "format", 0 },
	{ "ingested_at", CH_STR, "ingested_at", 0 },
	{ "repeats", CH_I64, "repeats", 0 },
	{ "repeats_source", CH_STR, "repeats_source", 0 },
	{ "ranks", CH_I64, "ranks", 0 },
	{ "profdb_version", CH_STR, "profdb_version", 0 },
	{ "name_stats", CH_I64, "name_stats", 0 },
	{ "local_id", CH_I64, "id", CHC_SEQ },
};
const struct profdb__ch_table profdb__ch_run_table = {
	"run", "run t", "t.id", "t.id", run_cols, N(run_cols), NULL, NULL
};

static const struct profdb__ch_col meta_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "rowid", CHC_SEQ },
	{ "rank", CH_NI64, "rank", 0 },
	{ "key", CH_STR, "key", 0 },
	{ "value", CH_NSTR, "value", 0 },
};
static const struct profdb__ch_col source_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "id", CH_I64, "id", CHC_SRC_DEF },
	{ "rank", CH_NI64, "rank", 0 },
	{ "path", CH_STR, "path", 0 },
	{ "role", CH_STR, "role", 0 },
	{ "size", CH_I64, "size", 0 },
	{ "sha256", CH_NSTR, "sha256", 0 },
	{ "rows_read", CH_I64, "rows_read", 0 },
	{ "rows_stored", CH_I64, "rows_stored", 0 },
	{ "rows_skipped", CH_I64, "rows_skipped", 0 },
	{ "rows_kernels", CH_I64, "rows_kernels", 0 },
	{ "rows_ops", CH_I64, "rows_ops", 0 },
	{ "rows_launches", CH_I64, "rows_launches", 0 },
	{ "content", CH_NSTR, "content", CHC_BLOB },
};
static const struct profdb__ch_col skip_cols[] = {
	{ "run_id", CH_U64, NULL, CHC_RUN_ID }, /* SQLite: through source_id */
	{ "source_id", CH_I64, "source_id", CHC_SRC_REF },
	{ "reason", CH_STR, "reason", 0 },
	{ "count", CH_I64, "count", 0 },
	{ "first_line", CH_NI64, "first_line", 0 },
};
static const struct profdb__ch_col note_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "rowid", CHC_SEQ },
	{ "note", CH_STR, "note", 0 },
};
static const struct profdb__ch_col kernel_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "id", CHC_SEQ | CHC_ID_DEF }, /* kernel_coll points here */
	{ "rank", CH_I64, "rank", 0 },
	{ "device", CH_NI64, "device", 0 },
	{ "stream", CH_NI64, "stream", 0 },
	{ "step", CH_NI64, "step", 0 },
	{ "name", CH_STR, "name_id", CHC_STR_REF | CHC_DICT },
	{ "base_name", CH_STR, "base_id", CHC_STR_REF | CHC_DICT },
	{ "kind", CH_I64, "kind", 0 },
	{ "type", CH_NSTR, "type_id", CHC_STR_REF | CHC_DICT },
	{ "core", CH_NSTR, "core_id", CHC_STR_REF | CHC_DICT },
	{ "start_ns", CH_I64, "start_ns", 0 },
	{ "dur_ns", CH_I64, "dur_ns", 0 },
	{ "wait_ns", CH_NI64, "wait_ns", 0 },
	{ "task_id", CH_NI64, "task_id", 0 },
	{ "model_id", CH_NI64, "model_id", 0 },
	{ "context_id", CH_NI64, "context_id", 0 },
	{ "correlation", CH_NI64, "correlation", 0 },
	{ "external_id", CH_NI64, "external_id", 0 },
	{ "block_dim", CH_NI64, "block_dim", 0 },
	{ "mix_block_dim", CH_NI64, "mix_block_dim", 0 },
	{ "grid", CH_NSTR, "grid_id", CHC_STR_REF | CHC_DICT },
	{ "block", CH_NSTR, "block_id", CHC_STR_REF | CHC_DICT },
	{ "registers", CH_NI64, "registers", 0 },
	{ "shared_mem", CH_NI64, "shared_mem", 0 },
	{ "bytes", CH_NI64, "bytes", 0 },
	{ "op_state", CH_NSTR, "op_state_id", CHC_STR_REF | CHC_DICT },
	{ "hf32", CH_NI64, "hf32", 0 },
	{ "in_shapes", CH_NSTR, "in_shapes_id", CHC_STR_REF | CHC_DICT },
	{ "in_dtypes", CH_NSTR, "in_dtypes_id", CHC_STR_REF | CHC_DICT },
	{ "in_formats", CH_NSTR, "in_formats_id", CHC_STR_REF | CHC_DICT },
	{ "out_shapes", CH_NSTR, "out_shapes_id", CHC_STR_REF | CHC_DICT },
	{ "out_dtypes", CH_NSTR, "out_dtypes_id", CHC_STR_REF | CHC_DICT },
	{ "out_formats", CH_NSTR, "out_formats_id", CHC_STR_REF | CHC_DICT },
	{ "launch_op", CH_NSTR, "launch_op_id", CHC_STR_REF | CHC_DICT },
	{ "metrics", CH_NSTR, "metrics", 0 },
};
static const struct profdb__ch_col op_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "id", CHC_SEQ },
	{ "rank", CH_I64, "rank", 0 },
	{ "step", CH_NI64, "step", 0 },
	{ "name", CH_STR, "name_id", CHC_STR_REF },
	{ "category", CH_NSTR, "category_id", CHC_STR_REF },
	{ "tid", CH_NI64, "tid", 0 },
	{ "start_ns", CH_NI64, "start_ns", 0 },
	{ "dur_ns", CH_NI64, "dur_ns", 0 },
	{ "self_ns", CH_NI64, "self_ns", 0 },
	{ "device_self_ns", CH_NI64, "device_self_ns", 0 },
	{ "device_total_ns", CH_NI64, "device_total_ns", 0 },
	{ "device_self_aicore_ns", CH_NI64, "device_self_aicore_ns", 0 },
	{ "device_total_aicore_ns", CH_NI64, "device_total_aicore_ns", 0 },
	{ "external_id", CH_NI64, "external_id", 0 },
	{ "op_seq", CH_NI64, "seq", 0 },
	{ "in_shapes", CH_NSTR, "in_shapes_id", CHC_STR_REF },
	{ "in_types", CH_NSTR, "in_types_id", CHC_STR_REF },
	{ "in_concrete", CH_NSTR, "in_concrete_id", CHC_STR_REF },
	{ "call_stack", CH_NSTR, "call_stack_id", CHC_STR_REF },
};
static const struct profdb__ch_col launch_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "rowid", CHC_SEQ },
	{ "rank", CH_I64, "rank", 0 },
	{ "correlation", CH_I64, "correlation", 0 },
	{ "tid", CH_NI64, "tid", 0 },
	{ "start_ns", CH_I64, "start_ns", 0 },
	{ "dur_ns", CH_I64, "dur_ns", 0 },
	{ "name", CH_NSTR, "name_id", CHC_STR_REF },
	{ "external_id", CH_NI64, "external_id", 0 },
};
static const struct profdb__ch_col step_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "rank", CH_I64, "rank", 0 },
	{ "step", CH_I64, "step", 0 },
	{ "start_ns", CH_NI64, "start_ns", 0 },
	{ "end_ns", CH_NI64, "end_ns", 0 },
};
static const struct profdb__ch_col step_metric_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "rowid", CHC_SEQ },
	{ "rank", CH_I64, "rank", 0 },
	{ "step", CH_NI64, "step", 0 },
	{ "metric", CH_STR, "metric", 0 },
	{ "value", CH_NF64, "value", 0 },
};
static const struct profdb__ch_col name_stat_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "name", CH_STR, "name_id", CHC_STR_REF },
	{ "kinds", CH_I64, "kinds", 0 },
	{ "calls", CH_I64, "calls", 0 },
	{ "total_ns", CH_I64, "total_ns", 0 },
	{ "min_ns", CH_I64, "min_ns", 0 },
	{ "max_ns", CH_I64, "max_ns", 0 },
	{ "avg_ns", CH_F64, "avg_ns", 0 },
	{ "median_ns", CH_F64, "median_ns", 0 },
	{ "stddev_ns", CH_NF64, "stddev_ns", 0 },
	{ "p90_ns", CH_F64, "p90_ns", 0 },
	{ "p99_ns", CH_F64, "p99_ns", 0 },
};
static const struct profdb__ch_col step_stat_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "rowid", CHC_SEQ },
	{ "rank", CH_I64, "rank", 0 },
	{ "step", CH_NI64, "step", 0 },
	{ "name", CH_STR, "name_id", CHC_STR_REF | CHC_DICT },
	{ "base_name", CH_STR, "base_id", CHC_STR_REF | CHC_DICT },
	{ "kind", CH_I64, "kind", 0 },
	{ "calls", CH_I64, "calls", 0 },
	{ "total_ns", CH_I64, "total_ns", 0 },
};

static const struct profdb__ch_col tag_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "key", CH_STR, "key", 0 },
	{ "value", CH_STR, "value", 0 },
};

/* schema 005: positions, not ids, link a row to its kernel or op */
static const struct profdb__ch_col coll_cols[] = {
	{ "run_id", CH_U64, NULL, CHC_RUN_ID },
	{ "seq", CH_I64, "kernel_id", CHC_SEQ },
	{ "kernel_pos", CH_I64, "kernel_id", CHC_ID_REF },
	{ "collective", CH_NSTR, "collective", 0 },
	{ "in_nelems", CH_NI64, "in_nelems", 0 },
	{ "out_nelems", CH_NI64, "out_nelems", 0 },
	{ "dtype", CH_NSTR, "dtype", 0 },
	{ "group_size", CH_NI64, "group_size", 0 },
	{ "pg_name", CH_NSTR, "pg_name", 0 },
	{ "pg_desc", CH_NSTR, "pg_desc", 0 },
	{ "pg_ranks", CH_NSTR, "pg_ranks", 0 },
};
static const struct profdb__ch_col comm_op_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "id", CHC_SEQ | CHC_ID_DEF },
	{ "rank", CH_I64, "rank", 0 },
	{ "step", CH_NI64, "step", 0 },
	{ "scope", CH_STR, "scope", 0 },
	{ "op_name", CH_STR, "op_name", 0 },
	{ "group_name", CH_NSTR, "group_name", 0 },
	{ "start_ns", CH_NI64, "start_ns", 0 },
	{ "elapse_ns", CH_NI64, "elapse_ns", 0 },
	{ "transit_ns", CH_NI64, "transit_ns", 0 },
	{ "wait_ns", CH_NI64, "wait_ns", 0 },
	{ "sync_ns", CH_NI64, "sync_ns", 0 },
	{ "idle_ns", CH_NI64, "idle_ns", 0 },
	{ "wait_ratio", CH_NF64, "wait_ratio", 0 },
	{ "sync_ratio", CH_NF64, "sync_ratio", 0 },
};
static const struct profdb__ch_col comm_transport_cols[] = {
	{ "run_id", CH_U64, NULL, CHC_RUN_ID },
	{ "seq", CH_I64, "rowid", CHC_SEQ },
	{ "comm_op_pos", CH_I64, "comm_op_id", CHC_ID_REF | CHC_OF_COMM_OP },
	{ "transport", CH_STR, "transport", 0 },
	{ "bytes", CH_NI64, "bytes", 0 },
	{ "transit_ns", CH_NI64, "transit_ns", 0 },
	{ "bandwidth_gbps", CH_NF64, "bandwidth_gbps", 0 },
	{ "large_packet_ratio", CH_NF64, "large_packet_ratio", 0 },
	{ "size_distribution", CH_NSTR, "size_distribution", 0 },
};
static const struct profdb__ch_col comm_link_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "rowid", CHC_SEQ },
	{ "rank", CH_I64, "rank", 0 },
	{ "step", CH_NI64, "step", 0 },
	{ "scope", CH_STR, "scope", 0 },
	{ "matrix_op", CH_STR, "matrix_op", 0 },
	{ "group_name", CH_NSTR, "group_name", 0 },
	{ "src_rank", CH_NI64, "src_rank", 0 },
	{ "dst_rank", CH_NI64, "dst_rank", 0 },
	{ "transport", CH_NSTR, "transport", 0 },
	{ "bytes", CH_NI64, "bytes", 0 },
	{ "transit_ns", CH_NI64, "transit_ns", 0 },
	{ "bandwidth_gbps", CH_NF64, "bandwidth_gbps", 0 },
	{ "op_name", CH_NSTR, "op_name", 0 },
};
/* schema 007: the memory table of SQLite schema 012 */
static const struct profdb__ch_col memory_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "id", CHC_SEQ },
	{ "source_id", CH_NI64, "source_id", CHC_SRC_REF },
	{ "rank", CH_I64, "rank", 0 },
	{ "device_type", CH_STR, "device_type", 0 },
	{ "device_id", CH_NI64, "device_id", 0 },
	{ "component", CH_NSTR, "component", 0 },
	{ "ts_ns", CH_I64, "ts_ns", 0 },
	{ "bytes", CH_NI64, "bytes", 0 },
	{ "addr", CH_NI64, "addr", 0 },
	{ "total_allocated", CH_NI64, "total_allocated", 0 },
	{ "total_reserved", CH_NI64, "total_reserved", 0 },
	{ "total_active", CH_NI64, "total_active", 0 },
	{ "step", CH_NI64, "step", 0 },
	{ "tid", CH_NI64, "tid", 0 },
};
/* schema 008: the op_memory table of SQLite schema 014 */
static const struct profdb__ch_col op_memory_cols[] = {
	{ "run_id", CH_U64, "run_id", CHC_RUN_ID },
	{ "seq", CH_I64, "id", CHC_SEQ },
	{ "source_id", CH_NI64, "source_id", CHC_SRC_REF },
	{ "rank", CH_I64, "rank", 0 },
	{ "device_type", CH_STR, "device_type", 0 },
	{ "device_id", CH_NI64, "device_id", 0 },
	{ "name", CH_STR, "name", 0 },
	{ "bytes", CH_I64, "bytes", 0 },
	{ "alloc_ns", CH_NI64, "alloc_ns", 0 },
	{ "release_ns", CH_NI64, "release_ns", 0 },
	{ "active_release_ns", CH_NI64, "active_release_ns", 0 },
	{ "alloc_total_allocated", CH_NI64, "alloc_total_allocated", 0 },
	{ "alloc_total_reserved", CH_NI64, "alloc_total_reserved", 0 },
	{ "alloc_total_active", CH_NI64, "alloc_total_active", 0 },
	{ "release_total_allocated", CH_NI64, "release_total_allocated", 0 },
	{ "release_total_reserved", CH_NI64, "release_total_reserved", 0 },
	{ "release_total_active", CH_NI64, "release_total_active", 0 },
	{ "stream_ptr", CH_NI64, "stream_ptr", 0 },
	{ "step", CH_NI64, "step", 0 },
};

/* source_file before source_skip: pull renumbers source ids in that order. */
const struct profdb__ch_table profdb__ch_tables[] = {
	{ "run_meta", "run_meta t", "t.run_id", "t.rowid", meta_cols, N(meta_cols), NULL, NULL },
	{ "source_file", "source_file t", "t.run_id", "t.id", source_cols, N(source_cols), NULL, NULL },
	{ "source_skip", "source_skip t JOIN source_file f ON f.id = t.source_id", "f.run_id",
	  "t.source_id, t.reason", skip_cols, N(skip_cols), NULL, NULL },
	{ "run_note", "run_note t", "t.run_id", "t.rowid", note_cols, N(note_cols), NULL, NULL },
	/* Kernel rows in id order, the order kernel_ids is sorted in on the
	 * server (004_kernel_ids.sql): the server then skips the sort and the
	 * permutation of every column of each part.  The run's id range of
	 * the table itself, not the run's index and a sort: a run's ids are
	 * one range unless ingests interleaved (run_id = ?1 filters then);
	 * one query of both bounds (two subqueries in the SELECT would scan
	 * the run's index twice).
	 * The other big tables go in the order of an index on the run id:
	 * "t.id" made SQLite sort every row of the run in a temporary B-tree
	 * first (pull restores the order by seq). */
	{ "kernel", "kernel t NOT INDEXED", "t.run_id", "t.id", kernel_cols, N(kernel_cols), "kernel_ids",
	  "SELECT min(id), max(id) FROM kernel WHERE run_id = ?1" },
	{ "op", "op t", "t.run_id", "t.rank, t.tid, t.start_ns, t.id", op_cols, N(op_cols), NULL, NULL },
	{ "launch", "launch t", "t.run_id", "t.rank, t.correlation, t.rowid", launch_cols, N(launch_cols), NULL, NULL },
	{ "step", "step t", "t.run_id", "t.rank, t.step", step_cols, N(step_cols), NULL, NULL },
	{ "step_metric", "step_metric t", "t.run_id", "t.rowid", step_metric_cols,
	  N(step_metric_cols), NULL, NULL },
	{ "kernel_name_stat", "kernel_name_stat t", "t.run_id", "t.name_id", name_stat_cols,
	  N(name_stat_cols), NULL, NULL },
	{ "kernel_step_stat", "kernel_step_stat t", "t.run_id", "t.rank, t.step, t.rowid", step_stat_cols,
	  N(step_stat_cols), "kernel_step_stat_ids", NULL },
	/* last: a server of schema 1 gains the table on the next push */
	{ "run_tag", "run_tag t", "t.run_id", "t.key", tag_cols, N(tag_cols), NULL, NULL },
	/* schema 005, after the tables they point into (pull maps positions
	 * through the ids those got) */
	{ "kernel_coll", "kernel_coll t JOIN kernel k ON k.id = t.kernel_id", "k.run_id", "t.kernel_id",
	  coll_cols, N(coll_cols), NULL, NULL },
	{ "comm_op", "comm_op t", "t.run_id", "t.id", comm_op_cols, N(comm_op_cols), NULL, NULL },
	{ "comm_transport", "comm_transport t JOIN comm_op o ON o.id = t.comm_op_id", "o.run_id",
	  "t.comm_op_id, t.rowid", comm_transport_cols, N(comm_transport_cols), NULL, NULL },
	{ "comm_link", "comm_link t", "t.run_id", "t.rowid", comm_link_cols, N(comm_link_cols), NULL, NULL },
	/* schema 007, after source_file (pull maps source_id through its ids) */
	{ "memory", "memory t", "t.run_id", "t.id", memory_cols, N(memory_cols), NULL, NULL },
	{ "op_memory", "op_memory t", "t.run_id", "t.id", op_memory_cols, N(op_memory_cols), NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL }
};

unsigned profdb__ch_table_bit(const char *name)
{
	for (unsigned i = 0; profdb__ch_tables[i].name; i++)
		if (strcmp(profdb__ch_tables[i].name, name) == 0)
			return 1u << i;
	return 0;
}

int profdb__ch_store_cols(struct profdb__ch_buf *b, const struct profdb__ch_table *t)
{
	for (size_t i = 0; i < t->ncols; i++) {
		const struct profdb__ch_col *c = &t->cols[i];
		const char *name = t->store && (c->flags & CHC_DICT) ? c->sq : c->ch;
		if (i && profdb__ch_buf_add(b, ", ", 2) != 0)
			return -1;
		if (profdb__ch_buf_add(b, name, strlen(name)) != 0)
			return -1;
	}
	return profdb__ch_buf_add(b, "", 0);
}

