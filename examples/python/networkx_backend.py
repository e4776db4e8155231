"""gpu500 as a NetworkX backend: the same calls, backend="gpu500" (or NETWORKX_BACKEND_PRIORITY)."""
import sys

try:
    import networkx as nx
except ImportError:
    print("networkx is not installed")
    sys.exit(0)

nx.config.warnings_to_ignore.add("cache")  # the converted graph is cached on G on purpose
G = nx.grid_2d_graph(100, 100)
for u, v in G.edges():
    G.edges[u, v]["weight"] = 1 + (u[0] * 7 + v[1]) % 5
d = nx.single_source_dijkstra_path_length(G, (0, 0), backend="gpu500")
assert d == nx.single_source_dijkstra_path_length(G, (0, 0))
layers = list(nx.bfs_layers(G, (0, 0), backend="gpu500"))
tree = list(nx.bfs_edges(G, (0, 0), backend="gpu500"))  # (parent, node), level by level
assert len(tree) == G.number_of_nodes() - 1
assert nx.shortest_path_length(G, (0, 0), (99, 99), weight="weight", backend="gpu500") == d[(99, 99)]
print(len(d), "distances,", len(layers), "BFS layers,", len(tree), "tree edges, equal to NetworkX's")
