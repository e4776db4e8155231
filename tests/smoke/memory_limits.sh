#!/usr/bin/env bash
# Problems that do not fit in the memory this process may use are refused up front: exit 3, one
# line on stderr naming the sizes in human units, nothing on stdout. The limit is imposed on the
# program with `prlimit --as` (the address space it may map), and with a child memory cgroup
# (v2 memory.max or v1 memory.limit_in_bytes) where one can be made; each is skipped with a
# message where it cannot. Sizes too large for any host (hpl -N 2^63 - 1, hash --keys 3e9) need
# no limit; on a GPU, hash --keys 3e9 is also refused for the device's memory.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
cg=
trap 'rm -rf "$tmp"; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null' EXIT
cd "$tmp" || exit 1
fail=0
refused() {  # refused PATTERN CMD...
  local pattern=$1 rc=0
  shift
  "$@" >out.txt 2>err.txt || rc=$?
  [ "$rc" -eq 3 ] || { echo "FAIL: $*: exit $rc, want 3 ($(head -c 300 err.txt))"; fail=1; return; }
  [ ! -s out.txt ] || { echo "FAIL: $*: stdout not empty: $(head -c 300 out.txt)"; fail=1; }
  [ "$(wc -l <err.txt)" -eq 1 ] || { echo "FAIL: $*: want one stderr line, got: $(cat err.txt)"; fail=1; }
  grep -q -E -e "$pattern" err.txt || { echo "FAIL: $*: '$(cat err.txt)' lacks /$pattern/"; fail=1; }
  cat err.txt
}
refused 'hpl: N = 9223372036854775807 on a 1 x 1 grid needs at least 6.81e\+38 bytes per process, [0-9.]+ [kMGTPEZY]?B available' \
  "$bin" hpl -N 9223372036854775807 --backend cpu --quiet
refused 'N = 3040000000 .*needs at least 73.9 EB per process' "$bin" hpl -N 3040000000 --backend cpu --quiet
refused 'hash static: 3000000000 keys.* needs [0-9.]+ [TG]B, ' "$bin" hash static --backend cpu --keys 3000000000
# On a GPU the device's arrays are checked too, before any key is made (the host's, 114 GB, may fit).
if "$bin" info 2>/dev/null | grep -q '^cuda devices: none'; then
  echo "no GPU: the device memory case is skipped"
else
  refused 'hash static: 3000000000 keys.* needs [0-9.]+ [TG]B' "$bin" hash static --backend cuda --keys 3000000000
fi
refused 'hash static: .* keys at load factor 1e-06 needs [0-9.]+ [TPE]B, ' "$bin" hash static --backend cpu --lf 1e-6
refused 'hash mixed: 100000000000 operations needs [0-9.]+ TB, ' "$bin" hash mixed --backend cpu --ops 100000000000
# (A sanitized build reserves terabytes of address space for its shadow memory at start: it
# cannot start under --as at all, and says so; those cases are then left to the cgroup. What fits,
# a small hpl, must run under the limit for the refusals to mean anything.)
if ! command -v prlimit >/dev/null || ! prlimit --as=2000000000 true 2>/dev/null; then
  echo "prlimit --as is not available here: the cases under an address-space limit are skipped"
elif ! (timeout 30 prlimit --as=2000000000 "$bin" hpl -N 200 --backend cpu --quiet >/dev/null 2>err.txt) 2>/dev/null; then
  # (A CUDA build's MPI and CUDA libraries may fail to start their threads in 2 GB as well, or
  # leave OpenBLAS too little room for its buffers, which it then waits for without end.)
  echo "this build cannot run a small hpl under prlimit --as ($(grep -o -m1 'AddressSanitizer[^(]*' err.txt || head -c 100 err.txt)): the cases under an address-space limit are skipped"
else
  lim="prlimit --as=2000000000"  # 2 GB of address space
  refused 'hpl: N = 20000 on a 1 x 1 grid needs at least 3.2 GB per process, [0-9.]+ [kMG]B available' \
    $lim "$bin" hpl -N 20000 --backend cpu --quiet
  refused 'bellman-ford: N = 65536 .* needs 17.2 GB, ' $lim "$bin" bellman-ford --n 65536 --backend cpu
  refused 'bellman-ford: N = 32768 .* needs [0-9.]+ GB, ' $lim "$bin" bellman-ford --n 32768 --backend cpu --negative
  refused 'hash static: 100000000 keys .* needs [0-9.]+ GB, ' $lim "$bin" hash static --backend cpu --keys 100000000
  refused 'SCALE 26.* needs [0-9.]+ GB, ' $lim "$bin" generate 26 g.txt
fi
# A child memory cgroup of 1.5 GB: v2 where this process's cgroup shows memory.max, else v1.
v2=$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)
v1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
if [ -n "$v2" ] && [ -f "/sys/fs/cgroup${v2%/}/memory.max" ] && mkdir "/sys/fs/cgroup${v2%/}/gpu500-test-$$" 2>/dev/null; then
  cg="/sys/fs/cgroup${v2%/}/gpu500-test-$$"
  echo 1500000000 >"$cg/memory.max" 2>/dev/null || { rmdir "$cg"; cg=; }
elif [ -n "$v1" ] && mkdir "/sys/fs/cgroup/memory${v1%/}/gpu500-test-$$" 2>/dev/null; then
  cg="/sys/fs/cgroup/memory${v1%/}/gpu500-test-$$"
  echo 1500000000 >"$cg/memory.limit_in_bytes" 2>/dev/null || { rmdir "$cg"; cg=; }
fi
if [ -n "$cg" ]; then
  in_cg() { bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"; }
  refused 'hpl: N = 20000 on a 1 x 1 grid needs at least 3.2 GB per process, (1(\.[0-9]+)? GB|[0-9.]+ MB) available' \
    in_cg "$bin" hpl -N 20000 --backend cpu --quiet
  refused 'hash static: 100000000 keys .* needs [0-9.]+ GB, (1(\.[0-9]+)? GB|[0-9.]+ MB) available' \
    in_cg "$bin" hash static --backend cpu --keys 100000000
else
  echo "no child memory cgroup can be made here: the cases in a cgroup are skipped"
fi
exit $fail
