#!/usr/bin/env bash
# The SSSP flags of `gpu500 sssp` (shared by `gpu500 graph500` and `gpu500 bfs`): every flag runs to a
# validated result on its backend, and a flag of the other backend's engine is a one-line error
# (exit 2). The CUDA runs happen only where a CUDA device is visible.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A weighted graph with a hub (long row), a cycle, zero weights and a separate component.
{
  for i in $(seq 1 60); do echo "0 $i 0.$((i % 9))"; done
  for i in $(seq 1 59); do echo "$i $((i + 1)) 0.0$((i % 7))"; done
  echo "61 62 0.5"
} >"$tmp/g.txt"
valid() {  # valid BACKEND FLAGS...: all searches validated
  local out
  out=$("$bin" sssp --graph "$tmp/g.txt" --roots 3 --backend "$@" 2>&1) || { echo "gpu500 sssp --backend $*: $out"; exit 1; }
  grep -q 'all valid' <<<"$out" || { echo "gpu500 sssp --backend $*: unexpected output: $out"; exit 1; }
}
expect2() {  # expect2 FLAGS...: exit 2 with one line on stderr
  local err rc
  err=$("$bin" sssp --graph "$tmp/g.txt" --roots 2 "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] || { echo "gpu500 sssp $*: exit $rc, '$err'"; exit 1; }
}
valid cpu
valid cpu --sssp delta --sssp-delta 0.1
valid cpu --sssp-threads 2 --sssp-no-light-heavy
valid cpu --sssp-no-relabel --sssp-delta 0
expect2 --sssp dijkstra
expect2 --sssp-delta abc
expect2 --backend cpu --sssp bellman-ford
for f in --sssp-no-sorted-rows --sssp-no-persistent --sssp-no-pull --sssp-no-device-loop; do
  if "$bin" sssp --help | grep -c -- "$f" >/dev/null; then expect2 --backend cpu "$f"; fi
done
if "$bin" sssp --graph "$tmp/g.txt" --root 0 --backend cuda >/dev/null 2>&1; then
  valid cuda
  valid cuda --sssp bellman-ford
  valid cuda --sssp-delta 0.05 --sssp-no-sorted-rows
  valid cuda --sssp-no-persistent
  valid cuda --sssp-no-pull
  valid cuda --sssp-no-device-loop
  valid cuda --sssp bellman-ford --sssp-no-device-loop
  for f in "--sssp-threads 2" --sssp-no-light-heavy --sssp-no-relabel; do
    # shellcheck disable=SC2086
    expect2 --backend cuda $f
  done
  echo "sssp flags smoke (cpu, cuda): ok"
else
  echo "sssp flags smoke (cpu; no CUDA device): ok"
fi
