"""Independent reference for kind_comm_nccl.sh: reads a Kineto trace itself
(json, exact decimals) and checks profdb's per-kind and per-step
communication figures.  Communication = a device kernel whose name starts
with nccl/rccl (HTA's rule is "nccl" in the name; the same here).
usage: kind_comm_ref.py TRACE BYKIND.csv COMM.csv STEPS.csv DIFF.csv
(DIFF.csv: diff --by kind of the trace against itself)"""
import csv, gzip, json, sys
from decimal import Decimal
from collections import defaultdict

trace, bykind, comm, steps, diff = sys.argv[1:6]
opener = gzip.open if open(trace, 'rb').read(2) == b'\x1f\x8b' else open
doc = json.load(opener(trace, 'rt'), parse_float=Decimal)
ev = [e for e in doc['traceEvents'] if e.get('ph') == 'X']
ns = lambda v: int(Decimal(v) * 1000)

def kind(e):
    if e['cat'] == 'gpu_memcpy':
        return 'memcpy'
    if e['cat'] == 'gpu_memset':
        return 'memset'
    return 'communication' if e['name'].lower().startswith(('nccl', 'rccl')) else 'kernel'

dev = [e for e in ev if e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset')]
tot, calls = defaultdict(int), defaultdict(int)
for e in dev:
    tot[kind(e)] += ns(e['dur'])
    calls[kind(e)] += 1
alltot = sum(tot.values())
print('reference: %d device activities, communication %d calls, %d ns = %.2f%% of device time'
      % (len(dev), calls['communication'], tot['communication'], 100.0 * tot['communication'] / alltot))

fail = 0
def check(what, got, want):
    global fail
    if got != want:
        print('FAIL %s: profdb %r, reference %r' % (what, got, want))
        fail = 1

rows = {r['kind']: r for r in csv.DictReader(open(bykind))}
check('kinds', sorted(rows), sorted(tot))
for k in tot:
    if k in rows:
        check(k + ' total_ns', int(rows[k]['total_ns']), tot[k])
        check(k + ' calls', int(rows[k]['calls']), calls[k])
print('ok kernels --by kind: %d kinds' % len(rows))

names = defaultdict(int)
for e in dev:
    if kind(e) == 'communication':
        names[e['name']] += ns(e['dur'])
got = {r['name']: int(r['total_ns']) for r in csv.DictReader(open(comm))}
check('--kind communication names', got, dict(names))
print('ok kernels --kind communication: %d names' % len(got))

# a kernel's step: the ProfilerStep#N host span holding its launch
spans = [(int(e['name'].split('#')[1]), ns(e['ts']), ns(e['ts']) + ns(e['dur'])) for e in ev
         if e.get('cat') == 'user_annotation' and e['name'].startswith('ProfilerStep#')]
launch = {e['args']['correlation']: ns(e['ts']) for e in ev
          if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e.get('args', {})}
per_step, per_n = defaultdict(int), defaultdict(int)
for e in dev:
    if kind(e) != 'communication':
        continue
    t = launch.get(e['args'].get('correlation'))
    s = min((n for n, a, b in spans if t is not None and a <= t < b), default=None)
    per_step[s] += ns(e['dur'])
    per_n[s] += 1
got = {(int(r['step']) if r['step'] else None): (int(r['device_total_ns']), int(r['kernels']))
       for r in csv.DictReader(open(steps))}
check('steps --kind communication', got, {s: (per_step[s], per_n[s]) for s in per_step})
print('ok steps --kind communication: %d steps' % len(got))

# diff --by kind: a kind's sample is its per-step total; base_us their mean
d = {r['kind']: r for r in csv.DictReader(open(diff))}
want = Decimal(sum(per_step.values())) / len(per_step) / 1000
check('diff communication base_us', abs(Decimal(d['communication']['base_us']) - want) < Decimal('0.001'), True)
check('diff communication calls', int(d['communication']['base_calls']), calls['communication'] // len(per_step))
print('ok diff --by kind: communication %.3f us per step' % want)
sys.exit(fail)
