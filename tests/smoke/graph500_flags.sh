#!/usr/bin/env bash
# Every graph and BFS flag of `gpu500 graph500` and `gpu500 bfs` is exercised: the CPU ones in
# validated CPU runs; the CUDA ones are an error (exit 2, one line) with --backend cpu, and, where
# a CUDA device is present, run in small validated searches on it. The same knob has one name on
# both backends (--vertex-bits, --bfs-alpha, --bfs-beta).
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
expect2() {  # pattern args...
  local pattern=$1 err rc
  shift
  err=$("$bin" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "gpu500 $*: exit $rc, expected 2 ($err)"
  [ "$(wc -l <<<"$err")" -eq 1 ] || fail "gpu500 $*: expected one line, got: $err"
  grep -q -e "$pattern" <<<"$err" || fail "gpu500 $*: message '$err' lacks '$pattern'"
}
valid_run() {  # args...: a validated graph500 run whose JSON says valid
  "$bin" graph500 "$@" --json "$tmp/r.json" >"$tmp/out.txt" 2>"$tmp/err.txt" || fail "gpu500 graph500 $*: $(cat "$tmp/err.txt")"
  grep -q '"valid": true' "$tmp/r.json" || fail "gpu500 graph500 $*: not valid"
}

# The CPU engine's flags and the shared ones, in validated runs.
valid_run 10 --backend cpu --kernels bfs --roots 4 --quiet --vertex-bits 32 --bfs-threads 2 --bfs-alpha 10 --bfs-beta 20
valid_run 10 --backend cpu --kernels bfs --roots 4 --quiet --no-direction-optimizing --seed 5,7
valid_run 9 --backend cpu --roots 2 --quiet --initiator 0.45,0.15,0.15
"$bin" graph500 9 --backend cpu --roots 2 --quiet --skip-bfs --no-validate >"$tmp/o.txt" || fail "--skip-bfs --no-validate"
grep -q '^sssp min_validate: *-1$' "$tmp/o.txt" || fail "--no-validate: validation ran"
grep -q '^bfs  max_time: *0$' "$tmp/o.txt" || fail "--skip-bfs: BFS ran"
expect2 "--vertex-bits must be 32 or 64" graph500 8 --backend cpu --vertex-bits 16
expect2 "kernels: expected" graph500 8 --backend cpu --kernels bogus
expect2 "--roots" graph500 8 --backend cpu --roots 0
expect2 "--bfs-alpha applies to BFS" graph500 8 --backend cpu --kernels sssp --bfs-alpha 3
# (The CUDA engine's flags exist where the CUDA backend is compiled in.)
cuda_built=false
"$bin" info | grep -q '^backends:.*cuda' && cuda_built=true
$cuda_built && expect2 "--no-ts applies to BFS" graph500 8 --skip-bfs --no-ts
expect2 "initiator" graph500 8 --backend cpu --initiator 0.5,0.5

# `gpu500 bfs` on a file: --graph, --vertices, --root, --roots, --seed, --no-validate, --json.
printf '0 1\n1 2\n2 3\n3 0\n0 2\n5 6\n' >"$tmp/g.txt"
out=$("$bin" bfs --graph "$tmp/g.txt" --vertices 9 --roots 3 --seed 4 --backend cpu --bfs-alpha 2 --json "$tmp/b.json" 2>/dev/null) ||
  fail "bfs --roots: $out"
grep -q 'all valid' <<<"$out" || fail "bfs --roots: $out"
grep -q '"valid": true' "$tmp/b.json" || fail "bfs --json: not valid"
out=$("$bin" bfs --graph "$tmp/g.txt" --root 5 --no-validate --backend cpu 2>/dev/null) || fail "bfs --no-validate: $out"
grep -q 'not validated' <<<"$out" || fail "bfs --no-validate: $out"
printf '0 1 0.5\n1 2 0.25\n' >"$tmp/w.txt"
expect2 "unknown option '--bfs-beta'" sssp --graph "$tmp/w.txt" --backend cpu --bfs-beta 3  # sssp lists and takes no BFS flag

# The CUDA engine's flags: errors on the CPU backend.
cuda_flags=(--no-ts --no-wb --no-hc --no-hub-cache --no-device-loop --no-bitmap --no-sort
            "--bfs baseline" "--hub-threshold 50" "--priority-degree 50" "--gamma 0.2" "--bfs-sm-share 0.5"
            "--device 0")
for f in "${cuda_flags[@]}"; do
  # shellcheck disable=SC2086
  expect2 "" graph500 8 --backend cpu $f
done
$cuda_built && expect2 "--bfs: expected enterprise or baseline" graph500 8 --bfs bogus
$cuda_built && expect2 "--bfs-sm-share must be in (0, 1]" graph500 8 --bfs-sm-share 0
$cuda_built && expect2 "--bfs-sm-share must be in (0, 1]" graph500 8 --bfs-sm-share 1.5

# ... and validated searches where a CUDA device is present.
if "$bin" info | grep -c '^cuda device 0:' >/dev/null; then
  expect2 "--bfs-threads applies to the CPU backend only" graph500 8 --backend cuda --bfs-threads 2
  expect2 "--no-direction-optimizing applies to the CPU backend only" graph500 8 --backend cuda --no-direction-optimizing
  valid_run 12 --backend cuda --kernels bfs --roots 4 --quiet --vertex-bits 64 --bfs-alpha 10 --bfs-beta 20 --device 0
  valid_run 12 --backend cuda --kernels bfs --roots 4 --quiet --bfs baseline
  valid_run 12 --backend cuda --kernels bfs --roots 4 --quiet --bfs enterprise --no-wb --no-device-loop --no-bitmap
  valid_run 12 --backend cuda --kernels bfs --roots 4 --quiet --no-ts --no-hc --no-sort
  valid_run 12 --backend cuda --kernels bfs --roots 4 --quiet --no-hub-cache --hub-threshold 50 --priority-degree 50 --gamma 0.2
  valid_run 12 --backend cuda --kernels bfs --roots 4 --quiet --bfs-sm-share 0.01
  out=$("$bin" bfs --graph "$tmp/g.txt" --root 0 --backend cuda 2>/dev/null) || fail "bfs on cuda: $out"
  grep -q 'valid$' <<<"$out" || fail "bfs on cuda: $out"
else
  echo "no CUDA device: the CUDA flags were checked for their errors only"
fi
echo "graph500 flags smoke: ok"
