-- 001_core.sql - the profdb store, version 1.
--
-- Conventions: times are INTEGER nanoseconds (exact, parsed from the source
-- text); views add *_us columns as REAL microseconds for people.  Text that
-- repeats (names, types, shapes, call stacks) is interned in str and
-- referenced by id.  Every table that belongs to a run has run_id and is
-- deleted with it (ON DELETE CASCADE; profdb enables foreign keys).

-- Interned text: every name, type, shape, dtype and call stack once.
CREATE TABLE str (
  id    INTEGER PRIMARY KEY,
  value TEXT NOT NULL UNIQUE
);

-- One profiling session (all its ranks) under one name.
CREATE TABLE run (
  id             INTEGER PRIMARY KEY,
  name           TEXT NOT NULL UNIQUE,
  source_path    TEXT NOT NULL,    -- the path given to ingest
  format         TEXT NOT NULL,    -- ascend_csv, ascend_db, kineto, mixed
  ingested_at    TEXT NOT NULL,    -- UTC, ISO 8601
  repeats        INTEGER NOT NULL DEFAULT 1 CHECK (repeats > 0),
  repeats_source TEXT NOT NULL DEFAULT 'default', -- user | steps | default
  ranks          INTEGER NOT NULL DEFAULT 1,
  profdb_version TEXT NOT NULL
);

-- Profiler metadata per run and rank: profiler_info*.json, profiler_metadata,
-- Kineto top-level keys (deviceProperties, distributedInfo, versions, ...).
-- value is the JSON text (or plain text) as found.
CREATE TABLE run_meta (
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank   INTEGER,                  -- NULL: applies to the whole run
  key    TEXT NOT NULL,
  value  TEXT
);
CREATE INDEX run_meta_run ON run_meta(run_id, key);

-- Every file an ingest read (or looked at and skipped).
CREATE TABLE source_file (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank         INTEGER,
  path         TEXT NOT NULL,
  role         TEXT NOT NULL,      -- kernel_details, operator_details, step_trace_time,
                                   -- op_statistic, profiler_info, kineto_trace, ...
  size         INTEGER NOT NULL,   -- bytes on disk
  sha256       TEXT,               -- hex digest of the bytes on disk
  rows_read    INTEGER NOT NULL DEFAULT 0, -- data records (CSV rows, JSON events)
  rows_stored  INTEGER NOT NULL DEFAULT 0,
  rows_skipped INTEGER NOT NULL DEFAULT 0,
  content      BLOB                -- kept for small summary files (verify uses them)
);
CREATE INDEX source_file_run ON source_file(run_id);
CREATE INDEX source_file_sha ON source_file(sha256);

-- Why rows of a source file were skipped, one row per reason.
CREATE TABLE source_skip (
  source_id  INTEGER NOT NULL REFERENCES source_file(id) ON DELETE CASCADE,
  reason     TEXT NOT NULL,        -- e.g. 'non-positive duration'
  count      INTEGER NOT NULL,
  first_line INTEGER,              -- line (CSV) or event index (JSON) of the first
  PRIMARY KEY (source_id, reason)
);

-- Things an ingest wants the user to know (files skipped, choices made).
CREATE TABLE run_note (
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  note   TEXT NOT NULL
);

-- Kinds of device activity.
CREATE TABLE kind (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
INSERT INTO kind(id, name) VALUES
  (0, 'kernel'), (1, 'memcpy'), (2, 'memset'), (3, 'communication'), (4, 'other');

-- Device activities: kernels, memcpy/memset, communication tasks.
CREATE TABLE kernel (
  id            INTEGER PRIMARY KEY,
  run_id        INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank          INTEGER NOT NULL DEFAULT 0,
  device        INTEGER,           -- device id / Kineto device pid (opaque key)
  stream        INTEGER,           -- stream id / Kineto tid
  step          INTEGER,           -- profiler step; NULL outside every step
  name_id       INTEGER NOT NULL REFERENCES str(id),
  base_id       INTEGER NOT NULL REFERENCES str(id), -- normalised base name
  kind          INTEGER NOT NULL REFERENCES kind(id),
  type_id       INTEGER REFERENCES str(id), -- Ascend OP Type
  core_id       INTEGER REFERENCES str(id), -- Ascend Accelerator Core / Kineto cat
  start_ns      INTEGER NOT NULL,  -- absolute where the source allows it
  dur_ns        INTEGER NOT NULL,
  wait_ns       INTEGER,
  task_id       INTEGER,
  model_id      INTEGER,
  context_id    INTEGER,
  correlation   INTEGER,           -- Kineto correlation id
  external_id   INTEGER,           -- Kineto External id of the launching op
  block_dim     INTEGER,           -- Ascend Block Dim / Block Num
  mix_block_dim INTEGER,
  grid_id       INTEGER REFERENCES str(id), -- CUDA grid "[x, y, z]"
  block_id      INTEGER REFERENCES str(id), -- CUDA block
  registers     INTEGER,           -- registers per thread
  shared_mem    INTEGER,           -- bytes
  bytes         INTEGER,           -- memcpy/memset size
  op_state_id   INTEGER REFERENCES str(id),
  hf32          INTEGER,           -- 1 YES, 0 NO, NULL N/A
  in_shapes_id  INTEGER REFERENCES str(id),
  in_dtypes_id  INTEGER REFERENCES str(id),
  in_formats_id INTEGER REFERENCES str(id),
  out_shapes_id INTEGER REFERENCES str(id),
  out_dtypes_id INTEGER REFERENCES str(id),
  out_formats_id INTEGER REFERENCES str(id),
  launch_op_id  INTEGER REFERENCES str(id)  -- op that launched it (MindSpore op/ part)
);
CREATE INDEX kernel_run_name ON kernel(run_id, name_id);
CREATE INDEX kernel_run_base ON kernel(run_id, base_id);
CREATE INDEX kernel_run_step ON kernel(run_id, rank, step);
CREATE INDEX kernel_run_ext ON kernel(run_id, rank, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX kernel_run_corr ON kernel(run_id, rank, correlation) WHERE correlation IS NOT NULL;

-- PMU metrics of a kernel, stored generically (the columns vary with aic_metrics).
CREATE TABLE kernel_metric (
  kernel_id INTEGER NOT NULL REFERENCES kernel(id) ON DELETE CASCADE,
  metric_id INTEGER NOT NULL REFERENCES str(id),
  value     REAL NOT NULL,
  PRIMARY KEY (kernel_id, metric_id)
) WITHOUT ROWID;

-- Host operators, one row per instance.
CREATE TABLE op (
  id                     INTEGER PRIMARY KEY,
  run_id                 INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank                   INTEGER NOT NULL DEFAULT 0,
  step                   INTEGER,
  name_id                INTEGER NOT NULL REFERENCES str(id),
  category_id            INTEGER REFERENCES str(id), -- cpu_op, user_annotation, ...
  tid                    INTEGER,  -- host thread
  start_ns               INTEGER,  -- NULL where the source has no times
  dur_ns                 INTEGER,  -- host total time
  self_ns                INTEGER,  -- host self time
  device_self_ns         INTEGER,  -- kernels it launched itself
  device_total_ns        INTEGER,  -- kernels of it and its children
  device_self_aicore_ns  INTEGER,  -- Ascend: the same, AI Core kernels only
  device_total_aicore_ns INTEGER,
  external_id            INTEGER,  -- Kineto External id
  seq                    INTEGER,  -- Sequence number
  in_shapes_id           INTEGER REFERENCES str(id),
  in_types_id            INTEGER REFERENCES str(id),
  call_stack_id          INTEGER REFERENCES str(id)
);
CREATE INDEX op_run_name ON op(run_id, name_id);
CREATE INDEX op_run_ext ON op(run_id, rank, external_id);

-- Kineto runtime launch calls (cudaLaunchKernel, hipLaunch..., ...): a
-- kernel's step is the step of its launch.
CREATE TABLE launch (
  run_id      INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank        INTEGER NOT NULL DEFAULT 0,
  correlation INTEGER NOT NULL,
  tid         INTEGER,
  start_ns    INTEGER NOT NULL,
  dur_ns      INTEGER NOT NULL,
  name_id     INTEGER REFERENCES str(id),
  external_id INTEGER
);
CREATE INDEX launch_corr ON launch(run_id, rank, correlation);

-- Profiler steps (repeats) per rank.
CREATE TABLE step (
  run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank     INTEGER NOT NULL DEFAULT 0,
  step     INTEGER NOT NULL,
  start_ns INTEGER,                -- host span (Kineto ProfilerStep#N); NULL if unknown
  end_ns   INTEGER,
  PRIMARY KEY (run_id, rank, step)
) WITHOUT ROWID;

-- Per-step figures the profiler computed itself (step_trace_time.csv):
-- metric is the column name (Computing, Free, ...), value in microseconds.
CREATE TABLE step_metric (
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank   INTEGER NOT NULL DEFAULT 0,
  step   INTEGER,                  -- NULL when the file has no step numbers
  metric TEXT NOT NULL,
  value  REAL
);
CREATE INDEX step_metric_run ON step_metric(run_id, rank, step);

-- ---------------------------------------------------------------- views
-- These use only core SQLite so any client (sqlite3 shell, Python, DuckDB)
-- can read them.

-- Kernels with their text resolved.
CREATE VIEW kernel_v AS
SELECT k.id, r.name AS run, k.run_id, k.rank, k.device, k.stream, k.step,
       n.value AS name, b.value AS base_name, kd.name AS kind,
       t.value AS type, c.value AS core,
       k.start_ns, k.dur_ns, k.dur_ns / 1000.0 AS dur_us, k.wait_ns,
       k.task_id, k.model_id, k.context_id, k.correlation, k.external_id,
       k.block_dim, k.mix_block_dim, g.value AS grid, bl.value AS block,
       k.registers, k.shared_mem, k.bytes,
       s.value AS input_shapes, dt.value AS input_dtypes, fm.value AS input_formats,
       os.value AS output_shapes, od.value AS output_dtypes, ofm.value AS output_formats,
       lo.value AS launch_op
FROM kernel k
JOIN run r ON r.id = k.run_id
JOIN str n ON n.id = k.name_id
JOIN str b ON b.id = k.base_id
JOIN kind kd ON kd.id = k.kind
LEFT JOIN str t ON t.id = k.type_id
LEFT JOIN str c ON c.id = k.core_id
LEFT JOIN str g ON g.id = k.grid_id
LEFT JOIN str bl ON bl.id = k.block_id
LEFT JOIN str s ON s.id = k.in_shapes_id
LEFT JOIN str dt ON dt.id = k.in_dtypes_id
LEFT JOIN str fm ON fm.id = k.in_formats_id
LEFT JOIN str os ON os.id = k.out_shapes_id
LEFT JOIN str od ON od.id = k.out_dtypes_id
LEFT JOIN str ofm ON ofm.id = k.out_formats_id
LEFT JOIN str lo ON lo.id = k.launch_op_id;

-- Host operators with their text resolved.
CREATE VIEW op_v AS
SELECT o.id, r.name AS run, o.run_id, o.rank, o.step, n.value AS name,
       c.value AS category, o.tid, o.start_ns, o.dur_ns, o.self_ns,
       o.dur_ns / 1000.0 AS total_us, o.self_ns / 1000.0 AS self_us,
       o.device_self_ns, o.device_total_ns,
       o.device_self_aicore_ns, o.device_total_aicore_ns,
       o.external_id, o.seq, s.value AS input_shapes, t.value AS input_types,
       cs.value AS call_stack
FROM op o
JOIN run r ON r.id = o.run_id
JOIN str n ON n.id = o.name_id
LEFT JOIN str c ON c.id = o.category_id
LEFT JOIN str s ON s.id = o.in_shapes_id
LEFT JOIN str t ON t.id = o.in_types_id
LEFT JOIN str cs ON cs.id = o.call_stack_id;

-- Per run and kernel name: the profiler's own definitions (device time is
-- the sum of durations; per repeat divides by the run's repeat count).
CREATE VIEW kernel_summary AS
SELECT r.name AS run, n.value AS name,
       count(*) AS calls,
       sum(k.dur_ns) / 1000.0 AS total_us,
       avg(k.dur_ns) / 1000.0 AS avg_us,
       min(k.dur_ns) / 1000.0 AS min_us,
       max(k.dur_ns) / 1000.0 AS max_us,
       sum(k.dur_ns) / 1000.0 / r.repeats AS per_repeat_us
FROM kernel k
JOIN run r ON r.id = k.run_id
JOIN str n ON n.id = k.name_id
GROUP BY k.run_id, k.name_id;

-- Per run: repeats, device activity rows, total device time, elapsed time
-- (the longest per-rank span from the first device start to the last device
-- end) and total host CPU time (sum of host operators' self time).
CREATE VIEW run_summary AS
SELECT r.name AS run, r.repeats,
       (SELECT count(*) FROM kernel k WHERE k.run_id = r.id) AS kernels,
       coalesce((SELECT sum(k.dur_ns) FROM kernel k WHERE k.run_id = r.id), 0) / 1000.0
         AS total_device_us,
       coalesce((SELECT max(span) FROM
                  (SELECT max(k.start_ns + k.dur_ns) - min(k.start_ns) AS span
                   FROM kernel k WHERE k.run_id = r.id GROUP BY k.rank)), 0) / 1000.0
         AS elapsed_us,
       coalesce((SELECT sum(o.self_ns) FROM op o WHERE o.run_id = r.id), 0) / 1000.0
         AS total_cpu_us
FROM run r;

PRAGMA user_version = 1;
