-- 008_op_concrete.sql - the scalar arguments of host operators, version 8.
--
-- Why: `profdb flops` counts convolutions (README "### flops"), and their
-- FLOPs depend on stride, padding, dilation, transposed, output_padding and
-- groups, which "Input Dims" leaves as empty lists.  PyTorch >= 2.1 with
-- record_shapes writes them in the cpu_op arg "Concrete Inputs": a JSON
-- array of strings, one per input, "" for tensors, scalars and lists as
-- text ("[2, 2]", "False", "1").  Kept as written, interned like the
-- shapes.  Ops ingested before version 8, and traces without the arg
-- (torch < 2.1), have NULL.

ALTER TABLE op ADD COLUMN in_concrete_id INTEGER REFERENCES str(id);

PRAGMA user_version = 8;
