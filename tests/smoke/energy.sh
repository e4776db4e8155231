#!/usr/bin/env bash
# `gpu500 graph500 --energy` (GreenGraph500 figures) and `--progress`: on the CPU backend the
# run prints the energy block or exactly one stderr line saying why energy is unavailable, and
# exits 0; over a powercap tree written here (GPU500_POWERCAP_ROOT) whose counter advances and
# wraps during the run, the block's joules, watts and TEPS/W agree with each other and with the
# JSON; where a CUDA device is present, the NVML window on it gives a positive TEPS/W.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
ticker=
trap '[ -n "$ticker" ] && kill "$ticker" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -v k="$1" '$0 ~ "^"k":" {print $NF}' "$2"; }  # key (with its prefix) file -> value

# 1. The host as it is: the block, or one line naming why not.
env -u GPU500_POWERCAP_ROOT "$bin" graph500 9 --backend cpu --roots 2 --energy --quiet >"$tmp/o.txt" 2>"$tmp/e.txt" ||
  fail "--energy on this host: exit $? ($(cat "$tmp/e.txt"))"
if grep -q '^bfs  TEPS_per_watt:' "$tmp/o.txt"; then
  echo "host energy: $(grep '^energy_meter:' "$tmp/o.txt")"
else
  [ "$(wc -l <"$tmp/e.txt")" -eq 1 ] || fail "unavailable energy: expected one stderr line, got: $(cat "$tmp/e.txt")"
  grep -q '^graph500: energy not measured: ' "$tmp/e.txt" || fail "unavailable energy: $(cat "$tmp/e.txt")"
  echo "host energy: $(cat "$tmp/e.txt")"
fi

# 2. A powercap tree whose package counter runs at 100 W and wraps at 100 J (once a second). The
# counter is written from the clock (100 uJ a microsecond since the start) about every 10 ms, so a
# loop slowed by a busy host still averages 100 W (only a stall of a whole wrap would lose one).
rapl=$tmp/powercap/intel-rapl:0
mkdir -p "$rapl" "$tmp/powercap/intel-rapl:0:0"
echo 100000000 >"$rapl/max_energy_range_uj"
echo 0 >"$rapl/energy_uj"
echo 999999999 >"$tmp/powercap/intel-rapl:0:0/energy_uj"  # a subdomain: must not be read
( start=${EPOCHREALTIME//[!0-9]/}; while :; do now=${EPOCHREALTIME//[!0-9]/}; echo $(( (now - start) * 100 % 100000000 )) >"$rapl/e.tmp"
    mv "$rapl/e.tmp" "$rapl/energy_uj"; sleep 0.01; done ) &
ticker=$!
GPU500_POWERCAP_ROOT=$tmp/powercap "$bin" graph500 10 --backend cpu --roots 4 --energy --progress \
  --json "$tmp/r.json" >"$tmp/o.txt" 2>"$tmp/e.txt" || fail "--energy on a powercap tree: $(tail -3 "$tmp/e.txt")"
kill "$ticker"; ticker=
grep -q '^energy_meter: *RAPL, 1 package domain$' "$tmp/o.txt" || fail "energy_meter: $(grep energy_meter "$tmp/o.txt")"
grep -q '^bfs 4/4: root .* left$' "$tmp/e.txt" || fail "--progress: no per-root line with the time left"
grep -q '^sssp energy window: pass ' "$tmp/e.txt" || fail "--progress: no energy window line"
for k in bfs sssp; do
  p=$(printf '%-4s ' $k)
  t=$(field "$p*energy_window_time" "$tmp/o.txt"); j=$(field "$p*energy_joules" "$tmp/o.txt")
  w=$(field "$p*average_power_watts" "$tmp/o.txt"); tpw=$(field "$p*TEPS_per_watt" "$tmp/o.txt")
  n=$(field "$p*energy_searches" "$tmp/o.txt")
  python3 - "$k" "$t" "$j" "$w" "$tpw" "$n" "$tmp/r.json" <<'PY' || fail "$k energy figures: t=$t J=$j W=$w TEPS/W=$tpw n=$n"
import json, sys
k, t, j, w, tpw, n, path = sys.argv[1], *map(float, sys.argv[2:7]), sys.argv[7]
e = json.load(open(path))[k]["energy"]
assert t >= 1.0, "window under 1 s"
assert n >= 4 and n % 4 == 0, "whole passes over the 4 keys"
# 100 W from the clock; the window's ends fall between two writes of the counter (10 ms apart,
# more on a busy host): accept 60..140 W.
assert 60 <= w <= 140, "average power %g W" % w
assert abs(w * t - j) <= 1e-3 * j + 1e-9, "watts x seconds != joules"
assert abs(e["edges"] / e["joules"] - tpw) <= 1e-4 * tpw, "TEPS/W != edges / joules"
assert e["searches"] == n and e["passes"] * 4 == n and abs(e["joules"] - j) <= 1e-4 * j
PY
done

# 3. Refusals: --progress with --quiet; --energy over MPI ranks on the CPU backend.
err=$("$bin" graph500 8 --backend cpu --progress --quiet 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && grep -q 'exclude each other' <<<"$err" || fail "--progress --quiet: exit $rc ($err)"
# Without --progress and with stderr not a terminal, no per-root lines.
"$bin" graph500 8 --backend cpu --roots 2 >/dev/null 2>"$tmp/e.txt" || fail "plain run"
! grep -q '^bfs 1/2' "$tmp/e.txt" || fail "per-root lines on a stderr that is not a terminal"
if command -v mpiexec >/dev/null && "$bin" info 2>/dev/null | grep -q "^mpi: yes"; then
  err=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpiexec --oversubscribe --bind-to none -n 2 \
        "$bin" graph500 8 --backend cpu --quiet --energy 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] && grep -q 'energy over several ranks' <<<"$err" || fail "--energy over 2 CPU ranks: exit $rc ($err)"
fi

# 4. On a GPU: NVML's counter over the BFS window.
if "$bin" info 2>/dev/null | grep -q '^cuda device 0:'; then
  "$bin" graph500 16 --backend cuda --kernels bfs --energy --quiet --json "$tmp/g.json" >"$tmp/o.txt" 2>"$tmp/e.txt" ||
    fail "--energy on cuda: $(cat "$tmp/e.txt")"
  grep -q '^energy_meter: *NVML, GPU ' "$tmp/o.txt" || fail "cuda energy meter: $(cat "$tmp/e.txt")"
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["bfs"]["energy"]; assert e["window_time"] >= 1 and e["joules"] > 0 and e["TEPS_per_watt"] > 0, e; print("cuda energy: %.3g GTEPS/W at %.0f W" % (e["TEPS_per_watt"]/1e9, e["average_power_watts"]))' "$tmp/g.json" ||
    fail "cuda energy figures"
else
  echo "no CUDA device: the NVML window is not run"
fi
echo "energy: ok"
