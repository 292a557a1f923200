#!/usr/bin/python3
# Origin: the profdb project's own input tools (tools/gen_kernel_csv.py beside the project),
# copied here so bench/run needs nothing outside the repository.
"""gen_kernel_csv.py - synthetic Ascend torch_npu kernel_details.csv of any size.

Usage: gen_kernel_csv.py --rows N --out kernel_details.csv [--layers L] [--seed S]
                         [--tab-start-time]

Writes the 21-column kernel_details.csv header that torch_npu's profiler exports
(ASCEND_PROFILER_OUTPUT/kernel_details.csv, aic_metrics with the aicore_time/aic_total_cycles
pair):
  Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),
  Wait Time(us),Block Dim,Mix Block Dim,Input Shapes,Input Data Types,Input Formats,
  Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles
and then N rows: one training step of a BERT-base-like transformer (L encoder layers of
~30 kernels each: MatMulV2 / BatchMatMulV2 / FlashAttentionScore / LayerNormV3 / Gelu / Add /
Cast / TransData / DropOutDoMask / SoftmaxV2 on AI_CORE, AI_VECTOR_CORE and MIX_AIC, plus
per-step embedding GatherV2 (AI_CPU), hcom_allReduce_ (HCCL, stream 5, "N/A" metrics) and
ApplyAdamW), repeated with Step Id 1,2,3,... until N rows.  Shapes are csv-quoted
("8,512,768;768,768"), data types / formats are ';'-joined, absolute start times in us with 3
decimals grow monotonically per stream, durations get a deterministic +-15% jitter, Model ID
is 4294967295 and Context ID "N/A" as in real exports.  --tab-start-time appends "\\t" to the
start time (some exports do this to keep spreadsheets from rounding it) to test tolerant
readers.  Deterministic for a given --seed.
"""
import argparse
import csv
import random
import sys

HEADER = ["Step Id", "Model ID", "Task ID", "Stream ID", "Name", "Type", "Accelerator Core",
          "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Dim", "Mix Block Dim",
          "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
          "Output Data Types", "Output Formats", "Context ID", "aicore_time(us)",
          "aic_total_cycles"]

B, S, H, F, NH = 8, 512, 768, 3072, 12
BS = B * S


def shp(*dims):
    return ";".join(",".join(str(x) for x in d) for d in dims)


# (name, type, core, block, mixblock, in_shapes, in_types, in_fmts, out_shapes, out_types,
#  out_fmts, mean_us)
def layer_kernels():
    fp16 = "FLOAT16"
    k = []
    k.append(("aclnnCast_CastAiCore_Cast", "Cast", "AI_VECTOR_CORE", 40, 0,
              shp((BS, H)), "FLOAT", "ND", shp((BS, H)), fp16, "ND", 18.0))
    for qkv in ("q", "k", "v"):
        k.append(("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 20, 0,
                  shp((BS, H), (H, H)), f"{fp16};{fp16}", "ND;ND", shp((BS, H)), fp16, "ND",
                  92.0))
        k.append(("aclnnAdd_AddAiCore_Add", "Add", "AI_VECTOR_CORE", 40, 0,
                  shp((BS, H), (H,)), f"{fp16};{fp16}", "ND;ND", shp((BS, H)), fp16, "ND",
                  11.5))
    k.append(("aclnnTranspose_TransposeAiCore_Transpose", "Transpose", "AI_VECTOR_CORE", 40, 0,
              shp((B, S, NH, 64)), fp16, "ND", shp((B, NH, S, 64)), fp16, "ND", 14.2))
    k.append(("aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore",
              "FlashAttentionScore", "MIX_AIC", 24, 48,
              shp((B, S, H), (B, S, H), (B, S, H), (B, 1, S, S)),
              f"{fp16};{fp16};{fp16};BOOL", "ND;ND;ND;ND",
              shp((B, NH, S, 8), (B, NH, S, 8), (B, S, H)), f"FLOAT;FLOAT;{fp16}", "ND;ND;ND",
              310.0))
    k.append(("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 20, 0,
              shp((BS, H), (H, H)), f"{fp16};{fp16}", "ND;ND", shp((BS, H)), fp16, "ND", 92.0))
    k.append(("aclnnDropoutDoMask_DropOutDoMaskV3_DropOutDoMaskV3", "DropOutDoMaskV3",
              "AI_VECTOR_CORE", 40, 0, shp((BS, H), (BS * H // 8,), ()), f"{fp16};UINT8;FLOAT",
              "ND;ND;ND", shp((BS, H)), fp16, "ND", 16.8))
    k.append(("aclnnAdd_AddAiCore_Add", "Add", "AI_VECTOR_CORE", 40, 0,
              shp((BS, H), (BS, H)), f"{fp16};{fp16}", "ND;ND", shp((BS, H)), fp16, "ND", 12.1))
    k.append(("aclnnLayerNorm_LayerNormV3_LayerNormV3", "LayerNormV3", "AI_VECTOR_CORE", 40, 0,
              shp((BS, H), (H,), (H,)), f"{fp16};{fp16};{fp16}", "ND;ND;ND",
              shp((BS, H), (BS, 1), (BS, 1)), f"{fp16};FLOAT;FLOAT", "ND;ND;ND", 21.7))
    k.append(("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 20, 0,
              shp((BS, H), (H, F)), f"{fp16};{fp16}", "ND;ND", shp((BS, F)), fp16, "ND", 330.0))
    k.append(("aclnnGelu_GeluAiCore_Gelu", "Gelu", "AI_VECTOR_CORE", 40, 0,
              shp((BS, F)), fp16, "ND", shp((BS, F)), fp16, "ND", 38.5))
    k.append(("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 20, 0,
              shp((BS, F), (F, H)), f"{fp16};{fp16}", "ND;ND", shp((BS, H)), fp16, "ND", 335.0))
    k.append(("aclnnAdd_AddAiCore_Add", "Add", "AI_VECTOR_CORE", 40, 0,
              shp((BS, H), (BS, H)), f"{fp16};{fp16}", "ND;ND", shp((BS, H)), fp16, "ND", 12.1))
    k.append(("aclnnLayerNorm_LayerNormV3_LayerNormV3", "LayerNormV3", "AI_VECTOR_CORE", 40, 0,
              shp((BS, H), (H,), (H,)), f"{fp16};{fp16};{fp16}", "ND;ND;ND",
              shp((BS, H), (BS, 1), (BS, 1)), f"{fp16};FLOAT;FLOAT", "ND;ND;ND", 21.7))
    # backward
    k.append(("aclnnLayerNormBackward_LayerNormGradV3_LayerNormGradV3", "LayerNormGradV3",
              "AI_VECTOR_CORE", 40, 0, shp((BS, H), (BS, H), (BS, 1), (BS, 1), (H,)),
              f"{fp16};{fp16};FLOAT;FLOAT;{fp16}", "ND;ND;ND;ND;ND",
              shp((BS, H), (H,), (H,)), f"{fp16};FLOAT;FLOAT", "ND;ND;ND", 44.0))
    k.append(("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 20, 0,
              shp((BS, H), (H, F)), f"{fp16};{fp16}", "FRACTAL_NZ;ND", shp((BS, F)), fp16,
              "ND", 341.0))
    k.append(("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 20, 0,
              shp((F, BS), (BS, H)), f"{fp16};{fp16}", "ND;ND", shp((F, H)), "FLOAT", "ND",
              352.0))
    k.append(("aclnnGeluBackward_GeluGrad_GeluGrad", "GeluGrad", "AI_VECTOR_CORE", 40, 0,
              shp((BS, F), (BS, F), (BS, F)), f"{fp16};{fp16};{fp16}", "ND;ND;ND",
              shp((BS, F)), fp16, "ND", 55.3))
    k.append(("aclnnReduceSum_ReduceSumOp_ReduceSum", "ReduceSum", "AI_VECTOR_CORE", 40, 0,
              shp((BS, F), (1,)), f"{fp16};INT64", "ND;ND", shp((F,)), "FLOAT", "ND", 19.9))
    k.append(("aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad",
              "FlashAttentionScoreGrad", "MIX_AIC", 24, 48,
              shp((B, S, H), (B, S, H), (B, S, H), (B, S, H), (B, 1, S, S)),
              f"{fp16};{fp16};{fp16};{fp16};BOOL", "ND;ND;ND;ND;ND",
              shp((B, S, H), (B, S, H), (B, S, H)), f"{fp16};{fp16};{fp16}", "ND;ND;ND",
              720.0))
    k.append(("aclnnTransData_TransData_TransData", "TransData", "AI_VECTOR_CORE", 40, 0,
              shp((H, H)), "FLOAT", "ND", shp((48, 48, 16, 16)), "FLOAT", "FRACTAL_NZ", 9.4))
    k.append(("aclnnInplaceAdd_AxpyV2AiCore_AxpyV2", "AxpyV2", "AI_VECTOR_CORE", 40, 0,
              shp((H, F), (H, F), ()), "FLOAT;FLOAT;FLOAT", "ND;ND;ND", shp((H, F)), "FLOAT",
              "ND", 25.0))
    return k


def step_kernels():
    fp16 = "FLOAT16"
    head = [("GatherV2", "GatherV2", "AI_CPU", 0, 0, shp((30522, H), (B, S), ()),
             f"{fp16};INT64;INT64", "ND;ND;ND", shp((B, S, H)), fp16, "ND", 140.0),
            ("aclnnEmbeddingDenseBackward_EmbeddingDenseGrad_EmbeddingDenseGrad",
             "EmbeddingDenseGrad", "AI_VECTOR_CORE", 40, 0, shp((B, S, H), (B, S)),
             f"{fp16};INT64", "ND;ND", shp((30522, H)), "FLOAT", "ND", 260.0)]
    tail = [("hcom_allReduce__123_0_1", "hcom_allReduce_", "HCCL", 0, 0, "", "", "", "", "",
             "", 2100.0),
            ("aclnnApplyAdamW_ApplyAdamW_ApplyAdamW", "ApplyAdamW", "AI_VECTOR_CORE", 40, 0,
             shp((H, F), (H, F), (H, F), (H, F), (1,)), "FLOAT;FLOAT;FLOAT;FLOAT;FLOAT",
             "ND;ND;ND;ND;ND", shp((H, F), (H, F), (H, F)), "FLOAT;FLOAT;FLOAT", "ND;ND;ND",
             48.0)]
    return head, tail


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tab-start-time", action="store_true")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    head, tail = step_kernels()
    layer = layer_kernels()
    step_seq = head + layer * a.layers + tail
    t_now = {2: 1718265426000000000, 5: 1718265426000000000}  # ns, exact
    task = 0
    tab = "\t" if a.tab_start_time else ""
    n = 0
    step = 0
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        while n < a.rows:
            step += 1
            for (name, typ, core, blk, mix, ish, ity, ifm, osh, oty, ofm, mean) in step_seq:
                if n >= a.rows:
                    break
                stream = 5 if core == "HCCL" else 2
                dur = round(mean * rnd.uniform(0.85, 1.15), 3)
                wait = round(rnd.expovariate(1 / 1.5), 3)
                start = t_now[stream] + int(round(wait * 1000))
                t_now[stream] = start + int(round(dur * 1000))
                if stream == 5:
                    t_now[2] = max(t_now[2], t_now[5])
                task = (task + 1) % 65536
                if core in ("AI_CORE", "MIX_AIC", "AI_VECTOR_CORE"):
                    aic = round(dur * rnd.uniform(0.90, 0.99), 3)
                    cyc = int(aic * 1800 * max(blk, 1) / 20)
                    aic_s, cyc_s = f"{aic}", f"{cyc}"
                else:
                    aic_s, cyc_s = "N/A", "N/A"
                w.writerow([step, 4294967295, task, stream, name, typ, core,
                            f"{start // 1000}.{start % 1000:03d}{tab}", f"{dur}", f"{wait}", blk, mix, ish, ity, ifm,
                            osh, oty, ofm, "N/A", aic_s, cyc_s])
                n += 1
    print(f"wrote {n} rows, {step} steps ({len(step_seq)} kernels/step) to {a.out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
