# The rows an ingest stores do not depend on where the per-file work runs
# (issue 37): every Kineto trace of the corpus, the two-rank trace_filter
# folder and two Ascend exports, each a run of its own in one database,
# ingested six ways: -j1 (read and written on one thread), -j2 (one file: a
# reader thread and the writer; several: read on the main thread as at
# -j1, the INSERTs on the insert thread, the files' SHA-256 made apart,
# lib/read/file_digests.c), -j3 (reader threads, the files parsed side by
# side and stored in the walk's order, lib/store/qsink.c: the path more
# cores take), -j2 with PROFDB_LINK_CALLS_MAX=1, where no file's
# runtime calls are kept in memory and op_link and the runtime-call sweep
# read them back from the tables (the SQL passes), and -j2 with
# PROFDB_STEP_SUMS_CELLS=1, where kernel_step_stat comes from the commit's
# scan of the kernel rows instead of sums made as the rows were sent
# (lib/store/step_sums.c), and -j2 with PROFDB_INTERN_CACHED=64, whose map
# of texts is emptied again and again, so that the texts still waiting for
# the insert thread must be in str before the table is asked for one
# (lib/store/intern.c, store_async.c).  Every table of the six files is compared row
# by row in rowid order (every column but run.ingested_at, the clock) by
# python3's sqlite3, which shares no code with profdb; one line per table,
# and the kernel, op, launch and kernel_step_stat tables must hold rows.
# One exception: op ids follow (rank, thread, start) where a file's ops are
# linked in memory and the order they closed in where the SQL passes read
# them back (lib/store/op_rows.h), so that way's op rows are compared
# without their ids, as a sorted list.  Last, each Kineto file's stored
# SHA-256 at -j2 is checked against python3's hashlib of the file.
C=$PROFDB_CORPUS
H=HolisticTraceAnalysis/tests/data
A=Ascend-msinsight/test/data/pytorch
inputs="
$H/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz
$H/call_stack/backward_thread.json
$H/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz
$H/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz
$H/distributed_info_unavailable/distributed_info_not_found.json.gz
$H/mtia_inference_trace/mtia_inference_rank_0.json.gz
$H/nccl_parser_config/nccl_data.json.gz
$H/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
$H/trace_compare/base/base.json.gz
$H/trace_compare/test/test.json.gz
$H/trace_diff/control/control.json.gz
$H/trace_diff/test/test.json.gz
$H/triton_example/triton_example.json.gz
TraceLens/tests/traces/torch_compile_triton/trace.json.gz
kineto/tb_plugin/samples/resnet50_autograd_api_num_workers_0/worker0.pt.trace.json.gz
kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
kineto/tb_plugin/test/gpu_metrics_input.json
param/et_replay/tests/inputs/linear_kineto.json.gz
$H/trace_filter
$A/text/level1
$A/db/level1
"
for f in $inputs; do
  $PROFDB ingest -q -j 1 --db j1.db --run "$f" "$C/$f" || echo "-j1 failed: $f"
  $PROFDB ingest -q -j 2 --db j2.db --run "$f" "$C/$f" || echo "-j2 failed: $f"
  $PROFDB ingest -q -j 3 --db j3.db --run "$f" "$C/$f" || echo "-j3 failed: $f"
  PROFDB_LINK_CALLS_MAX=1 $PROFDB ingest -q -j 2 --db sql.db --run "$f" "$C/$f" || echo "-j2 (SQL passes) failed: $f"
  PROFDB_STEP_SUMS_CELLS=1 $PROFDB ingest -q -j 2 --db scan.db --run "$f" "$C/$f" || echo "-j2 (step scan) failed: $f"
  PROFDB_INTERN_CACHED=64 $PROFDB ingest -q -j 2 --db texts.db --run "$f" "$C/$f" || echo "-j2 (64 texts) failed: $f"
done
python3 - j1.db j2.db sql.db scan.db texts.db j3.db <<'PY'
import hashlib, sqlite3, sys
dbs = [sqlite3.connect(p) for p in sys.argv[1:]]
names = ["-j2", "-j2 with the SQL passes", "-j2 with the step scan", "-j2 with a map of 64 texts", "-j3"]
tables = [r[0] for r in dbs[0].execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                        " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
for t in tables:
    cols = [r[1] for r in dbs[0].execute(f'PRAGMA table_info("{t}")')
            if not (t == "run" and r[1] == "ingested_at")]
    sql = "SELECT " + ", ".join(f'"{c}"' for c in cols) + f' FROM "{t}" ORDER BY rowid'
    try:
        rows = [d.execute(sql).fetchall() for d in dbs]
    except sqlite3.OperationalError:  # WITHOUT ROWID: its key orders it
        sql = sql.rsplit(" ORDER BY", 1)[0] + " ORDER BY " + ", ".join(f'"{c}"' for c in cols)
        rows = [d.execute(sql).fetchall() for d in dbs]
    if t == "op":  # the SQL passes' ids follow the order ops closed: compared without them
        def no_id(rs):
            return sorted((r[1:] for r in rs), key=repr)
        same = [rows[1] == rows[0], no_id(rows[2]) == no_id(rows[0]), rows[3] == rows[0], rows[4] == rows[0],
                rows[5] == rows[0]]
    else:
        same = [r == rows[0] for r in rows[1:]]
    verdict = "identical" if all(same) else "DIFFER in " + ", ".join(n for n, s in zip(names, same) if not s)
    if t in ("kernel", "op", "launch", "kernel_step_stat"):
        verdict += ", rows > 0" if rows[0] else ", EMPTY"
    print(f"{t}: {verdict}")
kineto = [(p, h) for p, h in dbs[1].execute("SELECT path, sha256 FROM source_file")
          if p.endswith((".json", ".json.gz"))]
equal = sum(1 for p, h in kineto if h == hashlib.sha256(open(p, "rb").read()).hexdigest())
print(f"-j2 Kineto source_file.sha256 equal to hashlib's: {equal} of {len(kineto)}")
PY
