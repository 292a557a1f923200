-- 008_op_memory.sql - Ascend operator_memory.csv travels (issue 38), so
-- `profdb memory --ops` over --db clickhouse:// (and on a pulled run) prints
-- what it prints on the SQLite file: the op_memory table of SQLite schema
-- 013, one row per csv row.  seq is the SQLite id; source_id follows pull's
-- renumbering of source files.  A table only: created by the next push of
-- any run; pull and --db skip it on a server that lacks it.

CREATE TABLE IF NOT EXISTS op_memory (
  run_id                  UInt64,
  seq                     Int64,
  source_id               Nullable(Int64),
  rank                    Int64,
  device_type             String,
  device_id               Nullable(Int64),
  name                    String,
  bytes                   Int64,
  alloc_ns                Nullable(Int64),
  release_ns              Nullable(Int64),
  active_release_ns       Nullable(Int64),
  alloc_total_allocated   Nullable(Int64),
  alloc_total_reserved    Nullable(Int64),
  alloc_total_active      Nullable(Int64),
  release_total_allocated Nullable(Int64),
  release_total_reserved  Nullable(Int64),
  release_total_active    Nullable(Int64),
  stream_ptr              Nullable(Int64),
  step                    Nullable(Int64)
) ENGINE = MergeTree ORDER BY (run_id, seq);
