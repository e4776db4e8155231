#!/usr/bin/env bash
# Everything the GPU machine must run: configure with CUDA for the GPU found (the build's default
# architectures, as a user's build gets them), build, run every test
# (GPU tests included: they skip only where no GPU is present), then each part's checks and
# benchmarks in scripts/gpu-check.d/*.sh, and print a short table last. The whole suite runs,
# the `long` label included (`make test` leaves those out); the slowest tests are listed. OUT/
# results.md is docs/results.md regenerated from this run (scripts/results_md.py).
#
# Environment (all optional):
#   BUILD=build-gpu            build directory
#   GPU500_TARGETS="a b"       build only these targets (default: all)
#   GPU500_TESTS=regex         run only the CTest tests matching regex (default: all; "none" skips)
#   GPU500_CTEST_EXCLUDE=regex leave out the CTest tests matching regex (e.g. to split the suite
#                              over two calls of a time-limited machine: 'python|mpi', then
#                              GPU500_TESTS='python|mpi')
#   GPU500_PARTS="hpl hash"    run only these parts of scripts/gpu-check.d (default: all)
#   OUT=dir                    where logs and JSON go (default: ./out)
#   GPU500_COMMIT=sha          the commit being checked, for results.md (default: git's HEAD)
#   GPU500_CTEST_JOBS=n        tests run in parallel (default 8)
#   GPU500_CTEST_SKIP_LABEL=l  leave out the tests labelled l (e.g. long; default: none left out)
#   GPU500_CUDA_ARCH=90        CMAKE_CUDA_ARCHITECTURES (default: the build's, the GPU found)
#   GPU500_PREBUILT=1          no configure and no build: BUILD/bin holds programs built elsewhere
#                              for this GPU (the parts' benchmarks). CTest runs too where BUILD is
#                              a whole build tree whose absolute paths (sources, build, Python,
#                              mpiexec) hold here; else set GPU500_TESTS=none with it
# Each part script is called as `bash part.sh BUILD OUT TABLE` and appends table rows
# "part|what|figure" to the file TABLE.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
TABLE="$OUT/table.txt"
: >"$TABLE"
status=0

gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | sort | uniq -c |
      sed -E 's/^ *([0-9]+) /\1 x /' | paste -sd';' -)
echo "gpu: ${gpu:-none}"
# A tree that differs from its HEAD (uncommitted changes, or a copy whose git metadata is older
# than its files) is marked, so that no figure is filed under a commit that did not make it.
commit=${GPU500_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
[ -z "${GPU500_COMMIT:-}" ] && ! git diff --quiet HEAD 2>/dev/null && commit="$commit+changes (set GPU500_COMMIT)"
{
  echo "gpu: ${gpu:-none}"
  echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "date: $(date -u +%Y-%m-%d)"
  echo "commit: $commit"
  # The part scripts' own settings (the prefixes their variables use: G500_*, HASH_*, HPL_*, ...)
  # belong to the command too.
  part_env=$(env | grep -E '^(DEFAULTS|G500|GRAPH500|GRAPH_IO|REFERENCE|HASH|HPL|ENERGY|SANITIZE|SCALING|SHAPES|SSSP)_[A-Z0-9_]*=' | sort |
             sed -E "s/^([^=]*)=(.*)$/\1='\2'/" | tr '\n' ' ')
  echo "command: ${part_env}BUILD=$BUILD${GPU500_PREBUILT:+ GPU500_PREBUILT=$GPU500_PREBUILT}${GPU500_CUDA_ARCH:+ GPU500_CUDA_ARCH=$GPU500_CUDA_ARCH}${GPU500_TARGETS:+ GPU500_TARGETS=\"$GPU500_TARGETS\"}${GPU500_TESTS:+ GPU500_TESTS='$GPU500_TESTS'}${GPU500_CTEST_SKIP_LABEL:+ GPU500_CTEST_SKIP_LABEL=$GPU500_CTEST_SKIP_LABEL}${GPU500_CTEST_EXCLUDE:+ GPU500_CTEST_EXCLUDE='$GPU500_CTEST_EXCLUDE'}${GPU500_CTEST_JOBS:+ GPU500_CTEST_JOBS=$GPU500_CTEST_JOBS}${GPU500_PARTS:+ GPU500_PARTS=\"$GPU500_PARTS\"} bash scripts/gpu-check.sh"
} >"$OUT/meta.txt"

if [ "${GPU500_PREBUILT:-0}" = 1 ]; then
  [ -x "$BUILD/bin/gpu500" ] || { echo "GPU500_PREBUILT=1 but $BUILD/bin/gpu500 is not there"; exit 1; }
  echo "gpu-check|build|prebuilt ($BUILD/bin)" >>"$TABLE"
else
  echo "== configure"
  arch=()
  [ -n "${GPU500_CUDA_ARCH:-}" ] && arch=(-DCMAKE_CUDA_ARCHITECTURES="$GPU500_CUDA_ARCH")
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGPU500_CUDA=ON "${arch[@]}" \
    >"$OUT/configure.log" 2>&1 || { cat "$OUT/configure.log"; exit 1; }
  echo "gpu-check|cuda architectures|$(grep -m1 -E '^CMAKE_CUDA_ARCHITECTURES' "$BUILD/CMakeCache.txt" | cut -d= -f2)" >>"$TABLE"
  echo "== build"
  targets=()
  for t in ${GPU500_TARGETS:-}; do targets+=(--target "$t"); done
  if ! cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" >"$OUT/build.log" 2>&1; then
    grep -E "error|Error" "$OUT/build.log" | head -40
    exit 1
  fi
  echo "gpu-check|build|ok" >>"$TABLE"
fi

if [ "${GPU500_TESTS:-}" != "none" ]; then
  echo "== tests"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  skip=()
  [ -n "${GPU500_CTEST_SKIP_LABEL:-}" ] && skip=(-LE "$GPU500_CTEST_SKIP_LABEL")
  [ -n "${GPU500_CTEST_EXCLUDE:-}" ] && skip+=(-E "$GPU500_CTEST_EXCLUDE")
  if (cd "$BUILD" && ctest --output-on-failure -j "${GPU500_CTEST_JOBS:-8}" -R "${GPU500_TESTS:-.}" "${skip[@]}" \
        >"$OUT/ctest.log" 2>&1); then
    echo "gpu-check|ctest|$(grep -E 'tests passed' "$OUT/ctest.log" | tail -1)" >>"$TABLE"
  else
    status=1
    grep -E "Failed|\*\*\*|tests passed" "$OUT/ctest.log" | head -40
    # The row names the failed tests (CTest lists them last: "  874 - smoke.bad_input (Failed)").
    failed=$(sed -n '/The following tests FAILED:/,$p' "$OUT/ctest.log" | sed -nE 's/^[[:space:]]+[0-9]+ - ([^ ]+).*$/\1/p' |
             paste -sd' ' -)
    echo "gpu-check|ctest|FAILED: $(grep -E 'tests passed' "$OUT/ctest.log" | tail -1)${failed:+ ($failed)}" >>"$TABLE"
    # What each failed test printed (--output-on-failure puts it under its result line), so that
    # a run whose logs stay on a lent machine still says why.
    for t in $failed; do
      echo "-- $t:"
      grep -m1 -A15 -F -- " $t " "$OUT/ctest.log" | grep -A15 -F '***' | head -16
    done
  fi
  # Skipped tests must not hide: list them (a GPU test skipped here is a defect).
  grep -E "\(Skipped\)|Not Run" "$OUT/ctest.log" | head -20
  # The slowest tests (each should stay under about 30 s outside the long suite).
  slowest=$(grep -E "Test +#[0-9]+: " "$OUT/ctest.log" | sed -E 's/^.*#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/' |
            sort -rn | head -5 | awk '{printf "%s%s %.0f s", (NR > 1 ? ", " : ""), $2, $1}')
  echo "gpu-check|slowest tests|$slowest" >>"$TABLE"
fi

for part in scripts/gpu-check.d/*.sh; do
  [ -e "$part" ] || continue
  name=$(basename "$part" .sh)
  if [ -n "${GPU500_PARTS:-}" ] && ! grep -qw "$name" <<<"$GPU500_PARTS"; then continue; fi
  echo "== part $name"
  if ! bash "$part" "$BUILD" "$OUT" "$TABLE" >"$OUT/part-$name.log" 2>&1; then
    status=1
    # The row names the first line of the log that says what went wrong (the log stays in OUT).
    reason=$(grep -m1 -iE 'error|fail|not supported|invalid' "$OUT/part-$name.log" | cut -c1-160 | tr '|' '/')
    echo "$name|part script|FAILED: ${reason:-no error line} (part-$name.log)" >>"$TABLE"
    tail -20 "$OUT/part-$name.log"
  fi
done

python3 scripts/results_md.py "$OUT" >"$OUT/results.md" 2>/dev/null || true

echo
echo "== gpu-check summary ($(date -u +%Y-%m-%dT%H:%MZ))"
column -t -s'|' "$TABLE" 2>/dev/null || cat "$TABLE"
exit $status
