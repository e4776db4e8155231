#!/usr/bin/env bash
# `gpu500 info` names the version and the CPU backend; bad commands exit 2.
set -euo pipefail
bin=$1
out=$("$bin" info)
grep -q '^gpu500 ' <<<"$out"
grep -q '^backends: cpu' <<<"$out"
set +e
"$bin" no-such-command 2>/dev/null; rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "unknown command exited $rc, expected 2"; exit 1; }
echo "info smoke: ok"
