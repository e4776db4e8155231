# shellcheck shell=bash
# Sourced by the smoke tests that run gpu500 under mpiexec, after they set `bin` (this directory
# holds no test: CMake takes only tests/smoke/*.sh). Skips the test (exit 0) without mpiexec or
# without MPI in the build; lets OpenMPI run as root and oversubscribe the host; makes $tmp,
# removed at exit, and keeps OpenMPI's session directory there (tests that start mpiexec at the
# same moment raced to create the shared one under /tmp, and one failed with "File exists"); key
# FILE prints the lines of a Graph500 output block that do not depend on the rank count (SCALE,
# NBFS, every nedge figure); why FILE prints what a failed run wrote to stderr, Open MPI's
# MPI_ABORT notice left out (its last lines hid the rank's own error).
bin=${bin:?set bin before sourcing lib/mpi.sh}
command -v mpiexec >/dev/null || { echo "no mpiexec: skipped"; exit 0; }
"$bin" info 2>/dev/null | grep -c "^mpi: yes" >/dev/null || { echo "no MPI in this build: skipped"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_MCA_orte_tmpdir_base=$tmp
key() { grep -E "^(SCALE|NBFS|[a-z_]*nedge):" "$1"; }
why() { grep -vE '^(-+|NOTE: invoking MPI_ABORT.*|You may or may not see output.*|exactly when Open MPI kills them\.|with errorcode [0-9]+\.|)$' "$1" | head -12; }
