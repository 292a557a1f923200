-- 013_runtime_ops.sql - runtime calls as host ops, version 13.
--
-- Why: torch's key_averages() counts each runtime call (cudaLaunchKernel,
-- cuLaunchKernel, cudaMemsetAsync, cudaDeviceSynchronize, hipLaunchKernel,
-- ...) as a CPU event of its own, the child of the innermost event holding
-- it on its thread, so an operator's Self CPU leaves out the calls it made
-- and the calls are rows of their own.  An ingest now stores each launch row
-- as an op row too (category 'runtime', no External id: its kernels stay the
-- launching operator's) and takes its duration from the self time of the
-- innermost op whose span contains it on the same rank and thread
-- (lib/store/runtime_ops.c).  Databases written before get the same here:
-- among the ops holding the call, the one that started last (at one start,
-- the shorter; of equal spans the child, whose self time is the larger: row
-- ids follow the order ops closed in) is the innermost.
INSERT OR IGNORE INTO str (value) VALUES ('runtime');

CREATE INDEX profdb_mig_op_thread ON op(run_id, rank, tid, start_ns);

CREATE TEMP TABLE profdb_rt AS
  SELECT l.rowid AS lid, l.run_id, l.rank, l.tid, l.start_ns, l.dur_ns, l.name_id,
         (SELECT p.id FROM op p
          WHERE p.run_id = l.run_id AND p.rank = l.rank AND p.tid IS l.tid
            AND p.start_ns <= l.start_ns AND p.start_ns + p.dur_ns >= l.start_ns + l.dur_ns
          ORDER BY p.start_ns DESC, p.dur_ns ASC, p.self_ns DESC, p.id DESC LIMIT 1) AS parent
  FROM launch l;

UPDATE op SET self_ns = self_ns - (SELECT sum(r.dur_ns) FROM temp.profdb_rt r WHERE r.parent = op.id)
  WHERE id IN (SELECT parent FROM temp.profdb_rt WHERE parent IS NOT NULL);

INSERT INTO op (run_id, rank, step, name_id, category_id, tid, start_ns, dur_ns, self_ns)
  SELECT r.run_id, r.rank,
         (SELECT s.step FROM step s WHERE s.run_id = r.run_id AND s.rank = r.rank
            AND r.start_ns >= s.start_ns AND r.start_ns < s.end_ns ORDER BY s.step LIMIT 1),
         r.name_id, (SELECT id FROM str WHERE value = 'runtime'), r.tid, r.start_ns, r.dur_ns, r.dur_ns
  FROM temp.profdb_rt r ORDER BY r.run_id, r.lid;

DROP TABLE temp.profdb_rt;
DROP INDEX profdb_mig_op_thread;

PRAGMA user_version = 13;
