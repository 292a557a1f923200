-- 005_collectives.sql - collective sizes and the Ascend communication tables
-- travel (issue 19), so `profdb collectives` over --db clickhouse:// (and on
-- a pulled run) prints what it prints on the SQLite file:
--  - kernel_coll (SQLite schema 007): an NCCL kernel's collective, message
--    sizes, dtype and process group;
--  - comm_op, comm_transport, comm_link (SQLite schema 009): Ascend
--    communication.json's ops and their per-transport bandwidth, and
--    communication_matrix.json's links.
-- SQLite links kernel_coll to its kernel and comm_transport to its op by
-- row id, which pull renumbers: the server keeps the referenced row's
-- position in its run instead (its SQLite id less the run's first id;
-- kernel_pos, comm_op_pos), and pull gives the rows it copies back ids at
-- the same distances (ch_pull.c).  Tables only: created by the next push
-- of any run, which is how an existing database gains them; pull and --db
-- skip them on a server that lacks them (runs pushed before have none).

CREATE TABLE IF NOT EXISTS kernel_coll (
  run_id     UInt64,
  seq        Int64,
  kernel_pos Int64,
  collective Nullable(String),
  in_nelems  Nullable(Int64),
  out_nelems Nullable(Int64),
  dtype      Nullable(String),
  group_size Nullable(Int64),
  pg_name    Nullable(String),
  pg_desc    Nullable(String),
  pg_ranks   Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, seq);

CREATE TABLE IF NOT EXISTS comm_op (
  run_id     UInt64,
  seq        Int64,
  rank       Int64,
  step       Nullable(Int64),
  scope      String,
  op_name    String,
  group_name Nullable(String),
  start_ns   Nullable(Int64),
  elapse_ns  Nullable(Int64),
  transit_ns Nullable(Int64),
  wait_ns    Nullable(Int64),
  sync_ns    Nullable(Int64),
  idle_ns    Nullable(Int64),
  wait_ratio Nullable(Float64),
  sync_ratio Nullable(Float64)
) ENGINE = MergeTree ORDER BY (run_id, seq);

CREATE TABLE IF NOT EXISTS comm_transport (
  run_id             UInt64,
  seq                Int64,
  comm_op_pos        Int64,
  transport          String,
  bytes              Nullable(Int64),
  transit_ns         Nullable(Int64),
  bandwidth_gbps     Nullable(Float64),
  large_packet_ratio Nullable(Float64),
  size_distribution  Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, seq);

CREATE TABLE IF NOT EXISTS comm_link (
  run_id         UInt64,
  seq            Int64,
  rank           Int64,
  step           Nullable(Int64),
  scope          String,
  matrix_op      String,
  group_name     Nullable(String),
  src_rank       Nullable(Int64),
  dst_rank       Nullable(Int64),
  transport      Nullable(String),
  bytes          Nullable(Int64),
  transit_ns     Nullable(Int64),
  bandwidth_gbps Nullable(Float64),
  op_name        Nullable(String)
) ENGINE = MergeTree ORDER BY (run_id, seq);
