#!/usr/bin/env bash
# docs/flags.md's flag table equals what `gpu500 <command> --help` lists for every command (made
# by scripts/flag_table.py), and every flag appears in at least one test under tests/. The table
# is made from a build with every backend: in a build without CUDA or OpenCL the check fails and
# names the backends the build lacks (docs/flags.md says how to leave it out there).
set -euo pipefail
bin=$1
src=$2
python3 "$src/scripts/flag_table.py" "$bin" --check "$src/docs/flags.md"
python3 "$src/scripts/flag_table.py" "$bin" --exercised "$src/tests"
