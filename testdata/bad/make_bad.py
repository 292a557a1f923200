#!/usr/bin/env python3
"""make_bad.py - regenerate the small hostile inputs of testdata/bad/.

Run from this folder: python3 make_bad.py.  Every file is small (< 16 KB) and
hand-made (no third-party content).  Big hostile inputs (a 64 MB field, a
gzip bomb, 1M-level nesting) are generated at test time by
tests/cli/hostile_*.sh and never committed.  The fuzz replay tests feed every
file here to every fuzz target; tests/cli/hostile_*.sh ingest them.
"""
import gzip
import json
import random

HDR = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim"


def csv(name, rows, header=HDR, end="\r\n", final=True):
    text = end.join([header] + rows) + (end if final else "")
    with open(name, "wb") as f:
        f.write(text.encode("utf-8", "surrogateescape"))


def trace(events):
    return {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU"}],
            "traceEvents": events, "traceName": "hostile"}


def kernel(name, ts, dur, corr=1):
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": dur,
            "args": {"correlation": corr, "device": 0, "stream": 7, "External id": corr}}


def launch(ts, corr=1):
    return {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
            "ts": ts, "dur": 2, "args": {"correlation": corr, "External id": corr}}


GOOD = trace([launch(10, 1), kernel("k_a", 12, 5, 1), launch(20, 2), kernel("k_b", 22, 7, 2),
              launch(30, 3), kernel("k_a", 32, 6, 3)])


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


def main():
    good = json.dumps(GOOD, indent=1).encode()
    # JSON: cut inside the third event
    write("truncated_trace.json", good[: good.index(b'"k_b"') + 20])
    write("truncated_trace.json.gz", gzip.compress(good * 20, mtime=0)[:300])
    rnd = random.Random(7)
    write("garbage.json", bytes(rnd.randrange(256) for _ in range(4096)))
    write("garbage_after_header.json",
          b'{"traceEvents": [' + bytes(rnd.randrange(256) for _ in range(2048)))
    write("invalid_utf8_trace.json",
          good.replace(b'"k_a"', b'"k_\xff\xfe\xc3(\xed\xa0\x80"'))
    big = trace([launch(10, 1), kernel("k_a", 1e400, 5, 1), launch(20, 2),
                 kernel("k_b", 22, 99999999999999999999999999, 2), launch(30, 3),
                 kernel("k_c", -9.3e18, 6, 3)])
    write("numbers_out_of_range_trace.json",
          json.dumps(big).replace("Infinity", "1e400").encode())
    write("nan_infinity_trace.json",
          good.replace(b'"dur": 5', b'"dur": NaN').replace(b'"dur": 7', b'"dur": Infinity')
              .replace(b'"ts": 32', b'"ts": -Infinity'))
    write("negative_zero_dur_trace.json", json.dumps(trace(
        [launch(10, 1), kernel("k_a", 12, -5, 1), launch(20, 2), kernel("k_b", 22, 0, 2)])).encode())
    write("sql_names_trace.json", json.dumps(trace(
        [launch(10, 1), kernel("'); DROP TABLE run;--", 12, 5, 1),
         launch(20, 2), kernel('x" OR 1=1; DELETE FROM kernel;--', 22, 7, 2)])).encode())
    write("empty.json", b"")
    write("empty_object.json", b"{}")
    write("wrong_types_trace.json", json.dumps(trace(
        [{"ph": "X", "cat": "kernel", "name": 5, "ts": "x", "dur": [1], "pid": {}, "tid": None,
          "args": "no"},
         {"ph": "X", "cat": "kernel", "name": None, "ts": 1, "dur": 1, "args": {"correlation": "z"}},
         {"ph": 3, "cat": ["kernel"]}, [], 7, "s"])).encode())
    write("trace_events_not_array.json", b'{"traceEvents": {"ph": "X"}}')

    # CSV (kernel_details.csv layout)
    csv("truncated_quote_kernel_details.csv",
        ['1,MatMul_1,MatMul,AI_CORE,1000.000,10.5,0,8', '1,"Add_2,Add,AI_VECTOR_CORE,10'],
        final=False)
    write("nul_byte_kernel_details.csv",
          (HDR + "\r\n1,MatMul_1,MatMul,AI_CORE,1000.000,10.5,0,8\r\n1,Add\x00\x00,Add,AI_CORE,"
           "1011.0,2.0,0,4\r\n").encode())
    csv("dup_header_kernel_details.csv", ['1,MatMul_1,Other,AI_CORE,1000.000,10.5,0,8,9'],
        header=HDR + ",Name")
    csv("missing_duration_kernel_details.csv", ['1,MatMul_1,MatMul,AI_CORE,1000.000,0,8'],
        header=HDR.replace(",Duration(us)", ""))
    csv("numbers_out_of_range_kernel_details.csv",
        ['1,A,A,AI_CORE,99999999999999999999999,10.5,0,8',
         '1,B,B,AI_CORE,1000.0,1e30,0,8',
         '1,C,C,AI_CORE,-9223372036854775809,1.0,0,8',
         '99999999999999999999,D,D,AI_CORE,1000.0,1.0,0,99999999999999999999'])
    csv("nan_inf_kernel_details.csv",
        ['1,A,A,AI_CORE,1000.0,nan,0,8', '1,B,B,AI_CORE,inf,1.0,0,8',
         '1,C,C,AI_CORE,1000.0,Infinity,0,8', '1,D,D,AI_CORE,NaN,-inf,0,8'])
    csv("negative_zero_dur_kernel_details.csv",
        ['1,A,A,AI_CORE,1000.0,-5.0,0,8', '1,B,B,AI_CORE,1001.0,0,0,8', '1,C,C,AI_CORE,1002.0,-0,0,8'])
    csv("invalid_utf8_kernel_details.csv",
        ['1,Mat\udcff\udcfeMul,MatMul,AI_CORE,1000.000,10.5,0,8', '1,\udcc3(x,Add,AI_CORE,1011.0,2.0,0,4'])
    csv("sql_names_kernel_details.csv",
        ["1,'); DROP TABLE run;--,MatMul,AI_CORE,1000.000,10.5,0,8",
         '1,"x"" OR 1=1; DELETE FROM kernel;--",Add,AI_CORE,1011.0,2.0,0,4'])
    csv("header_only_kernel_details.csv", [])
    csv("ragged_long_kernel_details.csv",
        ['1,A,A,AI_CORE,1000.0,1.0,0,8,extra,extra,extra', '1', ',,,,,,,', '1,B,B,AI_CORE,1001.0,1.0'])
    write("not_sqlite.db", b"SQLite format 3\x00" + b"this is not a database" * 20)


if __name__ == "__main__":
    main()
