// src/sssp/cuda/options.cpp — names of the GPU SSSP engine's option values and the baseline variant
// (host code, no CUDA). The command-line flags that set these options live with the program
// (apps/gpu500/pipeline_flags.cpp), not here.
#include "gpu500/sssp/cuda.hpp"

namespace gpu500::sssp::cuda {

const char* algorithm_name(algorithm a) { return a == algorithm::bellman_ford ? "bellman-ford" : "delta-stepping"; }
const char* loop_name(loop_kind l) { return l == loop_kind::host ? "host" : "persistent"; }
const char* cut_name(cut_search c) { return c == cut_search::binary ? "binary" : "gallop"; }

options baseline_options(options o) {
  o.cut = cut_search::binary;
  o.arcs_per_lane = 1;
  o.vertices_per_lane = 1;
  o.chunk = 2048;
  o.no_lean = true;
  o.no_row_records = true;
  o.pull_above = 0;
  o.interleave = 0;
  o.pull_first = 0;
  o.delta_scale = 1.0f;
  o.no_device_loop = true;
  return o;
}

}  // namespace gpu500::sssp::cuda
