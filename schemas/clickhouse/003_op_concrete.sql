-- 003_op_concrete.sql - an op's "Concrete Inputs" travel (SQLite
-- schemas/008_op_concrete.sql: op.in_concrete_id), so `profdb flops` counts
-- convolutions on a pulled run too.  Runs pushed before it have NULL.
-- No IF NOT EXISTS (ClickHouse before 19.x does not parse it): a push that
-- loses the race to add the column finds it there (ch_schema.c column_added).

ALTER TABLE op ADD COLUMN in_concrete Nullable(String) AFTER in_types;
