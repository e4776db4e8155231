#!/usr/bin/env python3
"""docs/flags.md's flag table, made from the program's own --help, and checks that keep it honest.

  flag_table.py GPU500                   print the table (markdown) for docs/flags.md
  flag_table.py GPU500 --write PAGE      replace the table in PAGE (docs/flags.md) with it
  flag_table.py GPU500 --check PAGE      exit 1 unless PAGE's table equals the printed one
  flag_table.py GPU500 --exercised DIR   exit 1 unless every flag appears in a test under DIR

A row is one meaning of a flag: its names as --help shows them, the commands whose --help gives
it that metavar and help line, and the line. A flag whose meaning or default differs between
commands (e.g. --seed, --roots, --backend) has a row per meaning. PAGE holds the table between
the lines `<!-- flags begin -->` and `<!-- flags end -->`. The table is made from a build with
every backend (CUDA and OpenCL), whose --help lists every flag; --check from a build without one
of them names the backends it lacks.
"""
import os
import re
import subprocess
import sys

BEGIN, END = "<!-- flags begin -->", "<!-- flags end -->"


def commands(gpu500):
    out = subprocess.run([gpu500, "--help"], capture_output=True, text=True, check=True).stdout
    names = []
    in_list = False
    for line in out.splitlines():
        if line.startswith("commands:"):
            in_list = True
            continue
        m = re.match(r"^  (\S+)\s", line)
        if in_list and m:
            names.append(m.group(1))
    return names


def flags_of(gpu500, command):
    """[(names, metavar, help)] from `gpu500 COMMAND --help` (continuation lines joined)."""
    out = subprocess.run([gpu500, command, "--help"], capture_output=True, text=True, check=True).stdout
    rows = []
    in_opts = False
    for line in out.splitlines():
        if line.startswith("options:"):
            in_opts = True
            continue
        if not in_opts:
            continue
        m = re.match(r"^  (-\S+(?:, -\S+)*)(?: (\S+))?\s{2,}(.*)$", line) or re.match(r"^  (-\S+(?:, -\S+)*)(?: (\S+))?\s+(.*)$", line)
        if m:
            rows.append([m.group(1), m.group(2) or "", m.group(3).strip()])
        elif rows and line.strip() and not line.startswith("  -"):
            rows[-1][2] += " " + line.strip()
    return [tuple(r) for r in rows if r[0] not in ("-h, --help",)]


def table(gpu500):
    order, seen = [], {}
    for cmd in commands(gpu500):
        for names, metavar, text in flags_of(gpu500, cmd):
            key = (names, metavar, text)
            if key not in seen:
                seen[key] = []
                order.append(key)
            seen[key].append(cmd)
    names_list = list(dict.fromkeys(n for n, _, _ in order))
    lines = ["| flag | commands | what it does |", "|---|---|---|"]
    # A flag's rows side by side, in the order the commands list the flags.
    for names, metavar, text in sorted(order, key=lambda k: names_list.index(k[0])):
        shown = " ".join(x for x in (names, metavar) if x)
        lines.append(f"| `{shown}` | {', '.join(seen[(names, metavar, text)])} | {text.replace('|', chr(92) + '|')} |")
    return "\n".join(lines) + "\n", names_list


def missing_backends(gpu500):
    """The backends `gpu500 info` does not list (the table is made from a build with all of them)."""
    out = subprocess.run([gpu500, "info"], capture_output=True, text=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("backends:")), "")
    return [b for b in ("cuda", "opencl") if not re.search(r"\b" + b + r"\b", line)]


def page_table(path):
    text = open(path).read()
    if BEGIN not in text or END not in text:
        sys.exit(f"{path}: no flag table between {BEGIN} and {END}")
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"


def exercised(names_list, tests_dir, exclude):
    corpus = []
    for root, _, files in os.walk(tests_dir):
        for f in files:
            p = os.path.join(root, f)
            if os.path.abspath(p) in exclude or "/data/" in p + "/":
                continue
            try:
                corpus.append(open(p, errors="replace").read())
            except OSError:
                pass
    text = "\n".join(corpus)
    missing = []
    for names in names_list:
        aliases = [n.strip() for n in names.split(",")]
        # A flag counts when any of its names appears as a whole word in a test.
        if not any(re.search(r"(?<![\w-])" + re.escape(a) + r"(?![\w-])", text) for a in aliases):
            missing.append(names)
    return missing


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    gpu500 = sys.argv[1]
    got, order = table(gpu500)
    if len(sys.argv) == 2:
        sys.stdout.write(got)
        return 0
    mode, arg = sys.argv[2], sys.argv[3]
    if mode == "--write":
        text = open(arg).read()
        page_table(arg)
        head, rest = text.split(BEGIN, 1)
        open(arg, "w").write(head + BEGIN + "\n" + got + END + rest.split(END, 1)[1])
        return 0
    if mode == "--check":
        want = page_table(arg)
        if want != got:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True), arg, "--help"))
            lacking = missing_backends(gpu500)
            if lacking:
                print(f"this build has no {' and no '.join(lacking)} backend, whose flags the table lists: "
                      f"check from a build with every backend (scripts/gpu-check.sh makes one)")
            print(f"{arg}'s flag table differs from --help: regenerate it with scripts/flag_table.py GPU500 --write {arg}")
            return 1
        print(f"flag table: {len(order)} flags, {arg} matches --help")
        return 0
    if mode == "--exercised":
        missing = exercised(order, arg, {os.path.abspath(__file__)})
        for names in missing:
            print(f"not exercised by any test: {names}")
        print(f"{len(order) - len(missing)} of {len(order)} flags exercised by a test")
        return 1 if missing else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
