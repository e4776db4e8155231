#!/usr/bin/env python3
"""The multi-GPU Graph500 scaling table from the JSON files bench/graph500/scaling.sh wrote.

  scaling_table.py OUT [PART]

For each run (weak-R, strong-R, ranks-1): GPUs, SCALE, BFS and SSSP harmonic-mean GTEPS, kernel 1
time, validity; weak-scaling efficiency per GPU = GTEPS(R) / (R x GTEPS(1)); strong-scaling
speed-up; for ranks-1 (one GPU through the pipeline over ranks) its rates over weak-1's;
and from the per-level trace of the last BFS and SSSP, the levels/phases, rank 0's compute /
communication seconds and the critical compute: each level's slowest rank's compute, summed (what
the others' communication time waits for). Rows also go to OUT/scaling.txt ("PART|what|figure", PART
graph500-mpi unless given). A run made with --no-validate is marked so, never as valid.
"""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def trace_split(j, kind):
    t = (j.get("trace") or {}).get(kind) or []
    comp = sum(e.get("compute_seconds", 0) for e in t)
    comm = sum(e.get("comm_seconds", 0) for e in t)
    critical = sum(max(e.get("compute_seconds_by_rank") or [e.get("compute_seconds", 0)]) for e in t)
    return len(t), comp, comm, critical


def main():
    out = sys.argv[1]
    part = sys.argv[2] if len(sys.argv) > 2 else "graph500-mpi"
    runs = {}
    for name in sorted(os.listdir(out)):
        if name.endswith(".json") and name.startswith(("weak-", "strong-", "ranks-")):
            j = load(os.path.join(out, name))
            if j:
                runs[name[:-5]] = j
    base = runs.get("weak-1")
    rows = []
    print("%-9s %4s %5s %10s %10s %8s %6s %-28s %-28s" % ("run", "GPUs", "SCALE", "BFS GTEPS", "SSSP GTEPS",
                                                         "k1 s", "valid", "BFS eff / speed-up", "trace (last BFS | SSSP)"))
    for name, j in sorted(runs.items(), key=lambda kv: (kv[0].split("-")[0], int(kv[0].split("-")[1]))):
        r = j.get("num_mpi_processes", 1)
        # A run with --no-validate says so instead of a verdict it never reached.
        checked = j.get("validated", True)
        valid = str(j["valid"]) if checked else "skipped"
        roots = len(j.get("roots", [])) or j.get("NBFS", 0)
        bfs = j["bfs"]["harmonic_mean_TEPS"] / 1e9 if "bfs" in j else 0.0
        sssp = j["sssp"]["harmonic_mean_TEPS"] / 1e9 if "sssp" in j else 0.0
        rel = ""
        if base and name.startswith("weak") and r > 1:
            b = base["bfs"]["harmonic_mean_TEPS"] / 1e9
            s = base["sssp"]["harmonic_mean_TEPS"] / 1e9
            rel = "eff %.2f, SSSP x%.2f" % (bfs / (r * b), sssp / s)
        if base and name.startswith("strong") and base.get("SCALE") == j.get("SCALE"):
            rel = "x%.2f BFS, x%.2f SSSP" % (bfs / (base["bfs"]["harmonic_mean_TEPS"] / 1e9),
                                             sssp / (base["sssp"]["harmonic_mean_TEPS"] / 1e9))
        if base and name.startswith("ranks") and base.get("SCALE") == j.get("SCALE"):
            rel = "x%.2f BFS, x%.2f SSSP the one-process engines" % (
                bfs / (base["bfs"]["harmonic_mean_TEPS"] / 1e9), sssp / (base["sssp"]["harmonic_mean_TEPS"] / 1e9))
        tr = ""
        if r > 1 or name.startswith("ranks"):
            lb, cb, mb, xb = trace_split(j, "bfs")
            ls, cs, ms, xs = trace_split(j, "sssp")
            tr = "%d lv %.1f+%.1f ms (critical %.1f) | %d ph %.0f+%.0f ms (critical %.0f)" % (
                lb, cb * 1e3, mb * 1e3, xb * 1e3, ls, cs * 1e3, ms * 1e3, xs * 1e3)
        print("%-9s %4d %5d %10.2f %10.2f %8.3f %6s %-28s %-28s" % (name, r, j["SCALE"], bfs, sssp,
                                                                   j["construction_time"], valid, rel, tr))
        rows.append(part + "|%s: %d GPU(s), SCALE %d, %d roots|BFS %.2f GTEPS, SSSP %.2f GTEPS, kernel 1 %.3f s, "
                    "%s%s%s"
                    % (name, r, j["SCALE"], roots, bfs, sssp, j["construction_time"],
                       "valid %s" % j["valid"] if checked else "NOT VALIDATED (--no-validate)",
                       ("; " + rel) if rel else "", ("; trace: compute+comm " + tr) if tr else ""))
    with open(os.path.join(out, "scaling.txt"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
