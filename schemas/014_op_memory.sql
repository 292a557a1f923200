-- 014_op_memory.sql - Ascend operator_memory.csv, version 14.
--
-- Why: torch_npu writes, where profile_memory=True, one row per tensor
-- block an operator allocated, with its size, when it was allocated and
-- released and the allocator's totals at both moments.  Ascend exports have
-- no per-event Bytes in memory_record.csv, so this is what `profdb memory
-- --ops` reads for them (doc/analyses.md "memory").  One row per csv row, as
-- written; sizes in bytes (Size(KB) times 1024, the MB columns times 2^20),
-- times in ns.

CREATE TABLE op_memory (
  id                      INTEGER PRIMARY KEY,  -- file order within a file
  run_id                  INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  source_id               INTEGER,              -- source_file.id of the file it came from
  rank                    INTEGER NOT NULL DEFAULT 0,
  device_type             TEXT NOT NULL,        -- Device Type before ':' (NPU)
  device_id               INTEGER,              -- the N of NPU:N
  name                    TEXT NOT NULL,        -- Name: the operator (aten::empty, cann::...)
  bytes                   INTEGER NOT NULL,     -- Size(KB) * 1024; < 0 where a file writes frees apart
  alloc_ns                INTEGER,              -- Allocation Time(us), ns
  release_ns              INTEGER,              -- Release Time(us), ns; NULL: not released in the trace
  active_release_ns       INTEGER,              -- Active Release Time(us), ns, when written
  alloc_total_allocated   INTEGER,              -- Allocation Total Allocated(MB), bytes
  alloc_total_reserved    INTEGER,              -- Allocation Total Reserved(MB), bytes
  alloc_total_active      INTEGER,              -- Allocation Total Active(MB), bytes, when written
  release_total_allocated INTEGER,              -- Release Total Allocated(MB), bytes
  release_total_reserved  INTEGER,              -- Release Total Reserved(MB), bytes
  release_total_active    INTEGER,              -- Release Total Active(MB), bytes, when written
  stream_ptr              INTEGER,              -- Stream Ptr, when written
  step                    INTEGER               -- the host step span holding alloc_ns, NULL if none
);
CREATE INDEX op_memory_run ON op_memory(run_id, rank, device_type, device_id);
CREATE INDEX op_memory_source ON op_memory(source_id);

PRAGMA user_version = 14;
