#!/usr/bin/env bash
# Bad input is refused before any work: each case of the table below must end with exit code 2
# (bad input) or 3 (does not fit), exactly one line on stderr and nothing on stdout.
# Table rows: EXIT | a pattern the stderr line must contain | the gpu500 arguments ($tmp: a
# scratch directory holding the bad files made below).
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
printf '0 1\n1 2\n' >ok.txt
printf '0 1\n\0\0 2 3\n' >nul.txt
printf '\037\213\010\000\001\377\n0 1\n' >gz.txt
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 4 0.5\n' >mm.txt
printf '%%%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 2 0.5 1\n' >cx.mtx
printf 'GPU500G\001\001\000' >short.bin
printf '0 1\n1 4611686018427387904\n' >huge_id.txt
printf '0 1\n1 1099511627775\n' >big_graph.txt
printf '0 1 1e-320\n1 2 0.5\n' >subnormal.txt
printf '0 0\n1 1\n2 2\n' >loops.txt
printf '0 0 0.5\n1 1 0.5\n' >loops_w.txt
printf '0 1 3.4e38\n1 2 3.4e38\n' >overflow.txt
# A binary CSR header with n = 2 and m = -1 (little-endian), no more bytes.
printf 'GPU500G\001\001\000\000\000\000\000\000\000\002\000\000\000\000\000\000\000\377\377\377\377\377\377\377\377' >bad_m.bin
mkdir hpl_dir

fail=0
while IFS='|' read -r want pattern args; do
  [ -z "$want" ] && continue
  want=$(echo $want)
  pattern=$(echo "$pattern" | sed 's/^ *//; s/ *$//')
  read -r -a argv <<<"$args"
  out=$("$bin" "${argv[@]}" 2>err.txt)
  rc=$?
  err=$(cat err.txt)
  if [ "$rc" -ne "$want" ]; then
    echo "gpu500 $args: exit $rc, expected $want ($err)"; fail=1; continue
  fi
  if [ -n "$out" ]; then echo "gpu500 $args: stdout not empty: $out"; fail=1; fi
  if [ "$(wc -l <err.txt)" -ne 1 ]; then echo "gpu500 $args: expected one stderr line, got: $err"; fail=1; fi
  if ! grep -q -F -e "$pattern" <<<"$err"; then echo "gpu500 $args: message '$err' lacks '$pattern'"; fail=1; fi
done <<'TABLE'
2 | --roots 100000 exceeds the 2^SCALE = 256 vertices | graph500 8 --roots 100000
2 | vertices with an edge                            | graph500 8 --roots 256 --quiet --backend cpu
2 | --root must be a vertex id >= 0                  | bfs --graph ok.txt --root -1
2 | --root must be a vertex id >= 0                  | sssp --graph subnormal.txt --root -1
2 | --vertices must be in 1..2^48                    | bfs --graph ok.txt --vertices -5
2 | --vertices must be in 1..2^48                    | sssp --graph subnormal.txt --vertices 0
2 | --root 3 is not a vertex (the graph has 3)       | bfs --graph ok.txt --root 3
2 | --root 7 is not a vertex (--vertices 5)          | sssp --graph subnormal.txt --vertices 5 --root 7
2 | nul.txt:2: contains a NUL byte                   | bfs --graph nul.txt
2 | gz.txt: corrupt or truncated gzip stream         | bfs --graph gz.txt
2 | mm.txt:3: entry outside the size line's 1..3     | sssp --graph mm.txt
2 | cx.mtx:1: complex Matrix Market files are not read | bfs --graph cx.mtx
2 | short.bin: too short for a gpu500 binary graph   | bfs --graph short.bin
2 | huge_id.txt:2: vertex id out of range [0, 2^48)  | bfs --graph huge_id.txt
3 | graph of 1099511627776 vertices                  | bfs --graph big_graph.txt
3 | the graph of 1099511627776 vertices needs        | bfs --graph ok.txt --vertices 1099511627776
2 | no edge joins two distinct vertices (3 self-loops) | bfs --graph loops.txt
2 | no edge joins two distinct vertices (2 self-loops) | sssp --graph loops_w.txt
2 | past the largest float distance                  | sssp --graph overflow.txt
2 | --bfs-threads must be in 0..                     | bfs --graph ok.txt --bfs-threads 65536
2 | --sssp-threads must be in 0..                    | sssp --graph subnormal.txt --sssp-threads 20000
2 | hpl: -N must be >= 0, got -5                     | hpl -N -5
2 | hpl: -N must be >= 0, got -1                     | hpl -N -1
2 | hpl: -NB must be >= 1, got -3                    | hpl -N 100 -NB -3
2 | hpl: -P must be >= 1, got -1                     | hpl -N 100 -P -1
2 | hpl: -Q must be >= 1, got 0                      | hpl -Q 0
3 | hpl: N = 1000000000 on a 1 x 1 grid needs at least | hpl -N 1000000000 --quiet
2 | group size M must be a power of two              | bellman-ford --group 0
2 | --source must lie in [0, N) for every --n        | bellman-ford --n 64 --source 64
2 | bad_m.bin: binary graph header with m = -1 edges (m must be in 0..2^56) | bfs --graph bad_m.bin
2 | HPL input file 'hpl_dir' is a directory          | hpl -i hpl_dir
2 | hash: name the benchmark                          | hash
2 | hash: name the benchmark                          | hash --keys 100
2 | initiator: A + B + C = 1.5 must be at most 1      | generate 4 g.txt --initiator 0.5,0.5,0.5
2 | -N 1: the reference's matrix is singular below N = 4 | hpl-mxp -N 1 --backend cpu
2 | -N 3: the reference's matrix is singular below N = 4 | hpl-mxp -N 3 --backend cpu
TABLE
# An unknown command: its name escaped on one line, a hint on a second, nothing on stdout.
out=$("$bin" $'bo\x1bgus\nx' 2>err.txt)
rc=$?
[ "$rc" -eq 2 ] && [ -z "$out" ] || { echo "unknown command: exit $rc, stdout '$out'"; fail=1; }
[ "$(wc -l <err.txt)" -eq 2 ] || { echo "unknown command: want 2 stderr lines, got: $(cat -v err.txt)"; fail=1; }
grep -q -F "gpu500: error: unknown command 'bo\x1bgus\nx'" err.txt || { echo "unknown command: $(cat -v err.txt)"; fail=1; }
grep -q -F "run 'gpu500 --help'" err.txt || { echo "unknown command: no hint: $(cat -v err.txt)"; fail=1; }
# A subnormal weight is a weight like any other.
"$bin" sssp --graph subnormal.txt --root 0 >out.txt 2>err.txt || { echo "sssp on a subnormal weight: exit $?"; cat err.txt; fail=1; }
# HPL.dat codes that netlib HPL maps to a default are run as netlib does, each said in one stderr
# line naming its line; under two MPI ranks (every rank parses the file) still once.
cat >HPL.dat <<'DAT'
HPLinpack benchmark input file
fallbacks
HPL.out      output file name (if any)
6            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
64           Ns
1            # of NBs
16           NBs
3            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
1            Qs
16.0         threshold
1            # of panel fact
9            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
7            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
99           BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
9            SWAP (0=bin-exch,1=long,2=mix)
-5           swapping threshold
2            L1 in (0=transposed,1=no-transposed) form
2            U  in (0=transposed,1=no-transposed) form
5            Equilibration (0=no,1=yes)
0            memory alignment in double (> 0)
DAT
want_lines='HPL.dat line 9: PMAP 3 is not 0 or 1; using 0 (row-major), as netlib HPL does
HPL.dat line 15: PFACT 9 is not 0..2; using 2 (Right), as netlib HPL does
HPL.dat line 21: RFACT 7 is not 0..2; using 2 (Right), as netlib HPL does
HPL.dat line 23: BCAST 99 is not 0..5; using 1 (1ringM), as netlib HPL does
HPL.dat line 26: SWAP 9 is not 0..2; using 1 (long), as netlib HPL does
HPL.dat line 27: swapping threshold -5 is not >= 0; using 0, as netlib HPL does
HPL.dat line 28: L1 2 is not 0 or 1; using 0 (transposed), as netlib HPL does
HPL.dat line 29: U 2 is not 0 or 1; using 0 (transposed), as netlib HPL does
HPL.dat line 30: EQUIL 5 is not 0 or 1; using 1 (yes), as netlib HPL does
HPL.dat line 31: ALIGN 0 is not > 0; using 4, as netlib HPL does'
check_fallbacks() {  # check_fallbacks LAUNCHER...: the run passes, the warnings come once each
  if ! "$@" "$bin" hpl --backend cpu --quiet >out.txt 2>err.txt; then
    echo "HPL.dat fallbacks ($*): exit $?"; cat err.txt; fail=1; return
  fi
  grep -q '^WR11R2R4 .*' out.txt && grep -q 'PASSED$' out.txt || { echo "HPL.dat fallbacks ($*): no passing WR11R2R4 test"; cat out.txt; fail=1; }
  got=$(grep 'as netlib HPL does' err.txt | sed 's/^hpl: //')
  [ "$got" = "$want_lines" ] || { echo "HPL.dat fallbacks ($*): stderr:"; cat err.txt; fail=1; }
}
check_fallbacks
if command -v mpiexec >/dev/null 2>&1 && "$bin" info 2>/dev/null | grep -q '^mpi: yes'; then
  check_fallbacks mpiexec --oversubscribe --bind-to none -n 2
fi
rm -f HPL.dat
[ "$fail" -eq 0 ] || exit 1
echo "bad input smoke: ok"
