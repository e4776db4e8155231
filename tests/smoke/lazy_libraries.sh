#!/usr/bin/env bash
# gpu500 starts without cuBLAS, cuBLASLt and cuSOLVER: `--help`, `info` and HPL on the CPU load
# none of them (only HPL and HPL-MxP solving on a GPU do, on first use:
# gpu500/core/cuda/dynload.hpp). Read from glibc's LD_DEBUG=libs; a CPU build passes as is.
set -euo pipefail
bin=$1
for args in "--help" "info" "hpl --backend cpu -N 64 -NB 16"; do
  # shellcheck disable=SC2086  # args is a list of words
  loaded=$(LD_DEBUG=libs "$bin" $args 2>&1 >/dev/null | grep -oE 'lib(cublas|cublasLt|cusolver)\.so[.0-9]*' | sort -u || true)
  [ -z "$loaded" ] || { echo "gpu500 $args loaded at start: $loaded"; exit 1; }
done
echo "lazy libraries smoke: ok"
