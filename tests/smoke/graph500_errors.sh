#!/usr/bin/env bash
# Bad arguments get one clear line and exit code 2; a run that cannot fit in memory gets one line
# naming SCALE, the bytes needed and the bytes available (exit code 3), before any work.
set -uo pipefail
bin=$1
expect() {
  local want=$1 pattern=$2
  shift 2
  local err rc
  err=$("$bin" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq "$want" ] || { echo "gpu500 $*: exit $rc, expected $want ($err)"; exit 1; }
  [ "$(wc -l <<<"$err")" -eq 1 ] || { echo "gpu500 $*: expected one line, got: $err"; exit 1; }
  grep -q -e "$pattern" <<<"$err" || { echo "gpu500 $*: message '$err' lacks '$pattern'"; exit 1; }
}
expect 2 "SCALE must be in 1..42" graph500 0
expect 2 "SCALE must be in 1..42" graph500 43
expect 2 "edgefactor" graph500 10 0
expect 2 "unknown option '--bogus'" graph500 10 --bogus
expect 2 "expected an integer" graph500 ten
expect 2 "--backend" graph500 10 --backend fpga
expect 2 "--seed" graph500 10 --seed 1
expect 3 "SCALE 40 needs [0-9.]* [kMGTPE]B, [0-9.]* [kMGTPE]*B available" graph500 40 --backend cpu
echo "graph500 error smoke: ok"
