"""Benchmarks as functions: a whole Graph500 or HPL run, returning the record the CLI writes with
--json, parsed into a dict."""
import json
import os
import tempfile

from . import _core


def graph500(scale, edgefactor=16, backend="auto", roots=None, seed=(2, 3), kernels="bfs,sssp", validate=True):
    """`gpu500 graph500 SCALE EDGEFACTOR --json`: generator, kernel 1, the searches of `kernels`
    ("bfs,sssp", "bfs" or "sssp") from 64 search keys (roots=N: N distinct keys), each validated
    unless validate=False; the JSON record as a dict. Prints nothing. A failed validation raises
    RuntimeError naming it."""
    s1, s2 = seed
    return json.loads(_core.graph500(scale, edgefactor, backend, roots, s1, s2, kernels, validate))


def hpl(n=None, nb=None, backend="auto"):
    """`gpu500 hpl -N n -NB nb --json`: one HPL test on a 1 x 1 grid (n None: the largest that fits
    the memory; nb None: the device's default); the JSON record as a dict. The HPL.out layout is
    printed on standard output, as the CLI prints it. A failed residual check raises RuntimeError."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "hpl.json")
        rc = _core.hpl(n, nb, backend, path)
        with open(path) as f:
            record = json.load(f)
    if rc != 0:
        raise RuntimeError("HPL: the residual check failed")
    return record
