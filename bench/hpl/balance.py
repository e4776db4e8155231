#!/usr/bin/env python3
"""Balance-point analysis of an HPL --timing file (the HPL paper (ISCAS)), for any backend and
grid: per iteration the update time (CUDA: the GPU's update span; CPU: the DGEMM/DTRSM update)
against the panel + swap time (CPU panel factorisation, broadcast and row swaps, as rank 0
recorded them). The crossing point is the first iteration from which panel + swap exceeds the
update in every later iteration: from there the update no longer hides the panel. Prints a table
(every 10th iteration), the crossing point as text and the share of the flops before it; writes
a PNG next to the input when matplotlib is available (--no-plot: never).
Usage: balance.py TIMING.json [--no-plot]"""
import json
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
if len(args) != 1:
    sys.exit(__doc__)
path = args[0]
plot = "--no-plot" not in sys.argv
d = json.load(open(path))
t = d["tests"][0]
n, it = t["n"], t["iterations"]
print(f"backend {d.get('backend', '?')}, N {n}, NB {t['nb']}, grid {t['p']} x {t['q']}, {len(it)} iterations")


def side(r):  # panel + swap (+ broadcast) of one iteration
    return r["panel_s"] + r.get("swap_s", 0) + r.get("bcast_s", 0)


print(f"{'k':>8} {'update_s':>10} {'panel+swap_s':>13} {'wait_s':>10} {'gap_s':>10}")
for i, r in enumerate(it):
    if i % 10 == 0 or i == len(it) - 1:
        print(f"{r['k']:>8} {r['update_s']:>10.4f} {side(r):>13.4f} {r.get('host_wait_s', 0):>10.4f} "
              f"{r.get('gpu_gap_s', 0):>10.4f}")
cross = None
body = [r for r in it if r["panel_s"] > 0 or r["update_s"] > 0]
for i in range(len(body)):
    if all(side(r) > r["update_s"] for r in body[i:]):
        cross = i
        break
upd = sum(r["update_s"] for r in it)
pan = sum(side(r) for r in it)
gap = sum(r.get("gpu_gap_s", 0) for r in it)
print(f"time {t['time_s']:.4f} s, sum update {upd:.4f} s, sum panel+swap {pan:.4f} s"
      + (f", GPU idle gaps {gap:.4f} s" if gap > 0 else ""))
if cross is not None and body:
    k = body[cross]["k"]
    frac_flops = 1 - ((n - k) / n) ** 3
    print(f"crossing point: iteration {cross}, column {k} ({100.0 * k / n:.1f}% of the columns, "
          f"{100.0 * frac_flops:.2f}% of the flops before it)")
else:
    print("crossing point: none (the update hides the panel to the end)")
if plot:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no plot: matplotlib is not installed)")
    else:
        ks = [r["k"] for r in it]
        plt.plot(ks, [r["update_s"] for r in it], label="update")
        plt.plot(ks, [side(r) for r in it], label="panel + swap")
        if gap > 0:
            plt.plot(ks, [r.get("gpu_gap_s", 0) for r in it], label="GPU idle gap")
        if cross is not None and body:
            plt.axvline(body[cross]["k"], color="gray", linestyle="--", label="crossing point")
        plt.xlabel("panel column k")
        plt.ylabel("seconds")
        plt.legend()
        plt.title(f"HPL N={n} NB={t['nb']} {t['p']}x{t['q']} balance point")
        out = path[:-5] + ".png" if path.endswith(".json") else path + ".png"
        plt.savefig(out, dpi=100)
        print(f"plot: {out}")
