-- 009_ascend_comm.sql - Ascend communication.json and
-- communication_matrix.json, version 9.
--
-- Why: on Ascend the HCCL tasks of kernel_details.csv carry no message
-- size, process group or bandwidth; the export's own communication
-- analysis does (README "### collectives", FORMATS.md communication.json).
-- Stored as the export defines it, converted to bytes and ns:
-- "Transit Size(MB)" is 10^6 bytes (msprof COMMUNICATION_B_to_MB =
-- 1000 ** 2; the sizes of Size Distribution are whole bytes only so), and
-- "Bandwidth(GB/s)" = MB / ms = 10^9 bytes per second, kept as written.
-- Rows belong to the run (and rank) of the export they were read from; the
-- HCCL kernel they describe is the kernel of that rank and step with the
-- same name (op_name), found at query time (view comm_op_kernel_v).

-- One communication op of communication.json: "<op name>@<group>" under
-- step<N> / collective|p2p, its "Communication Time Info".  The profiler's
-- own "Total Op Info" sum is not stored (it is the sum of these rows).
CREATE TABLE comm_op (
  id         INTEGER PRIMARY KEY,
  run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank       INTEGER NOT NULL DEFAULT 0,
  step       INTEGER,                 -- N of "step<N>"; NULL if not numeric
  scope      TEXT NOT NULL,           -- collective or p2p
  op_name    TEXT NOT NULL,           -- hcom_allReduce__586_0_1
  group_name TEXT,                    -- after '@': the communication group
  start_ns   INTEGER,                 -- Start Timestamp(us)
  elapse_ns  INTEGER,                 -- Elapse Time(ms)
  transit_ns INTEGER,                 -- Transit Time(ms)
  wait_ns    INTEGER,                 -- Wait Time(ms)
  sync_ns    INTEGER,                 -- Synchronization Time(ms)
  idle_ns    INTEGER,                 -- Idle Time(ms)
  wait_ratio REAL,                    -- Wait Time Ratio
  sync_ratio REAL                     -- Synchronization Time Ratio
);
CREATE INDEX comm_op_name ON comm_op(run_id, rank, op_name);

-- Its "Communication Bandwidth Info": one row per transport (RDMA, HCCS,
-- PCIE, SDMA, SIO).  SDMA is the intra-node total (HCCS + PCIE + SIO), RDMA
-- the inter-node one: an op's bytes are RDMA + SDMA.
CREATE TABLE comm_transport (
  comm_op_id     INTEGER NOT NULL REFERENCES comm_op(id) ON DELETE CASCADE,
  transport      TEXT NOT NULL,
  bytes          INTEGER,             -- Transit Size(MB) x 10^6, rounded
  transit_ns     INTEGER,             -- Transit Time(ms)
  bandwidth_gbps REAL,                -- Bandwidth(GB/s) as written
  large_packet_ratio REAL,            -- Large Packet Ratio
  size_distribution TEXT              -- {"<packet MB>": [count, ms], ...} as written
);
CREATE INDEX comm_transport_op ON comm_transport(comm_op_id);

-- One link of communication_matrix.json: step<N> / collective|p2p /
-- "<op type>-<top1|middle|bottomN|total>@<group>" / "<src>-<dst>".
CREATE TABLE comm_link (
  run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  rank         INTEGER NOT NULL DEFAULT 0,  -- the export's rank
  step         INTEGER,
  scope        TEXT NOT NULL,
  matrix_op    TEXT NOT NULL,         -- allreduce-top1, allreduce-total, ...
  group_name   TEXT,
  src_rank     INTEGER,
  dst_rank     INTEGER,
  transport    TEXT,                  -- Transport Type: LOCAL, HCCS, PCIE, RDMA, SIO
  bytes        INTEGER,               -- Transit Size(MB) x 10^6, rounded
  transit_ns   INTEGER,               -- Transit Time(ms)
  bandwidth_gbps REAL,                -- Bandwidth(GB/s) as written
  op_name      TEXT                   -- Op Name
);
CREATE INDEX comm_link_run ON comm_link(run_id, rank);

-- Each op with its bytes (RDMA + SDMA transit size, NULL when neither is
-- written) and the time those bytes took (their transit times).
CREATE VIEW comm_op_v AS
SELECT o.id AS comm_op_id, r.name AS run, o.run_id, o.rank, o.step, o.scope, o.op_name, o.group_name, o.start_ns,
       o.elapse_ns, o.transit_ns, o.wait_ns, o.sync_ns, o.idle_ns, o.wait_ratio, o.sync_ratio,
       (SELECT sum(t.bytes) FROM comm_transport t
         WHERE t.comm_op_id = o.id AND t.transport IN ('RDMA', 'SDMA')) AS bytes,
       (SELECT sum(t.transit_ns) FROM comm_transport t
         WHERE t.comm_op_id = o.id AND t.transport IN ('RDMA', 'SDMA')) AS bytes_transit_ns
FROM comm_op o JOIN run r ON r.id = o.run_id;

-- The comm_op row of each communication kernel that has one: the op of
-- the kernel's run, rank and step (when both know theirs) with the
-- kernel's name (hcom_allReduce__586_0_1); the first stored if several.
CREATE VIEW comm_op_kernel_v AS
SELECT k.id AS kernel_id,
       (SELECT min(o.id) FROM comm_op o WHERE o.run_id = k.run_id AND o.rank = k.rank AND o.op_name = s.value
         AND (o.step = k.step OR o.step IS NULL OR k.step IS NULL)) AS comm_op_id
FROM kernel k JOIN str s ON s.id = k.name_id
WHERE k.kind = 3;

PRAGMA user_version = 9;
