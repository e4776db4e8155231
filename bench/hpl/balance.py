#!/usr/bin/env python3
"""Balance-point analysis of an HPL --timing file (paper 003): per iteration, the GPU's update
time against the CPU's panel time (with --gpu-panel: the time until the GPU panel's pivots
reached the host). The balance point is the first iteration from which the GPU
idles (gap > 1 ms) in every later iteration, i.e. where the panel stops hiding behind the update.
Prints a table (every 10th iteration), the balance point, the share of the flops before it,
and the GPU idle time; writes a PNG next to the input when matplotlib is available."""
import json
import sys

path = sys.argv[1]
d = json.load(open(path))
t = d["tests"][0]
n, it = t["n"], t["iterations"]
flops_total = 2.0 / 3.0 * n**3
print(f"{'k':>8} {'update_s':>10} {'panel_s':>10} {'wait_s':>10} {'gap_s':>10} {'pgpu_s':>10}")
balance = None
for i, r in enumerate(it):
    if i % 10 == 0 or i == len(it) - 1:
        print(f"{r['k']:>8} {r['update_s']:>10.4f} {r['panel_s']:>10.4f} {r.get('host_wait_s', 0):>10.4f} {r.get('gpu_gap_s', 0):>10.4f} {r.get('panel_gpu_s', 0):>10.4f}")
for i in range(len(it) - 2):  # (an empty run of iterations is no balance point)
    if all(r.get("gpu_gap_s", 0) > 1e-3 for r in it[i:-2]):
        balance = i
        break
gap = sum(r.get("gpu_gap_s", 0) for r in it)
upd = sum(r["update_s"] for r in it)
pan = sum(r["panel_s"] for r in it)
pgpu = sum(r.get("panel_gpu_s", 0) for r in it)
print(f"time {t['time_s']:.3f} s, sum update {upd:.3f} s, sum panel (CPU) {pan:.3f} s, GPU gaps {gap:.3f} s"
      + (f", of the panels in GPU DGEMMs {pgpu:.3f} s" if pgpu > 0 else ""))
# Host wall time from column n - T to the end (what a cuSOLVER tail of T rows replaces); when
# the run ended with a tail (an entry with no CPU panel after the panel loop), its GPU time.
for T in (8192, 16384, 24576, 32768, 40960):
    rest = [r for r in it if r["k"] >= n - T]
    if rest and T < n:
        flo = 2.0 / 3.0 * T**3
        s = sum(r.get("total_s", 0) for r in rest)
        print(f"last {T} columns: {s:.3f} s host time in {len(rest)} iterations ({flo/s/1e12 if s > 0 else 0:.1f} TFLOP/s)")
last = it[-1] if it else None
if last is not None and last["panel_s"] == 0 and len(it) > 1 and it[-2]["panel_s"] == 0 and last["update_s"] > 0:
    m = n - last["k"]
    print(f"tail: cuSOLVER getrf+getrs on the last {m} rows: {last['update_s']:.3f} s on the GPU "
          f"({2.0/3.0*m**3/last['update_s']/1e12:.1f} TFLOP/s)")
if balance is not None:
    k = it[balance]["k"]
    frac_flops = 1 - ((n - k) / n) ** 3
    print(f"balance point: iteration {balance} (column {k}, {100.0*k/n:.1f}% of the columns, "
          f"{100.0*frac_flops:.2f}% of the flops before it)")
else:
    print("balance point: none (the GPU never idles for good)")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ks = [r["k"] for r in it]
    plt.plot(ks, [r["update_s"] for r in it], label="GPU update")
    plt.plot(ks, [r["panel_s"] for r in it], label="panel (CPU; GPU panel: until its pivots)")
    plt.plot(ks, [r.get("gpu_gap_s", 0) for r in it], label="GPU idle gap")
    plt.xlabel("panel column k"); plt.ylabel("seconds"); plt.legend(); plt.title(f"HPL N={n} balance point")
    plt.savefig(path.replace(".json", ".png"), dpi=100)
except Exception as e:  # plotting is optional
    print(f"(no plot: {e})")
