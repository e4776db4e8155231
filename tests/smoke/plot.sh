#!/usr/bin/env bash
# scripts/plot.py draws every kind of figure from small real runs of gpu500 and writes a PNG:
# the BFS ablation (CPU runs with and without direction optimisation, as ablation.sh's lines),
# the per-level trace (graph500 over 2 MPI ranks), the HPL balance point (hpl --timing), the
# scaling series (graph500 on 1 and 2 ranks, as scaling.sh's weak-R/strong-R files) and the hash
# rates by load factor. An input without what a figure needs is refused (exit 1). Skipped, saying
# so, where no python3 has matplotlib.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
py=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import matplotlib' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "matplotlib is not installed: plot.py not tested (skipped)"; exit 0; }
plot() {  # kind input
  rm -f "$tmp/$1.png"
  "$py" "$src/scripts/plot.py" "$1" "$2" -o "$tmp/$1.png" >/dev/null 2>"$tmp/err.txt" || fail "plot.py $1: $(cat "$tmp/err.txt")"
  [ "$(head -c 4 "$tmp/$1.png" | tail -c 3)" = PNG ] || fail "plot.py $1: no PNG"
  echo "ok: $1 ($(wc -c <"$tmp/$1.png") bytes)"
}
g500() {  # ranks out args...
  local r=$1 out=$2; shift 2
  if [ "$r" = 1 ]; then
    "$bin" graph500 "$@" --backend cpu --quiet --json "$out" >/dev/null 2>&1
  else
    # One OpenMP thread per rank: ranks that poll while OpenMP teams run beside them crawl on a small host.
    OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpiexec --oversubscribe --bind-to none -n "$r" \
      "$bin" graph500 "$@" --backend cpu --quiet --json "$out" >/dev/null 2>&1
  fi || fail "graph500 $* on $r rank(s)"
}
have_mpi=0
command -v mpiexec >/dev/null && "$bin" info 2>/dev/null | grep -q "^mpi: yes" && have_mpi=1

# Ablation lines from real runs (the format ablation.sh writes for the CPU backend).
for s in 9 10; do
  for cfg in "direction-optimizing|" "top-down|--no-direction-optimizing"; do
    # shellcheck disable=SC2086
    g500 1 "$tmp/a.json" "$s" --kernels bfs --roots 4 ${cfg#*|}
    "$py" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps({"label": sys.argv[2], "graph": "kronecker", "scale": j["SCALE"], "hmean_gteps": j["bfs"]["harmonic_mean_TEPS"] / 1e9}))' \
      "$tmp/a.json" "${cfg%%|*}" >>"$tmp/ablation.jsonl"
  done
done
plot ablation "$tmp/ablation.jsonl"

"$bin" hpl -N 384 -NB 32 --backend cpu --quiet --timing "$tmp/timing.json" >/dev/null 2>&1 || fail "hpl --timing"
plot balance "$tmp/timing.json"
"$bin" hash static --backend cpu --keys 4096 --lf 0.5,0.8,0.9 --runs 1 --json "$tmp/hash.json" >/dev/null 2>&1 || fail "hash static"
plot hash "$tmp/hash.json"

mkdir -p "$tmp/scaling"
g500 1 "$tmp/scaling/weak-1.json" 9 --roots 4
g500 1 "$tmp/scaling/strong-1.json" 10 --roots 4
if [ "$have_mpi" = 1 ]; then
  g500 2 "$tmp/scaling/weak-2.json" 10 --roots 4
  g500 2 "$tmp/scaling/strong-2.json" 10 --roots 4
  plot trace "$tmp/scaling/weak-2.json"
else
  echo "no MPI: the trace figure is not tested"
fi
plot scaling "$tmp/scaling"
# The scaling table (bench/graph500/scaling_table.py) over the same files, with the one-rank run
# through the pipeline over ranks (scaling.sh's ranks-1) set against the one-process weak-1.
g500 1 "$tmp/scaling/ranks-1.json" 9 --roots 4 --one-rank-partition
"$py" "$src/bench/graph500/scaling_table.py" "$tmp/scaling" >"$tmp/scaling/table.out" || fail "scaling_table.py"
grep -q "^ranks-1 .*the one-process engines" "$tmp/scaling/table.out" || fail "scaling_table.py: no ranks-1 row"
grep -q "^graph500-mpi|weak-1: 1 GPU(s), SCALE 9" "$tmp/scaling/scaling.txt" || fail "scaling_table.py: no weak-1 row"

# A one-process CPU run's trace (its BFS levels) plots too.
plot trace "$tmp/scaling/weak-1.json"
# What the figures say, read from the figure objects: the hash plot's unit fits its rates (a CPU
# table's 0.004-0.012 billion/s reads in millions) and every line has its own colour or marker;
# a trace of more than 60 steps is drawn in at most 60 groups; the scaling axis names CPU ranks for
# CPU runs and its ticks are plain numbers.
"$py" - "$src/scripts/plot.py" "$tmp/hash.json" "$tmp/scaling" "$tmp/scaling/weak-1.json" <<'PY' || fail "figure contents"
import importlib.util, json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
spec = importlib.util.spec_from_file_location("plot", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
fig = plt.figure()
ax = fig.add_subplot(1, 1, 1)
plot.hash_rates(ax, sys.argv[2])
rates = [r[k] for r in json.load(open(sys.argv[2]))["rows"] for k in ("insert_gps", "find_hit_gps", "find_miss_gps")]
want = "billion" if max(rates) >= 1 else "million" if max(rates) >= 1e-3 else "thousand"
assert ax.get_ylabel().startswith(want), (ax.get_ylabel(), max(rates))
looks = [(l.get_color(), l.get_marker()) for l in ax.get_lines()]
assert len(set(looks)) == len(looks), looks
fig = plt.figure()
plot.scaling(fig, sys.argv[3])
a = fig.axes[0]
assert a.get_xlabel() == "MPI ranks (CPU backend)", a.get_xlabel()
fig.canvas.draw()
ticks = [t.get_text() for t in a.get_xticklabels() if t.get_text()]
assert ticks and all(t.isdigit() for t in ticks), ticks
# A long trace (300 SSSP phases made from a real run's levels) is grouped.
j = json.load(open(sys.argv[4]))
lv = j["trace"]["bfs"]
j["trace"]["sssp"] = [dict(lv[i % len(lv)], level=i) for i in range(300)]
json.dump(j, open(sys.argv[4] + ".long.json", "w"))
fig = plt.figure()
plot.trace(fig, sys.argv[4] + ".long.json")
bars = [p for p in fig.axes[1].patches]
assert 0 < len(bars) <= 60, len(bars)
PY
echo "ok: figure contents"
# Run by a python3 without matplotlib (a pyenv or venv one first on PATH), plot.py finds one with it.
for p in python3 $(compgen -c | grep -E '^python3(\.[0-9]+)?$' | sort -u) /usr/bin/python3; do
  if command -v "$p" >/dev/null && ! "$p" -c 'import matplotlib' 2>/dev/null && "$p" -c 'import sys; sys.exit(sys.version_info < (3, 6))' 2>/dev/null; then
    "$p" "$src/scripts/plot.py" hash "$tmp/hash.json" -o "$tmp/other.png" >/dev/null 2>"$tmp/err.txt" ||
      fail "plot.py under $p (no matplotlib there, $py has it): $(cat "$tmp/err.txt")"
    echo "ok: plot.py under $p, which lacks matplotlib"
    break
  fi
done
# Refusals: a hash table's --json file has no trace and no HPL iterations.
"$py" "$src/scripts/plot.py" trace "$tmp/hash.json" -o "$tmp/x.png" 2>/dev/null && fail "trace without a trace: accepted"
"$py" "$src/scripts/plot.py" balance "$tmp/hash.json" -o "$tmp/x.png" 2>/dev/null && fail "balance of a hash file: accepted"
[ -e "$tmp/x.png" ] && fail "a refused figure left a PNG"
echo "plot: ok"
