-- 012_memory.sql - device and host memory events, version 12.
--
-- Why: "where did the memory go" needs the allocator's own record, which
-- profilers write apart from kernels and ops: Kineto's "[memory]" instant
-- events (torch.profiler profile_memory=True: Bytes per allocation, negative
-- on free, and in newer torch the allocator's totals after it) and Ascend's
-- memory_record.csv (the totals sampled per component).  One row per event
-- or sample, as written; peaks, curves and the ops that hold memory are
-- computed at query time (README "### memory").

CREATE TABLE memory (
  id              INTEGER PRIMARY KEY,  -- file order within a file
  run_id          INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  source_id       INTEGER,              -- source_file.id of the file it came from
  rank            INTEGER NOT NULL DEFAULT 0,
  device_type     TEXT NOT NULL,        -- CPU, CUDA, NPU, ... (Kineto's c10 DeviceType number
                                        -- named; an unknown one as its number)
  device_id       INTEGER,              -- Device Id (-1 for the CPU in Kineto), NPU:<N>
  component       TEXT,                 -- Ascend Component (APP, PTA, GE, PTA+GE); NULL for Kineto
  ts_ns           INTEGER NOT NULL,     -- event time, ns (base time added, like kernels)
  bytes           INTEGER,              -- Kineto Bytes: > 0 allocated, < 0 freed; NULL: a sample
  addr            INTEGER,              -- Kineto Addr, when written
  total_allocated INTEGER,              -- bytes allocated after the event, when the profiler says
  total_reserved  INTEGER,              -- bytes reserved by the allocator, when the profiler says
  total_active    INTEGER,              -- Ascend Total Active(MB), when written
  step            INTEGER,              -- the host step span holding ts_ns, NULL if none
  tid             INTEGER               -- the thread that allocated (Kineto tid); NULL for Ascend
);
CREATE INDEX memory_run ON memory(run_id, rank, device_type, device_id);
CREATE INDEX memory_source ON memory(source_id);

PRAGMA user_version = 12;
