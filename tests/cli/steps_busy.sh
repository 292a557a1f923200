# Device busy time on a hand-made kernel_details.csv with overlapping
# kernels (no host spans: wall = device span).  Worked out by hand:
#   step 1: [0,10) [5,20) [30,40) [35,38)  -> union 20 + 10 = 30, span 40, sum 38
#   step 2: [100,150) [150,160) [120,130)  -> union 60 (touching), span 60, sum 70
#   step 3: [200,201)                       -> 1
# (times in us; start times in the Ascend format with the TAB msprof appends)
. "$HERE/query_setup.sh"
printf 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n' >kernel_details.csv
printf '1,A,A,AI_CORE,1000.000\t,10,0,1\n' >>kernel_details.csv
printf '1,B,B,AI_CORE,1005.000\t,15,0,1\n' >>kernel_details.csv
printf '1,A,A,AI_CORE,1030.000\t,10,0,1\n' >>kernel_details.csv
printf '1,C,C,AI_VECTOR_CORE,1035.000\t,3,0,1\n' >>kernel_details.csv
printf '2,A,A,AI_CORE,1100.000\t,50,0,1\n' >>kernel_details.csv
printf '2,B,B,AI_CORE,1150.000\t,10,0,1\n' >>kernel_details.csv
printf '2,C,C,AI_VECTOR_CORE,1120.000\t,10,0,1\n' >>kernel_details.csv
printf '3,A,A,AI_CORE,1200.000\t,1,0,1\n' >>kernel_details.csv
$PROFDB ingest -q --db b.db --run busy kernel_details.csv || exit 1
$PROFDB steps --db b.db --format csv
$PROFDB sql --db b.db --format csv "SELECT step, busy_us, wall_us, device_total_us FROM step_stats ORDER BY step"
