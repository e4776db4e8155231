#!/usr/bin/env python3
"""Table rows ("part|what|figure", as scripts/gpu-check.d writes them) from the JSON of a run made
outside scripts/gpu-check.sh, so that scripts/results_md.py can put it in docs/results.md with no
number typed by hand.

  table_rows.py cpu-vs-reference GRAPH500_CPU_JSON RANKS  # bench/graph500/cpu.sh's graph500-cpu.json
  table_rows.py hpl PART WHAT HPL_JSON [GOAL_TFLOPS]      # `gpu500 hpl --json`'s file
  table_rows.py graph500-compare PART LABEL=JSON ...      # `gpu500 graph500 --json` files of one call
  table_rows.py defaults PROGRAM CARD JSON                # a run with no flag (scripts/gpu-check.d/defaults.sh)

graph500-compare: one row per run, in the order given, with its SSSP and BFS harmonic means (the
kernels it ran), each as a ratio to the first run of the same SCALE and rank count, the search
times, the phases and compute / communication milliseconds of its last SSSP's trace (runs over
ranks), and whether it was validated.
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


def solve_row(t, goal):
    """(shape, figure) of one solve of `gpu500 hpl --json` (a test) or `gpu500 hpl-mxp --json` (the
    record, with its precision): N, NB and the grid; TFLOP/s, PASSED or FAILED and the goal's verdict."""
    tflops = t["gflops"] / 1000
    result = "PASSED" if t.get("passed") else "FAILED"
    want = f"; goal >= {goal:g} TFLOP/s: {verdict(tflops, goal)}" if goal else ""
    shape = f"N={t['n']} NB={t['nb']} P x Q={t['p']} x {t['q']}" + (f" {t['precision']}" if "precision" in t else "")
    return shape, f"{tflops:.2f} TFLOP/s {result}{want}"


def hpl(part, what, path, goal=None):
    for t in json.load(open(path))["tests"]:
        shape, figure = solve_row(t, goal)
        print(f"{part}|{what}: {shape}|{figure}")


# The figures a run with no flag is held to, by program and card (the name nvidia-smi gives
# contains the key): graph500 (BFS, SSSP GTEPS at SCALE 26), hpl and hpl-mxp (TFLOP/s).
DEFAULT_GOALS = {
    "graph500": {"H200": (320, 30.8), "H100": (275, 27.6)},
    "hpl": {"H200": 46, "H100": 45},
    "hpl-mxp": {"H200": 395, "H100": 330},
}


def defaults(program, card, path):
    j = json.load(open(path))
    goal = next((g for key, g in DEFAULT_GOALS[program].items() if key in card), None)
    part = f"{program}-defaults"
    if program == "graph500":
        figures = []
        for i, k in enumerate(("bfs", "sssp")):
            if not (j.get(k) or {}).get("harmonic_mean_TEPS"):
                continue  # a kernel the run left out
            g = j[k]["harmonic_mean_TEPS"] / 1e9
            # The goals are for SCALE 26; at another size the figure stands alone.
            want = f" (goal >= {goal[i]:g}: {verdict(g, goal[i])})" if goal and j["SCALE"] == 26 else ""
            figures.append(f"{k.upper()} {g:.2f} GTEPS{want}")
        valid = "every search validated" if j["valid"] and j.get("validated", True) else "NOT VALID"
        print(f"{part}|gpu500 graph500 {j['SCALE']} --backend {j['backend'].split(',')[0]} (no other flag), {card}|"
              f"{', '.join(figures)}; {valid}; gen {j['graph_generation']:.2f} s, kernel 1 {j['construction_time']:.2f} s")
        return
    for t in j["tests"] if program == "hpl" else [j]:
        shape, figure = solve_row(t, goal)
        print(f"{part}|gpu500 {program} --backend {j['backend']} (no other flag: {shape}), {card}|{figure}")


def graph500_compare(part, runs):
    first = {}
    for arg in runs:
        label, _, path = arg.partition("=")
        if not path:
            sys.exit(f"{arg}: expected LABEL=FILE")
        j = json.load(open(path))
        key = (j["SCALE"], j.get("num_mpi_processes", 1))
        base = first.setdefault(key, j)
        figures = []
        for kernel in ("sssp", "bfs"):
            k = j.get(kernel) or {}
            if not k.get("harmonic_mean_TEPS"):
                continue
            g = k["harmonic_mean_TEPS"] / 1e9
            rel = ""
            if base is not j and (base.get(kernel) or {}).get("harmonic_mean_TEPS"):
                rel = f" (x{g / (base[kernel]['harmonic_mean_TEPS'] / 1e9):.2f})"
            times = " / ".join(f"{t * 1e3:.1f}" for t in k.get("time", []))
            figures.append(f"{kernel.upper()} {g:.2f} GTEPS{rel}, searches {times} ms")
        trace = (j.get("trace") or {}).get("sssp") or []
        if trace and key[1] > 1:
            comp = sum(e.get("compute_seconds", 0) for e in trace) * 1e3
            comm = sum(e.get("comm_seconds", 0) for e in trace) * 1e3
            figures.append(f"last SSSP {len(trace)} phases, {comp:.1f} + {comm:.1f} ms")
        checked = j.get("validated", True)
        figures.append(("valid " + str(j["valid"])) if checked else "not validated (--no-validate)")
        roots = len(j.get("roots", [])) or j.get("NBFS", 0)
        print(f"{part}|{label}: {key[1]} rank(s), SCALE {key[0]}, {roots} roots|" + "; ".join(figures))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "cpu-vs-reference":
        cpu_vs_reference(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and sys.argv[1] == "graph500-compare":
        graph500_compare(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "hpl":
        hpl(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]) if len(sys.argv) == 6 else None)
    elif len(sys.argv) == 5 and sys.argv[1] == "defaults" and sys.argv[2] in DEFAULT_GOALS:
        defaults(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
