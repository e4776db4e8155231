#!/usr/bin/env bash
# The --json output of every command, from small real runs, against the schemas of docs/json.md
# (tests/smoke/json_schema.py): graph500 (with --energy on a powercap tree written here, and over
# 2 MPI ranks with the trace), bfs, sssp, hash static and mixed, hpl (--json and --timing),
# hpl-mxp, bellman-ford; with a GPU also graph500 on cuda (its trace) and the BFS ablation bench.
# The checker itself must reject a document with a missing key, an unknown key or a wrong type, or
# without the provenance object (docs/json.md) every document carries.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
doc=$src/docs/json.md
check() {  # schema file
  python3 "$src/tests/smoke/json_schema.py" "$doc" "$1" "$2" || fail "$2 does not match the schema '$1'"
  echo "ok: $1 ($(basename "$2"))"
}
run() {  # output-file args...: the command must succeed
  local f=$1; shift
  "$bin" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt" || fail "gpu500 $*: $(tail -3 "$tmp/err.txt")"
  [ -s "$f" ] || fail "gpu500 $*: no $f"
}
cd "$tmp" || exit 1

# The checker rejects what it should.
prov='"provenance": {"version": "0.1.0", "commit": "abc", "host": "h", "blas": "OpenBLAS", "cuda_architectures": "", "mpi": "none", "nccl": "none"}'
printf '{"graph": "g", "backend": "cpu", "kernel": "bfs", "directed": false, "construction_time": 1, "searches": [], "harmonic_mean_TEPS": 1, "valid": true, %s}\n' "$prov" >good.json
python3 "$src/tests/smoke/json_schema.py" "$doc" search good.json >/dev/null || fail "checker: a valid document rejected"
sed 's/"valid": true/"valid": true, "extra": 1/' good.json >extra.json
sed 's/"kernel": "bfs", //' good.json >missing.json
sed 's/"valid": true/"valid": "yes"/' good.json >type.json
sed 's/, "provenance": .*}$/}/' good.json >noprov.json
sed 's/"host": "h", //' good.json >prov_missing.json
for f in extra missing type noprov prov_missing; do
  ! python3 "$src/tests/smoke/json_schema.py" "$doc" search $f.json >/dev/null || fail "checker: accepted $f.json"
done

mkdir -p powercap/intel-rapl:0 && echo 0 >powercap/intel-rapl:0/energy_uj
GPU500_POWERCAP_ROOT=$tmp/powercap run g500.json graph500 9 --backend cpu --roots 2 --energy --json g500.json
check graph500 g500.json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert "energy" in j["bfs"] and "energy" in j["sssp"]' g500.json ||
  fail "graph500 --energy: no energy figures"
run g500b.json graph500 8 --backend cpu --kernels bfs --roots 2 --json g500b.json
check graph500 g500b.json
if command -v mpiexec >/dev/null && "$bin" info 2>/dev/null | grep -q "^mpi: yes"; then
  # One OpenMP thread per rank: ranks that poll while OpenMP teams run beside them crawl on a small host.
  OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpiexec --oversubscribe --bind-to none -n 2 \
    "$bin" graph500 9 --backend cpu --roots 2 --quiet --json mpi.json >/dev/null 2>&1 || fail "graph500 over 2 ranks"
  check graph500 mpi.json
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["trace"]["bfs"] and j["trace"]["sssp"]' mpi.json ||
    fail "graph500 over 2 ranks: no trace"
fi
printf '0 1 0.5\n1 2 0.25\n2 3 1\n3 0 2\n4 5 1\n' >w.txt
run bfs.json bfs --graph w.txt --roots 2 --backend cpu --json bfs.json
check search bfs.json
run sssp.json sssp --graph w.txt --roots 2 --backend cpu --json sssp.json
check search sssp.json
run hs.json hash static --backend cpu --keys 4096 --runs 1 --json hs.json
check hash-static hs.json
run hm.json hash mixed --backend cpu --ops 2000 --ranges 100,1000 --runs 1 --json hm.json
check hash-mixed hm.json
run hpl.json hpl -N 256 -NB 32 --backend cpu --quiet --json hpl.json --timing timing.json
check hpl hpl.json
check hpl timing.json
run mxp.json hpl-mxp -N 256 -NB 64 --backend cpu --quiet --json mxp.json
check hpl-mxp mxp.json
run bf.json bellman-ford --n 64 --backend cpu --json bf.json
check bellman-ford bf.json

if "$bin" info 2>/dev/null | grep -q '^cuda device 0:'; then
  run g500c.json graph500 14 --backend cuda --roots 4 --quiet --json g500c.json
  check graph500 g500c.json
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["trace"]["bfs"]' g500c.json || fail "cuda: no trace"
  bench=$(dirname "$bin")/gpu500_bfs_bench
  if [ -x "$bench" ]; then
    "$bench" --scale 12 --roots 4 --label full --json ablation.jsonl >/dev/null 2>&1 || fail "gpu500_bfs_bench"
    check bfs-ablation ablation.jsonl
  fi
else
  echo "no CUDA device: the cuda outputs are not checked"
fi
echo "json_schema: ok"
