#!/usr/bin/env python3
"""docs/results.md from one run of scripts/gpu-check.sh: one current table per component.

  results_md.py OUT > docs/results.md

OUT is the check's output folder: table.txt (rows "part|what|figure", written by the part
scripts) and meta.txt ("key: value" lines: gpu, host, date, commit, command). Nothing here is
typed by hand: the page is regenerated from a run, and each row names what its figure is
compared with (a baseline or peer measured in the same run, or a hardware limit).
"""
import os
import sys

TITLES = {
    "gpu-check": "Build and tests",
    "graph500": "Graph500 (generator, kernel 1, BFS, SSSP, validation)",
    "bfs": "BFS on the GPU (Enterprise techniques)",
    "sssp": "SSSP on the GPU (delta-stepping)",
    "sssp-gpu": "SSSP on the GPU (delta-stepping)",
    "bellman_ford": "Dense Bellman-Ford",
    "hpl": "HPL",
    "hash": "GLHT hash table",
    "graph500-mpi": "Graph500 over MPI ranks",
}
PAGES = {
    "graph500": "graph500.md", "bfs": "bfs-gpu.md", "sssp": "sssp-gpu.md", "sssp-gpu": "sssp-gpu.md",
    "bellman_ford": "bellman-ford.md", "hpl": "hpl.md", "hash": "hash.md", "graph500-mpi": "distributed.md",
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


def render(out_dir):
    meta = read_meta(os.path.join(out_dir, "meta.txt"))
    parts, order = read_rows(os.path.join(out_dir, "table.txt"))
    gpu = meta.get("gpu", "unknown GPU")
    lines = [
        "# Measured results",
        "",
        "One current table per component, made by `scripts/results_md.py` from the rows of one GPU",
        "check (`scripts/gpu-check.sh`, or the commands named below and in the rows); never edited",
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
    for part in order:
        title = TITLES.get(part, part)
        page = PAGES.get(part)
        lines.append(f"## {title}")
        if page:
            lines.append(f"Details: [{page}]({page}).")
        lines.append("")
        lines.append("| measurement | figure |")
        lines.append("|---|---|")
        for what, figure in parts[part]:
            lines.append(f"| {what.replace('|', '/')} | {figure.replace('|', '/')} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.stdout.write(render(sys.argv[1]))
