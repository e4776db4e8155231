#!/usr/bin/env bash
# Installs the Debian packages gpu500 needs that are missing (build tools, OpenMP, BLAS/LAPACK,
# MPI, OpenCL on PoCL, GoogleTest). Safe to run repeatedly; does nothing when all are present.
# The CUDA toolkit is not a Debian package here: the CUDA backend is built when nvcc is found.
set -euo pipefail
pkgs=(cmake make g++ libgomp1 libopenblas-dev liblapack-dev liblapacke-dev libopenmpi-dev openmpi-bin
      ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libgtest-dev python3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "deps.sh: missing packages (${missing[*]}) and no apt-get to install them" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "deps.sh: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
