#!/usr/bin/env python3
"""Rows "hash|...|..." (scripts/results_md.py) of the best GLHT variant against cuCollections'
best static_map (the `cuco` and `cuco-cg1` rows) at each load factor, from one run's table of
`gpu500 hash static` with bench/hash/cuco.sh's rows appended (scripts/gpu-check.d/hash.sh), and
at LF 0.8 the goals: insert >= 8 G/s, find-hit >= 14 G/s, find-miss >= 1.5x cuCollections'.
Prints nothing when the table holds no cuCollections rows.

  vs_cuco.py hash-static.txt
"""
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
best = {}  # (family, lf) -> [insert, hit, miss]
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 5 or not f[1].startswith("0."):
        continue
    family = "glht" if f[0].startswith("glht") else "cuco" if f[0].startswith("cuco") else None
    if family is None:
        continue
    try:
        rates = [float(x) for x in f[2:5]]
    except ValueError:
        continue
    b = best.setdefault((family, f[1]), [0.0, 0.0, 0.0])
    best[(family, f[1])] = [max(x, y) for x, y in zip(b, rates)]
for (family, lf), g in sorted(best.items()):
    c = best.get(("cuco", lf))
    if family != "glht" or c is None or min(c) <= 0:
        continue
    text = (f"insert {g[0]:.2f} vs {c[0]:.2f} G/s (x{g[0] / c[0]:.2f}), hit {g[1]:.2f} vs {c[1]:.2f} "
            f"(x{g[1] / c[1]:.2f}), miss {g[2]:.2f} vs {c[2]:.2f} (x{g[2] / c[2]:.2f})")
    if lf.startswith("0.80"):
        verdict = lambda ok: "met" if ok else "not met"
        text += (f"; goals: insert >= 8 {verdict(g[0] >= 8)}, hit >= 14 {verdict(g[1] >= 14)}, "
                 f"miss >= 1.5x {verdict(g[2] >= 1.5 * c[2])}")
    print(f"hash|static best GLHT vs best cuCollections, LF {lf}|{text}")
