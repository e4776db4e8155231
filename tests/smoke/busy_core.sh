#!/usr/bin/env bash
# OpenMP on a busy machine (docs/reliability.md): with OMP_NUM_THREADS unset and one of the two
# cores the program may use kept busy by another program, gpu500 runs an OpenMP team of one
# thread, says so on stderr, and keeps an explicit OMP_NUM_THREADS. Skipped without taskset or
# with fewer than two cores.
set -uo pipefail
bin=$1
command -v taskset >/dev/null || { echo "no taskset: skipped"; exit 0; }
mapfile -t cores < <(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done)
[ "${#cores[@]}" -ge 2 ] || { echo "fewer than 2 cores: skipped"; exit 0; }
c0=${cores[0]} c1=${cores[1]}
taskset -c "$c1" sh -c 'while :; do :; done' &
spin=$!
trap 'kill $spin 2>/dev/null' EXIT
sleep 0.3
err=$(mktemp)
out=$(env -u OMP_NUM_THREADS taskset -c "$c0,$c1" "$bin" info 2>"$err")
grep -q '^backends: cpu (OpenMP, 1 threads)' <<<"$out" || { echo "a busy core, yet: $(grep backends <<<"$out")"; cat "$err"; exit 1; }
grep -q 'cores busy with other programs: OpenMP team of 1 thread' "$err" || { echo "no note on stderr: $(cat "$err")"; exit 1; }
out=$(OMP_NUM_THREADS=2 taskset -c "$c0,$c1" "$bin" info 2>"$err")
grep -q '^backends: cpu (OpenMP, 2 threads)' <<<"$out" || { echo "OMP_NUM_THREADS=2 not kept: $(grep backends <<<"$out")"; exit 1; }
! grep -q 'cores busy' "$err" || { echo "a note although OMP_NUM_THREADS was set"; exit 1; }
rm -f "$err"
echo "busy_core: ok"
