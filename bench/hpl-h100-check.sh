#!/usr/bin/env bash
# One short HPL session on the GPU machine (its time is scarce): build only the HPL targets, run
# the HPL GPU tests named by HPL_GTEST (gtest filter, under HPL_TEST_TIMEOUT seconds) and
# HPL_MPI_GTEST (test_hpl_mpi under mpirun -np 2 and 4; build test_hpl_mpi for it), then the
# A/B of bench/hpl-ab.sh (HPL_AB variants, DGEMM and cuSOLVER baselines in the same run), and
# optionally `gpu500 hpl` itself (HPL_PROGRAM="flags": needs GPU500_TARGETS to include gpu500).
# Everything stops at HPL_BUDGET seconds (default 280) so that the results are always packed:
# OUT gets check.log (the console) and hpl-check.tar.gz (every log, JSON, timing, balance table).
# usage: [HPL_AB=...] [HPL_GTEST=...] bench/hpl-h100-check.sh OUT [N] [NB]
set -uo pipefail
OUT=${1:?out dir}
N=${2:-95000}
NB=${3:-768}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
BUILD=${BUILD:-build-gpu}
start=$(date +%s)
left() { echo $(( ${HPL_BUDGET:-280} - ($(date +%s) - start) )); }
{
  echo "commit ${HPL_COMMIT:-}; the checkout says $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet -- src/hpl include/gpu500/hpl 2>/dev/null || echo ' (+ uncommitted HPL changes)')"
  OUT=$work GPU500_TARGETS="${GPU500_TARGETS:-gpu500_hpl test_hpl hpl_baselines}" GPU500_TESTS=none GPU500_PARTS=none \
    BUILD=$BUILD timeout "$(left)" bash scripts/gpu-check.sh
  echo "build done at $(( $(date +%s) - start ))s"
  if [ -n "${HPL_GTEST:-}" ]; then
    t=$(left); t=$(( t < ${HPL_TEST_TIMEOUT:-90} ? t : ${HPL_TEST_TIMEOUT:-90} ))
    timeout "$t" "$BUILD/tests/unit/hpl/test_hpl" --gtest_filter="$HPL_GTEST" >"$work/gtest.log" 2>&1
    echo "gtest rc=$? at $(( $(date +%s) - start ))s"
    grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) +\]|Failure|error" "$work/gtest.log" | head -40
  fi
  if [ -n "${HPL_MPI_GTEST:-}" ] && [ -x "$BUILD/tests/unit/hpl/test_hpl_mpi" ]; then  # the P x Q CUDA grids
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    for np in 2 4; do
      timeout "${HPL_MPI_TIMEOUT:-30}" mpirun -np $np --oversubscribe "$BUILD/tests/unit/hpl/test_hpl_mpi" --gtest_filter="$HPL_MPI_GTEST" \
        >"$work/gtest-mpi$np.log" 2>&1
      echo "test_hpl_mpi -np $np rc=$? at $(( $(date +%s) - start ))s: $(grep -E '^\[  (PASSED|FAILED) ' "$work/gtest-mpi$np.log" | sort | uniq -c | tr '\n' ' ')"
    done
  fi
  if [ -n "${HPL_PROGRAM:-}" ] && [ -x "$BUILD/bin/gpu500" ]; then
    # shellcheck disable=SC2086
    timeout "$(left)" "$BUILD/bin/gpu500" hpl -N "$N" -NB "$NB" --backend cuda $HPL_PROGRAM \
      --json "$work/gpu500-hpl.json" --timing "$work/gpu500-hpl.timing.json" | tee "$work/gpu500-hpl.out"
    python3 bench/hpl_balance.py "$work/gpu500-hpl.timing.json" >"$work/gpu500-hpl.balance.txt" 2>&1 &&
      grep -E "^time|^tail|^balance" "$work/gpu500-hpl.balance.txt"
  fi
  if [ -n "${HPL_AB:-}" ]; then
    HPL_COMMIT=${HPL_COMMIT:-unknown} HPL_AB_TIMEOUT=${HPL_AB_TIMEOUT:-45} timeout "$(left)" bash bench/hpl-ab.sh "$BUILD" "$work/ab" "$N" "$NB"
    echo "A/B done at $(( $(date +%s) - start ))s"
  fi
} 2>&1 | tee "$OUT/check.log"
cp "$OUT/check.log" "$work/"
tar -czf "$OUT/hpl-check.tar.gz" -C "$work" --exclude='*.o' . 2>/dev/null
ls -la "$OUT"
