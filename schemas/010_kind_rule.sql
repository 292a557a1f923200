-- The kind rule of lib/read/kind.c applied to the rows already stored: a
-- device activity the profiler calls a plain kernel whose name is a
-- collective library's (nccl*, rccl*, msccl*, hcom_*, without case, after
-- an optional "void ") is communication.  Databases written before that
-- rule keep such kernels as 'kernel', so breakdown, kernels --by kind and
-- diff --by kind would differ from a fresh ingest of the same file; the
-- kind and the statistics derived from it are recomputed here.  A fresh
-- ingest already applies the rule, so this changes nothing on such rows.
CREATE TEMP TABLE profdb_comm_name AS
  SELECT id FROM (SELECT id, CASE WHEN substr(value, 1, 5) = 'void ' THEN substr(value, 6) ELSE value END AS v
                  FROM str)
  WHERE lower(substr(v, 1, 4)) IN ('nccl', 'rccl') OR lower(substr(v, 1, 5)) IN ('msccl', 'hcom_');

UPDATE kernel SET kind = 3 WHERE kind = 0 AND name_id IN (SELECT id FROM temp.profdb_comm_name);
UPDATE kernel_step_stat SET kind = 3 WHERE kind = 0 AND name_id IN (SELECT id FROM temp.profdb_comm_name);
UPDATE kernel_name_stat SET kinds = (kinds & ~1) | 8
  WHERE (kinds & 1) <> 0 AND name_id IN (SELECT id FROM temp.profdb_comm_name);

DROP TABLE temp.profdb_comm_name;

PRAGMA user_version = 10;
