-- 003_bulk.sql - a store shaped for bulk ingest and instant summaries,
-- version 3.
--
-- Why: profiling showed the single SQLite writer bounds the ingest.  Each
-- kernel cost one row insert plus one WITHOUT ROWID insert per PMU metric
-- plus five index inserts.  Now:
--  - PMU metrics live in one JSON column of the kernel row (kernel.metrics,
--    an object {"metric": value}); kernel_metric is a view over it, so SQL
--    written against the old table keeps working (metric_id gives way to
--    the metric's name).
--  - kernel(run_id, name_id) and kernel(run_id, base_id) are gone: the
--    questions they served are answered from kernel_name_stat, and a scan
--    of one run goes through kernel_run_step (its prefix is run_id).
--    op(run_id, name_id) likewise: op_run_ext covers run_id.
--  - kernel_name_stat holds, per run and kernel name, the figures of
--    `profdb kernels` (exact median and percentiles included), computed by
--    the ingest while the rows pass, and kernel_step_stat the per-step
--    totals `profdb diff` samples; run.name_stats says a run has both
--    (runs ingested before version 3 have not: queries scan their rows).

ALTER TABLE kernel ADD COLUMN metrics TEXT; -- JSON object of PMU metrics, NULL if none

UPDATE kernel SET metrics = (
  SELECT json_group_object(s.value, m.value)
  FROM kernel_metric m JOIN str s ON s.id = m.metric_id
  WHERE m.kernel_id = kernel.id)
WHERE id IN (SELECT kernel_id FROM kernel_metric);

DROP TABLE kernel_metric;

-- One row per kernel and metric, as the table of version 2 had them.
CREATE VIEW kernel_metric AS
SELECT k.id AS kernel_id, j.key AS metric, j.value AS value
FROM kernel k, json_each(k.metrics) j
WHERE k.metrics IS NOT NULL;

DROP INDEX kernel_run_name;
DROP INDEX kernel_run_base;
DROP INDEX op_run_name;

ALTER TABLE run ADD COLUMN name_stats INTEGER NOT NULL DEFAULT 0; -- 1: kernel_name_stat and kernel_step_stat are filled

-- Per run and kernel name: the statistics of `profdb kernels` over every
-- rank and step, from durations in ns (stats.h definitions: median and
-- percentiles interpolate linearly; stddev is the sample one, NULL for a
-- single call).  kinds has bit (1 << kind.id) set for every kind the name
-- ran as.
CREATE TABLE kernel_name_stat (
  run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  name_id  INTEGER NOT NULL REFERENCES str(id),
  kinds    INTEGER NOT NULL,
  calls    INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  min_ns   INTEGER NOT NULL,
  max_ns   INTEGER NOT NULL,
  avg_ns   REAL NOT NULL,
  median_ns REAL NOT NULL,
  stddev_ns REAL,
  p90_ns   REAL NOT NULL,
  p99_ns   REAL NOT NULL,
  PRIMARY KEY (run_id, name_id)
) WITHOUT ROWID;

-- Per run, rank, step (NULL: outside every step), kernel name and kind:
-- calls and total device time, as GROUP BY over kernel gives them.
CREATE TABLE kernel_step_stat (
  run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank     INTEGER NOT NULL,
  step     INTEGER,
  name_id  INTEGER NOT NULL REFERENCES str(id),
  base_id  INTEGER NOT NULL REFERENCES str(id),
  kind     INTEGER NOT NULL REFERENCES kind(id),
  calls    INTEGER NOT NULL,
  total_ns INTEGER NOT NULL
);
CREATE INDEX kernel_step_stat_run ON kernel_step_stat(run_id, rank, step);

PRAGMA user_version = 3;
