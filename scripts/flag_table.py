#!/usr/bin/env python3
"""The README's flag table, made from the program's own --help, and checks that keep it honest.

  flag_table.py GPU500                  print the table (markdown) for the README
  flag_table.py GPU500 --check README   exit 1 unless README's table equals the printed one
  flag_table.py GPU500 --exercised DIR  exit 1 unless every flag appears in a test under DIR

A flag is one row: its names as --help shows them, the commands that accept it, and its help line
(from the first command that lists it). The README holds the table between the lines
`<!-- flags begin -->` and `<!-- flags end -->`.
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
            if names not in seen:
                seen[names] = {"metavar": metavar, "help": text, "commands": []}
                order.append(names)
            seen[names]["commands"].append(cmd)
    lines = ["| flag | commands | what it does |", "|---|---|---|"]
    for names in order:
        row = seen[names]
        shown = " ".join(x for x in (names, row["metavar"]) if x)
        text = row["help"].replace("|", "\\|")
        lines.append(f"| `{shown}` | {', '.join(row['commands'])} | {text} |")
    return "\n".join(lines) + "\n", order


def readme_table(path):
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
    if mode == "--check":
        want = readme_table(arg)
        if want != got:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "README", "--help"))
            print("the README's flag table differs from --help: regenerate it with scripts/flag_table.py")
            return 1
        print(f"flag table: {len(order)} flags, README matches --help")
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
