"""Benchmarks as functions: a whole Graph500, HPL or HPL-MxP run, returning the record the CLI
writes with --json, parsed into a dict. Progress: the lines the CLI prints on stderr go, one
call a line, to a `progress` callable (progress=True: printed on sys.stderr), or, by default,
to the logger "gpu500" at level INFO when that logger has a handler and INFO enabled."""
import json
import logging
import os
import sys
import tempfile

from . import _core

logger = logging.getLogger("gpu500")


def _sink(progress):
    """Where progress lines go: the callable, the logger "gpu500" (progress None, when it would
    emit INFO records somewhere), or nowhere (False, or a silent logger)."""
    if progress is False:
        return None
    if progress is True:
        return lambda line: print(line, file=sys.stderr, flush=True)
    if progress is None:
        return logger.info if logger.isEnabledFor(logging.INFO) and logger.hasHandlers() else None
    if not callable(progress):
        raise ValueError(f"progress must be a callable, None, True or False, got {progress!r}")
    return progress


def graph500(scale, edgefactor=16, backend="auto", roots=None, seed=(2, 3), kernels="bfs,sssp", validate=True,
             progress=None):
    """`gpu500 graph500 SCALE EDGEFACTOR --json`: generator, kernel 1, the searches of `kernels`
    ("bfs,sssp", "bfs" or "sssp") from 64 search keys (roots=N: N distinct keys), each validated
    unless validate=False; the JSON record as a dict. Prints nothing on stdout; progress lines
    (one per search) go to `progress` (see the module). A failed validation raises RuntimeError."""
    s1, s2 = seed
    return json.loads(_core.graph500(scale, edgefactor, backend, roots, s1, s2, kernels, validate, _sink(progress)))


def _json_run(fn, progress, *args):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "record.json")
        rc = fn(*args, path, _sink(progress))
        with open(path) as f:
            return rc, json.load(f)


def hpl(n=None, nb=None, backend="auto", progress=None):
    """`gpu500 hpl -N n -NB nb --json`: one HPL test on a 1 x 1 grid (n None: the largest that fits
    the memory; nb None: the device's default); the JSON record as a dict. The HPL.out layout is
    printed on standard output, as the CLI prints it; progress lines go to `progress`. A failed
    residual check raises RuntimeError."""
    rc, record = _json_run(_core.hpl, progress, n, nb, backend)
    if rc != 0:
        raise RuntimeError("HPL: the residual check failed")
    return record


def hpl_mxp(n=None, nb=None, backend="auto", precision=None, max_iters=50, progress=None):
    """`gpu500 hpl-mxp -N n -NB nb --precision P --json`: HPL-MxP in one process (low-precision LU,
    FP64 GMRES refinement; n None: the largest that fits the memory; nb None: the device's
    default; precision None: bf16 on cuda, fp32 on cpu); the JSON record as a dict. The result
    block is printed on standard output as the CLI prints it; stage lines go to `progress`. A
    backward error above the threshold raises RuntimeError."""
    rc, record = _json_run(_core.hpl_mxp, progress, n, nb, backend, precision or "", max_iters)
    if rc != 0:
        raise RuntimeError("HPL-MxP: the backward error is above the threshold")
    return record
