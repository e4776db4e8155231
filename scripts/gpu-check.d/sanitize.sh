#!/usr/bin/env bash
# compute-sanitizer over small GPU tests of every component (the hash part runs its own): memcheck
# on the toolkit, BFS, SSSP, Graph500 (generator, kernel 1), HPL and HPL-MxP cases; racecheck and
# synccheck on the kernels that share memory or race by design (the BFS in every configuration,
# hub cache included; the SSSP in every variant; HPL-MxP's diagonal-block LU; kernel 1's CUB
# sorts) at the small sizes of their Small* tests (racecheck runs the larger ones for minutes).
# Any error fails.
# Rows "sanitize|tool test|clean or FAILED". SANITIZE_TIMEOUT: seconds per run (default 120; the
# BFS racecheck, 133 s on an H200, has 300).
#   bash scripts/gpu-check.d/sanitize.sh BUILD OUT TABLE
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
command -v compute-sanitizer >/dev/null || { echo "sanitize|compute-sanitizer|not found" >>"$TABLE"; exit 0; }
status=0
san() {  # tool binary filter [seconds, for a run known to need more than SANITIZE_TIMEOUT]
  local tool=$1 bin=$BUILD/tests/unit/$2 filter=$3 log limit=${4:-${SANITIZE_TIMEOUT:-120}}
  log="$OUT/sanitize-$tool-$(basename "$2").log"
  timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin" \
    --gtest_filter="$filter" >"$log" 2>&1
  local rc=$? timed_out=""
  [ $rc = 124 ] && timed_out=", timed out after $limit s"
  if [ $rc = 0 ]; then
    echo "sanitize|$tool $(basename "$2") ($filter)|clean: $(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ [a-z]+' "$log" | tail -1)" >>"$TABLE"
  else
    status=1
    echo "sanitize|$tool $(basename "$2") ($filter)|FAILED (exit $rc${timed_out}): $(grep -E 'SUMMARY|FAILED' "$log" | head -2 | tr '\n' ' ')" >>"$TABLE"
    tail -20 "$log"
  fi
}
san memcheck core/test_cuda_toolkit 'GridSize.*:DeviceBuffer.MovesOwnershipAndRoundTrips:DeviceBuffer.StreamOrderedAllocationAndPinnedCopies:StrideRanges.*'
san memcheck bfs_cuda/test_bfs_cuda 'BfsCuda.OneVertexEveryConfig:BfsCuda.DisconnectedEveryConfig:BfsCuda.ShortPathEveryConfig'
san memcheck graph500_cuda/test_graph500_cuda 'Graph500Cuda.GeneratorMatchesHost:Graph500Cuda.Kernel1MatchesHost'
san memcheck hpl/test_hpl 'HplCuda.SolvesAndMatchesCpuAndNorms'
san memcheck hpl_mxp/test_hpl_mxp 'HplMxpCuda.GeneratorMatchesTheHost:HplMxpCuda.DeviceLuMatchesTheHostLu:HplMxpCuda.ZeroDiagonalFails'
san memcheck sssp_cuda/test_sssp_cuda 'SsspCuda/0.SmallGraphs'
san racecheck bfs_cuda/test_bfs_cuda 'BfsCuda.SmallEveryConfig' 300
san synccheck bfs_cuda/test_bfs_cuda 'BfsCuda.SmallEveryConfig'
san synccheck sssp_cuda/test_sssp_cuda 'SsspCuda/0.SmallGraphs'
san racecheck sssp_cuda/test_sssp_cuda 'SsspCuda/0.StarFiveVariants'
san racecheck hpl_mxp/test_hpl_mxp 'HplMxpCuda.SmallDeviceLuMatchesTheHostLu'
san racecheck graph500_cuda/test_graph500_cuda 'Graph500Cuda.SmallKernel1MatchesHost'
exit $status
