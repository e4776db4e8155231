#!/usr/bin/env bash
# Every host memory check is a lower bound of what the run then holds: with GPU500_MEMORY_REPORT=1
# each check prints "gpu500 memory: estimate NEED resident RSS (what)" and the program its peak
# resident size at exit; for each command below, RSS + NEED of every check must not pass the
# peak, within 1 % (the resident set moves by some hundred kB between a check and the allocation
# it announces; a check that asked for more would refuse runs that fit). An estimate must also explain
# most of the peak (RSS + NEED of its largest check at least half of it), or it checks nothing;
# a sanitized build, whose shadow memory inflates the peak, is held to the lower bound only.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export GPU500_MEMORY_REPORT=1 OMP_NUM_THREADS=2
fail=0
sanitized=${GPU500_TEST_SANITIZED:-}
measure() {  # measure NAME CMD...: every process's report lines, held against its own peak
  local name=$1
  shift
  "$@" >out.txt 2>err.txt || { echo "FAIL: $name: exit $? ($(grep -v 'gpu500 memory' err.txt | head -3))"; fail=1; return; }
  # Lines of several ranks interleave: each rank's peak follows its own estimates, so estimates
  # are held against the smallest peak printed (every rank of these runs holds alike).
  awk -v name="$name" -v sanitized="$sanitized" '
    /^gpu500 memory: estimate/ { need = $4 + $6; n++; if (need > most) { most = need; what = $0 } }
    /^gpu500 memory: peak/ { p = $4; if (peak == "" || p < peak) peak = p }
    END {
      if (n == 0 || peak == "") { printf "FAIL: %s: no estimate or no peak reported\n", name; exit 1 }
      printf "%-28s %2d checks, largest %6.1f MB of a peak of %6.1f MB (%.2f)\n", name, n, most / 1e6, peak / 1e6, most / peak
      if (most > peak * 1.01) { printf "FAIL: %s: an estimate passes the peak: %s\n", name, what; exit 1 }
      if (sanitized == "" && most < peak / 2) { printf "FAIL: %s: the estimates explain under half the peak\n", name; exit 1 }
    }' err.txt || fail=1
}
measure "graph500 16" "$bin" graph500 16 --backend cpu --roots 2
measure "graph500 16, 32-bit ids" "$bin" graph500 16 --backend cpu --roots 2 --vertex-bits 32
measure "generate 16" "$bin" generate 16 g.txt
measure "bfs on a file" "$bin" bfs --graph g.txt --roots 2 --backend cpu
measure "sssp on a file" "$bin" sssp --graph g.txt --roots 2 --backend cpu
measure "convert to binary" "$bin" convert g.txt g.bin
measure "hpl -N 2000" "$bin" hpl -N 2000 --backend cpu --quiet
measure "hpl-mxp -N 2000" "$bin" hpl-mxp -N 2000 --backend cpu
measure "bellman-ford --n 2048" "$bin" bellman-ford --n 2048 --backend cpu
measure "hash static 1e6 keys" "$bin" hash static --backend cpu --keys 1000000 --runs 1
if command -v mpiexec >/dev/null && "$bin" info 2>/dev/null | grep -q "mpi: yes"; then
  measure "graph500 16 on 2 ranks" mpiexec --oversubscribe --bind-to none -n 2 "$bin" graph500 16 --backend cpu --roots 2
  measure "graph500 16 on 2 ranks, 32-bit ids" mpiexec --oversubscribe --bind-to none -n 2 "$bin" graph500 16 --backend cpu \
    --roots 2 --vertex-bits 32
fi
exit $fail
