#!/usr/bin/env bash
# The experiment of Liu et al. (dense Bellman-Ford in OpenCL, parallel min-reduction), extended:
# dense Bellman-Ford on random graphs N = 256 ... 32768 with every engine present (serial, OpenMP, CUDA naive/reduce/coarse, OpenCL naive/reduce/coarse; the
# CUDA coarse kernel under each schedule: launch = the paper's, skip, resident where it fits),
# a sweep of the work-group size M at N = 8192 and 32768, a measured run of the paper's N-1 rounds
# at small N (to check the projection used at large N), a run with negative edges and CUDA
# uploads from pageable host memory (--no-page-lock; the main run page-locks the matrices outside
# the timing).
# Every result is verified against the Dijkstra oracle before it is printed.
#   bash bench/bellman_ford/run.sh [GPU500_BINARY] [OUT_DIR]
# Writes OUT_DIR/bellman-ford{,-full,-negative,-pageable}.json and .txt (the tables).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/bin/gpu500}
out=${2:-$root/out}
mkdir -p "$out"
sizes=${BF_SIZES:-256,512,1024,2048,4096,8192,16384,32768}
sweep_n=${BF_SWEEP_N:-8192,32768}
"$bin" info | tee "$out/bellman-ford-info.txt"
echo "== main experiment: N = $sizes (early exit), M sweep at N = $sweep_n"
"$bin" bellman-ford --n "$sizes" --sweep 32,64,128,256,512,1024 --sweep-n "$sweep_n" \
  --json "$out/bellman-ford.json" | tee "$out/bellman-ford.txt"
echo "== the paper's N-1 rounds, measured"
"$bin" bellman-ford --n "${BF_FULL_SIZES:-256,512,1024,2048}" --full-rounds --repeat 1 \
  --json "$out/bellman-ford-full.json" | tee "$out/bellman-ford-full.txt"
echo "== negative edges (potentials)"
"$bin" bellman-ford --n 1000,4096 --negative --wmax 50 \
  --json "$out/bellman-ford-negative.json" | tee "$out/bellman-ford-negative.txt"
grep -q '^cuda device 0' "$out/bellman-ford-info.txt" || exit 0
echo "== CUDA uploads from pageable memory (the main run page-locks the host matrices)"
"$bin" bellman-ford --n "${BF_PAGEABLE_SIZES:-32768}" --backend cuda --variant coarse --schedules launch --no-page-lock \
  --json "$out/bellman-ford-pageable.json" | tee "$out/bellman-ford-pageable.txt"
