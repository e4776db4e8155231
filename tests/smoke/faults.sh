#!/usr/bin/env bash
# Faults across MPI ranks (CPU backend): one rank fails and the whole run must end within seconds
# (asserted: under 20 s), with a non-zero exit and the reason on stderr, never leaving the other
# ranks waiting in a collective. The failures come from the test-only hook of gpu500/dist/comm.hpp
# (GPU500_TEST_FAIL_RANK / _AT / _KIND: bad input or an allocation failure on one rank, at the
# start, in the middle of the collectives, before an HPL test) and from kill -9 of one rank's
# process in the middle of a run; for graph500, hpl and hpl-mxp.
set -uo pipefail
bin=$1
src=$2
command -v mpiexec >/dev/null 2>&1 || { echo "faults smoke: no mpiexec, skipped"; exit 0; }
"$bin" info 2>/dev/null | grep -q '^mpi: yes' || { echo "faults smoke: built without MPI, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# OpenMPI's session directory of its own (tests/smoke/lib/mpi.sh says why).
export OMPI_MCA_orte_tmpdir_base=$tmp
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
mpi=(mpiexec --oversubscribe --bind-to none)
limit=20
fail=0

# expect_fault RANKS RANK POINT KIND EXIT PATTERN -- gpu500 arguments: the run ends within the
# limit, with exit code EXIT (or any non-zero one when EXIT is "*") and PATTERN on stderr.
expect_fault() {
  local n=$1 rank=$2 at=$3 kind=$4 want=$5 pattern=$6
  shift 7
  local start=$SECONDS
  GPU500_TEST_FAIL_RANK=$rank GPU500_TEST_FAIL_AT=$at GPU500_TEST_FAIL_KIND=$kind \
    timeout -k 5 $((limit + 10)) "${mpi[@]}" -x GPU500_TEST_FAIL_RANK -x GPU500_TEST_FAIL_AT -x GPU500_TEST_FAIL_KIND \
    -n "$n" "$bin" "$@" >out.txt 2>err.txt
  local rc=$? took=$((SECONDS - start))
  local what="-n $n, rank $rank fails ($kind) at $at: gpu500 $*"
  if [ "$rc" -eq 0 ]; then echo "$what: exit 0"; fail=1; return; fi
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || [ "$took" -ge "$limit" ]; then
    echo "$what: still running after $took s (exit $rc)"; fail=1; return
  fi
  if [ "$want" != "*" ] && [ "$rc" -ne "$want" ]; then echo "$what: exit $rc, expected $want"; cat err.txt; fail=1; fi
  grep -q -e "$pattern" err.txt || { echo "$what: stderr lacks '$pattern':"; cat err.txt; fail=1; }
  echo "ok ($took s, exit $rc): $what"
}

g500=(graph500 10 --backend cpu --quiet)
# Bad input on one rank only, before any collective, and later in the middle of the searches.
expect_fault 2 1 start usage 2 'test fault on rank 1 at start.*simulated bad input' -- "${g500[@]}"
expect_fault 3 2 collective:40 usage 2 'rank 2 at collective #40' -- "${g500[@]}"
# An allocation failure on one rank (exit 3, as a problem that does not fit).
expect_fault 4 3 collective:200 resource 3 'simulated allocation failure' -- "${g500[@]}"
expect_fault 2 0 start resource 3 'rank 0 at start' -- "${g500[@]}"

# The sample HPL.dat of the fuzz seeds (2 Ns x 2 NBs x 2 PFACTs x 2 DEPTHs) on a 2 x 2 grid.
sed -e 's/^1            Ps/2            Ps/' -e 's/^1            Qs/2            Qs/' \
  "$src/fuzz/corpus/hpl_dat/netlib_lists.dat" >HPL.dat
grep -q '^2            Qs' HPL.dat || { echo "faults smoke: no 2 x 2 HPL.dat"; exit 1; }
hpl=(hpl --backend cpu --quiet)
expect_fault 4 2 start usage 2 'rank 2 at start' -- "${hpl[@]}"
# The second test: rank 3 stops while the others are in the first collectives of its solve.
expect_fault 4 3 hpl-test:2 usage 2 'rank 3 at hpl-test #2' -- "${hpl[@]}"
expect_fault 2 1 hpl-test resource 3 'simulated allocation failure' -- hpl -N 300 -NB 16 -P 1 -Q 2 --backend cpu --quiet
# Without the hook's variables nothing fails (the hook is off by default).
"${mpi[@]}" -n 4 "$bin" "${hpl[@]}" >out.txt 2>err.txt || { echo "HPL.dat on 2 x 2 without a fault: exit $?"; cat err.txt; fail=1; }
[ "$(grep -c 'PASSED$' out.txt)" -eq 16 ] || { echo "HPL.dat on 2 x 2: expected 16 PASSED"; cat out.txt; fail=1; }

# HPL-MxP on a 2 x 2 and a 1 x 2 grid: bad input and an allocation failure on one rank.
mxp=(hpl-mxp -N 600 -NB 64 -P 2 -Q 2 --backend cpu --quiet)
expect_fault 4 3 start usage 2 'rank 3 at start' -- "${mxp[@]}"
expect_fault 2 1 start resource 3 'simulated allocation failure' -- hpl-mxp -N 600 -NB 64 -P 1 -Q 2 --backend cpu --quiet

# kill -9 of one rank's process in the middle of a run: the run ends within the limit.
# expect_killed N RANK -- gpu500 arguments (a run of several seconds).
expect_killed() {
  local n=$1 rank=$2
  shift 3
  # A tag in the ranks' environment tells this run's processes from those of other tests.
  local tag="faults-$$-$RANDOM"
  GPU500_FAULTS_TAG=$tag "${mpi[@]}" -x GPU500_FAULTS_TAG -n "$n" "$bin" "$@" >out.txt 2>err.txt &
  local launcher=$! victim="" start=$SECONDS env
  # The victim: the process of that rank (Open MPI and MPICH put the rank in its environment).
  while [ -z "$victim" ] && [ $((SECONDS - start)) -lt 10 ]; do
    sleep 0.5
    for p in $(pgrep -f "$bin" 2>/dev/null); do
      [ "$p" = "$launcher" ] && continue
      env=$({ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null)
      if grep -qx "GPU500_FAULTS_TAG=$tag" <<<"$env" && grep -qE "^(OMPI_COMM_WORLD_RANK|PMI_RANK)=$rank\$" <<<"$env"; then
        victim=$p
      fi
    done
  done
  local what="-n $n, rank $rank killed: gpu500 $*"
  if [ -z "$victim" ]; then echo "$what: no process of rank $rank found"; kill "$launcher"; wait "$launcher"; fail=1; return; fi
  sleep 1  # well into the run
  kill -9 "$victim"
  local killed=$SECONDS
  while kill -0 "$launcher" 2>/dev/null && [ $((SECONDS - killed)) -lt "$limit" ]; do sleep 0.5; done
  if kill -0 "$launcher" 2>/dev/null; then
    echo "$what: still running $limit s after the kill"; kill -9 "$launcher"; wait "$launcher"; fail=1; return
  fi
  wait "$launcher"
  local rc=$?
  [ "$rc" -ne 0 ] || { echo "$what: exit 0"; fail=1; return; }
  grep -qiE 'signal 9|killed|exited|abort' err.txt || { echo "$what: stderr gives no reason:"; cat err.txt; fail=1; }
  echo "ok ($((SECONDS - killed)) s after the kill, exit $rc): $what"
}
expect_killed 2 1 -- graph500 17 --backend cpu --quiet
expect_killed 4 0 -- hpl -N 10000 -NB 128 -P 2 -Q 2 --backend cpu --quiet
expect_killed 4 2 -- hpl-mxp -N 16000 -NB 128 -P 2 -Q 2 --backend cpu --quiet

[ "$fail" -eq 0 ] || exit 1
echo "faults smoke: ok"
