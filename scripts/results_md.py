#!/usr/bin/env python3
"""docs/results.md from runs of scripts/gpu-check.sh: one current table per component.

  results_md.py [--base PAGE] [--drop PART ...] [--all FILE] OUT[@PART=NEW,...] [OUT2 ...] > docs/results.md

Each OUT is a check's output folder: table.txt (rows "part|what|figure", written by the part
scripts) and meta.txt ("key: value" lines: gpu, host, date, commit, command). Parts are grouped
into components (COMPONENTS below): the page has one table per component, each row naming its
card and host, its date and its run; the runs (card, host, date, commit, command) are listed once
at the end, and each component says what its figures are compared with. A later folder's part
replaces the earlier rows of that part. Nothing here is typed by hand: the page is regenerated
from runs.

The page keeps the headline rows of each part (HEADLINE below: the best of each comparison,
the goals, the checks; a row that reports a failure is always kept), so that it stays short;
--all FILE writes every row of the folders, in the same layout, e.g. to a dated page in
docs/log/. A/B comparisons of two builds (parts in AB_PARTS) go only to --all.

--base PAGE starts from a page this script made earlier (its tables and runs kept as they are)
and lets the folders replace the rows of the parts they hold: one component is measured again
without the raw folders of the others. OUT@PART=NEW files a folder's rows of PART under the part
NEW (e.g. a CPU comparison run by the graph500 part script as graph500-cpu-ranks); OUT@PART=
leaves them out. --drop PART removes the base page's rows of PART, where a later run's part holds
its rows now.
"""
import os
import re
import sys

# (title, page, what the figures are compared with, parts), in page order.
COMPONENTS = [
    ("Build and tests", "reliability.md",
     "pass or fail of every CTest test; the slowest tests against the 30 s a test outside the "
     "`long` label should stay under", ["gpu-check", "gpu-tests"]),
    ("Graph500 on one process", "graph500.md",
     "the CUDA backend against the CPU backend on the same host; every search validated",
     ["graph500", "graph500-defaults"]),
    ("Graph500 over MPI ranks", "distributed.md",
     "weak scaling: efficiency against the one-GPU run of the same call; strong scaling: speed-up "
     "over it; ranks-1 (one GPU through the pipeline over ranks) against the one-process engines of "
     "the same call; the CPU rows against the Graph500 reference code on the same ranks and cores",
     ["graph500-mpi", "graph500-mpi-2gpu", "graph500-mpi-1gpu", "graph500-cpu-ranks"]),
    ("BFS on the GPU (Enterprise techniques)", "bfs-gpu.md",
     "BL: the baseline CUDA BFS (every Enterprise technique off) in the same run; the CPU backend "
     "on the same host; the goals", ["bfs"]),
    ("Graphs of many levels (grids, a geometric graph, a path)", "bfs-gpu.md",
     "the CPU backend and the textbook serial queue BFS (bench/graph/serial_bfs.cpp) in the same "
     "run, each backend the better of two runs on the same roots; the goals on the 1024 x 1024 "
     "grid (BFS 0.4 and SSSP 0.1 GTEPS, each 5x the CPU backend)",
     ["shapes"]),
    ("SSSP on the GPU (delta-stepping)", "sssp-gpu.md",
     "baseline: the GPU SSSP with its techniques off, in the same run; the CPU engine on the same "
     "host; orig: the generator's vertex ids, relabel: ids by decreasing degree", ["sssp", "sssp-gpu"]),
    ("Dense Bellman-Ford", "bellman-ford.md",
     "the OpenMP engine (the baseline) and the naive GPU kernel in the same run; the paper's "
     "factors; the host and device memory bandwidth measured on the same machine", ["bellman_ford"]),
    ("HPL", "hpl.md",
     "the DGEMM rate and cuSOLVER's solve on the same GPU; on several GPUs, the rate per GPU "
     "against the 1 x 1 run of the same call",
     ["hpl", "hpl-default-h100", "hpl-defaults", "hpl-multigpu", "hpl-2gpu", "hpl-2gpu-h100",
      "hpl-4gpu", "hpl-h100-second-host"]),
    ("HPL-MxP", "hpl-mxp.md",
     "FP64 HPL and the GEMM rate of the same precision on the same GPU; on several GPUs, the rate "
     "per GPU against the 1 x 1 run of the same call",
     ["hpl-mxp", "hpl-mxp-defaults", "hpl-mxp-multigpu", "hpl-mxp-2gpu", "hpl-mxp-4gpu"]),
    ("GLHT hash table", "hash.md",
     "the peer tables (linear, quadratic, chained) and cuCollections measured in the same run, "
     "the CPU table; the stress test's model (wrong, lost, duplicate must be 0)", ["hash"]),
    ("Energy (GreenGraph500)", "energy.md",
     "the first row of the same call; the goal of 1 GTEPS/W", ["energy"]),
    ("Graph files (read speed)", "graph-files.md",
     "the line-end count (a pass that only reads the bytes) in the same run; the goal of 200 MB/s",
     ["graph-io"]),
    ("Python package", "python.md",
     "the CLI on the same file, roots and backend in the same run, both validating, five rounds of "
     "each alternated (the library's per-search timer); NetworkX's own bfs_edges on the same graph",
     ["python"]),
    ("compute-sanitizer", "reliability.md",
     "clean: no error and no hazard reported", ["sanitize"]),
]
# A/B comparisons of two builds: a step's history, not a current figure.
AB_PARTS = {"ab", "cpu_ab", "hash-pair-cas", "graph500-mpi-sssp", "graph500-mpi-bfs-bits",
            "graph500-mpi-bfs", "graph500-mpi-bfs-hubs"}
# Headline rows of a part (a regular expression on the measurement); a part not named keeps all.
HEADLINE = {
    "hash": r"^(memcheck|racecheck|static: wall time|static$|static best GLHT|mixed \(scale runs)",
    "bellman_ford": r"^(verified$|engines$|host memory|GPU over OpenMP|N=\d+ fastest|N=256-8192|"
                    r"N=\d+ cuda coarse, early exit)",
    "sssp-gpu": r"(adaptive|baseline|cpu engine)$",
    "sssp": r"(adaptive|baseline|cpu engine)$",
    "graph-io": r"16 threads",
}
FAILED = re.compile(r"FAIL|not built|^exit \d")
RUN_KEYS = ("gpu", "host", "date", "commit", "command")


def component_of(part):
    # gpu-check.sh names a failed part script by its file name (hpl_mxp), its rows by their part
    # (hpl-mxp): both belong to the component.
    for title, page, compared, parts in COMPONENTS:
        if part in parts or part.replace("_", "-") in parts:
            return title
    return part


def read_meta(path):
    meta = {}
    if os.path.exists(path):
        for line in open(path):
            if ":" in line:
                k, v = line.split(":", 1)
                meta[k.strip()] = v.strip()
    return meta


def read_rows(path):
    parts, order = {}, []
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        fields = line.split("|", 2)
        if len(fields) < 3:
            fields += [""] * (3 - len(fields))
        part, what, figure = fields
        if part not in parts:
            parts[part] = []
            order.append(part)
        parts[part].append((what, figure))
    return parts, order


def split_dir(arg):
    """OUT[@PART=NEW,...] -> (OUT, {PART: NEW})."""
    d, _, spec = arg.partition("@")
    renames = {}
    for item in filter(None, spec.split(",")):
        old, eq, new = item.partition("=")
        if not eq:
            sys.exit(f"results_md.py: {arg}: expected PART=NEW after @")
        renames[old] = new
    return d, renames


RUN_LINE = re.compile(r"^- \*\*(r\d+)\*\* `([^`]*)`: (.*?); host (.*?); (\S+); commit (.*?); command `(.*)`$")


def read_base(path):
    """A page made by render(): {part: (meta, [(what, figure)])}, in page order."""
    runs, rows = {}, []
    for line in open(path).read().split("\n"):
        m = RUN_LINE.match(line)
        if m:
            runs[m.group(1)] = (m.group(2), dict(zip(RUN_KEYS, m.groups()[2:])))
        elif line.startswith("| ") and not line.startswith("| measurement |"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            if len(cells) == 5:
                rows.append((cells[0], cells[1], cells[4].strip("[]").split("]")[0]))
    parts = {}
    for what, figure, run in rows:
        if run not in runs:
            sys.exit(f"results_md.py: {path}: a row names run {run}, which the page does not list")
        part, meta = runs[run]
        parts.setdefault(part, (meta, []))[1].append((what, figure))
    return parts


def short(text):
    """The card or host without its details: '1 x NVIDIA H100 80GB HBM3, 81559 MiB' -> '1 x H100 80GB HBM3'."""
    return re.split(r",| \(|;", text.replace("NVIDIA ", ""), maxsplit=1)[0].strip()


def cell(text):
    return text.replace("|", "/")


def render(parts, headline=True):
    """parts: {part: (meta, rows)} -> the page."""
    lines = [
        "# Measured results",
        "",
        "One current table per component, made by `scripts/results_md.py` from the rows of GPU checks",
        "(`scripts/gpu-check.sh`, or the command of each run); never edited by hand. Each row names its",
        "card and host, its date and its run (listed under [Runs](#runs): device, host, date, commit,",
        "command); each component says what its figures are compared with: a baseline or peer measured",
        "in the same run, or a limit measured on the same machine. The tables hold the headline rows;",
        "earlier measurements and A/B comparisons of two builds are in [log/](log/). How each figure",
        "is measured is on the component's page.",
        "",
    ]
    run_ids, runs = {}, []
    titles = [c[0] for c in COMPONENTS]
    titles += [component_of(p) for p in parts if component_of(p) not in titles]
    for title in titles:
        members = [p for p in parts if component_of(p) == title]
        if not members:
            continue
        spec = next((c for c in COMPONENTS if c[0] == title), None)
        order = spec[3] if spec else members
        members.sort(key=lambda p: order.index(p) if p in order else len(order))
        lines.append(f"## {title}")
        if spec:
            lines.append(f"Compared with: {spec[2]}. Details: [{spec[1]}]({spec[1]}).")
        lines += ["", "| measurement | figure | card; host | date | run |", "|---|---|---|---|---|"]
        for part in members:
            meta, rows = parts[part]
            key = (part,) + tuple(meta.get(k, "unknown") for k in RUN_KEYS)
            if key not in run_ids:
                run_ids[key] = f"r{len(run_ids) + 1}"
                runs.append((run_ids[key], key))
            rid = run_ids[key]
            keep = re.compile(HEADLINE[part]) if headline and part in HEADLINE else None
            for what, figure in rows:
                if keep and not keep.search(what) and not FAILED.search(figure):
                    continue
                lines.append(f"| {cell(what)} | {cell(figure)} | {short(meta.get('gpu', 'unknown'))}; "
                             f"{short(meta.get('host', 'unknown'))} | {meta.get('date', 'unknown')} | [{rid}](#runs) |")
        lines.append("")
    lines += ["## Runs", ""]
    for rid, (part, gpu, host, date, commit, command) in runs:
        lines.append(f"- **{rid}** `{part}`: {gpu}; host {host}; {date}; commit {commit}; command `{command}`")
    return "\n".join(lines) + "\n"


def gather(out_dirs, base=None, drop=()):
    parts = read_base(base) if base else {}
    for part in drop:
        parts.pop(part, None)
    for arg in out_dirs:
        d, renames = split_dir(arg)
        meta = read_meta(os.path.join(d, "meta.txt"))
        p, o = read_rows(os.path.join(d, "table.txt"))
        for part in o:
            name = renames.get(part, part)
            if name:
                parts.pop(name, None)  # a later run's part replaces the earlier rows, and moves last
                parts[name] = (meta, p[part])
    return parts


def main(args):
    base, drop, every = None, [], None
    while args[:1] and args[0] in ("--base", "--drop", "--all"):
        if len(args) < 2:
            sys.exit(__doc__)
        if args[0] == "--base":
            base = args[1]
        elif args[0] == "--drop":
            drop.append(args[1])
        else:
            every = args[1]
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    parts = gather(args, base, drop)
    if every:
        new = gather(args)
        with open(every, "w") as f:
            f.write(render(new, headline=False))
    for part in parts:
        if part in AB_PARTS:
            print(f"results_md.py: {part} is an A/B comparison of two builds: not on the page "
                  f"(--all FILE keeps it)", file=sys.stderr)
    sys.stdout.write(render({p: v for p, v in parts.items() if p not in AB_PARTS}))


if __name__ == "__main__":
    main(sys.argv[1:])
