#!/usr/bin/env python3
"""Table rows ("hpl-multigpu|what|figure", for scripts/results_md.py) from the
hpl-multigpu.json that bench/hpl/multigpu.sh writes: per run, the grid, N, NB, how the GPUs
exchanged and the flags beyond the defaults; TFLOP/s, the residual's verdict and the efficiency
per GPU against the default single-GPU run of the same call (and against the best one when an
extra single-GPU run was faster).

  multigpu_rows.py hpl-multigpu.json [PART] >> table.txt

PART names the table's part (default hpl-multigpu; hpl-2gpu and hpl-4gpu keep two machines'
tables apart on one page).
"""
import json
import sys

if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
part = sys.argv[2] if len(sys.argv) == 3 else "hpl-multigpu"
d = json.load(open(sys.argv[1]))
NAMES = {"NCCL": "nccl", "through": "host", "CUDA-aware": "cuda-aware-mpi"}  # the script's first spelling
for x in d["runs"]:
    x["exchange"] = NAMES.get(x["exchange"], x["exchange"])
    what = f"{x['gpus']} GPU {x['p']}x{x['q']} N={x['n']} NB={x['nb']}"
    if x["gpus"] > 1:
        what += f" {x['exchange']}"
    if x.get("flags"):
        what += f" {x['flags']}"
    fig = f"{x['tflops']:.2f} TFLOP/s {x['verdict']}"
    if x["gpus"] > 1 or x["run"] != d["runs"][0]["run"]:
        fig += f", {100 * x['efficiency_per_gpu']:.1f}%/GPU of the 1x1 default"
        best = x.get("efficiency_vs_best_1gpu")
        if best is not None and abs(best - x["efficiency_per_gpu"]) > 1e-9:
            fig += f" ({100 * best:.1f}% of the best 1x1)"
    print(f"{part}|{what}|{fig}")
