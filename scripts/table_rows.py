#!/usr/bin/env python3
"""Table rows ("part|what|figure", as scripts/gpu-check.d writes them) from the output of a run made
outside scripts/gpu-check.sh, so that scripts/results_md.py can put it in docs/results.md with no
number typed by hand.

  table_rows.py cpu-vs-reference CPU_SH_OUTPUT RANKS    # bench/graph500/cpu.sh's printed table
  table_rows.py hpl PART WHAT HPL_OUTPUT [GOAL_TFLOPS]  # a `gpu500 hpl` run's output block
"""
import sys


def verdict(x, goal):
    return "met" if x >= goal else "not met"


def cpu_vs_reference(path, ranks):
    for line in open(path):
        f = line.split()
        if len(f) != 10 or not f[0].isdigit():
            continue
        scale, bfs, bfs_ref, bfs_x, sssp, sssp_ref, sssp_x, gk, gk_ref, gk_x = f
        print(f"graph500-cpu-ranks|SCALE {scale}, {ranks} MPI ranks each: gpu500 CPU backend / Graph500 3.0.1 reference|"
              f"BFS {bfs} / {bfs_ref} GTEPS x{bfs_x} (goal 10: {verdict(float(bfs_x), 10)}); "
              f"SSSP {sssp} / {sssp_ref} GTEPS x{sssp_x} (goal 5: {verdict(float(sssp_x), 5)}); "
              f"generation + kernel 1 {gk} / {gk_ref} s, x{gk_x} faster")


def hpl(part, what, path, goal=None):
    lines = open(path).read().splitlines()
    for line in lines:
        if line.startswith("WR"):
            f = line.split()
            tflops = float(f[6]) / 1000
            result = "PASSED" if any("PASSED" in l for l in lines) else "FAILED"
            extra = f"; goal >= {goal:g} TFLOP/s: {verdict(tflops, goal)}" if goal else ""
            print(f"{part}|{what}: N={f[1]} NB={f[2]} P x Q={f[3]} x {f[4]}|{tflops:.2f} TFLOP/s {result}{extra}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "cpu-vs-reference":
        cpu_vs_reference(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "hpl":
        hpl(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]) if len(sys.argv) == 6 else None)
    else:
        sys.exit(__doc__)
