#!/usr/bin/env python3
"""Figures from gpu500's --json outputs (schemas: docs/json.md), as PNG files (matplotlib).

  plot.py ablation bfs-ablation.jsonl -o OUT.png   harmonic-mean GTEPS per technique set, per graph
  plot.py trace    graph500.json     -o OUT.png   per-level frontier and seconds of the last BFS/SSSP
  plot.py balance  hpl-timing.json   -o OUT.png   HPL update vs panel+swap+broadcast per column
  plot.py scaling  SCALING_OUT_DIR   -o OUT.png   GTEPS against ranks (weak-*.json, strong-*.json)
  plot.py hash     hash-static.json  -o OUT.png   rates against load factor, one line per table

Exit status: 0 with the PNG written, 1 when the input lacks what the figure needs, 3 when
no Python here imports matplotlib (one line on stderr). Run by a Python without matplotlib (a
pyenv or venv python3 first on PATH), the script runs itself again under another python3 that
has it."""
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


def bins_of(levels, most=60):
    """Consecutive levels in at most `most` groups (an SSSP trace has hundreds of phases: one bar each
    would be a hairline). Returns (first level of each group, size of a group)."""
    size = max(1, -(-len(levels) // most))
    return list(range(0, len(levels), size)), size


def trace(fig, path):
    """Per level (or group of levels): the frontier (log scale, bars coloured by the kind of step)
    and compute / communication milliseconds."""
    from matplotlib.ticker import MaxNLocator
    j = load(path)
    t = j.get("trace")
    if not isinstance(t, dict) or not any(t.get(k) for k in ("bfs", "sssp")):
        fail(path + ": no per-level trace (graph500 writes one on the CPU, over MPI ranks and on one GPU)")
    kernels = [k for k in ("bfs", "sssp") if t.get(k)]
    for i, k in enumerate(kernels):
        levels = t[k]
        starts, size = bins_of(levels)
        groups = [levels[s:s + size] for s in starts]
        # A group's frontier is its largest, its kind that of its largest step, its times the sums.
        front = [max(max(l["frontier"] for l in g), 1) for g in groups]
        align = "center" if size == 1 else "edge"
        kind_of = [max(g, key=lambda l: l["frontier"])["direction"] for g in groups]
        kinds = list(dict.fromkeys(kind_of))
        step = "level" if k == "bfs" else "phase"
        ax = fig.add_subplot(2, len(kernels), i + 1)
        for c, kind in enumerate(kinds):
            sel = [x for x in range(len(groups)) if kind_of[x] == kind]
            ax.bar([starts[x] for x in sel], [front[x] for x in sel], width=size * 0.9, align=align,
                   color="C%d" % (c % 10), label=kind)
        ax.set_yscale("log")
        ax.set_ylabel("frontier (vertices)")
        title = "%s: frontier per %s" % (k.upper(), step)
        if size > 1:
            title += " (largest of each %d consecutive %ss)" % (size, step)
        ax.set_title(title, fontsize="small")
        ax.legend(fontsize="small")
        ax2 = fig.add_subplot(2, len(kernels), len(kernels) + i + 1)
        comp = [sum(l["compute_seconds"] for l in g) * 1e3 for g in groups]
        comm = [sum(l.get("comm_seconds", 0) for l in g) * 1e3 for g in groups]
        ax2.bar(starts, comp, width=size * 0.9, align=align, label="compute")
        if any(comm):
            ax2.bar(starts, comm, width=size * 0.9, align=align, bottom=comp, label="communication")
        ax2.set_xlabel(step if size == 1 else "%s (bars: sums over %d %ss)" % (step, size, step))
        for a in (ax, ax2):  # whole levels only
            a.xaxis.set_major_locator(MaxNLocator(integer=True))
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
    for name, marker in (("weak", "o"), ("strong", "s")):
        runs = sorted(series.get(name, []), key=lambda x: x[0])
        for k, style in (("bfs", "-"), ("sssp", "--")):
            pts = [(r, j[k]["harmonic_mean_TEPS"] / 1e9) for r, j in runs if j.get(k) and j.get("valid", True)]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], linestyle=style, marker=marker,
                        label="%s %s" % (name, k.upper()))
    unit = ranks_word(series)
    plain_log2_axis(ax, sorted({r for runs in series.values() for r, _ in runs}))
    ax.set_xlabel(unit)
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
        plain_log2_axis(ax2, rs)
    ax2.set_ylim(bottom=0)
    ax2.set_xlabel(unit)
    ax2.set_ylabel("weak-scaling efficiency, BFS (%)")
    ax2.set_title("TEPS per %s against the smallest run" % ("GPU" if unit.startswith("GPU") else "rank"),
                  fontsize="small")


def ranks_word(series):
    """The x axis's words: GPUs when the runs ran on the cuda backend, MPI ranks (CPU) otherwise."""
    backends = [j.get("backend", "") for runs in series.values() for _, j in runs]
    if backends and all("cuda" in b.lower() or "gpu" in b.lower() for b in backends):
        return "GPUs (one MPI rank each)"
    return "MPI ranks (CPU backend)"


def plain_log2_axis(ax, values):
    """A log2 axis whose ticks are the values themselves as plain numbers (1, 2, 4), not 2^k."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    ax.set_xscale("log", base=2)
    if values:
        ax.xaxis.set_major_locator(FixedLocator(values))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
        lo, hi = min(values), max(values)
        ax.set_xlim(lo / 1.3, hi * 1.3)


def rate_unit(values):
    """(scale, words) for operations per second given in billions: the unit in which the largest
    value reads between 1 and 1000."""
    top = max([v for v in values if v] or [1])
    for scale, words in ((1, "billion"), (1e3, "million"), (1e6, "thousand")):
        if top * scale >= 1:
            return scale, words
    return 1e9, ""


def hash_rates(ax, path):
    """hash static: insert, find-hit and find-miss rates against load factor; a colour per table,
    a marker and line style per operation, so that every line can be told apart."""
    d = load(path)
    rows = [r for r in d.get("rows", []) if "load_factor" in r]
    if not rows:
        fail(path + ": no static rows (gpu500 hash static --json)")
    styles = {"insert_gps": ("-", "o"), "find_hit_gps": ("--", "s"), "find_miss_gps": (":", "^")}
    scale, words = rate_unit([r[k] for r in rows for k in styles])
    tables = []
    for r in rows:
        if r["table"] not in tables:
            tables.append(r["table"])
    for i, table in enumerate(tables):
        rs = sorted((r for r in rows if r["table"] == table), key=lambda r: r["load_factor"])
        for key, (style, marker) in styles.items():
            ax.plot([r["load_factor"] for r in rs], [r[key] * scale for r in rs], linestyle=style, marker=marker,
                    color="C%d" % (i % 10), label="%s %s" % (table, key[:-4].replace("_", "-")))
    ax.set_xlabel("load factor")
    ax.set_ylabel(("%s operations / s" % words).strip())
    ax.set_ylim(bottom=0)
    ax.set_title("hash static: %s keys, %s%s" % (d.get("keys"), d.get("backend"),
                                                 (", " + d["device"]) if d.get("device") else ""), fontsize="small")
    ax.legend(fontsize="x-small", ncol=2 if len(tables) > 1 else 1)


def python_with_matplotlib():
    """Another Python 3 that imports matplotlib (python3 on PATH, then /usr/bin and /usr/local/bin),
    or None; never twice (GPU500_PLOT_TRIED names the interpreter that failed first)."""
    if os.environ.get("GPU500_PLOT_TRIED"):
        return None
    import shutil
    import subprocess
    # Paths, not their targets: a venv's python3 is a link to the system's interpreter, and yet
    # another environment (its own site-packages).
    seen = {os.path.abspath(sys.executable)}
    path = [os.path.join(d, "python3") for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    for cand in path + ["/usr/bin/python3", "/usr/local/bin/python3"]:
        if not (os.path.isfile(cand) and os.access(cand, os.X_OK)) or shutil.which(cand) is None:
            continue
        cand = os.path.abspath(cand)
        if cand in seen:
            continue
        seen.add(cand)
        ok = subprocess.run([cand, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode == 0
        if ok:
            return cand
    return None


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
    except ImportError as e:
        other = python_with_matplotlib()
        if other:  # e.g. a pyenv or venv python3 first on PATH, matplotlib in the system's
            os.environ["GPU500_PLOT_TRIED"] = sys.executable
            os.execv(other, [other, os.path.abspath(__file__)] + sys.argv[1:])
        print("plot.py: matplotlib cannot be imported by %s (%s), nor by another python3 on PATH; install it for "
              "this Python (%s -m pip install matplotlib) or the system's (Debian: python3-matplotlib)"
              % (sys.executable, e, sys.executable), file=sys.stderr)
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
