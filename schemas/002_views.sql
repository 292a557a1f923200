-- 002_views.sql - views for the questions profdb's query commands answer
-- (per kernel, per step, per operator), version 2.
--
-- Plain SQLite only (window functions need SQLite >= 3.25): any client can
-- select from these without profdb's functions, so there is no median or
-- percentile here; `profdb sql` or the loadable extension libprofdb_sqlfunc
-- add median(x), percentile(x, p), stddev(x) and base_name(s).
-- Times: *_ns exact integer nanoseconds, *_us REAL microseconds.

-- Per run, rank and kernel name: the figures of `profdb kernels` that plain
-- SQL can compute.  share_pct is of the device time of the same run and rank.
CREATE VIEW kernel_stats AS
SELECT r.name AS run, k.run_id, k.rank, n.value AS name, b.value AS base_name,
       kd.name AS kind,
       count(*) AS calls,
       sum(k.dur_ns) AS total_ns,
       sum(k.dur_ns) / 1000.0 AS total_us,
       avg(k.dur_ns) / 1000.0 AS avg_us,
       min(k.dur_ns) / 1000.0 AS min_us,
       max(k.dur_ns) / 1000.0 AS max_us,
       100.0 * sum(k.dur_ns) / (SELECT sum(k2.dur_ns) FROM kernel k2
                                WHERE k2.run_id = k.run_id AND k2.rank = k.rank) AS share_pct,
       sum(k.dur_ns) / 1000.0 / r.repeats AS per_repeat_us
FROM kernel k
JOIN run r ON r.id = k.run_id
JOIN str n ON n.id = k.name_id
JOIN str b ON b.id = k.base_id
JOIN kind kd ON kd.id = k.kind
GROUP BY k.run_id, k.rank, k.name_id;

-- Per run, rank, step and kernel name: the per-step totals behind
-- `profdb kernels --per-step` (steps where a kernel did not run have no row).
CREATE VIEW kernel_step_stats AS
SELECT r.name AS run, k.run_id, k.rank, k.step, n.value AS name,
       count(*) AS calls,
       sum(k.dur_ns) AS total_ns,
       sum(k.dur_ns) / 1000.0 AS total_us
FROM kernel k
JOIN run r ON r.id = k.run_id
JOIN str n ON n.id = k.name_id
GROUP BY k.run_id, k.rank, k.step, k.name_id;

-- Per run, rank and step: device busy time, the length of the union of the
-- kernel intervals (overlaps count once).  A kernel starts a new busy island
-- when it starts after every earlier kernel of the step has ended.
CREATE VIEW step_busy AS
WITH iv AS (
  SELECT run_id, rank, step, start_ns AS s, start_ns + dur_ns AS e,
         max(start_ns + dur_ns) OVER (PARTITION BY run_id, rank, step
           ORDER BY start_ns, start_ns + dur_ns
           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
  FROM kernel),
isl AS (
  SELECT run_id, rank, step, s, e,
         sum(CASE WHEN prev_end IS NULL OR s > prev_end THEN 1 ELSE 0 END)
           OVER (PARTITION BY run_id, rank, step ORDER BY s, e
                 ROWS UNBOUNDED PRECEDING) AS island
  FROM iv),
spans AS (
  SELECT run_id, rank, step, min(s) AS s, max(e) AS e
  FROM isl GROUP BY run_id, rank, step, island)
SELECT run_id, rank, step, sum(e - s) AS busy_ns
FROM spans GROUP BY run_id, rank, step;

-- Per run, rank and step (NULL: kernels outside every step): the figures of
-- `profdb steps`.  wall is the host span of the step when known (Kineto
-- ProfilerStep#N), else first kernel start to last kernel end.
CREATE VIEW step_stats AS
WITH kg AS (
  SELECT run_id, rank, step, count(*) AS kernels, sum(dur_ns) AS device_total_ns,
         min(start_ns) AS first_start_ns, max(start_ns + dur_ns) AS last_end_ns
  FROM kernel GROUP BY run_id, rank, step),
ks AS (
  SELECT run_id, rank, step FROM kg
  UNION SELECT run_id, rank, step FROM step)
SELECT r.name AS run, ks.run_id, ks.rank, ks.step,
       coalesce(kg.kernels, 0) AS kernels,
       coalesce(kg.device_total_ns, 0) AS device_total_ns,
       coalesce(kg.device_total_ns, 0) / 1000.0 AS device_total_us,
       kg.first_start_ns, kg.last_end_ns,
       sp.start_ns AS host_start_ns, sp.end_ns AS host_end_ns,
       CASE WHEN sp.start_ns IS NOT NULL AND sp.end_ns IS NOT NULL
            THEN sp.end_ns - sp.start_ns
            ELSE kg.last_end_ns - kg.first_start_ns END AS wall_ns,
       CASE WHEN sp.start_ns IS NOT NULL AND sp.end_ns IS NOT NULL
            THEN sp.end_ns - sp.start_ns
            ELSE kg.last_end_ns - kg.first_start_ns END / 1000.0 AS wall_us,
       coalesce(sb.busy_ns, 0) AS busy_ns,
       coalesce(sb.busy_ns, 0) / 1000.0 AS busy_us
FROM ks
JOIN run r ON r.id = ks.run_id
LEFT JOIN kg ON kg.run_id = ks.run_id AND kg.rank = ks.rank AND kg.step IS ks.step
LEFT JOIN step sp ON sp.run_id = ks.run_id AND sp.rank = ks.rank AND sp.step = ks.step
LEFT JOIN step_busy sb ON sb.run_id = ks.run_id AND sb.rank = ks.rank AND sb.step IS ks.step;

-- Per run and operator name: the figures of `profdb ops` (device times are
-- NULL where the source has none).
CREATE VIEW op_stats AS
SELECT r.name AS run, o.run_id, n.value AS name,
       count(*) AS calls,
       sum(o.self_ns) / 1000.0 AS host_self_us,
       sum(o.dur_ns) / 1000.0 AS host_total_us,
       avg(o.dur_ns) / 1000.0 AS host_avg_us,
       sum(o.device_self_ns) / 1000.0 AS device_self_us,
       sum(o.device_total_ns) / 1000.0 AS device_total_us
FROM op o
JOIN run r ON r.id = o.run_id
JOIN str n ON n.id = o.name_id
GROUP BY o.run_id, o.name_id;

-- Each kernel with the host operator that launched it: same run and rank
-- and the same Kineto External id.
CREATE VIEW op_kernel AS
SELECT r.name AS run, o.run_id, o.rank, o.step, o.external_id,
       opn.value AS op, kn.value AS kernel, k.start_ns, k.dur_ns,
       k.dur_ns / 1000.0 AS dur_us
FROM op o
JOIN kernel k ON k.run_id = o.run_id AND k.rank = o.rank AND k.external_id = o.external_id
JOIN run r ON r.id = o.run_id
JOIN str opn ON opn.id = o.name_id
JOIN str kn ON kn.id = k.name_id
WHERE o.external_id IS NOT NULL;

PRAGMA user_version = 2;
