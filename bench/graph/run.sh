#!/usr/bin/env bash
# Read speed of graph files: bench_graph_io at SCALE ${GRAPH_IO_SCALE:-22} on every core of the host
# (files in OUT: up to 2 GB of disk at SCALE 22, each removed once timed), figures in OUT/graph_io.json.
# The goal: the parallel edge-list parse at >= 200 MB/s on 16 cores.
#   bash bench/graph/run.sh BUILD OUT
set -euo pipefail
build=$1 out=$2
mkdir -p "$out"
OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} "$build/bin/bench_graph_io" "${GRAPH_IO_SCALE:-22}" --dir "$out" \
  --json "$out/graph_io.json" | tee "$out/graph_io.txt"
