#!/usr/bin/env python3
"""make_edge.py - regenerate the hand-made Ascend CSV edge cases of this folder.

Run from this folder: python3 make_edge.py.  Every file is written byte for
byte here (line ends, TABs, missing final newlines matter), so the tests'
hand-computed expectations can be read next to the data.  No third-party
content: names and numbers imitate the formats of FORMATS.md 2-4.
"""
import os

TAB = "\t"


def write(path, lines, end="\n", final=True):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    text = end.join(lines) + (end if final else "")
    with open(path, "wb") as f:
        f.write(text.encode())


HDR_B = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim"

# CRLF, a CSV-quoted start time with the TAB msprof appends, an unquoted
# one with the TAB, an empty Step Id, a communication row, 6-decimal wait.
write("crlf/kernel_details.csv", [
    HDR_B,
    '1,MatMul_1,MatMulV2,AI_CORE,"1736405443881410.320' + TAB + '",10.5,0,20',
    "1,hcom_allReduce__1,hcom_allReduce_,HCCL,1736405443881500.000" + TAB + ",100.25,79.180,0",
    ",Add_2,N/A,N/A,1736405443881700.001,0.001,0.0,0",
    "2,MatMul_1,MatMulV2,AI_CORE,1736405443882000,12,1881.080000,20",
], end="\r\n")

# Variant A (no Step Id), LF, a spreadsheet exponent, no final newline.
write("lf_no_final_newline/kernel_details.csv", [
    "Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim",
    "Cast16,N/A,N/A,1702866902796675,932.0498,0,0",
    "Conv2D17,N/A,N/A,1.7028669029969568E+15,24.26,23.4,0",
], final=False)

HDR_D = ("Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),"
         "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,"
         "Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats,"
         "Context ID,aicore_time(us),aic_total_cycles,aic_mac_ratio")
# Ragged rows: short only in metrics (kept), short with a missing Duration
# like the real 2023 FlashAttentionScore row (skipped), short in the fixed
# columns (skipped), all metrics N/A (kept, no metrics).
write("ragged/kernel_details.csv", [
    HDR_D,
    '2,4294967295,10,2,Full,MatMulV2,AI_CORE,1000.5,7.25,0,24,0,NO,"""8192,2,640;;1""",'
    'DT_BF16;FLOAT,ND;ND,"""4096,512""",DT_BF16,ND,N/A,7.0,12345,0.5',
    '2,4294967295,11,2,ShortMetrics,MatMulV2,AI_CORE,1010,3,0,24,0,NO,"""1""",FLOAT,ND,'
    '"""1""",FLOAT,ND,0,2.5',
    '2,4294967295,12,2,FlashAttentionScore,FlashAttentionScore,MIX_AIC,1020.5,1.8414,24,48,NO,'
    '"""8192""",DT_BF16,ND,"""1""",FLOAT,ND,0,5453.87,242151944',
    "2,4294967295,13,2,TooShort,Add,AI_CORE,1030,2",
    "2,4294967295,14,2,NAmetrics,Add,AI_CORE,1040,4,0,1," + ",".join(["N/A"] * 12),
])

# Unusable durations, starts and names: each row is skipped with a reason.
write("na_duration/kernel_details.csv", [
    HDR_B,
    "1,Good,Add,AI_CORE,100,5,0,1",
    "1,NaDur,Add,AI_CORE,110,N/A,0,1",
    "1,ZeroDur,Add,AI_CORE,120,0,0,1",
    "1,NegDur,Add,AI_CORE,130,-2,0,1",
    "1,BadStart,Add,AI_CORE,N/A,3,0,1",
    "1,,Add,AI_CORE,140,3,0,1",
    "1,Good,Add,AI_CORE,150,7,0,1",
], end="\r\n")

# msprof's raw op_summary names, Device_id, Block Num / Mix Block Num, a
# COMMUNICATION row with N/A ids.
write("raw_names/kernel_details.csv", [
    "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
    "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,"
    "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
    "Output Data Types,Output Formats,Context ID,aiv_time(us),aiv_vec_ratio",
    '3,4294967295,5,7,aclnnAdd_AddAiCore_Add,Add,dynamic,AI_VECTOR_CORE,"1736413974268747.953'
    + TAB + '",1.58,28.28,1,0,NO,""";""",FLOAT;FLOAT,ND;ND,"""""",FLOAT,ND,N/A,1.107,0.027',
    "3,N/A,N/A,N/A,hcom_allReduce__868_0_1,hcom_allReduce_,N/A,COMMUNICATION,"
    "1736413974268800.000" + TAB + ",20,0,0," + ",".join(["N/A"] * 11),
])

# MindSpore: Name is "<launch op>/<kernel>"; the rank comes from the folder name.
write("mindspore/rank_3_ascend_ms/ASCEND_PROFILER_OUTPUT/kernel_details.csv", [
    HDR_B,
    "1,MatMul-op0/aclnnMatmul_MatMulCommon_MatMulV2,MatMulV2,AI_CORE,100.000,5.5,0,8",
    "1,Add-op1/aclnnAdd_AddAiCore_Add,Add,AI_VECTOR_CORE,110.000,1.5,0,1",
    "1,NoSlash,Add,AI_VECTOR_CORE,120.000,1,0,1",
])

# Cambricon torch_mlu writes a kernel_details.csv of its own (the first six
# column names are the documented ones; the rest are made up).
write("cambricon/kernel_details.csv", [
    "Thread Id,Correlation Id,Kernel Name,Operator,Operator Input Shapes,Operator Input Type,"
    "Device Duration(us)",
    '1234,17,cnnlAdd,aten::add,"[[2, 2], [2, 2]]","[float, float]",3.5',
])

# A whole export: profiler_info.json without a rank suffix and a string
# rank_id, metadata, a multi-line quoted operator_details cell, a
# ProfilerStep row, step_trace_time with Device_id and an empty Step.
F = "folder/worker_ascend_pt"
write(F + "/profiler_info.json", [
    '{"config": {"experimental_config": {"_profiler_level": "Level0"}},',
    ' "torch_npu_version": "2.7.1", "cann_version": "8.3.RC1", "rank_id": "2"}',
])
write(F + "/profiler_metadata.json", ['{"ENV_VARIABLES": {"HCCL_RDMA_TC": ""}}'])
write(F + "/ASCEND_PROFILER_OUTPUT/kernel_details.csv", [
    HDR_B,
    "7,K,Add,AI_CORE,5,2.5,0,1",
], end="\r\n")
write(F + "/ASCEND_PROFILER_OUTPUT/operator_details.csv", [
    "Name,Input Shapes,Call Stack,Host Self Duration(us),Host Total Duration(us),"
    "Device Self Duration(us),Device Total Duration(us),Device Self Duration With AICore(us),"
    "Device Total Duration With AICore(us)",
    'aten::add,"8,8;\r\n8,8","a.py(1): f;\r\nb.py(2): g",10.5,20,3,4,2,3',
    "ProfilerStep#5,,,100,200,0,0,0,0",
    "aten::mul,,,1.25,1.25,0,0,0,0",
    ",,,1,1,0,0,0,0",
    "aten::bad,,,N/A,1,0,0,0,0",
], end="\r\n")
write(F + "/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", [
    "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,"
    "Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing",
    "2,,1.5,2,0,2,3,4,0,2,0.5",
    "2,7,8827.472999999998,81515.607,4001.281999999992,85516.889,25908.102000000003,"
    "116251.25,0,81515.607,19358.0",
], end="\r\n")
write(F + "/ASCEND_PROFILER_OUTPUT/op_statistic.csv", [
    "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)",
    "Add,AI_CORE,1,2.5,2.5,2.5,2.5,100",
], end="\r\n")
