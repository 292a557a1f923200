-- 002_tags.sql - run tags travel (issue 19): the key=value labels of
-- `profdb ingest --tag` and `profdb runs --tag` (SQLite table run_tag,
-- schemas/006_bench.sql), one row per run and key, pushed with the run and
-- pulled back, so --tag filters work on --db clickhouse:// and on a pulled
-- run.  Tags from the profiler's own metadata (run_tag_all's 'tag.*' and
-- meta keys) already travel in run_meta.

CREATE TABLE IF NOT EXISTS run_tag (
  run_id UInt64,
  key    String,
  value  String
) ENGINE = MergeTree ORDER BY (run_id, key);
