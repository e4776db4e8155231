#!/usr/bin/env python3
"""docs/results.md from runs of scripts/gpu-check.sh: one current table per component.

  results_md.py [--base PAGE] [--drop PART ...] OUT[@PART=NEW,...] [OUT2 ...] > docs/results.md

Each OUT is a check's output folder: table.txt (rows "part|what|figure", written by the part
scripts) and meta.txt ("key: value" lines: gpu, host, date, commit, command). The first folder's
meta heads the page; a later folder (another machine, e.g. several GPUs, or a later commit) adds
its parts, and a part it repeats replaces the earlier rows; a part whose run differs from the
page's head names its own device, commit and command. Nothing here is typed by hand: the page is
regenerated from runs, and each row names what its figure is compared with (a baseline or peer
measured in the same run, or a hardware limit).

--base PAGE starts from a page this script made earlier (its head and sections kept as they
are) and lets the folders replace the sections of the parts they hold: one component is measured
again without the raw folders of the others. OUT@PART=NEW files a folder's rows of PART under
the part NEW (e.g. a CPU comparison run by the graph500 part script as graph500-cpu-ranks);
OUT@PART= leaves them out. --drop PART removes the base page's section of PART, where a later
run's part holds its rows now (e.g. two GPUs measured again beside four, in one table).
"""
import os
import sys

TITLES = {
    "gpu-check": "Build and tests",
    "gpu-tests": "GPU tests at a later commit",
    "graph500": "Graph500 (generator, kernel 1, BFS, SSSP, validation)",
    "bfs": "BFS on the GPU (Enterprise techniques)",
    "sssp": "SSSP on the GPU (delta-stepping)",
    "sssp-gpu": "SSSP on the GPU (delta-stepping)",
    "bellman_ford": "Dense Bellman-Ford",
    "hpl": "HPL",
    "hpl-multigpu": "HPL on several GPUs",
    "hpl-defaults": "HPL 1 x 1 on one H100 host: CPU panels (the default until 34caef1), tuned flags, every panel on the GPU",
    "hpl-2gpu": "HPL on two GPUs",
    "hpl-2gpu-h100": "HPL on two H100s",
    "hpl-h100-second-host": "HPL 1 x 1 on a second H100 host: the CPU panels follow the host",
    "hpl-4gpu": "HPL on four GPUs",
    "hash": "GLHT hash table",
    "hash-pair-cas": "Linear probing: the 16-byte pair-CAS insert against claim-then-publish",
    "graph500-mpi": "Graph500 over MPI ranks (weak scaling at 2^26 vertices per GPU, strong scaling at SCALE 26)",
    "graph500-mpi-2gpu": "Graph500 over MPI ranks on two GPUs (weak scaling at 2^26 vertices per GPU, strong scaling at SCALE 26)",
    "graph500-cpu-ranks": "Graph500 CPU backend over MPI ranks against the reference on the same ranks",
    "graph500-mpi-sssp": "Graph500 over MPI ranks: the CUDA SSSP's pull and bucket width, compared in one call",
    "graph500-mpi-bfs-bits": "Graph500 over MPI ranks: the CUDA BFS's frontier bits and visited bitmap, compared in one call",
    "graph500-mpi-bfs": "Graph500 over MPI ranks: the CUDA BFS's small blocks in the count exchange, compared in one call",
    "graph500-mpi-bfs-hubs": "Graph500 over MPI ranks: the CUDA BFS's hub delegates, compared in one call",
    "hpl-default-h100": "HPL 1 x 1 on one H100: the no-flag default",
    "hpl-mxp": "HPL-MxP",
    "hpl-mxp-4gpu": "HPL-MxP on four GPUs",
    "hpl-mxp-2gpu": "HPL-MxP on two GPUs",
    "graph-io": "Graph files (read speed)",
    "sanitize": "compute-sanitizer",
    "energy": "Energy (GreenGraph500)",
    "cpu_ab": "Graph500 CPU backend: A/B of two builds on the same cores (bench/graph500/cpu_ab.sh)",
}
PAGES = {
    "graph500": "graph500.md", "bfs": "bfs-gpu.md", "sssp": "sssp-gpu.md", "sssp-gpu": "sssp-gpu.md",
    "bellman_ford": "bellman-ford.md", "hpl": "hpl.md", "hpl-multigpu": "hpl.md", "hpl-2gpu": "hpl.md", "hpl-4gpu": "hpl.md",
    "hpl-defaults": "hpl.md", "hpl-2gpu-h100": "hpl.md", "hpl-h100-second-host": "hpl.md", "hash": "hash.md", "hash-pair-cas": "hash.md", "graph500-mpi": "distributed.md", "graph500-mpi-2gpu": "distributed.md",
    "graph500-cpu-ranks": "distributed.md", "graph500-mpi-sssp": "distributed.md", "graph500-mpi-bfs-bits": "distributed.md",
    "graph500-mpi-bfs": "distributed.md", "graph500-mpi-bfs-hubs": "distributed.md", "hpl-default-h100": "hpl.md",
    "hpl-mxp": "hpl-mxp.md", "hpl-mxp-4gpu": "hpl-mxp.md", "hpl-mxp-2gpu": "hpl-mxp.md", "graph-io": "graph-files.md",
    "sanitize": "reliability.md", "energy": "energy.md", "cpu_ab": "distributed.md",
}


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


def read_base(path):
    """A page made by render(): (head meta, [(title, section lines)])."""
    meta, sections, current = {}, [], None
    keys = {"Device": "gpu", "Host": "host", "Command": "command"}
    for line in open(path).read().split("\n"):
        if line.startswith("## "):
            current = (line[3:], [])
            sections.append(current)
        elif current is not None:
            current[1].append(line)
        elif line.startswith("- **Date:** "):
            date, _, commit = line[len("- **Date:** "):].partition("; **commit:** ")
            meta["date"], meta["commit"] = date, commit
        elif line.startswith("- **"):
            key, _, value = line[4:].partition(":** ")
            if key in keys:
                meta[keys[key]] = value.strip("`") if key == "Command" else value
    for _, body in sections:
        while body and not body[-1]:
            body.pop()
    return meta, sections


def render(out_dirs, base=None, drop=()):
    base_meta, base_sections = read_base(base) if base else ({}, [])
    dropped = {TITLES.get(part, part) for part in drop}
    base_sections = [(title, body) for title, body in base_sections if title not in dropped]
    first = split_dir(out_dirs[0])[0] if out_dirs else None
    meta = base_meta if base else read_meta(os.path.join(first, "meta.txt"))
    parts, order, origin = {}, [], {}
    for arg in out_dirs:
        d, renames = split_dir(arg)
        p, o = read_rows(os.path.join(d, "table.txt"))
        for part in o:
            name = renames.get(part, part)
            if not name:
                continue
            if name not in parts:
                order.append(name)
            parts[name] = p[part]
            origin[name] = read_meta(os.path.join(d, "meta.txt"))
    gpu = meta.get("gpu", "unknown GPU")
    lines = [
        "# Measured results",
        "",
        "One current table per component, made by `scripts/results_md.py` from the rows of GPU",
        "checks (`scripts/gpu-check.sh`, or the commands named below and in the rows); never edited",
        "by hand. Each row says what its figure is compared with: a baseline or peer measured in the",
        "same run, or a hardware limit measured on the same machine. How each figure is measured is",
        "on the component's page.",
        "",
        f"- **Device:** {gpu}",
        f"- **Host:** {meta.get('host', 'unknown')}",
        f"- **Date:** {meta.get('date', 'unknown')}; **commit:** {meta.get('commit', 'unknown')}",
        f"- **Command:** `{meta.get('command', 'bash scripts/gpu-check.sh')}`",
        "",
    ]
    def section(part):
        title = TITLES.get(part, part)
        page = PAGES.get(part)
        out = [f"## {title}"]
        if page:
            out.append(f"Details: [{page}]({page}).")
        m = origin[part]
        if any(m.get(k) != meta.get(k) for k in ("gpu", "commit", "command")):
            out.append(f"Measured on {m.get('gpu', 'unknown')} ({m.get('host', 'unknown host')}), "
                       f"{m.get('date', 'unknown date')}, commit {m.get('commit', 'unknown')}: "
                       f"`{m.get('command', '?')}`.")
        out += ["", "| measurement | figure |", "|---|---|"]
        for what, figure in parts[part]:
            out.append(f"| {what.replace('|', '/')} | {figure.replace('|', '/')} |")
        return out + [""]

    by_title = {TITLES.get(part, part): part for part in order}
    done = set()
    for title, body in base_sections:  # the base page's sections, in place, or the folders' parts instead
        part = by_title.get(title)
        if part is None:
            lines += [f"## {title}"] + body + [""]
        elif part not in done:
            lines += section(part)
            done.add(part)
    for part in order:
        if part not in done:
            lines += section(part)
    return "\n".join(lines)


if __name__ == "__main__":
    args = sys.argv[1:]
    base = None
    if args[:1] == ["--base"]:
        if len(args) < 2:
            sys.exit(__doc__)
        base, args = args[1], args[2:]
    drop = []
    while args[:1] == ["--drop"]:
        if len(args) < 2:
            sys.exit(__doc__)
        drop.append(args[1])
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    sys.stdout.write(render(args, base, drop))
