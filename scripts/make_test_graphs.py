#!/usr/bin/env python3
"""Writes the small real graphs of tests/data/graphs/ from networkx's classic data sets.

    python3 scripts/make_test_graphs.py [OUT_DIR]      (default: tests/data/graphs)

Graphs: Zachary's karate club (34 vertices, 78 edges, weights = interaction counts), the Les
Miserables co-appearance network (77, 254, weights = co-appearances) and the Florentine families
(15, 20; no weights in the data set, written with weight 1 so that SSSP distances equal BFS
levels). Vertex ids follow networkx's node order; the edge list names them in comments.

Each graph NAME is written in every format `gpu500` reads, all holding the same undirected edges:
  NAME.txt      edge list "u v w" (0-based), with '#' comments
  NAME.mtx      Matrix Market coordinate real symmetric (1-based, lower triangle)
  NAME.mtx.gz   the same, gzip-compressed (mtime 0: the bytes do not depend on the day)
  NAME.bin      gpu500's binary CSR, undirected (both directions of each edge), int32 targets
  NAME.expected "vertex level distance" from root 0, computed by networkx (the BFS levels and
                Dijkstra distances the searches must reproduce)
Needs python3-networkx. The files are committed; tests only read them.
"""
import gzip
import os
import struct
import sys

import networkx as nx

GRAPHS = {
    "karate": nx.karate_club_graph,
    "lesmis": nx.les_miserables_graph,
    "florentine": nx.florentine_families_graph,
}


def edges_of(g):
    ids = {v: i for i, v in enumerate(g.nodes)}
    return ids, [(ids[u], ids[v], int(d.get("weight", 1))) for u, v, d in g.edges(data=True)]


def write_txt(path, name, ids, edges):
    with open(path, "w") as f:
        f.write(f"# {name}: {len(ids)} vertices, {len(edges)} undirected edges, u v weight (networkx)\n")
        for v, i in ids.items():
            f.write(f"# vertex {i}: {v}\n")
        for u, v, w in edges:
            f.write(f"{u} {v} {w}\n")


def mtx_text(name, n, edges):
    lines = ["%%MatrixMarket matrix coordinate real symmetric", f"% {name} (networkx)", f"{n} {n} {len(edges)}"]
    lines += [f"{max(u, v) + 1} {min(u, v) + 1} {w}" for u, v, w in edges]
    return "\n".join(lines) + "\n"


def write_bin(path, n, edges):
    # Layout: docs/graph-files.md (magic, version 1, flags weighted|int32 targets, n, m, offsets,
    # targets, weights); undirected: each edge stored from both ends, in edge order.
    rows = [[] for _ in range(n)]
    for u, v, w in edges:
        rows[u].append((v, w))
        if u != v:
            rows[v].append((u, w))
    offsets = [0]
    for r in rows:
        offsets.append(offsets[-1] + len(r))
    m = offsets[-1]
    with open(path, "wb") as f:
        f.write(b"GPU500G\x01" + struct.pack("<IIqq", 1, 1 | 4, n, m))
        f.write(struct.pack(f"<{n + 1}q", *offsets))
        f.write(struct.pack(f"<{m}i", *[t for r in rows for t, _ in r]))
        f.write(struct.pack(f"<{m}f", *[float(w) for r in rows for _, w in r]))


def write_expected(path, g, ids):
    nodes = list(g.nodes)
    root = nodes[0]
    level = nx.single_source_shortest_path_length(g, root)
    dist = nx.single_source_dijkstra_path_length(g, root, weight=lambda u, v, d: d.get("weight", 1))
    with open(path, "w") as f:
        f.write("# vertex level distance from root 0 (networkx BFS and Dijkstra)\n")
        for v in nodes:
            f.write(f"{ids[v]} {level.get(v, -1)} {dist.get(v, -1):g}\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "graphs")
    os.makedirs(out, exist_ok=True)
    for name, make in GRAPHS.items():
        g = make()
        ids, edges = edges_of(g)
        base = os.path.join(out, name)
        write_txt(base + ".txt", name, ids, edges)
        text = mtx_text(name, len(ids), edges)
        with open(base + ".mtx", "w") as f:
            f.write(text)
        with open(base + ".mtx.gz", "wb") as f:
            with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as z:
                z.write(text.encode())
        write_bin(base + ".bin", len(ids), edges)
        write_expected(base + ".expected", g, ids)


if __name__ == "__main__":
    main()
