"""The hash component's table from Python: bulk insert, find, erase of 64-bit keys and values
(GLHT on a GPU, the concurrent hopscotch table on the CPU), from NumPy arrays and, on a GPU, from
PyTorch CUDA tensors worked on in place."""
import numpy as np

import gpu500

m = gpu500.HashMap(1 << 16, backend="cuda" if gpu500.cuda_available() else "cpu")
keys = np.random.default_rng(1).integers(0, 1 << 40, size=100_000)
print("inserted", m.insert(keys, keys * 2), "of", keys.size, "->", len(m), "keys")
values, found = m.find(keys[:5])
print(values, found)
print("erased", m.erase(keys[:1000]), "->", len(m), "keys;", m)

try:
    import torch
except ImportError:
    torch = None
if torch is not None and torch.cuda.is_available() and m.backend == "cuda":
    tk = torch.arange(1 << 20, 2 << 20, device="cuda")          # keys stay on the GPU
    m.insert(tk, tk + 7)
    tv, tf = m.find(tk[:4])                                     # CUDA tensors back
    print(tv.device, tv.tolist(), tf.tolist())
else:
    print("no PyTorch with a GPU: CUDA tensors skipped")
