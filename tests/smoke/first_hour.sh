#!/usr/bin/env bash
# What a new user meets first: `--help` costs little memory (no device starts for it);
# each search command's --help lists only the flags it accepts; a Graph500 run whose output is
# piped still names its backend (on stderr: the stdout key block is the reference's); a search
# from a root with no edges says why it counts 0 TEPS; `hash static` on the CPU prints only what
# it measured, says what "no room" means and shows progress on stderr at once.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# --help: the peak resident memory of the whole process (its children's, as the shell sees them).
# A CUDA build links cuBLAS, cuBLASLt and cuSOLVER (hpl, hpl-mxp), whose ~530,000 relocations
# dirty about 190 MB at every start, --help included, until they are loaded only when used: there
# the figure is printed, not held to the bound.
limit=65536
if "$bin" info 2>/dev/null | grep -q '^cuda architectures:'; then limit=0; fi
for args in "--help" "graph500 --help" "bfs --help" "hpl --help" "hash static --help"; do
  # shellcheck disable=SC2086
  kb=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$bin" $args) || fail "gpu500 $args"
  if [ "$limit" = 0 ]; then echo "gpu500 $args: $kb kB resident at the peak (CUDA build: not checked)"; continue; fi
  [ "$kb" -lt "$limit" ] || fail "gpu500 $args peaked at $kb kB resident (want < 64 MiB)"
done
[ "$limit" = 0 ] || echo "ok: --help under 64 MiB"

# Each search command's --help lists its own kernel's engine flags, not the other's, and refuses them.
bh=$("$bin" bfs --help) sh=$("$bin" sssp --help)
grep -q -- '--bfs-alpha' <<<"$bh" || fail "bfs --help lacks --bfs-alpha"
! grep -q -- '--sssp' <<<"$bh" || fail "bfs --help lists SSSP flags: $(grep -- --sssp <<<"$bh" | head -2)"
grep -q -- '--sssp-delta' <<<"$sh" || fail "sssp --help lacks --sssp-delta"
! grep -qE -- '--bfs-|--no-direction-optimizing' <<<"$sh" || fail "sssp --help lists BFS flags"
grep -q -- '--vertex-bits' <<<"$sh" || fail "sssp --help lacks the graph's --vertex-bits"
printf '1 2\n2 3\n3 1\n' >"$tmp/one.txt"  # a triangle numbered from 1, as SNAP files often are
"$bin" bfs --graph "$tmp/one.txt" --sssp-delta 1 >/dev/null 2>&1 && fail "bfs accepted --sssp-delta"
echo "ok: search flags"

# A 1-based file searched from vertex 0: the root is isolated, and the line says so.
err=$("$bin" bfs --graph "$tmp/one.txt" --root 0 --backend cpu 2>&1 >/dev/null) || fail "bfs --root 0: exit $?"
grep -q 'root 0 has no edges' <<<"$err" || fail "no word of the isolated root: $err"
grep -q 'numbered from 1' <<<"$err" || fail "no hint of 1-based numbering: $err"
err=$("$bin" bfs --graph "$tmp/one.txt" --root 1 --backend cpu 2>&1 >/dev/null) || fail "bfs --root 1"
! grep -q 'has no edges' <<<"$err" || fail "root 1 has edges: $err"
echo "ok: isolated root"

# Graph500 with stdout piped: the backend is named.
"$bin" graph500 8 --backend cpu --roots 2 >"$tmp/g.out" 2>"$tmp/g.err" || fail "graph500 8"
grep -q '^graph500: SCALE 8, edgefactor 16, cpu' "$tmp/g.err" || fail "a piped run does not name its backend: $(cat "$tmp/g.err")"
"$bin" graph500 8 --backend cpu --roots 2 --quiet >/dev/null 2>"$tmp/q.err" || fail "graph500 --quiet"
[ ! -s "$tmp/q.err" ] || fail "--quiet wrote to stderr: $(cat "$tmp/q.err")"
echo "ok: graph500 names its backend"

# hash static on the CPU: measured columns only, "no room" explained, progress on stderr.
"$bin" hash static --backend cpu --keys 20000 --lf 0.5,0.97 --runs 1 >"$tmp/h.out" 2>"$tmp/h.err" || fail "hash static"
head -3 "$tmp/h.out" | grep -q 'insert G/s' || fail "no table header: $(cat "$tmp/h.out")"
! grep -qE 'again|%bw' "$tmp/h.out" || fail "the CPU run shows columns it did not measure: $(head -3 "$tmp/h.out")"
if awk '$1 == "cpu" && $(NF-1) > 0 { f = 1 } END { exit !f }' "$tmp/h.out"; then
  grep -q '^no room: keys an insert could not place' "$tmp/h.out" || fail "'no room' unexplained: $(cat "$tmp/h.out")"
fi
grep -q '^hash static: cpu at load factor 0.50 (case 1 of 2)' "$tmp/h.err" || fail "no progress line: $(cat "$tmp/h.err")"
echo "first_hour: ok"
