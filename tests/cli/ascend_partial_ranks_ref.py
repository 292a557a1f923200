"""Independent reference for ascend_partial_ranks.sh: reads the export's
files itself (csv for rank 0's kernel_details.csv, the sqlite3 module for
rank 1's analysis.db) and checks profdb's collectives, steps, breakdown and
summary of the two-rank export, where rank 1 has no kernel table.
Units: kernel_details µs; analysis.db CommAnalyzer* times ms, sizes MB
(10^6 bytes), StepTraceTime µs (FORMATS.md, the real files, not the guide).
usage: ascend_partial_ranks_ref.py EXPORT COLL.csv LINKS.csv STEPS.csv BREAKDOWN.csv SUMMARY.csv"""
import csv, os, sqlite3, sys
from decimal import Decimal, ROUND_HALF_UP

export, coll, links, steps, brk, summ = sys.argv[1:7]
fail = 0


def ns(v, scale):
    """v (a float as stored, or text) in units 10^-scale of it, rounded."""
    d = Decimal(repr(v) if isinstance(v, float) else str(v).strip()) * (Decimal(10) ** scale)
    return int(d.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def check(what, got, want):
    global fail
    ok = got == want
    if isinstance(want, float) and got not in ('', None):
        ok = abs(float(got) - want) <= 1e-9 * abs(want)
    print('%s %s: %s%s' % ('ok' if ok else 'FAIL', what, got, '' if ok else ' (want %s)' % (want,)))
    fail |= not ok


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


# rank 0: its kernel table
r0 = os.path.join(export, 'rank0_ascend_pt', 'ASCEND_PROFILER_OUTPUT')
with open(os.path.join(r0, 'kernel_details.csv'), newline='', encoding='utf-8-sig') as f:
    k0 = list(csv.DictReader(f))
hcom = [r for r in k0 if r['Name'].startswith('hcom_')]
# rank 1: analysis.db only
db = sqlite3.connect('file:%s?mode=ro' % os.path.join(export, 'rank1_ascend_pt', 'ASCEND_PROFILER_OUTPUT',
                                                      'analysis.db'), uri=True)
ops = db.execute('SELECT hccl_op_name, elapse_time, wait_time, synchronization_time, group_name'
                 ' FROM CommAnalyzerTime').fetchall()
# bytes of an op: its RDMA + SDMA transit size (one value per op and
# transport, repeated on each size-distribution row)
bw = {}
for op, tr, size, t in db.execute('SELECT hccl_op_name, transport_type, transit_size, transit_time'
                                  ' FROM CommAnalyzerBandwidth'):
    bw[(op, tr)] = (ns(size, 6), ns(t, 6))
tbytes = sum(b for (op, tr), (b, t) in bw.items() if tr in ('RDMA', 'SDMA'))
tns = sum(t for (op, tr), (b, t) in bw.items() if tr in ('RDMA', 'SDMA'))
matrix = db.execute('SELECT transit_size FROM CommAnalyzerMatrix').fetchall()
st = dict(zip(('computing', 'cnol', 'overlapped', 'communication', 'free'),
              db.execute('SELECT computing, communication_not_overlapped, overlapped, communication, free'
                         ' FROM StepTraceTime').fetchone()))
st = {k: ns(v, 3) for k, v in st.items()}

c = {r['rank']: r for r in rows(coll)}
check('collectives ranks', sorted(c), ['0', '1'])
check('rank 0 calls (hcom_ kernels)', c['0']['calls'], str(len(hcom)))
check('rank 0 total_ns', c['0']['total_ns'], str(sum(ns(r['Duration(us)'], 3) for r in hcom)))
check('rank 1 calls (CommAnalyzerTime rows)', c['1']['calls'], str(len(ops)))
check('rank 1 total_ns (sum elapse_time)', c['1']['total_ns'], str(sum(ns(o[1], 6) for o in ops)))
check('rank 1 max_ns', c['1']['max_ns'], str(max(ns(o[1], 6) for o in ops)))
check('rank 1 wait_ns', c['1']['wait_ns'], str(sum(ns(o[2], 6) for o in ops)))
check('rank 1 sync_ns', c['1']['sync_ns'], str(sum(ns(o[3], 6) for o in ops)))
check('rank 1 process_group', c['1']['process_group'], ops[0][4])
check('rank 1 transit_bytes', c['1']['transit_bytes'], str(tbytes))
check('rank 1 transit_gbps', c['1']['transit_gbps'], tbytes / tns)

lk = rows(links)
check('rank 1 links', len(lk), len(matrix))
check('rank 1 link bytes', sum(int(r['bytes']) for r in lk), sum(ns(m[0], 6) for m in matrix))

s = {r['rank']: r for r in rows(steps)}
check('steps ranks', sorted(s), ['0', '1'])
check('rank 0 kernels', s['0']['kernels'], str(len(k0)))
for col in ('busy_ns', 'kernels', 'device_total_ns'):
    check('rank 1 steps %s (unknown: empty)' % col, s['1'][col], '')

b = {r['rank']: r for r in rows(brk)}
check('breakdown ranks', sorted(b), ['0', '1'])
check('rank 0 breakdown kernels', b['0']['kernels'], str(len(k0)))
span = st['computing'] + st['cnol'] + st['free']
want = {'span_ns': span, 'busy_ns': span - st['free'], 'compute_ns': st['computing'],
        'communication_ns': st['communication'], 'compute_comm_overlap_ns': st['overlapped'],
        'exposed_communication_ns': st['cnol'], 'idle_ns': st['free']}
for col, v in want.items():
    check('rank 1 breakdown %s (StepTraceTime)' % col, b['1'][col], str(v))
check('rank 1 breakdown idle_pct', b['1']['idle_pct'], 100.0 * st['free'] / span)
check('rank 1 breakdown comm_overlap_pct', b['1']['comm_overlap_pct'], 100.0 * st['overlapped'] / st['communication'])
for col in ('memory_ns', 'exposed_memory_ns', 'memory_pct', 'kernels'):
    check('rank 1 breakdown %s (unknown: empty)' % col, b['1'][col], '')

# no host op anywhere in the export (no operator_details.csv): total_cpu unknown
hostops = [f for _, _, fs in os.walk(export) for f in fs if f in ('operator_details.csv', 'trace_view.json')]
check('host op files', hostops, [])
sm = rows(summ)[0]
check('summary kernels', sm['kernels'], str(len(k0)))
check('summary total_cpu_ns (no host ops: empty)', sm['total_cpu_ns'], '')
sys.exit(1 if fail else 0)
