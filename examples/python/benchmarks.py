"""Whole benchmark runs as functions, each returning the record `--json` writes; progress lines
to a callable (or to logging.getLogger("gpu500"))."""
import gpu500

record = gpu500.graph500(10, roots=4, progress=lambda line: print("  ", line))
print("graph500: valid", record["valid"], "BFS harmonic mean TEPS", record["bfs"]["harmonic_mean_TEPS"])
hpl = gpu500.hpl(n=256, nb=64)               # prints the HPL.out layout, as `gpu500 hpl` does
print("hpl:", hpl["tests"][0]["gflops"], "GFLOP/s")
mxp = gpu500.hpl_mxp(n=256, nb=64)
print("hpl-mxp:", mxp["gflops"], "GFLOP/s, backward error", mxp["backward_error"])
