#!/usr/bin/env bash
# `gpu500 info` names the version, the git commit (known in a git checkout), the host, the CPU
# backend, the MPI and NCCL libraries and the BLAS the build links (the one its configure step
# reported): the provenance record every --json carries; bad commands exit 2.
set -euo pipefail
bin=$1 src=${2:-}
out=$("$bin" info)
grep -q '^gpu500 ' <<<"$out"
grep -q '^backends: cpu' <<<"$out"
grep -qE '^host: .+' <<<"$out" || { echo "no host line: $out"; exit 1; }
grep -qE '^mpi: (no|yes, .+)$' <<<"$out" || { echo "no mpi line: $out"; exit 1; }
grep -qE '^nccl: (none|unknown|[0-9]+\.[0-9]+\.[0-9]+)$' <<<"$out" || { echo "no nccl line: $out"; exit 1; }
commit=$(sed -n 's/^commit: //p' <<<"$out")
[ -n "$commit" ] || { echo "no commit line: $out"; exit 1; }
if [ -n "$src" ] && git -C "$src" rev-parse HEAD >/dev/null 2>&1; then
  grep -qE '^[0-9a-f]{7,}(-dirty)?$|^v[0-9]' <<<"$commit" || { echo "commit '$commit' in a git checkout"; exit 1; }
fi
grep -qE '^blas: (OpenBLAS|BLIS|MKL|reference \(netlib|lib)' <<<"$out" || { echo "no blas line: $out"; exit 1; }
set +e
"$bin" no-such-command 2>/dev/null; rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "unknown command exited $rc, expected 2"; exit 1; }
echo "info smoke: ok"
