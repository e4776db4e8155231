"""gpu500 graphs from Python: NumPy arrays, string labels, an edge-list file (CSV with a header and
labelled vertices), NetworkX, and the Graph500 Kronecker generator."""
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
