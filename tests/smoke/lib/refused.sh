# shellcheck shell=bash
# Sourced by the smoke tests that check refusals (this directory holds no test: CMake takes only
# tests/smoke/*.sh), in a scratch directory. `bad MESSAGE` records a failure (the test ends with
# `exit $fail`); `refused PATTERN ARGS...` runs ARGS and requires exit 2, nothing on stdout and
# exactly one stderr line containing PATTERN (a fixed string).
fail=0
bad() { echo "FAIL: $*"; fail=1; }
refused() {
  local pattern=$1 rc=0
  shift
  "$@" >out.txt 2>err.txt || rc=$?
  [ "$rc" -eq 2 ] || bad "$* exited $rc, want 2 ($(cat err.txt))"
  [ ! -s out.txt ] || bad "$*: stdout not empty: $(cat out.txt)"
  [ "$(wc -l <err.txt)" -eq 1 ] || bad "$*: want one stderr line, got: $(cat err.txt)"
  grep -q -F -e "$pattern" err.txt || bad "$*: '$(cat err.txt)' lacks '$pattern'"
}
