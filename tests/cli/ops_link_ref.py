"""Independent reference for ops_link_corpus.sh: reads a Kineto trace itself
and checks `profdb ops --format csv --unit ns` (device_self, device_total,
calls and top_kernels per operator name).

The profiler's link, written here from its definition and not from profdb:
a device event (kernel, gpu_memcpy, gpu_memset) -> the runtime call with the
same correlation id (cuda_runtime / cuda_driver) -> the innermost operator
(cpu_op; user annotations such as ProfilerStep#N or nccl:all_reduce never
launch: no device event of a current trace names one) on the call's thread
whose span [ts, ts + dur)
holds the call's ts (latest start; at equal starts the shorter, then the
later in the file).  device_self of an op: its linked device time;
device_total: the device time linked to it or to ops inside its span.
ProfilerStep#N ops are one row, ProfilerStep* (as torch's key_averages).
usage: ops_link_ref.py TRACE OPS.csv"""
import bisect, csv, gzip, json, sys
from collections import defaultdict
from decimal import Decimal

trace, ops_csv = sys.argv[1:3]
opener = gzip.open if open(trace, 'rb').read(2) == b'\x1f\x8b' else open
doc = json.load(opener(trace, 'rt'), parse_float=Decimal)
ev = [e for e in doc['traceEvents'] if isinstance(e, dict) and e.get('ph') == 'X']
ns = lambda v: int(Decimal(v) * 1000)

kdur, kname = defaultdict(int), defaultdict(lambda: defaultdict(int))
for e in ev:
    if e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset'):
        c = e['args']['correlation']
        kdur[c] += ns(e['dur'])
        kname[c][e['name']] += ns(e['dur'])

ops = defaultdict(list)  # tid -> [(start, -dur, index, end, name)]
for i, e in enumerate(ev):
    if e.get('cat') in ('cpu_op', 'user_annotation'):
        s = ns(e['ts'])
        ops[e['tid']].append((s, -ns(e['dur']), i, s + ns(e['dur']), e['name'], e['cat']))
for v in ops.values():
    v.sort()
calls = [(e['tid'], ns(e['ts']), e['args']['correlation']) for e in ev
         if e.get('cat') in ('cuda_runtime', 'cuda_driver') and e['args'].get('correlation') in kdur]

def fold(name):
    return 'ProfilerStep*' if name.startswith('ProfilerStep#') else name

dself, dtotal, ncalls = defaultdict(int), defaultdict(int), defaultdict(int)
linked = defaultdict(list)  # tid -> [(linked op, device time)]
top = defaultdict(lambda: defaultdict(int))
for v in ops.values():
    for o in v:
        ncalls[fold(o[4])] += 1
for tid, t, c in calls:
    v = ops.get(tid, [])
    j = bisect.bisect_right(v, (t, float('inf')))
    inner = None
    for k in range(j - 1, -1, -1):  # latest start first
        if v[k][0] <= t < v[k][3] and v[k][5] == 'cpu_op':
            inner = v[k]
            break
    if inner is None:
        continue
    dself[fold(inner[4])] += kdur[c]
    linked[tid].append((inner, kdur[c]))
    for n, d in kname[c].items():
        top[fold(inner[4])][n] += d
# device_total: the device time linked to the op or to an op inside it (its
# span within the op's; at equal spans the later in the file is inside)
for tid, v in ops.items():
    ls = sorted(linked[tid])
    starts = [x[0][0] for x in ls]
    for o in v:
        a, b = bisect.bisect_left(starts, o[0]), bisect.bisect_right(starts, o[3])
        dtotal[fold(o[4])] += sum(d for (l, d) in ls[a:b] if l[3] <= o[3] and l[:3] >= o[:3])

rows = {r['name']: r for r in csv.DictReader(open(ops_csv))}
fail = 0
def check(what, got, want):
    global fail
    if got != want:
        print('FAIL %s: profdb %r, reference %r' % (what, got, want))
        fail += 1

# runtime calls are rows of their own, with no device time; the row
# (no operator) holds the device time no operator claims
runtime = {e['name'] for e in ev if e.get('cat') in ('cuda_runtime', 'cuda_driver')}
for name in sorted(runtime & set(rows)):
    check(name + ' device_self of a runtime call', rows.pop(name)['device_self_ns'], '')
nop = rows.pop('(no operator)', None)

check('operator names', sorted(rows), sorted(ncalls))
nlinked = 0
for name in sorted(set(rows) & set(ncalls)):
    r = rows[name]
    check(name + ' calls', int(r['calls']), ncalls[name])
    check(name + ' device_self', int(r['device_self_ns'] or 0), dself[name])
    check(name + ' device_total', int(r['device_total_ns'] or 0), dtotal[name])
    want = sorted(top[name].items(), key=lambda x: (-x[1], x[0]))[:3]
    got = [x.rsplit(' (', 1) for x in r['top_kernels'].split('; ')] if r['top_kernels'] else []
    check(name + ' top_kernels', [g[0] for g in got], [w[0] for w in want])
    tot = sum(top[name].values())
    for g, w in zip(got, want):
        if abs(float(g[1].rstrip('%)')) - 100.0 * w[1] / tot) > 0.051:
            check(name + ' share of ' + w[0], g[1], 100.0 * w[1] / tot)
    nlinked += dself[name] > 0
unlinked = sum(kdur.values()) - sum(dself.values())
check('(no operator) device_self', int(nop['device_self_ns']) if nop else 0, unlinked)
print('ok %d operator names, %d with kernels of their own, device time %d ns linked of %d'
      % (len(rows), nlinked, sum(dself.values()), sum(kdur.values())) if not fail else '%d mismatches' % fail)
sys.exit(1 if fail else 0)
