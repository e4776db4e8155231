#!/usr/bin/env bash
# BFS and SSSP on graphs of several shapes, each backend of this build beside the textbook serial
# BFS (bench/graph/serial_bfs.cpp) in the same run: the high-diameter shapes of road networks and
# meshes (a 2-D grid, a 3-D grid, a random geometric graph, a long path), made by
# `gpu500 generate --shape`, and a Kronecker graph for contrast. Every search is validated.
#
#   bash bench/graph/shapes.sh GPU500 SERIAL_BFS OUT [TABLE]
#
# Writes OUT/shapes-SHAPE-KERNEL-BACKEND.json and prints (or appends to TABLE) rows
# "shapes|SHAPE KERNEL|figures" with GTEPS per backend, the ratios GPU / CPU and CPU / serial, and
# the backend `--backend auto` takes for that graph (one search), marked when it is the slower one.
# Each backend's figure is the better of SHAPES_RUNS runs (the same roots each time): the 16-core
# host's CPU figure moved by up to 30 % between single runs, and a ratio should not ride on that.
# Environment: SHAPES (default below), SHAPES_BFS_ROOTS (8), SHAPES_SSSP_ROOTS (4), SHAPES_RUNS (2),
# SHAPES_KRONECKER_SCALE (20; 0 leaves it out).
set -euo pipefail
gpu500=$1 serial=$2 out=$3 table=${4:-/dev/stdout}
mkdir -p "$out"
shapes=${SHAPES:-"grid:1024x1024 grid:100x100x100 geometric:1000000 grid:100000"}
bfs_roots=${SHAPES_BFS_ROOTS:-8}
sssp_roots=${SHAPES_SSSP_ROOTS:-4}
scale=${SHAPES_KRONECKER_SCALE:-20}
runs=${SHAPES_RUNS:-2}
backends="cpu"
"$gpu500" info 2>/dev/null | grep -q "^cuda device [0-9]" && backends="cuda cpu"

graphs=()
for s in $shapes; do
  f="$out/${s//[:x]/_}.bin"
  [ -s "$f" ] || "$gpu500" generate --shape "$s" "$f" >/dev/null
  graphs+=("$s=$f")
done
if [ "$scale" -gt 0 ]; then
  f="$out/kronecker_$scale.bin"
  [ -s "$f" ] || "$gpu500" generate "$scale" "$f" >/dev/null
  graphs+=("kronecker:$scale=$f")
fi

teps() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["valid"], "INVALID"; print(j["harmonic_mean_TEPS"])' "$1"; }
roots_of() { python3 -c 'import json,sys; print(" ".join(str(s["root"]) for s in json.load(open(sys.argv[1]))["searches"]))' "$1"; }

for entry in "${graphs[@]}"; do
  name=${entry%%=*} file=${entry#*=}
  for kernel in bfs sssp; do
    roots=$bfs_roots
    [ "$kernel" = sssp ] && roots=$sssp_roots
    declare -A rate=()
    for b in $backends; do
      rate[$b]=0
      for ((run = 1; run <= runs; ++run)); do  # the better run's record is kept as .json
        j="$out/shapes-${name//[:x]/_}-$kernel-$b.json"
        "$gpu500" "$kernel" --graph "$file" --backend "$b" --roots "$roots" --json "$j.run" >"$j.run.txt" 2>&1
        t=$(teps "$j.run")
        if awk -v t="$t" -v r="${rate[$b]}" 'BEGIN { exit !(t > r) }'; then
          rate[$b]=$t
          mv "$j.run" "$j"
          mv "$j.run.txt" "${j%.json}.txt"
        else
          rm "$j.run" "$j.run.txt"
        fi
      done
    done
    row="$name $kernel|"
    for b in $backends; do row+="$b $(awk -v t="${rate[$b]}" 'BEGIN { printf "%.4f", t / 1e9 }') GTEPS, "; done
    if [ -n "${rate[cuda]:-}" ]; then
      row+="cuda/cpu $(awk -v g="${rate[cuda]}" -v c="${rate[cpu]}" 'BEGIN { printf "%.2f", g / c }')x, "
      j="$out/shapes-${name//[:x]/_}-$kernel-auto.json"
      "$gpu500" "$kernel" --graph "$file" --backend auto --roots 1 --json "$j" >"${j%.json}.txt" 2>&1
      auto=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["backend"].split(",")[0])' "$j")
      other=cpu
      [ "$auto" = cpu ] && other=cuda
      verdict=$(awk -v a="${rate[$auto]}" -v o="${rate[$other]}" 'BEGIN { print (a >= o ? "the faster" : "THE SLOWER") }')
      row+="auto takes $auto ($verdict)"
    fi
    if [ "$kernel" = bfs ]; then
      first_cpu="$out/shapes-${name//[:x]/_}-bfs-cpu.json"
      # shellcheck disable=SC2046
      s=$("$serial" "$file" $(roots_of "$first_cpu") | awk '/harmonic_mean_TEPS/ { print $2 }')
      row+="${rate[cuda]:+, }serial $(awk -v t="$s" 'BEGIN { printf "%.4f", t / 1e9 }') GTEPS, cpu/serial $(awk -v c="${rate[cpu]}" -v s="$s" 'BEGIN { printf "%.2f", c / s }')x"
    fi
    echo "shapes|${row%, }" >>"$table"
    unset rate
  done
done
