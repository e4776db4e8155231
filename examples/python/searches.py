"""Validated BFS and SSSP from Python: one root, several roots, results as NumPy arrays."""
import gpu500

g = gpu500.Graph.generate(14)                # 16,384 vertices, 262,144 weighted edges
r = g.bfs(int(g.src[0]))                     # validated by Graph500's rules; backend "auto"
print(r, "deepest level:", r.level.max())
s = g.sssp(int(g.src[0]))
print(s, "farthest:", s.distance.max())
for res in g.bfs(roots=[int(v) for v in g.src[1:4]], backend="cpu"):
    print(f"root {res.root}: {res.teps / 1e6:.1f} MTEPS on {res.backend}")
