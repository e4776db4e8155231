#!/usr/bin/env bash
# The output file rule (docs/reliability.md, "Output files") through the real program: a device
# node, a FIFO and a symbolic link as outputs are written through (device, FIFO) or followed (the
# link kept); a 0600 file keeps its mode; a directory or a socket is refused with exit 2; an
# output that is an input or another output is refused before any work (exit 2, one line, empty
# stdout).
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/smoke/lib/refused.sh
source "$(dirname "$0")/lib/refused.sh"
cd "$tmp"
printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 10\n10 11\n' >k.txt

# A character device: written through, still a device afterwards.
if mknod null c 1 3 2>/dev/null; then
  "$bin" generate 4 null >/dev/null || bad "generate to a device node failed"
  [ -c null ] || bad "generate turned the device node into $(stat -c %F null)"
  "$bin" bfs --graph k.txt --root 0 --json null --output null >/dev/null 2>&1 || bad "bfs --json/--output to a device node failed"
  [ -c null ] || bad "bfs turned the device node into $(stat -c %F null)"
else
  echo "mknod not permitted here: the device node case is skipped"
fi

# A FIFO, read by a background cat.
mkfifo fifo
timeout 20 cat fifo >from_fifo &  # a writer that replaced the FIFO would leave cat waiting
reader=$!
"$bin" generate 4 fifo >/dev/null || bad "generate to a FIFO failed"
wait "$reader" || bad "nothing was written through the FIFO"
[ -p fifo ] || bad "the FIFO is now $(stat -c %F fifo)"
grep -q '^# gpu500 edge list: 16 vertices' from_fifo || bad "the FIFO's reader got: $(head -c 200 from_fifo)"

# A symbolic link: followed, its target replaced, the link kept; a dangling link creates it.
echo old >target.txt
ln -s target.txt link.txt
"$bin" generate 4 link.txt >/dev/null
[ -L link.txt ] || bad "the symbolic link was replaced by a $(stat -c %F link.txt)"
grep -q '^# gpu500 edge list' target.txt || bad "the link's target was not written"
ln -s later.json dangling.json
"$bin" bfs --graph k.txt --root 0 --json dangling.json >/dev/null 2>&1
[ -L dangling.json ] && [ -s later.json ] || bad "a dangling link's target was not created through the link"

# hpl --tune's HPL.dat through a link to a 0600 file: the link and the mode kept.
echo old >tuned.dat
chmod 600 tuned.dat
ln -s tuned.dat tuned_link.dat
"$bin" hpl --tune -N 300 --backend cpu --quiet --tune-output tuned_link.dat >/dev/null 2>&1 || bad "hpl --tune failed"
[ -L tuned_link.dat ] || bad "--tune-output replaced its link by a $(stat -c %F tuned_link.dat)"
grep -q '^HPLinpack benchmark input file' tuned.dat || bad "--tune-output: the link's target was not written"
[ "$(stat -c %a tuned.dat)" = 600 ] || bad "--tune-output: a 0600 file became $(stat -c %a tuned.dat)"

# A 0600 file keeps its mode (JSON and graph writers).
echo old >private.json
chmod 600 private.json
"$bin" bfs --graph k.txt --root 0 --json private.json >/dev/null 2>&1
[ "$(stat -c %a private.json)" = 600 ] || bad "--json: a 0600 file became $(stat -c %a private.json)"
cp k.txt private.txt
chmod 600 private.txt
"$bin" convert k.txt private.txt >/dev/null
[ "$(stat -c %a private.txt)" = 600 ] || bad "convert: a 0600 file became $(stat -c %a private.txt)"
ls ./*.tmp* >/dev/null 2>&1 && bad "temporary files left: $(ls ./*.tmp*)"

# Refused: exit 2, one line, nothing on stdout (and nothing written).
python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('sock')"
mkdir dir
refused "is a socket" "$bin" generate 4 sock
refused "is a socket" "$bin" bfs --graph k.txt --json sock
refused "is a directory" "$bin" generate 4 dir
cp k.txt same.txt
ln -s same.txt same_link.txt
refused "--graph and --json are the same file" "$bin" bfs --graph same.txt --json same.txt
refused "--graph and --output are the same file" "$bin" sssp --graph same.txt --output same_link.txt
refused "--json and --output are the same file" "$bin" bfs --graph k.txt --json x.json --output x.json
refused "IN and OUT are the same file" "$bin" convert same.txt same.txt
refused "IN and OUT are the same file" "$bin" convert same_link.txt same.txt
cmp -s k.txt same.txt || bad "a refused command changed its input"
[ ! -e x.json ] || bad "a refused command wrote x.json"

exit $fail
