#!/usr/bin/env bash
# Graph500 on the CPU backend at SCALE 18..22 (override: SCALES="18 20"), against the Graph500
# 3.0.1 reference measured on the same cores in the same run.
#
# The reference is not part of this repository: build it from a checkout with
# bench/graph500/reference.sh (its src/Makefile, with -fcommon for GCC >= 10) and point
# GRAPH500_REFERENCE at the graph500_reference_bfs_sssp it prints. Without it, only gpu500 is
# measured. REFERENCE_RANKS (default: the core count) MPI ranks run it.
# GPU500_RANKS=R runs gpu500 over R MPI ranks too (its distributed CPU pipeline, cores / R OpenMP
# threads each; the comparison "with the same ranks" sets both to R); unset, one process.
#
# Prints a table (harmonic-mean TEPS of BFS and SSSP, generation + kernel 1 time, ratios) and
# writes bench/out/graph500-cpu.json. Validation stays on for gpu500 (every tree checked); the
# reference runs with its own validation on as well, so both pay the same rules.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-build/bin/gpu500}
SCALES=${SCALES:-"18 19 20 21 22"}
OUTDIR=${OUTDIR:-bench/out}
REF=${GRAPH500_REFERENCE:-}
RANKS=${REFERENCE_RANKS:-$(nproc)}
mkdir -p "$OUTDIR"
[ -x "$BIN" ] || { echo "build first: $BIN not found" >&2; exit 1; }
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
echo "machine: $(nproc) cores, $cpu" >&2

rows=()
for s in $SCALES; do
  if [ -n "${GPU500_RANKS:-}" ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --bind-to none \
      -np "$GPU500_RANKS" -x OMP_NUM_THREADS=$(($(nproc) / GPU500_RANKS > 0 ? $(nproc) / GPU500_RANKS : 1)) \
      "$BIN" graph500 "$s" --backend cpu --quiet --json "$OUTDIR/gpu500-s$s.json" >"$OUTDIR/gpu500-s$s.txt"
  else
    "$BIN" graph500 "$s" --backend cpu --quiet --json "$OUTDIR/gpu500-s$s.json" >"$OUTDIR/gpu500-s$s.txt"
  fi
  if [ -n "$REF" ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      mpirun --oversubscribe --bind-to core -np "$RANKS" "$REF" "$s" >"$OUTDIR/ref-s$s.txt" 2>/dev/null
  fi
  rows+=("$s")
done

python3 - "$OUTDIR" "$REF" "$RANKS" "$(nproc)" "$cpu" "${rows[@]}" <<'PY'
import json, os, sys, re, datetime
outdir, ref, ranks, cores, cpu, *scales = sys.argv[1:]
def block(path):
    vals = {}
    for line in open(path):
        m = re.match(r"(.{32})(\S+)", line.rstrip("\n"))
        if m:
            vals[m.group(1).replace("!", "").strip().rstrip(":").strip()] = float(m.group(2))
    return vals
res = {"date": datetime.date.today().isoformat(), "cores": int(cores), "cpu": cpu,
       "reference_ranks": int(ranks) if ref else None, "scales": []}
print(f"{'SCALE':>5} {'BFS GTEPS':>10} {'ref':>8} {'x':>6} {'SSSP GTEPS':>11} {'ref':>8} {'x':>6} {'gen+k1 s':>9} {'ref':>8} {'x':>6}")
for s in scales:
    g = json.load(open(f"{outdir}/gpu500-s{s}.json"))
    row = {"scale": int(s), "valid": g["valid"],
           "bfs_teps": g["bfs"]["harmonic_mean_TEPS"], "sssp_teps": g["sssp"]["harmonic_mean_TEPS"],
           "gen_k1_s": g["graph_generation"] + g["construction_time"]}
    if ref:
        r = block(f"{outdir}/ref-s{s}.txt")
        row["ref_bfs_teps"] = r.get("bfs  harmonic_mean_TEPS")
        row["ref_sssp_teps"] = r.get("sssp harmonic_mean_TEPS")
        row["ref_gen_k1_s"] = r.get("graph_generation", 0) + r.get("construction_time", 0)
    res["scales"].append(row)
    f = lambda v: f"{v:.3f}" if v else "-"
    x = lambda a, b: f"{a / b:.1f}" if a and b else "-"
    print(f"{s:>5} {row['bfs_teps']/1e9:>10.3f} {f((row.get('ref_bfs_teps') or 0)/1e9):>8} "
          f"{x(row['bfs_teps'], row.get('ref_bfs_teps')):>6} {row['sssp_teps']/1e9:>11.3f} "
          f"{f((row.get('ref_sssp_teps') or 0)/1e9):>8} {x(row['sssp_teps'], row.get('ref_sssp_teps')):>6} "
          f"{row['gen_k1_s']:>9.3f} {f(row.get('ref_gen_k1_s')):>8} {x(row.get('ref_gen_k1_s'), row['gen_k1_s']):>6}")
json.dump(res, open(f"{outdir}/graph500-cpu.json", "w"), indent=2)
print(f"(gpu500 cpu backend vs Graph500 3.0.1 reference on {ranks if ref else '-'} MPI ranks; {cores} cores: {cpu})")
print("(gpu500 on " + (os.environ.get("GPU500_RANKS") + " MPI ranks)" if os.environ.get("GPU500_RANKS") else "one process)"))
PY
