// src/sssp/cuda/options.cpp — command-line flags of the GPU SSSP engine (host code, no CUDA).
// The flags carry a "gpu" in their names so that they can share a parser with the CPU engine's
// (--sssp-delta, --sssp-threads).
#include <string>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/sssp/cuda.hpp"

namespace gpu500::sssp::cuda {

const char* algorithm_name(algorithm a) { return a == algorithm::bellman_ford ? "bellman-ford" : "delta-stepping"; }
const char* loop_name(loop_kind l) { return l == loop_kind::host ? "host" : "persistent"; }
const char* cut_name(cut_search c) { return c == cut_search::binary ? "binary" : "gallop"; }

namespace {

/// An option whose value is a count per lane of a kernel compiled for 1, 2 and 4 only.
void per_lane_option(cli::parser& p, const char* name, int& target, const char* help, const char* meta) {
  p.option(
      name,
      [&target, name](const std::string& v) {
        const auto k = cli::parse_int(v, name);
        if (k != 1 && k != 2 && k != 4) throw usage_error(std::string(name) + ": expected 1, 2 or 4");
        target = static_cast<int>(k);
      },
      help, meta);
}

/// An integer option that must lie in [lo, hi].
void ranged_int_option(cli::parser& p, const char* name, int& target, long long lo, long long hi, const char* help,
                       const char* meta) {
  p.option(
      name,
      [&target, name, lo, hi](const std::string& v) {
        const auto k = cli::parse_int(v, name);
        if (k < lo || k > hi)
          throw usage_error(std::string(name) + ": expected " + std::to_string(lo) + ".." + std::to_string(hi));
        target = static_cast<int>(k);
      },
      help, meta);
}

}  // namespace

options first_version_options(options o) {
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
  return o;
}

void add_options(cli::parser& p, options& o) {
  p.option(
      "--sssp-gpu",
      [&o](const std::string& v) {
        if (v == "delta" || v == "delta-stepping" || v == "near-far") o.algo = algorithm::delta_stepping;
        else if (v == "bellman-ford" || v == "bf") o.algo = algorithm::bellman_ford;
        else throw usage_error("--sssp-gpu: expected delta or bellman-ford, got '" + v + "'");
      },
      "GPU SSSP algorithm: delta (delta-stepping, default) or bellman-ford (one infinite bucket)", "ALG");
  p.option(
      "--sssp-gpu-delta",
      [&o](const std::string& v) { o.delta = static_cast<float>(cli::parse_double(v, "--sssp-gpu-delta")); },
      "GPU SSSP bucket width (<= 0: adaptive, the default)", "X");
  p.option(
      "--sssp-gpu-delta-scale",
      [&o](const std::string& v) {
        o.delta_scale = static_cast<float>(cli::parse_double(v, "--sssp-gpu-delta-scale"));
        if (!(o.delta_scale > 0.0f && o.delta_scale <= 1e6f)) throw usage_error("--sssp-gpu-delta-scale: expected (0, 1e6]");
      },
      "GPU SSSP adaptive width: scale the start width by this factor (default 0.7)", "F");
  p.option(
      "--sssp-gpu-grow",
      [&o](const std::string& v) {
        o.grow_below = cli::parse_int(v, "--sssp-gpu-grow");
        if (o.grow_below < 0) throw usage_error("--sssp-gpu-grow: must be >= 0");
      },
      "GPU SSSP adaptive width: double it after a bucket settling fewer vertices (0: never)", "N");
  p.option(
      "--sssp-gpu-loop",
      [&o](const std::string& v) {
        if (v == "persistent") o.loop = loop_kind::persistent;
        else if (v == "host") o.loop = loop_kind::host;
        else throw usage_error("--sssp-gpu-loop: expected persistent or host, got '" + v + "'");
      },
      "GPU SSSP bucket loop: persistent (one cooperative kernel, default) or host (a launch per phase)", "L");
  ranged_int_option(p, "--sssp-gpu-blocks", o.blocks_per_sm, 0, 64,
                    "GPU SSSP persistent kernel: blocks per SM (0: as many as fit)", "N");
  p.flag("--sssp-gpu-profile", o.profile, "GPU SSSP: time every phase (host loop, synchronising; slow)");
  p.flag("--sssp-gpu-unsorted", o.unsorted_rows, "GPU SSSP: no weight-sorted copy of the rows (less memory, slower)");
  p.flag("--sssp-gpu-no-filter", o.no_settled_filter, "GPU SSSP: no settled-vertex bitmap in the heavy pass");
  p.option(
      "--sssp-gpu-cut",
      [&o](const std::string& v) {
        if (v == "gallop") o.cut = cut_search::gallop;
        else if (v == "binary") o.cut = cut_search::binary;
        else throw usage_error("--sssp-gpu-cut: expected gallop or binary, got '" + v + "'");
      },
      "GPU SSSP: light/heavy cut of a sorted row by galloping (default) or binary search", "S");
  per_lane_option(p, "--sssp-gpu-ilp", o.arcs_per_lane, "GPU SSSP: arcs per lane in flight together (1, 2 or 4; default 4)",
                  "K");
  per_lane_option(p, "--sssp-gpu-vpl", o.vertices_per_lane,
                  "GPU SSSP: vertices per lane in a scan or list step (1, 2 or 4; default 4)", "B");
  ranged_int_option(p, "--sssp-gpu-chunk", o.chunk, 32, 1 << 20, "GPU SSSP: arcs per chunk of a long row (default 256)",
                    "N");
  ranged_int_option(p, "--sssp-gpu-light-row", o.light_row, 32, 1 << 20,
                    "GPU SSSP: light ranges longer than this become chunks (default 512)", "N");
  ranged_int_option(p, "--sssp-gpu-grab", o.grab, 1, 8,
                    "GPU SSSP: 32-vertex groups a warp takes from a list at once (default 4)", "N");
  p.option(
      "--sssp-gpu-interleave",
      [&o](const std::string& v) {
        const auto c = cli::parse_int(v, "--sssp-gpu-interleave");
        if (c != 0 && c != 1 && c != 2 && c != 4 && c != 8 && c != 16 && c != 32)
          throw usage_error("--sssp-gpu-interleave: expected 0, 1, 2, 4, 8, 16 or 32");
        o.interleave = static_cast<int>(c);
      },
      "GPU SSSP: warps take strided samples of a list in runs of N entries (default 1; 0: contiguous batches)", "N");
  p.flag("--sssp-gpu-no-lean", o.no_lean, "GPU SSSP: full-vertex scans and weight-first heavy arcs (the first version)");
  p.flag("--sssp-gpu-queue-bitmaps", o.queue_bitmaps, "GPU SSSP: queue bitmaps instead of per-vertex queue stamps");
  p.flag("--sssp-gpu-no-rows", o.no_row_records, "GPU SSSP: no 16-byte row records (offsets and first weight read apart)");
  p.option(
      "--sssp-gpu-pull",
      [&o](const std::string& v) {
        o.pull_above = cli::parse_double(v, "--sssp-gpu-pull");
        if (!(o.pull_above >= 0.0 && o.pull_above <= 1.0)) throw usage_error("--sssp-gpu-pull: expected 0..1");
      },
      "GPU SSSP: pull the hubs' heavy arcs when their chunks exceed this fraction of all arcs (default 0.02; 0: off)", "F");
  p.option(
      "--sssp-gpu-pull-first",
      [&o](const std::string& v) {
        o.pull_first = cli::parse_double(v, "--sssp-gpu-pull-first");
        if (!(o.pull_first >= 0.0 && o.pull_first <= 100.0)) throw usage_error("--sssp-gpu-pull-first: expected 0..100");
      },
      "GPU SSSP: pull instead of a bucket's heavy pass when its heavy arcs exceed this fraction of all arcs (default 0.05; 0: off)", "F");
  p.flag("--sssp-gpu-trace", o.trace, "GPU SSSP: record every phase's time and size (persistent loop)");
}

}  // namespace gpu500::sssp::cuda
