-- 006_bench.sql - operator benchmarks as runs: wall-clock repeats, tags on
-- runs, summary-only benchmark statistics.
--
-- Why: benchmark harnesses report wall-clock time per repeat (or only a
-- mean and stddev) where no profiler ran, and label their results by API
-- and backend.  A timed repeat is stored as one kernel row of kind
-- 'wallclock' named after the API, so every kernel query works on it.

-- A timed repeat of a benchmark (pytest-benchmark, Google Benchmark, CSV).
INSERT OR IGNORE INTO kind(id, name) VALUES (5, 'wallclock');

-- Tags the user put on a run (profdb ingest --tag, profdb runs --set-tag).
CREATE TABLE run_tag (
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  key    TEXT NOT NULL,
  value  TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

-- Every tag of a run: the user's (origin 'user'), the benchmark file's own
-- columns and context (run_meta 'tag.KEY', origin 'file') and read-only
-- ones from the dump's metadata (origin 'meta'): device (the first
-- deviceProperties name), every *version* key (torch, CANN, CUDA, ...) and
-- the Ascend profiler_level.
-- A user tag hides a file or meta tag of the same key.  Kineto keeps
-- metadata values as JSON text: a JSON string is shown without its quotes.
CREATE VIEW run_tag_all AS
WITH m AS (
  SELECT run_id, substr(key, 5) AS key, min(value) AS value, 'file' AS origin
  FROM run_meta WHERE key GLOB 'tag.?*' AND value IS NOT NULL GROUP BY run_id, key
  UNION ALL
  SELECT run_id, key,
         min(CASE WHEN NOT json_valid(value) THEN value
                  WHEN json_type(value) = 'text' THEN json_extract(value, '$')
                  ELSE value END), 'meta'
  FROM run_meta
  WHERE (key GLOB '*version*' OR key = 'profiler_level') AND key <> 'schemaVersion'
    AND key NOT GLOB 'tag.*'
    AND value IS NOT NULL
  GROUP BY run_id, key
  UNION ALL
  SELECT run_id, 'device', min(d), 'meta'
  FROM (SELECT run_id, CASE WHEN NOT json_valid(value) THEN NULL
                            WHEN json_type(value) = 'array'
                            THEN json_extract(value, '$[0].name') END AS d
        FROM run_meta WHERE key = 'deviceProperties')
  WHERE d IS NOT NULL GROUP BY run_id)
SELECT run_id, key, value, 'user' AS origin FROM run_tag
UNION ALL
SELECT m.run_id, m.key, m.value, m.origin FROM m
WHERE NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.run_id = m.run_id AND t.key = m.key);

-- Benchmarks whose file holds only summary statistics (pytest-benchmark
-- without --benchmark-save-data, Google Benchmark aggregates without their
-- repetitions): what the file says, per run and API, in ns.  The reader
-- keeps them as run_meta 'bench_summary' JSON objects.  median_ns is the
-- file's own (NULL when it gave none); exact is 0: the repeats themselves
-- are not stored, so nothing computed from them can be.
CREATE VIEW bench_summary AS
SELECT m.run_id, r.name AS run,
       json_extract(m.value, '$.api') AS api,
       json_extract(m.value, '$.rounds') AS rounds,
       json_extract(m.value, '$.mean_ns') AS mean_ns,
       json_extract(m.value, '$.stddev_ns') AS stddev_ns,
       json_extract(m.value, '$.min_ns') AS min_ns,
       json_extract(m.value, '$.max_ns') AS max_ns,
       json_extract(m.value, '$.median_ns') AS median_ns,
       json_extract(m.value, '$.source') AS source
FROM run_meta m JOIN run r ON r.id = m.run_id
WHERE m.key = 'bench_summary';

PRAGMA user_version = 6;
