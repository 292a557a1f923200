# Exact two-sided Mann-Whitney p under ties, by enumerating every split of
# the pooled values (U by pairs, ties one half; p = twice the smaller tail,
# at most 1).  Shares no code with profdb: the expected values of
# tests/check_statstest.c mwu_exact_with_ties.  Run: python3 mwu_ties_ref.py
import itertools
from fractions import Fraction
def p_exact(x, y):
    allv = list(x) + list(y); n = len(x); N = len(allv)
    def U(idx):
        xs = [allv[i] for i in idx]; ys = [allv[i] for i in range(N) if i not in idx]
        return sum((1 if a > b else Fraction(1,2) if a == b else 0) for a in xs for b in ys)
    uo = U(set(range(n)))
    le = ge = tot = 0
    for c in itertools.combinations(range(N), n):
        u = U(set(c)); tot += 1
        le += u <= uo; ge += u >= uo
    p = Fraction(2*min(le, ge), tot)
    return uo, min(p, 1), le, ge, tot
for x, y in [([10,11,12,13,14],[20,21,22,22,24]),
             ([0,0,0,1,5],[0,0,1,2,2,2,7]),
             ([3,1,4,1,5,9,2,6,5],[3,5,8,9,7,9,3,2,3]),
             ([2,2,3],[2,3,3])]:
    u, p, le, ge, tot = p_exact(x, y)
    print(x, y, "U", u, "p", p, float(p), le, ge, tot)
