-- 015_op_ext_partial.sql - op(run_id, rank, external_id) holds only the ops
-- that have an External id, version 15.
--
-- Why: since version 13 every runtime call is an op row too, and a call has
-- no External id (its kernels stay the launching operator's): 38% of a
-- CUDA trace's op rows.  In the full index their entries all sort at the
-- front of their rank's range, so each lands in the middle of the index (a
-- descent from the root and a split there) and none serves a lookup: every
-- use of the index names an External id (kernel links, device times,
-- `launches`), and a comparison on external_id implies it is not NULL, so
-- SQLite still picks the partial index for them.  An ingest's op inserts
-- cost 15% less (bench/results.md).  A scan of one run's ops goes through
-- op_run_tid now (its prefix is run_id as well), and `push` sends op rows
-- in that index's order.
DROP INDEX op_run_ext;
CREATE INDEX op_run_ext ON op(run_id, rank, external_id) WHERE external_id IS NOT NULL;

PRAGMA user_version = 15;
