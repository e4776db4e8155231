#!/usr/bin/env bash
# The GLHT paper's experiments, full sweep: static (2^26 keys, LF 0.5/0.8/0.9/0.95) and mixed (the
# paper's 100,000-operation runs over key ranges 100..100,000, then 2^24..2^26 operations), every
# named table, JSON into OUTDIR. Usage: bench/hash/sweep.sh [GPU500_BINARY] [OUTDIR] [extra options...]
# With no GPU, pass --backend cpu (the CPU hopscotch table alone, 2^22 keys by default). The design
# experiments (GLHT variants with suffixes) run with the bench target hash_variants.
set -euo pipefail
bin=${1:-build/bin/gpu500}
out=${2:-hash-results}
shift $(( $# < 2 ? $# : 2 ))
mkdir -p "$out"
full=(--full)  # every named table and the CPU table; on the cpu backend, the CPU table alone
for a in "$@"; do [ "$a" = cpu ] && full=(--lf 0.5,0.8,0.9,0.95); done
"$bin" hash static "${full[@]}" --json "$out/hash-static.json" "$@" | tee "$out/hash-static.txt"
"$bin" hash mixed --json "$out/hash-mixed.json" "$@" | tee "$out/hash-mixed.txt"
