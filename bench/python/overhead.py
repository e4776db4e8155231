#!/usr/bin/env python3
"""What the Python package costs over the library, measured in one run on this host:

1. `g.bfs` on a Kronecker graph (SCALE S, a binary file made by `gpu500 generate`) against
   `gpu500 bfs --graph` on the same file, the same roots and backend, both as a user runs them
   (every search validated): the CLI's per-search time (the library's timer), the package's
   per-search time from the same timer, and the wall time of each `g.bfs(root)` call (the reset,
   the search, nedge, the validation, the tree handed over by the CPU engine or brought out of the
   GPU with its levels, the arrays made); PYBENCH_ROUNDS (5) rounds of the CLI's run and the
   package's searches alternate, and each figure is the median over all of a side's searches (a
   search of half a millisecond on a GPU varies by more than 5% from run to run);
   before it, `Graph.from_edges` on NumPy arrays of the same edges (2^26 at SCALE 22) against
   `read_graph` of the file.
2. The NetworkX backend on G(n, m) (NetworkX's gnm_random_graph): NetworkX's own `bfs_edges`
   (the better of two calls), the conversion (first call), then `bfs_layers(G, s, backend="gpu500")`
   and `bfs_edges(G, s, backend="gpu500")` on the converted graph (the best of three each), and the floor of any backend: the time to copy as
   many references to node objects into a list as the answer holds (the backend builds its lists
   of the graph's own node objects; making that many new Python ints from an array, as NumPy's
   tolist() does, is named beside it); for bfs_edges, whose answer is one (u, v) tuple per tree
   edge, the backend's own way with no search: two slices of the node list (timed with it, as the
   backend makes its two lists) zipped into as many pairs, counted as NetworkX's own answer is.

Rows "python|what|figure" go to TABLE (default: stdout).
    overhead.py GPU500 OUT [TABLE]    (PYTHONPATH must name the package: <build>/python)
Environment: PYBENCH_SCALE (22), PYBENCH_ROOTS (16), PYBENCH_ROUNDS (5), PYBENCH_NX_N (200000),
PYBENCH_NX_M (1000000).
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import gpu500

exe, out = sys.argv[1], sys.argv[2]
table = open(sys.argv[3], "a") if len(sys.argv) > 3 else sys.stdout
scale = int(os.environ.get("PYBENCH_SCALE", "22"))
nroots = int(os.environ.get("PYBENCH_ROOTS", "16"))
os.makedirs(out, exist_ok=True)


def row(what, figure):
    table.write(f"python|{what}|{figure}\n")
    table.flush()


graph_file = os.path.join(out, f"kronecker_{scale}.bin")
if not os.path.exists(graph_file):
    subprocess.run([exe, "generate", str(scale), graph_file], check=True, stdout=subprocess.DEVNULL)
backends = ["cuda", "cpu"] if gpu500.cuda_available() else ["cpu"]
g = gpu500.read_graph(graph_file)


def best_of(k, f):
    t = float("inf")
    for _ in range(k):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t


# A Graph made from NumPy arrays (the caller's own, int64 ids and float32 weights) against one
# read from the binary file (in the page cache after the first read); the best of three each.
src, dst, w = g.src.copy(), g.dst.copy(), None if g.weights is None else g.weights.copy()
t_read = best_of(3, lambda: gpu500.read_graph(graph_file))
t_arrays = best_of(3, lambda: gpu500.Graph.from_edges(src, dst, w))
row(f"Graph.from_edges vs read_graph, {len(src)} edges (SCALE {scale})",
    f"from NumPy arrays {t_arrays * 1e3:.1f} ms, from the binary file {t_read * 1e3:.1f} ms "
    f"(x{t_arrays / t_read:.3f} the file's time)")
del src, dst, w
rounds = int(os.environ.get("PYBENCH_ROUNDS", "5"))
for be in backends:
    record = os.path.join(out, f"cli-bfs-{be}.json")
    g.engine("bfs", be)  # kernel 1 and the engine's buffers, outside the timed calls
    cli, lib, wall = [], [], []
    for k in range(rounds):  # the two alternate, so that a drift of the host or the GPU hits both
        subprocess.run([exe, "bfs", "--graph", graph_file, "--backend", be, "--roots", str(nroots), "--seed", "7",
                        "--json", record], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        searches = json.load(open(record))["searches"]
        roots = [s["root"] for s in searches]
        cli += [s["time"] for s in searches]
        if k == 0:
            g.bfs(roots[0], backend=be)  # a first search (lazy allocations), as the CLI's warm-up
        for r in roots:
            t0 = time.perf_counter()
            res = g.bfs(r, backend=be)
            wall.append(time.perf_counter() - t0)
            lib.append(res.seconds)
    cli_t, lib_t, wall_t = statistics.median(cli), statistics.median(lib), statistics.median(wall)
    row(f"g.bfs vs gpu500 bfs, SCALE {scale}, {len(roots)} roots x {rounds}, {be}",
        f"per search: CLI {cli_t * 1e3:.3f} ms, Python {lib_t * 1e3:.3f} ms (x{lib_t / cli_t:.3f}); "
        f"wall per g.bfs call {wall_t * 1e3:.3f} ms (x{wall_t / cli_t:.2f}: the search, its validation, the tree and "
        f"levels brought out)")
    g.release()

try:
    import networkx as nx
except ImportError:
    row("NetworkX backend", "skipped: NetworkX is not installed")
    sys.exit(0)
n = int(os.environ.get("PYBENCH_NX_N", "200000"))
m = int(os.environ.get("PYBENCH_NX_M", "1000000"))
nx.config.warnings_to_ignore.add("cache")  # the second call uses the cached conversion, as meant
G = nx.gnm_random_graph(n, m, seed=1)
t_nx = float("inf")
for _ in range(2):  # the better of two: the first call also loads NetworkX's dispatch machinery
    t0 = time.perf_counter()
    own = sum(1 for _ in nx.bfs_edges(G, 0))
    t_nx = min(t_nx, time.perf_counter() - t0)
# The floor of any backend: the answer is own + 1 references to node objects in lists (a slice
# of a list copies as many); beside it, own + 1 new Python ints made from an array.
nodes = list(G)
ids = np.arange(own + 1, dtype=np.int64)
t_lists = t_ints = t_pairs = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    nodes[:own + 1]
    t_lists = min(t_lists, time.perf_counter() - t0)
    t0 = time.perf_counter()
    ids.tolist()
    t_ints = min(t_ints, time.perf_counter() - t0)
    t0 = time.perf_counter()
    sum(1 for _ in zip(nodes[:own], nodes[1:own + 1]))
    t_pairs = min(t_pairs, time.perf_counter() - t0)
for be in backends:  # the backend's engines on each of this host's backends
    nx.config.backends.gpu500.backend = be
    G = nx.gnm_random_graph(n, m, seed=1)  # a fresh graph: no conversion cached
    t0 = time.perf_counter()
    layers = list(nx.bfs_layers(G, 0, backend="gpu500"))
    t_first = time.perf_counter() - t0
    t_search = float("inf")
    for _ in range(3):  # the best of three
        t0 = time.perf_counter()
        layers = list(nx.bfs_layers(G, 0, backend="gpu500"))
        t_search = min(t_search, time.perf_counter() - t0)
    assert sum(len(x) for x in layers) == own + 1, "the backend's layers do not cover NetworkX's tree"
    t_edges = float("inf")
    for _ in range(3):  # the same call as NetworkX's own above, consumed the same way
        t0 = time.perf_counter()
        tree = sum(1 for _ in nx.bfs_edges(G, 0, backend="gpu500"))
        t_edges = min(t_edges, time.perf_counter() - t0)
    assert tree == own, "the backend's bfs_edges do not cover NetworkX's tree"
    row(f"NetworkX backend, G(n={n}, m={m}), {be}",
        f"bfs_layers {t_search * 1e3:.1f} ms, x{t_nx / t_search:.0f} NetworkX's bfs_edges ({t_nx:.2f} s); "
        f"bfs_edges {t_edges * 1e3:.1f} ms, x{t_nx / t_edges:.0f}; "
        f"first call with the conversion {t_first:.2f} s; a list of the answer's {own + 1} nodes alone takes "
        f"{t_lists * 1e3:.2f} ms (at most x{t_nx / t_lists:.0f}), as many new Python ints {t_ints * 1e3:.1f} ms; "
        f"its {own} (u, v) pairs made and counted alone {t_pairs * 1e3:.1f} ms (bfs_edges at most x{t_nx / t_pairs:.0f})")
nx.config.backends.gpu500.backend = "auto"
