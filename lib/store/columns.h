/*
 * columns.h - the columns of each batched table (kernel, launch, op,
 * kernel_coll), each described once.
 *
 * A column list is an X-macro: X(COL, "sql name", HOW, field).  From it
 * come the column string the batch INSERTs name, the column count, the
 * bind positions (enum constants KERNEL_COL_*, ...), the record's string
 * fields the queue sink copies (qsink.c) and the binds of the plain
 * fields.  Adding a column is one line here (and its migration): a
 * position kept in sync by hand in three files hands a wrong value, or a
 * borrowed pointer to another thread, to the column beside it.
 *
 * HOW says where a column's value comes from:
 *   INT   the record's field, never PROFDB_NULL (profdb__batch_int)
 *   I64   the record's field, PROFDB_NULL stored as NULL (profdb__batch_i64)
 *   STR   the record's string field, interned: the column holds its str id
 *   NAME  the record's string field, bound by hand (the kernel's name and
 *         base name are interned as a pair) but copied by the queue sink
 *   SET   not a field of the record (ids, run, rank, step): bound by hand
 * The field of a SET column is never expanded (write `_`).
 *
 * The order of a list is the order of the table's columns and the order
 * STR fields are interned in: str ids are given out in that order, and
 * stored databases are compared byte for byte across ingest paths.
 */
#ifndef PROFDB_STORE_COLUMNS_H
#define PROFDB_STORE_COLUMNS_H

#define PROFDB__KERNEL_COLUMNS(X) \
	X(ID, "id", SET, _) \
	X(RUN_ID, "run_id", SET, _) \
	X(RANK, "rank", SET, _) \
	X(DEVICE, "device", I64, device) \
	X(STREAM, "stream", I64, stream) \
	X(STEP, "step", SET, _) \
	X(NAME_ID, "name_id", NAME, name) \
	X(BASE_ID, "base_id", SET, _) \
	X(KIND, "kind", INT, kind) \
	X(TYPE_ID, "type_id", STR, type) \
	X(CORE_ID, "core_id", STR, core) \
	X(START_NS, "start_ns", INT, start_ns) \
	X(DUR_NS, "dur_ns", INT, dur_ns) \
	X(WAIT_NS, "wait_ns", I64, wait_ns) \
	X(TASK_ID, "task_id", I64, task_id) \
	X(MODEL_ID, "model_id", I64, model_id) \
	X(CONTEXT_ID, "context_id", I64, context_id) \
	X(CORRELATION, "correlation", I64, correlation) \
	X(EXTERNAL_ID, "external_id", I64, external_id) \
	X(BLOCK_DIM, "block_dim", I64, block_dim) \
	X(MIX_BLOCK_DIM, "mix_block_dim", I64, mix_block_dim) \
	X(GRID_ID, "grid_id", STR, grid) \
	X(BLOCK_ID, "block_id", STR, block) \
	X(REGISTERS, "registers", I64, registers) \
	X(SHARED_MEM, "shared_mem", I64, shared_mem) \
	X(BYTES, "bytes", I64, bytes) \
	X(OP_STATE_ID, "op_state_id", STR, op_state) \
	X(HF32, "hf32", I64, hf32) \
	X(IN_SHAPES_ID, "in_shapes_id", STR, in_shapes) \
	X(IN_DTYPES_ID, "in_dtypes_id", STR, in_dtypes) \
	X(IN_FORMATS_ID, "in_formats_id", STR, in_formats) \
	X(OUT_SHAPES_ID, "out_shapes_id", STR, out_shapes) \
	X(OUT_DTYPES_ID, "out_dtypes_id", STR, out_dtypes) \
	X(OUT_FORMATS_ID, "out_formats_id", STR, out_formats) \
	X(LAUNCH_OP_ID, "launch_op_id", STR, launch_op) \
	X(METRICS, "metrics", SET, _)

/* rowid, not id: launch ids are not referenced, the rowid is the key */
#define PROFDB__LAUNCH_COLUMNS(X) \
	X(ID, "rowid", SET, _) \
	X(RUN_ID, "run_id", SET, _) \
	X(RANK, "rank", SET, _) \
	X(CORRELATION, "correlation", INT, correlation) \
	X(TID, "tid", I64, tid) \
	X(START_NS, "start_ns", INT, start_ns) \
	X(DUR_NS, "dur_ns", INT, dur_ns) \
	X(NAME_ID, "name_id", STR, name) \
	X(EXTERNAL_ID, "external_id", I64, external_id)

/*
 * Ops nested by the store (store_ops.c) are bound from the nesting's own
 * row, by these positions; the list's HOW serves the ops a reader nested
 * (on_op in store.c) and the queue sink.
 */
#define PROFDB__OP_COLUMNS(X) \
	X(ID, "id", SET, _) \
	X(RUN_ID, "run_id", SET, _) \
	X(RANK, "rank", SET, _) \
	X(STEP, "step", I64, step) \
	X(NAME_ID, "name_id", NAME, name) \
	X(CATEGORY_ID, "category_id", STR, category) \
	X(TID, "tid", I64, tid) \
	X(START_NS, "start_ns", I64, start_ns) \
	X(DUR_NS, "dur_ns", I64, dur_ns) \
	X(SELF_NS, "self_ns", I64, self_ns) \
	X(DEVICE_SELF_NS, "device_self_ns", I64, device_self_ns) \
	X(DEVICE_TOTAL_NS, "device_total_ns", I64, device_total_ns) \
	X(DEVICE_SELF_AICORE_NS, "device_self_aicore_ns", I64, device_self_aicore_ns) \
	X(DEVICE_TOTAL_AICORE_NS, "device_total_aicore_ns", I64, device_total_aicore_ns) \
	X(EXTERNAL_ID, "external_id", I64, external_id) \
	X(SEQ, "seq", I64, seq) \
	X(IN_SHAPES_ID, "in_shapes_id", STR, in_shapes) \
	X(IN_TYPES_ID, "in_types_id", STR, in_types) \
	X(CALL_STACK_ID, "call_stack_id", STR, call_stack) \
	X(IN_CONCRETE_ID, "in_concrete_id", STR, in_concrete)

/* Collective args are few and kept as plain text (TEXT), not interned. */
#define PROFDB__COLL_COLUMNS(X) \
	X(KERNEL_ID, "kernel_id", SET, _) \
	X(COLLECTIVE, "collective", TEXT, collective) \
	X(IN_NELEMS, "in_nelems", I64, in_nelems) \
	X(OUT_NELEMS, "out_nelems", I64, out_nelems) \
	X(DTYPE, "dtype", TEXT, dtype) \
	X(GROUP_SIZE, "group_size", I64, group_size) \
	X(PG_NAME, "pg_name", TEXT, pg_name) \
	X(PG_DESC, "pg_desc", TEXT, pg_desc) \
	X(PG_RANKS, "pg_ranks", TEXT, pg_ranks)

#define PROFDB__COL_ENUM_KERNEL(c, sql, how, f) KERNEL_COL_##c,
#define PROFDB__COL_ENUM_LAUNCH(c, sql, how, f) LAUNCH_COL_##c,
#define PROFDB__COL_ENUM_OP(c, sql, how, f) OP_COL_##c,
#define PROFDB__COL_ENUM_COLL(c, sql, how, f) COLL_COL_##c,
enum { PROFDB__KERNEL_COLUMNS(PROFDB__COL_ENUM_KERNEL) KERNEL_NCOLS };
enum { PROFDB__LAUNCH_COLUMNS(PROFDB__COL_ENUM_LAUNCH) LAUNCH_NCOLS };
enum { PROFDB__OP_COLUMNS(PROFDB__COL_ENUM_OP) OP_NCOLS };
enum { PROFDB__COLL_COLUMNS(PROFDB__COL_ENUM_COLL) COLL_NCOLS };

/* ", a, b, c": the column string is this past its first two characters */
#define PROFDB__COL_SQL(c, sql, how, f) ", " sql

/* offsetof of each string field (STR, NAME, TEXT) of a record type, a
 * comma after each */
#define PROFDB__COL_OFF_(how, T, f) PROFDB__COL_OFF_##how(T, f)
#define PROFDB__COL_OFF_SET(T, f)
#define PROFDB__COL_OFF_INT(T, f)
#define PROFDB__COL_OFF_I64(T, f)
#define PROFDB__COL_OFF_STR(T, f) offsetof(T, f),
#define PROFDB__COL_OFF_NAME(T, f) offsetof(T, f),
#define PROFDB__COL_OFF_TEXT(T, f) offsetof(T, f),
#define PROFDB__COL_OFF_KERNEL(c, sql, how, f) PROFDB__COL_OFF_(how, struct profdb_kernel_rec, f)
#define PROFDB__COL_OFF_LAUNCH(c, sql, how, f) PROFDB__COL_OFF_(how, struct profdb_launch_rec, f)
#define PROFDB__COL_OFF_OP(c, sql, how, f) PROFDB__COL_OFF_(how, struct profdb_op_rec, f)
#define PROFDB__COL_OFF_COLL(c, sql, how, f) PROFDB__COL_OFF_(how, struct profdb_coll_rec, f)

#endif
