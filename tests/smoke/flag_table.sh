#!/usr/bin/env bash
# The README's flag table equals what `gpu500 <command> --help` lists for every command (made by
# scripts/flag_table.py), and every flag appears in at least one test under tests/.
set -euo pipefail
bin=$1
src=$2
python3 "$src/scripts/flag_table.py" "$bin" --check "$src/README.md"
python3 "$src/scripts/flag_table.py" "$bin" --exercised "$src/tests"
