#!/usr/bin/env bash
# Every value-taking flag of every command, given bad values: the program must refuse each before
# any work, with exit code 2 (bad input) or 3 (does not fit), exactly one line on stderr, nothing
# on stdout, and within the time limit (no hang). The flags and commands are read from
# `gpu500 --help` and `gpu500 <command> --help`, so a new flag is swept without editing this file.
#   numbers (N, X, A,B,...): empty, -1, 0, 1e30, 2^64, non-numeric (and nan/inf for reals)
#   names (S, V, LIST):      empty, an unknown name, a value holding a newline
#   paths (FILE, or "file" in the help): empty, a directory, /proc/x, a missing directory
# Each command runs on a small valid base command line (below), so that a bad value that is
# accepted shows as exit 0 quickly instead of a long run. A value a flag rightly takes (a seed of
# 0, 0 threads = the OpenMP default, ...) is listed in ACCEPTED with why; those runs must then
# succeed (exit 0), so that the list cannot go stale.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
printf '0 1 0.5\n1 2 0.25\n2 0 1\n' >ok.txt
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
exec python3 - "$bin" <<'PY'
import concurrent.futures as cf, os, re, subprocess, sys, tempfile

bin_ = sys.argv[1]
LIMIT = 20  # seconds: any run past it is a hang

# A small valid run per command (with --backend cpu where the command has it).
BASE = {
    "graph500": ["4", "--backend", "cpu", "--quiet", "--roots", "2"],
    "bfs": ["--graph", "ok.txt", "--backend", "cpu", "--root", "0"],
    "sssp": ["--graph", "ok.txt", "--backend", "cpu", "--root", "0"],
    "hpl": ["-N", "32", "-NB", "8", "--backend", "cpu", "--quiet"],
    "bellman-ford": ["--n", "32", "--backend", "cpu", "--repeat", "1"],
    "hash": ["static", "--backend", "cpu", "--keys", "256", "--lf", "0.5", "--runs", "1"],
    "hpl-mxp": ["-N", "64", "--backend", "cpu", "--quiet"],
    "convert": ["ok.txt", "out.txt"],
    "generate": ["4", "g.txt"],
}
# Flags whose base line would make the flag not apply: (command, flag) -> base to use instead.
BASE_FOR = {
    ("hpl", "--input"): ["--backend", "cpu", "--quiet"],
    ("hpl", "--tune-output"): ["--tune", "-N", "32", "--backend", "cpu", "--quiet"],
    ("bfs", "--roots"): ["--graph", "ok.txt", "--backend", "cpu"],
    ("sssp", "--roots"): ["--graph", "ok.txt", "--backend", "cpu"],
    ("hash", "--ops"): ["mixed", "--backend", "cpu", "--ranges", "100", "--runs", "1"],
    ("hash", "--ranges"): ["mixed", "--backend", "cpu", "--ops", "500", "--runs", "1"],
    ("hash", "--mixes"): ["mixed", "--backend", "cpu", "--ops", "500", "--ranges", "100", "--runs", "1"],
    ("hash", "--check-limit"): ["mixed", "--backend", "cpu", "--ops", "500", "--ranges", "100", "--runs", "1"],
}
# Values a flag rightly takes: (command, flag) -> {value: why}; "*" for every command.
BIG = "18446744073709551616"
ANY = ("*",)
SEARCH = ("bfs", "graph500")  # the commands that run BFS (sssp refuses BFS flags)
SHORTEST = ("sssp", "graph500")
ACCEPTED = {
    (ANY, "--seed"): {"0": "any seed", "-1": "any seed (taken modulo 2^64)"},
    (("bfs", "sssp"), "--root"): {"0": "vertex 0"},
    (SEARCH, "--bfs-threads"): {"0": "0 = the OpenMP default"},
    (SHORTEST, "--sssp-threads"): {"0": "0 = the OpenMP default"},
    (SEARCH, "--bfs-alpha"): {"1e30": "never bottom-up", BIG: "never bottom-up"},
    (SEARCH, "--bfs-beta"): {"1e30": "back to top-down at once", BIG: "back to top-down at once"},
    (SHORTEST, "--sssp-delta"): {"0": "<= 0: adaptive", "-1": "<= 0: adaptive", "1e30": "one bucket", BIG: "one bucket"},
    (("hpl",), "--threshold"): {"0": "<= 0 skips the check (netlib)", "-1": "<= 0 skips the check (netlib)",
                                "1e30": "any threshold", BIG: "any threshold"},
    (("hpl",), "--swap-threshold"): {"0": "mix with threshold 0"},
    (("hpl", "hpl-mxp"), "-N"): {"0": "N = 0 is an empty test (netlib)"},
    (("hpl",), "--depth"): {"0": "no look-ahead"},
    (("bellman-ford",), "--source"): {"0": "vertex 0"},
    (("bellman-ford",), "--wmin"): {"0": "zero weights"},
    (("bellman-ford",), "--density"): {"0": "a graph without edges"},
    (("hash",), "--check-limit"): {"0": "no model check of the mixed batches"},
}
# The Kronecker generator's --seed is a pair S1,S2: a single value is refused.
NOT_ACCEPTED = {("graph500", "--seed"), ("generate", "--seed")}

def accepted(cmd, flag):
    if (cmd, flag) in NOT_ACCEPTED:
        return {}
    out = {}
    for (cmds, f), values in ACCEPTED.items():
        if f == flag and (cmds == ANY or cmd in cmds):
            out.update(values)
    return out

NUM = ["", "-1", "0", "1e30", "18446744073709551616", "abc"]
VALUES = {
    "int": NUM,
    "real": NUM + ["nan", "inf"],
    "list": NUM + ["1,,2", ","],
    "name": ["", "no-such-value", "a\nb"],
    "input": ["", ".", "/proc/x", "/nonexistent/d/f", "a\nb"],
    "output": ["", ".", "/proc/x", "/nonexistent/d/f"],
}

def run(argv, cwd=None):
    # A case in a directory of its own keeps Open MPI's session directory there too: the cases run
    # side by side, and HPL starts MPI even in one process (lib/mpi.sh says why it must not share).
    env = dict(os.environ, OMPI_MCA_orte_tmpdir_base=os.path.abspath(cwd)) if cwd else None
    try:
        p = subprocess.run([bin_] + argv, capture_output=True, timeout=LIMIT, cwd=cwd, env=env)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, "", ""

def kind(metavar, help_):
    if metavar == "FILE" or re.search(r"\bfile\b", help_, re.I):
        return "output" if metavar == "FILE" or re.match(r"(--\S+: )?write", help_) else "input"
    return {"N": "int", "X": "real", "A,B,...": "list"}.get(metavar, "name")

commands = [m.group(1) for m in (re.match(r"^  (\S+)\s", l) for l in run(["--help"])[1].splitlines()) if m]
cases, seen = [], set()
for cmd in commands:
    rc, out, _ = run([cmd, "--help"])
    assert rc == 0, f"{cmd} --help: exit {rc}"
    for line in out.splitlines():
        m = re.match(r"^  (-\S+(?:, -\S+)*)(?: (\S+))?\s{2,}(.*)$", line)
        if not m or not m.group(2):
            continue  # a switch (no value)
        flag = m.group(1).split(", ")[-1]
        if (flag, m.group(3)) in seen:
            continue  # the same option (same help) in an earlier command: the same parser code
        seen.add((flag, m.group(3)))
        base = BASE_FOR.get((cmd, flag), BASE.get(cmd, []))
        # The base's own value of this flag goes, so that the bad value is the only one.
        if flag in base:
            i = base.index(flag)
            base = base[:i] + base[i + 2:]
        for v in VALUES[kind(m.group(2), m.group(3))]:
            cases.append((cmd, flag, v, base, v in accepted(cmd, flag)))

def check(case):
    cmd, flag, v, base, accepted = case
    argv = [cmd] + base + [flag, v]
    cwd = tempfile.mkdtemp(dir=".")  # its own directory: files a run writes stay its own
    os.symlink(os.path.abspath("ok.txt"), os.path.join(cwd, "ok.txt"))
    rc, out, err = run(argv, cwd)
    shown = "gpu500 " + " ".join(repr(a) if (not a or "\n" in a or " " in a) else a for a in argv)
    if rc is None:
        return f"{shown}: no answer within {LIMIT} s"
    if accepted:
        return None if rc == 0 else f"{shown}: listed as accepted, but exit {rc}: {err.strip()}"
    problems = []
    if rc not in (2, 3):
        problems.append(f"exit {rc}")
    if out:
        problems.append(f"stdout not empty ({out.splitlines()[0][:80]!r})")
    if err.count("\n") != 1 or not err.endswith("\n"):
        problems.append(f"{err.count(chr(10))} stderr lines ({err[:200]!r})")
    return f"{shown}: " + "; ".join(problems) if problems else None

with cf.ThreadPoolExecutor(max_workers=min(16, 2 * (os.cpu_count() or 1))) as pool:
    failures = [r for r in pool.map(check, cases) if r]
for f in failures:
    print(f)
print(f"bad flags smoke: {len(cases)} cases over {len(commands)} commands, {len(failures)} failed")
sys.exit(1 if failures or len(cases) < 100 else 0)
PY
