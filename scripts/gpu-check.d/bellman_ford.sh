#!/usr/bin/env bash
# GPU check of dense Bellman-Ford: runs bench/bellman_ford/run.sh and appends its figures to TABLE
# (scripts/bellman_ford_table.py grades them: device copy bandwidth; at N >= 16384 a round of
# BF_Reduce_Coarse against one read of the matrix at that bandwidth, target <= 1.25; coarse vs naive
# and vs OpenMP at every N, the paper's 3-6x and 40-80x, for each schedule of the coarse kernel and
# for the fastest of them; CUDA vs OpenCL on the same GPU).
#   bash scripts/gpu-check.d/bellman_ford.sh BUILD OUT TABLE
set -uo pipefail
build=$1 out=$2 table=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
# NVIDIA's OpenCL needs an ICD file naming its library (root only; harmless when present).
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && [ -w /etc ] && ldconfig -p 2>/dev/null | grep -q libnvidia-opencl.so.1; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
if ! bash "$root/bench/bellman_ford/run.sh" "$build/bin/gpu500" "$out"; then
  echo "bellman_ford|bench|FAILED" >>"$table"
  exit 1
fi
python3 "$root/scripts/bellman_ford_table.py" "$out" "$table"
grep -q '"verified": true' "$out/bellman-ford.json"
