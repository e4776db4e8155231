#!/usr/bin/env bash
# Nsight Compute counters of the hash tables' bulk kernels, per operation: GLHT's tables (the
# pair-CAS insert and the locked insert by default) and cuCollections' static_map, each run as the
# static benchmark runs it (one run, one load factor), so that docs/hash.md can say what bounds an
# insert or a look-up: time, the SMs' requests to the L2 by kind, all L2 requests, DRAM sectors,
# the achieved occupancy and the registers.
# Usage: bench/hash/counters.sh BUILD [KEYS] [LF] [GLHT_TABLES]
#   BUILD holds bin/gpu500 and, for cuCollections, bin/cuco_static_map (bench/hash/cuco.sh builds it);
#   KEYS default 67108864 (2^26), LF 0.8, GLHT_TABLES glht-t1-rec-pcas,glht-t1-rec-np.
# Prints one line per profiled kernel launch: the table, the kernel, its milliseconds and each
# counter divided by KEYS (the operations of every bulk kernel of the static benchmark).
# The clocks are left alone (--clock-control none).
set -euo pipefail
build=${1:?usage: bench/hash/counters.sh BUILD [KEYS] [LF] [GLHT_TABLES]}
keys=${2:-67108864}
lf=${3:-0.8}
tables=${4:-glht-t1-rec-pcas,glht-t1-rec-np}
command -v ncu >/dev/null || { echo "counters.sh: ncu (Nsight Compute) is not on the PATH" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
wanted=(gpu__time_duration.sum
        lts__t_requests_srcunit_tex_op_read.sum lts__t_requests_srcunit_tex_op_write.sum
        lts__t_requests_srcunit_tex_op_atom.sum lts__t_requests.sum
        dram__sectors_read.sum dram__sectors_write.sum
        sm__warps_active.avg.pct_of_peak_sustained_active launch__registers_per_thread)
# Keep the counters this device's Nsight Compute knows (a name it does not know fails the run).
known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
metrics=()
for m in "${wanted[@]}"; do
  if grep -qx "${m%%.*}" <<<"$known" || [ "${m%%__*}" = launch ]; then metrics+=("$m"); else echo "counters.sh: $m unknown here, left out" >&2; fi
done
list=$(IFS=,; echo "${metrics[*]}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
profile() {  # name, then the command
  local name=$1
  shift
  ncu --clock-control none --metrics "$list" -k 'regex:insert|find|contains' --csv --page raw \
    --log-file "$tmp/$name.csv" "$@" >"$tmp/$name.out" 2>&1 || { tail -20 "$tmp/$name.out" "$tmp/$name.csv" >&2; return 1; }
  python3 "$here/counters_table.py" "$name" "$keys" "$list" "$tmp/$name.csv"
}
status=0
IFS=, read -ra glht <<<"$tables"
for t in "${glht[@]}"; do
  profile "$t" "$build/bin/gpu500" hash static --keys "$keys" --lf "$lf" --runs 1 --tables "$t" || status=1
done
if [ -x "$build/bin/cuco_static_map" ]; then
  profile cuco "$build/bin/cuco_static_map" --keys "$keys" --lf "$lf" --runs 1 || status=1
fi
exit $status
