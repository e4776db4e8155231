"""The hash component's table from Python: bulk insert, find, erase of 64-bit keys and values
(GLHT on a GPU, the concurrent hopscotch table on the CPU)."""
import numpy as np

import gpu500

m = gpu500.HashMap(1 << 16, backend="cuda" if gpu500.cuda_available() else "cpu")
keys = np.random.default_rng(1).integers(0, 1 << 40, size=100_000)
print("inserted", m.insert(keys, keys * 2), "of", keys.size, "->", len(m), "keys")
values, found = m.find(keys[:5])
print(values, found)
print("erased", m.erase(keys[:1000]), "->", len(m), "keys;", m)
