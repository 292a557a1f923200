-- 013_runtime_ops.sql - runtime calls as host ops, version 13.
--
-- Why: torch's key_averages() builds one tree of a thread's CPU events with
-- the runtime calls (cudaLaunchKernel, cuLaunchKernel, cudaMemsetAsync,
-- cudaDeviceSynchronize, hipLaunchKernel, MTIA's gif_merge, ...) in it: a
-- call is the child of the innermost event holding it, and the parent of the
-- events it holds (MTIA's calls hold operators and other calls), and Self
-- CPU is an event's duration less its direct children's.  An ingest now
-- stores each launch row as an op row too (category 'runtime', no External
-- id: its kernels stay the launching operator's) and sets self times on that
-- tree (lib/store/runtime_ops.c).  Databases written before get the same
-- here.  An event's parent is the innermost event of its rank and thread
-- holding its span that comes before it in the ingest's order (start, the
-- longer first, ops before calls, of ops of one span the smaller self time,
-- the parent op_nest chose; then row id).  Only calls change the tree: each
-- call costs its parent its duration, and an op whose parent is a call is
-- given back to the op that held it before (the innermost op holding it)
-- and costs the call instead.  Nodes are keyed 2 * id + 0 for an op,
-- 2 * launch rowid + 1 for a call.
INSERT OR IGNORE INTO str (value) VALUES ('runtime');

CREATE TEMP TABLE profdb_rt_node AS
  SELECT 2 * id AS k, run_id, rank, tid, start_ns AS s, dur_ns AS d, self_ns AS self FROM op
  WHERE start_ns IS NOT NULL AND dur_ns IS NOT NULL
  UNION ALL SELECT 2 * rowid + 1, run_id, rank, tid, start_ns, dur_ns, NULL FROM launch;
CREATE INDEX temp.profdb_rt_node_at ON profdb_rt_node(run_id, rank, tid, s);

-- the calls, and the ops a call holds: the nodes whose parent may change
CREATE TEMP TABLE profdb_rt_par AS
  SELECT n.k, n.d,
         (SELECT p.k FROM temp.profdb_rt_node p
          WHERE p.run_id = n.run_id AND p.rank = n.rank AND p.tid IS n.tid AND p.s <= n.s
            AND p.s + p.d >= n.s + n.d AND p.k <> n.k
            AND (p.s < n.s OR p.d > n.d OR p.k % 2 < n.k % 2
                 OR (p.k % 2 = n.k % 2 AND (p.self < n.self OR (p.self IS n.self AND p.k < n.k))))
          ORDER BY p.s DESC, p.d ASC, p.k % 2 DESC, p.self DESC, p.k DESC LIMIT 1) AS parent,
         (SELECT p.k FROM temp.profdb_rt_node p
          WHERE n.k % 2 = 0 AND p.k % 2 = 0 AND p.run_id = n.run_id AND p.rank = n.rank AND p.tid IS n.tid
            AND p.s <= n.s AND p.s + p.d >= n.s + n.d AND p.k <> n.k
            AND (p.s < n.s OR p.d > n.d OR p.self < n.self OR (p.self IS n.self AND p.k < n.k))
          ORDER BY p.s DESC, p.d ASC, p.self DESC, p.k DESC LIMIT 1) AS op_parent
  FROM temp.profdb_rt_node n
  WHERE n.k % 2 = 1 OR n.k IN (SELECT h.k FROM temp.profdb_rt_node l JOIN temp.profdb_rt_node h
                                ON h.run_id = l.run_id AND h.rank = l.rank AND h.tid IS l.tid
                                AND h.s >= l.s AND h.s <= l.s + l.d
                              WHERE l.k % 2 = 1 AND h.k % 2 = 0 AND h.s + h.d <= l.s + l.d);

CREATE TEMP TABLE profdb_rt_delta AS
  SELECT parent AS k, -d AS d FROM temp.profdb_rt_par WHERE parent IS NOT NULL AND (k % 2 = 1 OR parent % 2 = 1)
  UNION ALL SELECT op_parent, d FROM temp.profdb_rt_par WHERE k % 2 = 0 AND parent % 2 = 1 AND op_parent IS NOT NULL;
CREATE INDEX temp.profdb_rt_delta_k ON profdb_rt_delta(k);

UPDATE op SET self_ns = self_ns + (SELECT sum(x.d) FROM temp.profdb_rt_delta x WHERE x.k = 2 * op.id)
  WHERE 2 * id IN (SELECT k FROM temp.profdb_rt_delta);

INSERT INTO op (run_id, rank, step, name_id, category_id, tid, start_ns, dur_ns, self_ns)
  SELECT l.run_id, l.rank,
         (SELECT s.step FROM step s WHERE s.run_id = l.run_id AND s.rank = l.rank
            AND l.start_ns >= s.start_ns AND l.start_ns < s.end_ns ORDER BY s.step LIMIT 1),
         l.name_id, (SELECT id FROM str WHERE value = 'runtime'), l.tid, l.start_ns, l.dur_ns,
         l.dur_ns + coalesce((SELECT sum(x.d) FROM temp.profdb_rt_delta x WHERE x.k = 2 * l.rowid + 1), 0)
  FROM launch l ORDER BY l.run_id, l.rowid;

DROP TABLE temp.profdb_rt_delta;
DROP TABLE temp.profdb_rt_par;
DROP TABLE temp.profdb_rt_node;

PRAGMA user_version = 13;
