"""gpu500.HashMap: the hash component's tables over NumPy arrays of 64-bit keys and values,
GLHT (the GPU lock-free hopscotch table) on backend "cuda", the concurrent hopscotch table on
OpenMP threads on "cpu". Every call is one batch run concurrently by the library. Keys and values
may also be CUDA arrays (PyTorch, CuPy: int64 or uint64): GLHT works on them in place and find
answers in arrays of the same library on the same GPU."""
import importlib

import numpy as np

from . import _core
from ._graph import _on_device


def _like(a, out):
    """The DLPack array `out` as an array of a's library (torch, cupy, ...), without a copy."""
    return importlib.import_module(type(a).__module__.split(".")[0]).from_dlpack(out)


def _words(a, name):
    """a as C-contiguous uint64 (int64 reinterpreted bit for bit, without a copy)."""
    a = np.asarray(a)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    if a.size and not (np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_):
        raise ValueError(f"{name} must hold integers, got dtype {a.dtype}")
    if a.dtype == np.int64:
        return np.ascontiguousarray(a).view(np.uint64)
    if np.issubdtype(a.dtype, np.signedinteger):
        a = a.astype(np.int64)
        return a.view(np.uint64)
    return np.ascontiguousarray(a, dtype=np.uint64)


class HashMap:
    """A hash table of 64-bit keys and values.

        m = gpu500.HashMap(1 << 20, backend="cpu")     # or "cuda" (GLHT), "auto"
        m.insert(keys, values)      # the absent keys are inserted; a present key keeps its value
        values, found = m.find(keys)
        m.erase(keys); len(m)

    Keys and values are any integer arrays, taken as 64-bit words (int64 reinterpreted as
    uint64); found values come back in `dtype` (int64 by default). The two largest keys
    (2^64 - 1 and 2^64 - 2, i.e. -1 and -2 as int64) are reserved: ValueError. Within one call
    the operations run concurrently: when a key appears twice in one insert, one of its values
    is kept (which one is not specified). The table grows when it is full.

    CUDA keys and values (PyTorch, CuPy; int64 or uint64) stay on the GPU: GLHT reads them in
    place and find answers in CUDA arrays of the keys' library (found as bool). The library does
    not read them on the host, so a reserved key is found out late: insert raises ValueError after
    the batch ran (its other keys are in), find reports it absent, erase skips it."""

    def __init__(self, capacity, backend="auto", dtype=np.int64):
        self.dtype = np.dtype(dtype)
        if self.dtype.itemsize != 8 or self.dtype.kind not in "iu":
            raise ValueError(f"dtype must be int64 or uint64, got {self.dtype}")
        self._t = _core.HashMapCore(int(capacity), backend)

    @property
    def backend(self):
        """"cpu" or "cuda"."""
        return self._t.backend

    @property
    def capacity(self):
        """The number of buckets (it doubles when the table grows)."""
        return self._t.capacity

    def insert(self, keys, values):
        """Inserts (keys[i], values[i]) for each key not present (a scalar value goes to every
        key); returns how many were inserted."""
        if _on_device(keys):
            if not _on_device(values):
                raise ValueError("keys are on a GPU: values must be a CUDA array of the same length too")
            return self._t.insert_device(keys, values)
        k = _words(keys, "keys")
        v = np.asarray(values)
        if v.ndim == 0:
            v = np.full(k.size, v, dtype=v.dtype)
        return self._t.insert(k, _words(v, "values"))

    def find(self, keys):
        """(values, found): found[i] (bool) says whether keys[i] is present, values[i] (in
        `dtype`) its value, 0 where absent. CUDA keys give CUDA arrays of their library."""
        if _on_device(keys):
            values, found = self._t.find_device(keys, self.dtype == np.int64)
            if isinstance(values, np.ndarray):  # the CPU table
                return values.view(self.dtype), found.view(np.bool_)
            return _like(keys, values), _like(keys, found) != 0
        values, found = self._t.find(_words(keys, "keys"))
        return values.view(self.dtype), found.view(np.bool_)

    def erase(self, keys):
        """Erases the keys present; returns how many were."""
        if _on_device(keys):
            return self._t.erase_device(keys)
        return self._t.erase(_words(keys, "keys"))

    def contains(self, keys):
        """A boolean array: whether each key is present."""
        return self.find(keys)[1]

    def items(self):
        """(keys, values) of every pair in the table (keys as uint64, values in `dtype`), in no
        particular order."""
        k, v = self._t.items()
        return k, v.view(self.dtype)

    def to_dict(self):
        """The table as a Python dict {key: value} (keys as Python ints of the uint64 words)."""
        k, v = self.items()
        return dict(zip(k.tolist(), v.tolist()))

    def clear(self):
        """Removes every key."""
        self._t.clear()

    def __len__(self):
        return self._t.size()

    def __contains__(self, key):
        return bool(self.contains([key])[0])

    def __repr__(self):
        return f"HashMap({len(self)} keys, capacity {self.capacity}, backend {self.backend!r})"
