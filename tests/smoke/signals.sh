#!/usr/bin/env bash
# SIGINT, SIGTERM or SIGHUP while `gpu500 generate` or `convert` writes its output: the process
# removes its temporary file (OUT.tmpPID) and ends by that signal (exit status 128 + signal), the
# old OUT left as it was. Job control (set -m) keeps SIGINT deliverable to a background process.
set -uo pipefail
set -m
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
echo old >out.txt
"$bin" generate 12 small.txt >/dev/null || { echo "generate 12 failed"; exit 1; }
# run_until_writing SIG ARGS...: starts gpu500 ARGS, waits until its temporary file holds data,
# sends SIG and checks the exit status and the files.
interrupt() {
  local sig=$1 num rc pid
  shift
  num=$(kill -l "$sig")
  "$bin" "$@" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    [ -s "out.txt.tmp$pid" ] && break
    sleep 0.05
  done
  if [ ! -s "out.txt.tmp$pid" ]; then
    echo "FAIL: gpu500 $*: no temporary file being written to interrupt"; fail=1
    wait "$pid"
    return
  fi
  kill -s "$sig" "$pid"
  wait "$pid"
  rc=$?
  [ "$rc" -eq $((128 + num)) ] || { echo "FAIL: gpu500 $* after SIG$sig: exit $rc, want $((128 + num))"; fail=1; }
  if ls out.txt.tmp* >/dev/null 2>&1; then echo "FAIL: gpu500 $* after SIG$sig left $(ls out.txt.tmp*)"; fail=1; fi
  [ "$(cat out.txt)" = old ] || { echo "FAIL: gpu500 $* after SIG$sig changed out.txt"; fail=1; }
  rm -f out.txt.tmp*
}
for sig in INT TERM HUP; do
  interrupt "$sig" generate 20 out.txt
done
"$bin" generate 19 big.bin >/dev/null || { echo "generate 19 failed"; exit 1; }
interrupt TERM convert big.bin out.txt
exit $fail
