-- 005_row_counts.sql - what the rows read from a source file became, so the
-- ingest summary adds up (README "Ingest"): rows_read = rows_kernels +
-- rows_ops + rows_launches + rows_skipped + the rest (events that are not
-- rows: metadata, flows, annotations, counters; summary rows kept whole in
-- content).  Files ingested before this version have 0 in all three.
ALTER TABLE source_file ADD COLUMN rows_kernels INTEGER NOT NULL DEFAULT 0;  -- kernel rows
ALTER TABLE source_file ADD COLUMN rows_ops INTEGER NOT NULL DEFAULT 0;      -- op rows
ALTER TABLE source_file ADD COLUMN rows_launches INTEGER NOT NULL DEFAULT 0; -- launch rows

PRAGMA user_version = 5;
