#!/usr/bin/env python3
"""Table rows ("part|what|figure", as scripts/gpu-check.d writes them) from the JSON of a run made
outside scripts/gpu-check.sh, so that scripts/results_md.py can put it in docs/results.md with no
number typed by hand.

  table_rows.py cpu-vs-reference GRAPH500_CPU_JSON RANKS  # bench/graph500/cpu.sh's graph500-cpu.json
  table_rows.py hpl PART WHAT HPL_JSON [GOAL_TFLOPS]      # `gpu500 hpl --json`'s file
"""
import json
import sys


def verdict(x, goal):
    return "met" if x >= goal else "not met"


def cpu_vs_reference(path, ranks):
    for s in json.load(open(path))["scales"]:
        bfs, sssp, gk = s["bfs_teps"] / 1e9, s["sssp_teps"] / 1e9, s["gen_k1_s"]
        if not s.get("ref_bfs_teps") or not s.get("ref_sssp_teps") or not s.get("ref_gen_k1_s"):
            sys.exit(f"{path}: SCALE {s['scale']} has no reference figures (cpu.sh ran without GRAPH500_REFERENCE)")
        bfs_ref, sssp_ref, gk_ref = s["ref_bfs_teps"] / 1e9, s["ref_sssp_teps"] / 1e9, s["ref_gen_k1_s"]
        bfs_x, sssp_x, gk_x = bfs / bfs_ref, sssp / sssp_ref, gk_ref / gk
        valid = "" if s["valid"] else " (gpu500 run INVALID)"
        print(f"graph500-cpu-ranks|SCALE {s['scale']}, {ranks} MPI ranks each: gpu500 CPU backend / Graph500 3.0.1 "
              f"reference|BFS {bfs:.3f} / {bfs_ref:.3f} GTEPS x{bfs_x:.1f} (goal 10: {verdict(bfs_x, 10)}); "
              f"SSSP {sssp:.3f} / {sssp_ref:.3f} GTEPS x{sssp_x:.1f} (goal 5: {verdict(sssp_x, 5)}); "
              f"generation + kernel 1 {gk:.3f} / {gk_ref:.3f} s, x{gk_x:.1f} faster{valid}")


def hpl(part, what, path, goal=None):
    for t in json.load(open(path))["tests"]:
        tflops = t["gflops"] / 1000
        result = "PASSED" if t.get("passed") else "FAILED"
        extra = f"; goal >= {goal:g} TFLOP/s: {verdict(tflops, goal)}" if goal else ""
        print(f"{part}|{what}: N={t['n']} NB={t['nb']} P x Q={t['p']} x {t['q']}|{tflops:.2f} TFLOP/s {result}{extra}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "cpu-vs-reference":
        cpu_vs_reference(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "hpl":
        hpl(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]) if len(sys.argv) == 6 else None)
    else:
        sys.exit(__doc__)
