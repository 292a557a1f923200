-- 001_tables.sql - the profdb tables on a ClickHouse server, version 1.
--
-- Mirrors the SQLite store (schemas/001_core.sql, 003_bulk.sql) run by run,
-- written by `profdb push` and read by `profdb pull` and the queries with
-- --db clickhouse://.  Differences and why:
--  - run ids are random 64-bit numbers chosen by the pushing node, so many
--    nodes push at once without coordination; every row carries its run_id;
--  - text is stored in the row (String, not ids into a str table): the
--    server compresses repeats column by column, queries need no joins, and
--    18.16 allows LowCardinality only as an experimental setting;
--  - seq keeps the order of the rows in the SQLite file (their rowid), so
--    a pulled run lists in the same order;
--  - a run is visible once its run row exists: push writes it last.
-- One statement per ';' at the end of a line (sent one by one over HTTP).
-- Written for 18.16 (Debian 12): MergeTree with ORDER BY, no Nullable in
-- sorting keys.

CREATE TABLE IF NOT EXISTS run (
  id             UInt64,
  name           String,
  content_hash   String,   -- SHA-256 of what the run was ingested from (ch_push.c)
  source_path    String,
  format         String,
  ingested_at    String,
  repeats        Int64,
  repeats_source String,
  ranks          Int64,
  profdb_version String,
  name_stats     Int64,
  local_id       Int64,    -- its id in the pushing node's SQLite file (listing order)
  pushed_at      DateTime DEFAULT now()
) ENGINE = MergeTree ORDER BY (name, id);

-- One row per push attempt, written before its data: a retry finds the
-- rows an interrupted attempt left (their run_id has no run row) and
-- deletes them.
CREATE TABLE IF NOT EXISTS push_log (
  run_id       UInt64,
  content_hash String,
  name         String,
  started      DateTime DEFAULT now()
) ENGINE = MergeTree ORDER BY (content_hash, run_id);

CREATE TABLE IF NOT EXISTS run_meta (
  run_id UInt64,
  seq    Int64,
  rank   Nullable(Int64),
  key    String,
  value  Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, seq);

CREATE TABLE IF NOT EXISTS source_file (
  run_id       UInt64,
  id           Int64,
  rank         Nullable(Int64),
  path         String,
  role         String,
  size         Int64,
  sha256       Nullable(String),
  rows_read    Int64,
  rows_stored  Int64,
  rows_skipped Int64,
  rows_kernels Int64,
  rows_ops     Int64,
  rows_launches Int64,
  content      Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, id);

CREATE TABLE IF NOT EXISTS source_skip (
  run_id     UInt64,
  source_id  Int64,
  reason     String,
  count      Int64,
  first_line Nullable(Int64)
) ENGINE = MergeTree ORDER BY (run_id, source_id, reason);

CREATE TABLE IF NOT EXISTS run_note (
  run_id UInt64,
  seq    Int64,
  note   String
) ENGINE = MergeTree ORDER BY (run_id, seq);

CREATE TABLE IF NOT EXISTS kernel (
  run_id         UInt64,
  seq            Int64,
  rank           Int64,
  device         Nullable(Int64),
  stream         Nullable(Int64),
  step           Nullable(Int64),
  name           String,
  base_name      String,
  kind           Int64,
  type           Nullable(String),
  core           Nullable(String),
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
  grid           Nullable(String),
  block          Nullable(String),
  registers      Nullable(Int64),
  shared_mem     Nullable(Int64),
  bytes          Nullable(Int64),
  op_state       Nullable(String),
  hf32           Nullable(Int64),
  in_shapes      Nullable(String),
  in_dtypes      Nullable(String),
  in_formats     Nullable(String),
  out_shapes     Nullable(String),
  out_dtypes     Nullable(String),
  out_formats    Nullable(String),
  launch_op      Nullable(String),
  metrics        Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, name, rank, seq);

CREATE TABLE IF NOT EXISTS op (
  run_id                 UInt64,
  seq                    Int64,
  rank                   Int64,
  step                   Nullable(Int64),
  name                   String,
  category               Nullable(String),
  tid                    Nullable(Int64),
  start_ns               Nullable(Int64),
  dur_ns                 Nullable(Int64),
  self_ns                Nullable(Int64),
  device_self_ns         Nullable(Int64),
  device_total_ns        Nullable(Int64),
  device_self_aicore_ns  Nullable(Int64),
  device_total_aicore_ns Nullable(Int64),
  external_id            Nullable(Int64),
  op_seq                 Nullable(Int64),
  in_shapes              Nullable(String),
  in_types               Nullable(String),
  call_stack             Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, name, seq);

CREATE TABLE IF NOT EXISTS launch (
  run_id      UInt64,
  seq         Int64,
  rank        Int64,
  correlation Int64,
  tid         Nullable(Int64),
  start_ns    Int64,
  dur_ns      Int64,
  name        Nullable(String),
  external_id Nullable(Int64)
) ENGINE = MergeTree ORDER BY (run_id, rank, correlation, seq);

CREATE TABLE IF NOT EXISTS step (
  run_id   UInt64,
  rank     Int64,
  step     Int64,
  start_ns Nullable(Int64),
  end_ns   Nullable(Int64)
) ENGINE = MergeTree ORDER BY (run_id, rank, step);

CREATE TABLE IF NOT EXISTS step_metric (
  run_id UInt64,
  seq    Int64,
  rank   Int64,
  step   Nullable(Int64),
  metric String,
  value  Nullable(Float64)
) ENGINE = MergeTree ORDER BY (run_id, seq);

CREATE TABLE IF NOT EXISTS kernel_name_stat (
  run_id    UInt64,
  name      String,
  kinds     Int64,
  calls     Int64,
  total_ns  Int64,
  min_ns    Int64,
  max_ns    Int64,
  avg_ns    Float64,
  median_ns Float64,
  stddev_ns Nullable(Float64),
  p90_ns    Float64,
  p99_ns    Float64
) ENGINE = MergeTree ORDER BY (run_id, name);

CREATE TABLE IF NOT EXISTS kernel_step_stat (
  run_id    UInt64,
  seq       Int64,
  rank      Int64,
  step      Nullable(Int64),
  name      String,
  base_name String,
  kind      Int64,
  calls     Int64,
  total_ns  Int64
) ENGINE = MergeTree ORDER BY (run_id, name, rank, seq);
