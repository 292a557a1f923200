-- 007_collectives.sql - the collective arguments of communication kernels,
-- version 7.
--
-- Why: `profdb collectives` reports message size, process group and
-- algorithm / bus bandwidth (README "### collectives"), and only the trace
-- knows them: Kineto writes them into the args of NCCL kernels ("Collective
-- name", "In msg nelems", "Out msg nelems", "dtype", "Group size", "Process
-- Group Name" / "Description" / "Ranks").  One row per communication kernel
-- that has them, keyed by the kernel row, so the kernel's run, rank, step
-- and times (and a rank fix-up at ingest) are the kernel's own.  Runs
-- ingested before version 7 have no rows: their bandwidth columns are empty.

CREATE TABLE kernel_coll (
  kernel_id  INTEGER PRIMARY KEY REFERENCES kernel(id) ON DELETE CASCADE,
  collective TEXT,               -- "Collective name" as written (allreduce, ...)
  in_nelems  INTEGER,            -- elements of the input message
  out_nelems INTEGER,            -- elements of the output message
  dtype      TEXT,               -- c10 scalar type name (Float, BFloat16, ...)
  group_size INTEGER,            -- ranks in the process group
  pg_name    TEXT,               -- process group name ("0", "1", ...)
  pg_desc    TEXT,               -- its description (default_pg, ...)
  pg_ranks   TEXT                -- its global ranks as written ("[0, 1]")
);

-- Bytes per element of the c10 scalar types Kineto names in "dtype"
-- (c10/core/ScalarType.h); a dtype not listed has no size, so no bytes.
CREATE TABLE dtype_size (
  dtype TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO dtype_size(dtype, bytes) VALUES
  ('Byte', 1), ('Char', 1), ('Bool', 1), ('QInt8', 1), ('QUInt8', 1), ('QUInt4x2', 1),
  ('QUInt2x4', 1), ('Float8_e5m2', 1), ('Float8_e4m3fn', 1), ('Float8_e5m2fnuz', 1),
  ('Float8_e4m3fnuz', 1), ('UInt8', 1), ('Int8', 1),
  ('Short', 2), ('Half', 2), ('BFloat16', 2), ('UInt16', 2), ('Int16', 2),
  ('Int', 4), ('Float', 4), ('QInt32', 4), ('ComplexHalf', 4), ('UInt32', 4), ('Int32', 4),
  ('Long', 8), ('Double', 8), ('ComplexFloat', 8), ('UInt64', 8), ('Int64', 8),
  ('ComplexDouble', 16);

-- Communication kernels with their arguments and message size in bytes:
-- the larger of the input and output messages (the NCCL-tests size: the
-- gathered output of all_gather, the scattered input of reduce_scatter).
CREATE VIEW kernel_coll_v AS
SELECT k.id AS kernel_id, r.name AS run, k.run_id, k.rank, k.step, k.start_ns, k.dur_ns,
       c.collective, c.in_nelems, c.out_nelems, c.dtype, c.group_size,
       c.pg_name, c.pg_desc, c.pg_ranks,
       max(coalesce(c.in_nelems, c.out_nelems), coalesce(c.out_nelems, c.in_nelems)) * d.bytes AS msg_bytes
FROM kernel_coll c
JOIN kernel k ON k.id = c.kernel_id
JOIN run r ON r.id = k.run_id
LEFT JOIN dtype_size d ON d.dtype = c.dtype;

-- idle --gaps names the host operator running on the launching thread when
-- a gap began: without this index each lookup read every operator of the
-- rank (1.2 M on the 1 GB bench trace, 0.1 s a gap).
CREATE INDEX op_run_tid ON op(run_id, rank, tid, start_ns);

PRAGMA user_version = 7;
