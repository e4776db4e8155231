#!/usr/bin/env python3
"""Table rows ("hpl-mxp-multigpu|what|figure", for scripts/results_md.py) from the
hpl-mxp-multigpu.json that bench/hpl_mxp/multigpu.sh writes: per run, the grid, N, NB and the
transport; TFLOP/s, the verdict, the efficiency per GPU against the single-GPU run of the same
call with the goal (>= 90 % per GPU, as HPL's grids are held to 94 %), and the time split.

  multigpu_rows.py hpl-mxp-multigpu.json [PART] >> table.txt
"""
import json
import sys

GOAL = 0.90
if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
part = sys.argv[2] if len(sys.argv) == 3 else "hpl-mxp-multigpu"
d = json.load(open(sys.argv[1]))
for x in d["runs"]:
    grid = x["grid"].split("-")[0]
    transport = "MPI (--no-nccl)" if x["grid"].endswith("-mpi") else "NCCL" if x["gpus"] > 1 else ""
    what = f"{x['gpus']} GPU {grid} N={x['n']} NB={x['nb']} bf16 {transport}".rstrip()
    fig = f"{x['tflops']:.1f} TFLOP/s ({x['tflops_per_gpu']:.1f} per GPU) {'PASSED' if x['passed'] else 'FAILED'}"
    if x["gpus"] > 1:
        met = "met" if x["efficiency_per_gpu"] >= GOAL else "not met"
        fig += f", {100 * x['efficiency_per_gpu']:.0f}%/GPU of the 1x1 run (goal {100 * GOAL:.0f}%: {met})"
    fig += f"; LU {x['time_lu']:.2f} s, GMRES {x['time_refine']:.2f} s ({x['iterations']} iterations)"
    print(f"{part}|{what}|{fig}")
