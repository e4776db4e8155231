#!/usr/bin/env bash
# scripts/table_rows.py turns a benchmark's JSON into docs/results.md rows: from a real `gpu500 hpl
# --json` run (its N, NB, grid, TFLOP/s and PASSED, the goal's verdict), from a graph500-cpu.json
# of the layout bench/graph500/cpu.sh writes (ratios and verdicts computed, not copied; a file
# without the reference's figures is refused), and from two real `gpu500 graph500 --json` runs
# compared (the second's ratio to the first, validated or not), and the no-flag rows of real
# `gpu500 graph500`, `hpl` and `hpl-mxp` runs (the goal named only for a card that has one).
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
rows="$src/scripts/table_rows.py"

"$bin" hpl -N 301 -NB 32 --backend cpu --json "$tmp/h.json" >/dev/null 2>&1 || fail "gpu500 hpl"
row=$(python3 "$rows" hpl hpl-x "a run" "$tmp/h.json" 1e9) || fail "hpl rows"
echo "$row"
[[ $row =~ ^hpl-x\|a\ run:\ N=301\ NB=32\ P\ x\ Q=1\ x\ 1\|[0-9]+\.[0-9]{2}\ TFLOP/s\ PASSED\;\ goal\ \>=\ 1e\+09\ TFLOP/s:\ not\ met$ ]] ||
  fail "hpl row: $row"

cat >"$tmp/c.json" <<'JSON'
{"scales": [{"scale": 22, "valid": true, "bfs_teps": 2.878e9, "sssp_teps": 1.8e8, "gen_k1_s": 1.0,
             "ref_bfs_teps": 2.0e8, "ref_sssp_teps": 9.0e7, "ref_gen_k1_s": 7.0}]}
JSON
row=$(python3 "$rows" cpu-vs-reference "$tmp/c.json" 16) || fail "cpu rows"
echo "$row"
want="graph500-cpu-ranks|SCALE 22, 16 MPI ranks each: gpu500 CPU backend / Graph500 3.0.1 reference|BFS 2.878 / 0.200 GTEPS x14.4 (goal 10: met); SSSP 0.180 / 0.090 GTEPS x2.0 (goal 5: not met); generation + kernel 1 1.000 / 7.000 s, x7.0 faster"
[ "$row" = "$want" ] || fail "cpu row: $row"

echo '{"scales": [{"scale": 20, "valid": true, "bfs_teps": 1e9, "sssp_teps": 1e8, "gen_k1_s": 1.0}]}' >"$tmp/n.json"
python3 "$rows" cpu-vs-reference "$tmp/n.json" 16 >/dev/null 2>&1 && fail "a file without reference figures was accepted"
"$bin" graph500 9 --backend cpu --roots 2 --quiet --json "$tmp/g1.json" >/dev/null 2>&1 || fail "gpu500 graph500"
"$bin" graph500 9 --backend cpu --roots 2 --quiet --skip-bfs --no-validate --json "$tmp/g2.json" >/dev/null 2>&1 ||
  fail "gpu500 graph500 --skip-bfs"
out=$(python3 "$rows" graph500-compare g5 "base=$tmp/g1.json" "sssp only=$tmp/g2.json") || fail "graph500-compare rows"
echo "$out"
[[ $(sed -n 1p <<<"$out") =~ ^g5\|base:\ 1\ rank\(s\),\ SCALE\ 9,\ 2\ roots\|SSSP\ [0-9.]+\ GTEPS,\ searches\ [0-9.]+\ /\ [0-9.]+\ ms\;\ BFS\ [0-9.]+\ GTEPS,.*\;\ valid\ True$ ]] ||
  fail "first compare row: $out"
[[ $(sed -n 2p <<<"$out") =~ ^g5\|sssp\ only:.*\|SSSP\ [0-9.]+\ GTEPS\ \(x[0-9]+\.[0-9]{2}\),\ searches.*\;\ not\ validated\ \(--no-validate\)$ ]] ||
  fail "second compare row: $out"
[ "$(wc -l <<<"$out")" -eq 2 ] || fail "two runs, two rows: $out"
python3 "$rows" graph500-compare g5 "$tmp/g1.json" >/dev/null 2>&1 && fail "a run without a label was accepted"
"$bin" hpl-mxp -N 300 -NB 32 --backend cpu --json "$tmp/m.json" >/dev/null 2>&1 || fail "gpu500 hpl-mxp"
row=$(python3 "$rows" defaults hpl-mxp "NVIDIA H200" "$tmp/m.json") || fail "hpl-mxp defaults row"
echo "$row"
[[ $row =~ ^hpl-mxp-defaults\|gpu500\ hpl-mxp\ --backend\ cpu\ \(no\ other\ flag:\ N=300\ NB=32\ P\ x\ Q=1\ x\ 1\ [a-z0-9]+\),\ NVIDIA\ H200\|[0-9]+\.[0-9]{2}\ TFLOP/s\ PASSED\;\ goal\ \>=\ 395\ TFLOP/s:\ not\ met$ ]] ||
  fail "hpl-mxp defaults row: $row"
row=$(python3 "$rows" defaults hpl "a card of no goal" "$tmp/h.json") || fail "hpl defaults row"
[[ $row =~ \|[0-9]+\.[0-9]{2}\ TFLOP/s\ PASSED$ ]] || fail "a card without a goal got one: $row"
row=$(python3 "$rows" defaults graph500 "NVIDIA H100 80GB HBM3" "$tmp/g1.json") || fail "graph500 defaults row"
echo "$row"
[[ $row =~ ^graph500-defaults\|gpu500\ graph500\ 9\ --backend\ cpu\ \(no\ other\ flag\),\ NVIDIA\ H100\ 80GB\ HBM3\|BFS\ [0-9.]+\ GTEPS,\ SSSP\ [0-9.]+\ GTEPS\;\ every\ search\ validated\; ]] ||
  fail "graph500 defaults row (SCALE 9: no goal): $row"
grep -q "NOT VALID" <<<"$(python3 "$rows" defaults graph500 "NVIDIA H200" "$tmp/g2.json")" ||
  fail "an unvalidated run passed as validated"
python3 "$rows" defaults hpl-nope "NVIDIA H200" "$tmp/h.json" >/dev/null 2>&1 && fail "an unknown program was accepted"
echo "table_rows: ok"
