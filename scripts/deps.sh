#!/usr/bin/env bash
# Makes sure what the gpu500 build needs is present, installing only what is really missing.
#
# Each need is probed the way the build will use it (a command on PATH, a header the compiler
# finds, a library the linker finds), not by package name, so CMake, MPI, OpenCL or BLAS from a
# module system, a vendor install or a source build count as present. Only needs that fail their
# probe are mapped to Debian packages, and those are installed only where that can work (apt-get
# present, root or password-less sudo). Whatever happens here, this script never stops the build:
# with a need still missing, CMake's own message says what is missing. The CUDA toolkit is not a
# Debian package here: the CUDA backend is built when nvcc is found.
#   bash scripts/deps.sh           probe, install what is missing where possible
#   DEPS_DRY_RUN=1 bash scripts/deps.sh   probe and list, install nothing
set -uo pipefail

cxx=${CXX:-$(command -v c++ || command -v g++ || true)}
missing=()      # Debian packages for the needs that failed their probe
report=()       # what failed, for the message

need_command() {  # need_command CMD PACKAGE
  command -v "$1" >/dev/null 2>&1 || { missing+=("$2"); report+=("command $1"); }
}
# True when the compiler finds the header (with the extra include dirs given).
have_header() {
  local header=$1; shift
  [ -n "$cxx" ] || return 1
  local flags=()
  for d in "$@"; do flags+=("-I$d"); done
  printf '#include <%s>\n' "$header" | "$cxx" -x c++ -E "${flags[@]}" - >/dev/null 2>&1
}
need_header() {  # need_header HEADER PACKAGE [extra include dirs...]
  local header=$1 pkg=$2; shift 2
  have_header "$header" "$@" || { missing+=("$pkg"); report+=("header $header"); }
}
have_library() {  # have_library NAME: libNAME.so or .a known to the linker
  [ -n "$cxx" ] || return 1
  echo 'int main(){}' | "$cxx" -x c++ - -o /dev/null -l"$1" >/dev/null 2>&1
}
need_library() {  # need_library NAME PACKAGE
  have_library "$1" || { missing+=("$2"); report+=("library lib$1"); }
}

need_command cmake cmake
need_command make make
[ -n "$cxx" ] || { missing+=(g++); report+=("a C++ compiler"); cxx=""; }
need_command python3 python3
# (scripts/plot.py runs under the system's python3 when the one on PATH, e.g. pyenv's, lacks it.)
python3 -c 'import matplotlib' >/dev/null 2>&1 || /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 ||
  { missing+=(python3-matplotlib); report+=("python3 matplotlib (optional: scripts/plot.py)"); }
if [ -n "$cxx" ]; then
  need_header omp.h g++
  blas_dirs=(/usr/include/openblas /usr/include/x86_64-linux-gnu/openblas-pthread /usr/include/aarch64-linux-gnu/openblas-pthread)
  need_header cblas.h libopenblas-dev "${blas_dirs[@]}"
  need_header lapacke.h liblapacke-dev "${blas_dirs[@]}"
  # An optimised BLAS: OpenBLAS, or BLIS or MKL where present (not netlib's reference libblas,
  # on which the CPU HPL runs 10-20 times slower; CMake warns when it has nothing better).
  have_library openblas || have_library blis || have_library mkl_rt || { missing+=(libopenblas-dev); report+=("library libopenblas"); }
  have_library lapack || have_library openblas || { missing+=(liblapack-dev); report+=("library liblapack"); }
  need_header gtest/gtest.h libgtest-dev
  need_header zlib.h zlib1g-dev  # gzip-compressed graph files
  # Optional parts: MPI and OpenCL (the build turns them off when absent, AUTO).
  command -v mpicxx >/dev/null 2>&1 || { missing+=(libopenmpi-dev openmpi-bin); report+=("MPI (mpicxx; optional)"); }
  command -v mpiexec >/dev/null 2>&1 || { missing+=(openmpi-bin); report+=("mpiexec (optional)"); }
  have_header CL/cl.h /usr/local/cuda/include || { missing+=(opencl-headers ocl-icd-opencl-dev); report+=("OpenCL headers (optional)"); }
  have_library OpenCL || { missing+=(ocl-icd-opencl-dev); report+=("libOpenCL (optional)"); }
  # Optional: clang with libFuzzer and the sanitizers, for scripts/fuzz.sh (CI's fuzz runs).
  fuzz_probe='extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }'
  if ! { command -v clang++ >/dev/null 2>&1 &&
         echo "$fuzz_probe" | clang++ -x c++ -fsanitize=fuzzer,address - -o /dev/null >/dev/null 2>&1; }; then
    missing+=(clang)  # libFuzzer: in libclang-rt-dev where the distribution splits it out
    apt-cache show libclang-rt-dev >/dev/null 2>&1 && missing+=(libclang-rt-dev)
    report+=("clang with libFuzzer (optional: scripts/fuzz.sh)")
  fi
  # An OpenCL device for the OpenCL tests: PoCL when no ICD is registered.
  if [ -d /etc/OpenCL/vendors ] && ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then :; else
    missing+=(pocl-opencl-icd); report+=("an OpenCL driver (optional)")
  fi
fi

# Python: the module gpu500._core needs nanobind to build (scikit-build-core too for `pip install
# .`), its tests NumPy, SciPy, NetworkX and pytest. What is missing is pip-installed into the
# Python on PATH (--user unless root or in a virtualenv); without pip or network the build goes on:
# CMake turns the module off with a message, and the Python tests skip saying what is missing.
if command -v python3 >/dev/null 2>&1; then
  py_missing=()
  for mod in numpy scipy networkx nanobind scikit_build_core pytest; do
    python3 -c "import $mod" >/dev/null 2>&1 || py_missing+=("${mod//_/-}")
  done
  if [ ${#py_missing[@]} -gt 0 ]; then
    if [ -n "${DEPS_DRY_RUN:-}" ]; then
      echo "deps.sh: would pip install: ${py_missing[*]}" >&2
    elif ! python3 -m pip --version >/dev/null 2>&1; then
      echo "deps.sh: no pip for python3: not installing ${py_missing[*]} (the Python module or its tests are skipped)" >&2
    else
      pip_user=--user
      python3 -c 'import sys; sys.exit(0 if sys.prefix != sys.base_prefix else 1)' && pip_user=""
      [ "$(id -u)" -eq 0 ] && pip_user=""
      echo "deps.sh: pip installing ${py_missing[*]}" >&2
      timeout 600 python3 -m pip install -q $pip_user "${py_missing[@]}" >&2 ||
        echo "deps.sh: pip install failed (no network, or an externally managed Python?); the Python module or its tests are skipped" >&2
    fi
  fi
fi

[ ${#missing[@]} -eq 0 ] && exit 0
# One of each package, in order.
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
echo "deps.sh: missing: ${report[*]}" >&2
if [ -n "${DEPS_DRY_RUN:-}" ]; then
  echo "deps.sh: would install: ${missing[*]}" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "deps.sh: not root and no password-less sudo: not installing (${missing[*]}); the build goes on" >&2
    exit 0
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps.sh: no apt-get: not installing (${missing[*]}); the build goes on" >&2
  exit 0
fi
echo "deps.sh: installing ${missing[*]}" >&2
if ! { timeout 300 $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
  echo "deps.sh: installing failed (no network or no such package?); the build goes on, CMake says what is missing" >&2
fi
exit 0
