-- 007_memory.sql - the allocator's record travels (issue 38), so `profdb
-- memory` over --db clickhouse:// (and on a pulled run) prints what it
-- prints on the SQLite file: the memory table of SQLite schema 012, one row
-- per Kineto [memory] event or Ascend memory_record.csv sample.  seq is the
-- SQLite id (file order, the tie-break of equal times); source_id follows
-- pull's renumbering of source files.  A table only: created by the next
-- push of any run; pull and --db skip it on a server that lacks it.

CREATE TABLE IF NOT EXISTS memory (
  run_id          UInt64,
  seq             Int64,
  source_id       Nullable(Int64),
  rank            Int64,
  device_type     String,
  device_id       Nullable(Int64),
  component       Nullable(String),
  ts_ns           Int64,
  bytes           Nullable(Int64),
  addr            Nullable(Int64),
  total_allocated Nullable(Int64),
  total_reserved  Nullable(Int64),
  total_active    Nullable(Int64),
  step            Nullable(Int64),
  tid             Nullable(Int64)
) ENGINE = MergeTree ORDER BY (run_id, seq);
