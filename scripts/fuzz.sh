#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan; fuzz/targets.cmake) and runs each for a while,
# failing on any crash, hang (an input over 10 s), leak, sanitizer report or broken property.
#   bash scripts/fuzz.sh [SECONDS [TARGET...]]    SECONDS per target (default 60); TARGETs by
#                                                 name (hpl_dat cli graph_auto graph_snap
#                                                 graph_mtx graph_bin; default all)
#   FUZZ_BUILD=dir   the build directory (default build-fuzz)
#   FUZZ_JOBS=n      targets run at the same time (default: the number of cores)
# Each target starts from its seeds (fuzz/corpus/<name>/ and tests/data/fuzz/<name>/) and keeps
# what it finds in <build>/fuzz-corpus/<name>/ for the next run. A failing input is saved as
# <build>/fuzz-artifacts/<name>-crash-* (or -timeout-, -leak-, -oom-): reproduce it with
#   <build>/fuzz/fuzz_<name> <that file>
# and, once fixed, keep it as a regression test: copy it into tests/data/fuzz/<name>/, where the
# test fuzz_replay.<name> of every build replays it (docs/reliability.md).
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
build=${FUZZ_BUILD:-build-fuzz}
all=(hpl_dat cli graph_auto graph_snap graph_mtx graph_bin)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz.sh: clang++ not found (scripts/deps.sh installs it)" >&2
  exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DGPU500_FUZZ=ON -DGPU500_BUILD_TESTS=OFF >/dev/null || exit 1
fi
cmake --build "$build" -j "$(nproc)" --target fuzz_all >/dev/null || { echo "fuzz.sh: build failed" >&2; exit 1; }
mkdir -p "$build/fuzz-artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
# One target per core at a time; each writes its own log, read when it is done.
fuzz_one() {  # fuzz_one TARGET: runs it; its exit code is the target's
  local t=$1 bin=$build/fuzz/fuzz_$1 work=$build/fuzz-corpus/$1 start=$SECONDS
  mkdir -p "$work"
  local seeds=(fuzz/corpus/"$t")
  [ -d tests/data/fuzz/"$t" ] && seeds+=(tests/data/fuzz/"$t")
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-artifacts/$t-" "$work" "${seeds[@]}" >"$build/fuzz-$t.log" 2>&1
  local rc=$?
  local runs
  runs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$build/fuzz-$t.log" | grep -o '[0-9]*$')
  if [ $rc -ne 0 ]; then
    echo "fuzz $t: FAILED after $((SECONDS - start)) s (exit $rc); log $build/fuzz-$t.log:"
    grep -aE 'ERROR|fuzz property|SUMMARY|Test unit written|==[0-9]+==' "$build/fuzz-$t.log" | head -20
  else
    echo "fuzz $t: ok, ${runs:-?} inputs in $((SECONDS - start)) s, corpus $(ls "$work" | wc -l) files"
  fi
  return $rc
}
for t in "${targets[@]}"; do
  [ -x "$build/fuzz/fuzz_$t" ] || { echo "fuzz.sh: no target '$t' (targets: ${all[*]})" >&2; exit 2; }
done
jobs_max=${FUZZ_JOBS:-$(nproc)}
declare -A pid_of=()
failed=()
reap() {  # waits for one running target, records a failure (wait -p: bash 5.1 or later)
  local done_pid name rc
  wait -n -p done_pid
  rc=$?
  for name in "${!pid_of[@]}"; do
    if [ "${pid_of[$name]}" = "$done_pid" ]; then
      [ $rc -eq 0 ] || failed+=("$name")
      unset "pid_of[$name]"
    fi
  done
}
for t in "${targets[@]}"; do
  while [ ${#pid_of[@]} -ge "$jobs_max" ]; do reap; done
  fuzz_one "$t" &
  pid_of[$t]=$!
done
while [ ${#pid_of[@]} -gt 0 ]; do reap; done
[ ${#failed[@]} -eq 0 ] || { echo "fuzz.sh: failed: ${failed[*]}"; exit 1; }
