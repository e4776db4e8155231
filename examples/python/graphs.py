"""gpu500 graphs from Python: NumPy arrays, string labels, an edge-list file (CSV with a header and
labelled vertices), NetworkX, the Graph500 Kronecker generator, and CUDA arrays (PyTorch) kept on
the GPU."""
import os
import tempfile

import numpy as np

import gpu500

g = gpu500.Graph.from_edges(np.array([0, 1, 2]), np.array([1, 2, 3]), np.array([1.0, 2.0, 0.5], dtype=np.float32))
print(g)                                                    # Graph(4 vertices, 3 edges, undirected, weighted)

cities = gpu500.Graph.from_edges(["oslo", "bergen"], ["bergen", "tromso"], [463.0, 1300.0])
print(cities.labels, cities.sssp("oslo").distance_dict())   # results name the vertices

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "roads.csv")
    with open(path, "w") as f:
        f.write("from,to,km\nalice,bob,2.5\nbob,carol,1\n")
    roads = gpu500.read_graph(path, labels=True, header=True)   # as `gpu500 sssp --labels --header`
    print(roads.labels, roads.num_edges)

try:
    import networkx as nx

    print(gpu500.Graph.from_networkx(nx.karate_club_graph()))
except ImportError:
    print("networkx is not installed: Graph.from_networkx skipped")

k = gpu500.Graph.generate(12)                               # Graph500's SCALE 12 Kronecker graph
print(k.num_vertices, k.num_edges)

try:
    import torch
except ImportError:
    torch = None
if torch is not None and torch.cuda.is_available() and gpu500.cuda_available():
    src = torch.randint(0, 1000, (5000,), device="cuda")        # int64 ids on the GPU
    dst = torch.randint(0, 1000, (5000,), device="cuda")
    dev = gpu500.Graph.from_edges(src, dst)                     # no host copy: the CUDA engine reads them there
    print(dev, dev.bfs(int(src[0])).level.max())
else:
    print("no PyTorch with a GPU: CUDA arrays skipped")
