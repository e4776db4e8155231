#!/usr/bin/env bash
# `gpu500 info` names the version, the CPU backend and the BLAS the build links (the one its
# configure step reported); bad commands exit 2.
set -euo pipefail
bin=$1
out=$("$bin" info)
grep -q '^gpu500 ' <<<"$out"
grep -q '^backends: cpu' <<<"$out"
grep -qE '^blas: (OpenBLAS|BLIS|MKL|reference \(netlib|lib)' <<<"$out" || { echo "no blas line: $out"; exit 1; }
set +e
"$bin" no-such-command 2>/dev/null; rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "unknown command exited $rc, expected 2"; exit 1; }
echo "info smoke: ok"
