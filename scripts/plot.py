#!/usr/bin/env python3
"""Figures from gpu500's --json outputs (schemas: docs/json.md), as PNG files (matplotlib).

  plot.py ablation bfs-ablation.jsonl -o OUT.png   harmonic-mean GTEPS per technique set, per graph
  plot.py trace    graph500.json     -o OUT.png   per-level frontier and seconds of the last BFS/SSSP
  plot.py balance  hpl-timing.json   -o OUT.png   HPL update vs panel+swap+broadcast per column
  plot.py scaling  SCALING_OUT_DIR   -o OUT.png   GTEPS against ranks (weak-*.json, strong-*.json)
  plot.py hash     hash-static.json  -o OUT.png   rates against load factor, one line per table

Exit status: 0 with the PNG written, 1 when the input lacks what the figure needs, 3 when
matplotlib is not installed (one line on stderr)."""
import argparse
import glob
import json
import os
import re
import sys


def fail(msg):
    print("plot.py: " + msg, file=sys.stderr)
    sys.exit(1)


def load(path):
    try:
        with open(path) as f:
            if path.endswith(".jsonl"):
                return [json.loads(line) for line in f if line.strip()]
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))


def ablation(ax, path):
    """Bars of harmonic-mean GTEPS, one group per (graph, scale), one bar per label, in file order."""
    rows = load(path)
    if not rows:
        fail(path + ": no runs")
    groups, labels = [], []
    for r in rows:
        g = "%s %s" % (r["graph"], r["scale"])
        if g not in groups:
            groups.append(g)
        if r["label"] not in labels:
            labels.append(r["label"])
    width = 0.8 / len(labels)
    for i, label in enumerate(labels):
        xs, ys = [], []
        for j, g in enumerate(groups):
            hits = [r for r in rows if r["label"] == label and "%s %s" % (r["graph"], r["scale"]) == g]
            if hits:
                xs.append(j + (i - (len(labels) - 1) / 2) * width)
                ys.append(hits[-1]["hmean_gteps"])
        ax.bar(xs, ys, width, label=label)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)
    ax.set_ylabel("harmonic-mean GTEPS")
    ax.set_title("BFS: techniques added in turn")
    ax.legend(fontsize="small", ncol=min(len(labels), 4))


def trace(fig, path):
    """Per level: the frontier (log scale, bars coloured by direction) and compute / comm seconds."""
    j = load(path)
    t = j.get("trace")
    if not isinstance(t, dict) or not any(t.get(k) for k in ("bfs", "sssp")):
        fail(path + ": no per-level trace (graph500 over MPI ranks or on one GPU writes one)")
    kernels = [k for k in ("bfs", "sssp") if t.get(k)]
    for i, k in enumerate(kernels):
        levels = t[k]
        xs = list(range(len(levels)))
        # One colour per kind of step (BFS: top-down, bottom-up, device-loop; SSSP: its phases).
        kinds = list(dict.fromkeys(l["direction"] for l in levels))
        ax = fig.add_subplot(2, len(kernels), i + 1)
        for c, kind in enumerate(kinds):
            sel = [x for x, l in zip(xs, levels) if l["direction"] == kind]
            ax.bar(sel, [max(levels[x]["frontier"], 1) for x in sel], color="C%d" % (c % 10), label=kind)
        ax.set_yscale("log")
        ax.set_ylabel("frontier")
        ax.set_title("%s: frontier per level" % k.upper(), fontsize="small")
        ax.legend(fontsize="small")
        ax2 = fig.add_subplot(2, len(kernels), len(kernels) + i + 1)
        comp = [l["compute_seconds"] * 1e3 for l in levels]
        comm = [l.get("comm_seconds", 0) * 1e3 for l in levels]
        ax2.bar(xs, comp, label="compute")
        if any(comm):
            ax2.bar(xs, comm, bottom=comp, label="communication")
        ax2.set_xlabel("level")
        ax2.set_ylabel("ms")
        ax2.legend(fontsize="small")
    fig.suptitle("SCALE %s, %s rank(s): %s" % (j.get("SCALE"), j.get("num_mpi_processes"), j.get("backend", "")),
                 fontsize="small")


def balance(ax, path):
    """HPL per panel column: trailing update against panel + swap + broadcast; the crossing point is
    the first column from which the panel side exceeds the update to the end (bench/hpl/balance.py)."""
    d = load(path)
    tests = [t for t in d.get("tests", []) if t.get("iterations")]
    if not tests:
        fail(path + ": no iterations (write it with gpu500 hpl --timing FILE)")
    t = tests[0]
    it = t["iterations"]
    ks = [r["k"] for r in it]
    upd = [r["update_s"] * 1e3 for r in it]
    side = [(r["panel_s"] + r.get("swap_s", 0) + r.get("bcast_s", 0)) * 1e3 for r in it]
    ax.plot(ks, upd, label="trailing update")
    ax.plot(ks, side, label="panel + swap + broadcast")
    cross = next((i for i in range(len(it)) if all(s > u for s, u in zip(side[i:], upd[i:]))), None)
    if cross is not None:
        ax.axvline(ks[cross], color="gray", linestyle="--", label="crossing, column %d" % ks[cross])
    ax.set_xlabel("panel column k")
    ax.set_ylabel("ms per iteration")
    ax.set_title("HPL balance point: N %d, NB %d, %d x %d, %s" % (t["n"], t["nb"], t["p"], t["q"], d.get("backend", "")))
    ax.legend(fontsize="small")


def scaling(fig, folder):
    """weak-R.json / strong-R.json (R ranks): GTEPS against R, and the weak series' efficiency."""
    series = {}
    for f in glob.glob(os.path.join(folder, "*.json")):
        m = re.match(r"(weak|strong)-(\d+)\.json$", os.path.basename(f))
        if m:
            series.setdefault(m.group(1), []).append((int(m.group(2)), load(f)))
    if not series:
        fail(folder + ": no weak-R.json or strong-R.json")
    ax = fig.add_subplot(1, 2, 1)
    for name in ("weak", "strong"):
        runs = sorted(series.get(name, []), key=lambda x: x[0])
        for k in ("bfs", "sssp"):
            pts = [(r, j[k]["harmonic_mean_TEPS"] / 1e9) for r, j in runs if j.get(k) and j.get("valid", True)]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label="%s %s" % (name, k.upper()))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("ranks (GPUs)")
    ax.set_ylabel("harmonic-mean GTEPS")
    ax.legend(fontsize="small")
    ax.set_title("Graph500 scaling", fontsize="small")
    ax2 = fig.add_subplot(1, 2, 2)
    weak = sorted(series.get("weak", []), key=lambda x: x[0])
    if weak and weak[0][1].get("bfs"):
        base = weak[0][1]["bfs"]["harmonic_mean_TEPS"]
        rs = [r for r, j in weak if j.get("bfs")]
        eff = [j["bfs"]["harmonic_mean_TEPS"] / (base * r / weak[0][0]) * 100 for r, j in weak if j.get("bfs")]
        ax2.plot(rs, eff, marker="o")
        ax2.set_xscale("log", base=2)
    ax2.set_ylim(bottom=0)
    ax2.set_xlabel("ranks (GPUs)")
    ax2.set_ylabel("weak-scaling efficiency, BFS (%)")
    ax2.set_title("TEPS per rank against the smallest run", fontsize="small")


def hash_rates(ax, path):
    """hash static: insert, find-hit and find-miss rates (G/s) against load factor, per table."""
    d = load(path)
    rows = [r for r in d.get("rows", []) if "load_factor" in r]
    if not rows:
        fail(path + ": no static rows (gpu500 hash static --json)")
    styles = {"insert_gps": "-", "find_hit_gps": "--", "find_miss_gps": ":"}
    tables = []
    for r in rows:
        if r["table"] not in tables:
            tables.append(r["table"])
    for i, table in enumerate(tables):
        rs = sorted((r for r in rows if r["table"] == table), key=lambda r: r["load_factor"])
        for key, style in styles.items():
            ax.plot([r["load_factor"] for r in rs], [r[key] for r in rs], style, marker="o", color="C%d" % (i % 10),
                    label="%s %s" % (table, key[:-4].replace("_", "-")))
    ax.set_xlabel("load factor")
    ax.set_ylabel("billion operations / s")
    ax.set_title("hash static: %s keys, %s%s" % (d.get("keys"), d.get("backend"),
                                                 (", " + d["device"]) if d.get("device") else ""), fontsize="small")
    ax.legend(fontsize="x-small", ncol=2)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kind", choices=["ablation", "trace", "balance", "scaling", "hash"])
    p.add_argument("input", help="the JSON file (the folder of the scaling runs)")
    p.add_argument("-o", "--output", required=True, help="the PNG to write")
    a = p.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed (Debian: python3-matplotlib)", file=sys.stderr)
        return 3
    fig = plt.figure(figsize=(10, 6) if a.kind in ("trace", "scaling") else (8, 5))
    if a.kind in ("trace", "scaling"):
        (trace if a.kind == "trace" else scaling)(fig, a.input)
    else:
        {"ablation": ablation, "balance": balance, "hash": hash_rates}[a.kind](fig.add_subplot(1, 1, 1), a.input)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print("plot.py: wrote " + a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
