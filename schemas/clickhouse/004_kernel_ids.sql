-- 004_kernel_ids.sql - kernel rows carry ids, not text (issue 19, push
-- speed).  A kernel row named ~15 texts (names, type, core, shapes, dtypes,
-- formats) repeated in every row: ~500 bytes of RowBinary whose parsing,
-- and sorting by name (memcmp, ColumnString::permute), made most of the
-- server's 3-4.5 s of CPU per million rows.  Now:
--  - kernel_ids holds the rows with each text as a UInt32 id (0: NULL), dense
--    per run (1, 2, ... in the order push first meets them): the server
--    parses integers (measured: half the server CPU of the text rows for
--    the same 200 k rows).  It is ordered by (run_id, seq), the order push
--    reads a run's kernels in (their SQLite ids), so the server finds each
--    part already sorted and skips the sort and the permutation of its 36
--    columns: a push of 1 M kernel rows took 2.3-2.6 s of server CPU, 3.3-3.8 s
--    ordered by (run_id, name_id, rank, seq) as this file had it first
--    (bench/results.md, 2026-12-03 push in the stored order).  A database
--    made before keeps that order: it reads the same (no query relies on
--    it), only its pushes cost the server more;
--  - kernel_str holds each run's texts once: (run_id, id, text);
--  - kernel is a VIEW with the old columns (text, NULL for id 0), so
--    `profdb sql` and Distributed tables see the table they saw before.  It
--    joins every run's dictionary (a per-run array, so one join whatever
--    the columns) and reads every run: profdb's own queries read
--    kernel_ids and map ids after grouping (ch_kernel.c).
-- kernel_step_stat (the per-step totals diff pulls) is stored the same way
-- (kernel_step_stat_ids, names through the same dictionary, a view of the
-- old name), so diff and pull move integers, not a name per row.
-- A database holding runs pushed before this schema is refused, not
-- converted (ch_schema.c): its runs are pushed again from their SQLite
-- files into a new database.  One holding none is converted here: the old
-- kernel and kernel_step_stat tables (empty) are dropped for the views.

CREATE TABLE IF NOT EXISTS kernel_ids (
  run_id         UInt64,
  seq            Int64,
  rank           Int64,
  device         Nullable(Int64),
  stream         Nullable(Int64),
  step           Nullable(Int64),
  name_id        UInt32,
  base_id        UInt32,
  kind           Int64,
  type_id        UInt32,
  core_id        UInt32,
  start_ns       Int64,
  dur_ns         Int64,
  wait_ns        Nullable(Int64),
  task_id        Nullable(Int64),
  model_id       Nullable(Int64),
  context_id     Nullable(Int64),
  correlation    Nullable(Int64),
  external_id    Nullable(Int64),
  block_dim      Nullable(Int64),
  mix_block_dim  Nullable(Int64),
  grid_id        UInt32,
  block_id       UInt32,
  registers      Nullable(Int64),
  shared_mem     Nullable(Int64),
  bytes          Nullable(Int64),
  op_state_id    UInt32,
  hf32           Nullable(Int64),
  in_shapes_id   UInt32,
  in_dtypes_id   UInt32,
  in_formats_id  UInt32,
  out_shapes_id  UInt32,
  out_dtypes_id  UInt32,
  out_formats_id UInt32,
  launch_op_id   UInt32,
  metrics        Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, seq);

CREATE TABLE IF NOT EXISTS kernel_str (
  run_id UInt64,
  id     UInt32,
  text   String
) ENGINE = MergeTree ORDER BY (run_id, id);

DROP TABLE IF EXISTS kernel;

CREATE VIEW IF NOT EXISTS kernel AS SELECT run_id, seq, rank, device, stream, step,
  d[name_id] AS name, d[base_id] AS base_name, kind,
  if(type_id = 0, NULL, d[type_id]) AS type, if(core_id = 0, NULL, d[core_id]) AS core,
  start_ns, dur_ns, wait_ns, task_id, model_id, context_id, correlation, external_id,
  block_dim, mix_block_dim,
  if(grid_id = 0, NULL, d[grid_id]) AS grid, if(block_id = 0, NULL, d[block_id]) AS block,
  registers, shared_mem, bytes,
  if(op_state_id = 0, NULL, d[op_state_id]) AS op_state, hf32,
  if(in_shapes_id = 0, NULL, d[in_shapes_id]) AS in_shapes,
  if(in_dtypes_id = 0, NULL, d[in_dtypes_id]) AS in_dtypes,
  if(in_formats_id = 0, NULL, d[in_formats_id]) AS in_formats,
  if(out_shapes_id = 0, NULL, d[out_shapes_id]) AS out_shapes,
  if(out_dtypes_id = 0, NULL, d[out_dtypes_id]) AS out_dtypes,
  if(out_formats_id = 0, NULL, d[out_formats_id]) AS out_formats,
  if(launch_op_id = 0, NULL, d[launch_op_id]) AS launch_op, metrics
FROM kernel_ids ANY LEFT JOIN (SELECT run_id, arrayMap(x -> x.2, arraySort(groupArray((id, text)))) AS d
  FROM kernel_str GROUP BY run_id) USING run_id;

CREATE TABLE IF NOT EXISTS kernel_step_stat_ids (
  run_id    UInt64,
  seq       Int64,
  rank      Int64,
  step      Nullable(Int64),
  name_id   UInt32,
  base_id   UInt32,
  kind      Int64,
  calls     Int64,
  total_ns  Int64
) ENGINE = MergeTree ORDER BY (run_id, name_id, rank, seq);

DROP TABLE IF EXISTS kernel_step_stat;

CREATE VIEW IF NOT EXISTS kernel_step_stat AS SELECT run_id, seq, rank, step,
  d[name_id] AS name, d[base_id] AS base_name, kind, calls, total_ns
FROM kernel_step_stat_ids ANY LEFT JOIN (SELECT run_id, arrayMap(x -> x.2, arraySort(groupArray((id, text)))) AS d
  FROM kernel_str GROUP BY run_id) USING run_id;
