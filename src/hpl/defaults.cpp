// The defaults of `gpu500 hpl` (gpu500/hpl/defaults.hpp): the per-device table, the device
// classes, and the sizing rule for N.
#include "gpu500/hpl/defaults.hpp"

#include <algorithm>
#include <cmath>

#include "gpu500/core/device.hpp"
#include "gpu500/dist/placement.hpp"
#include "gpu500/hpl/grid.hpp"
#include "solver.hpp"

namespace gpu500::hpl {

device_class classify_device(backend be, const std::string& name, std::int64_t memory_bytes) {
  if (be != backend::cuda) return device_class::cpu;
  constexpr std::int64_t gib = std::int64_t{1} << 30;
  if (name.find("H200") != std::string::npos && memory_bytes >= 120 * gib) return device_class::h200_141gb;
  if (name.find("H100") != std::string::npos && memory_bytes >= 70 * gib) return device_class::h100_80gb;
  return device_class::other_cuda;
}

device_class this_device_class(backend be, int ordinal) {
  if (be != backend::cuda) return device_class::cpu;
  const int count = dist::gpu_count();
  if (count < 1) return device_class::other_cuda;
  const auto d = detail::cuda_device(std::max(0, ordinal) % count);
  return classify_device(be, d.name, d.total);
}

const char* device_class_name(device_class c) {
  switch (c) {
    case device_class::h100_80gb: return "H100 80GB";
    case device_class::h200_141gb: return "H200 141GB";
    case device_class::other_cuda: return "CUDA device";
    case device_class::cpu: break;
  }
  return "CPU";
}

tuned_defaults defaults_for(device_class c, bool one_by_one) {
  tuned_defaults d;
  switch (c) {
    case device_class::h100_80gb:
    case device_class::h200_141gb:
      // H100 80GB HBM3, 16 host cores, N = 95000, 1 x 1: NB 1024 with --gpu-panel-first
      // --tail-getrf 32768 ran at 45.7 TFLOP/s against 35.3 with NB 192 and the tail at N/3
      // (docs/hpl.md, "Measured"). Every panel on the GPU: CPU panels above 56000 rows (with
      // --panel-gemm-gpu 256) gain 1-2 % on a host whose cores are free and fast (H100, 16
      // cores: 45.97 against 45.22; 4 x H200, 64 cores: 46.00 against 45.06) and lose up to
      // 16 % where they are not (H100, 16 slower cores, N = 98304: 38.25, 37.92 and 42.59
      // against 45.11), so the default takes the one that holds 98 % everywhere. H200: no
      // measured best of its own, so the H100 entry.
      d.measured = "H100 80GB, N = 98304, 1 x 1: every panel on the GPU 45.11 TFLOP/s, CPU panels above 56000 rows 37.92-42.59 on the same host";
      if (one_by_one) {
        d.nb = 1024;
        d.tail_getrf = 32768;
        d.gpu_panel = every_panel;
        d.gpu_panel_first = true;
      } else {
        // P x Q grids, one process per GPU, GPU panels (defaults_for_grid) and NCCL: on 4 x H200,
        // 1 x 4, N = 180000, NB 1024 ran at 180.2 TFLOP/s against 162.3 with NB 384
        // (bench/hpl/multigpu.sh, docs/hpl.md "Several GPUs").
        d.nb = 1024;
        d.measured = "4 x H200, 1 x 4, N = 180000: NB 1024 180.2 TFLOP/s against 162.3 with NB 384";
      }
      break;
    case device_class::other_cuda:
      // No measurement on other devices: netlib's sample NB, the cuSOLVER tail at N/3 (at
      // N = 95000, NB 384 on the H100 it took the run from 38.97 to 40.51 TFLOP/s).
      d.measured = "no measurement: netlib's NB, the tail at N/3";
      break;
    case device_class::cpu:
      d.measured = "netlib's sample HPL.dat (NB 192)";
      break;
  }
  return d;
}

tuned_defaults defaults_for_grid(device_class c, int p, int q) {
  if (p * q == 1) return defaults_for(c, true);
  tuned_defaults d = defaults_for(c, false);
  const tuned_defaults one = defaults_for(c, true);
  // Every panel on the GPU where 1 x 1 has it so. With P = 1 CPU panels of the largest columns
  // left the GPUs idle: on 2 x H200, 1 x 2, N = 127000 ran at 90.8 TFLOP/s with every panel on
  // the GPU against 76.4 with CPU panels above 2 x 56000 rows (bench/hpl/multigpu.sh,
  // docs/hpl.md "Several GPUs"). With P > 1 a CPU panel needs a pivot all-reduce per column.
  d.gpu_panel = one.gpu_panel;
  d.gpu_panel_first = one.gpu_panel_first;
  return d;
}

namespace {

// Bytes one process needs for order n on the grid (see the header's sizing rule).
std::int64_t bytes_needed(backend be, std::int64_t n, int p, int q, int nb) {
  const std::int64_t mp = (n + static_cast<std::int64_t>(nb) * p - 1) / (static_cast<std::int64_t>(nb) * p) * nb;
  const std::int64_t nq = (n + 1 + static_cast<std::int64_t>(nb) * q - 1) / (static_cast<std::int64_t>(nb) * q) * nb;
  if (be != backend::cuda) return 8 * leading_dimension(std::max<std::int64_t>(1, mp), 8, 1) * nq;
  if (p * q == 1) {
    const std::int64_t lda = leading_dimension(std::max<std::int64_t>(1, n), 32, 32);
    return 8 * (lda * (n + 1) + 4 * n + n * nb);
  }
  const std::int64_t lda = leading_dimension(std::max<std::int64_t>(1, mp), 32, 32);
  const std::int64_t gathered = p > 1 ? 2 * n * nb : 0;  // GPU panels over process rows
  return 8 * (lda * nq + 2 * static_cast<std::int64_t>(nb) * (mp + nq + 2 * static_cast<std::int64_t>(nb)) + 4 * n +
              gathered);
}

}  // namespace

sizing choose_n(backend be, std::int64_t memory_bytes, int p, int q, int nb) {
  sizing s;
  if (memory_bytes <= 0 || nb < 1 || p < 1 || q < 1) return s;
  constexpr std::int64_t two_gib = std::int64_t{2} << 30;
  s.margin = be == backend::cuda ? std::max<std::int64_t>(memory_bytes * 6 / 100, two_gib) : memory_bytes / 2;
  const std::int64_t usable = memory_bytes - s.margin;
  if (usable <= 0) return s;
  // From the matrix alone upwards, then down to what fits with the workspaces.
  const double est = std::sqrt(static_cast<double>(usable) / 8.0 * p * q);
  std::int64_t n = static_cast<std::int64_t>(est) / nb * nb + nb;
  while (n > 0 && bytes_needed(be, n, p, q, nb) > usable) n -= nb;
  s.n = std::max<std::int64_t>(0, n);
  s.bytes_used = s.n > 0 ? bytes_needed(be, s.n, p, q, nb) : 0;
  return s;
}

std::int64_t memory_for_sizing(backend be, int ordinal, int ranks_on_node) {
  if (be == backend::cuda) {
    const int count = dist::gpu_count();
    return count < 1 ? 0 : detail::cuda_device(std::max(0, ordinal) % count).free;
  }
  return host_available_memory() / std::max(1, ranks_on_node);
}

}  // namespace gpu500::hpl
