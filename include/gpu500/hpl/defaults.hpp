// gpu500/hpl/defaults.hpp — what `gpu500 hpl` uses when the user does not say: the per-device
// table of NB and panel options, and the largest N that fits the memory.
//
// Defaults table (src/hpl/defaults.cpp, one entry per device class and grid kind, each with the
// measurement behind it). Explicit flags and HPL.dat values always win; on grids larger than
// 1 x 1, NB and the GPU-panel options apply (defaults_for_grid; the other panel options are
// 1 x 1 techniques).
//
// Sizing (choose_n): the largest N, a multiple of NB, whose N x (N+1) doubles over the P x Q
// processes plus the solver's own workspaces fit one process's memory less a margin:
//   CUDA: margin = max(6 % of the device's memory, 2 GiB), taken from the free device memory;
//         workspaces = the 1 x 1 solver's check vectors (4 N doubles) and cuSOLVER getrf space
//         (bounded by N x NB doubles), or the P x Q solver's two device panel packs, the U and
//         swap buffers (about 2 NB x (local rows + local columns + 2 NB) doubles) and, with
//         P > 1, the two N x NB buffers of the gathered GPU panel.
//   CPU:  50 % of the host's available memory, shared evenly by the node's ranks, no workspace
//         term (the panel buffers are a few NB-wide columns).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gpu500/core/types.hpp"

namespace gpu500::hpl {

enum class device_class { h100_80gb, h200_141gb, other_cuda, cpu };

/// One entry of the table. Row counts (gpu_panel, tail_getrf) are absolute: they mark where
/// the trailing matrix gets too small for the update to hide a CPU panel, which depends on the
/// trailing size and the device, not on N.
struct tuned_defaults {
  int nb = 192;                           ///< short form's NB when -NB is not given
  std::optional<std::int64_t> tail_getrf; ///< unset: N/3
  std::int64_t gpu_panel = 0;             ///< --gpu-panel
  bool gpu_panel_first = false;           ///< --gpu-panel-first
  std::int64_t panel_gemm_gpu = 0;        ///< --panel-gemm-gpu
  const char* measured = "";              ///< the measurement behind the entry
};

/// The class of a device from its name and memory (bytes); backend::cpu -> device_class::cpu.
device_class classify_device(backend be, const std::string& name, std::int64_t memory_bytes);
/// The class of this process's device: CUDA device `ordinal` (modulo the count) or the CPU.
device_class this_device_class(backend be, int ordinal);
const char* device_class_name(device_class c);

/// The table: defaults for a device class on a 1 x 1 grid (one_by_one) or a larger one.
tuned_defaults defaults_for(device_class c, bool one_by_one);
/// A gpu_panel row bound that puts every panel on the GPU.
inline constexpr std::int64_t every_panel = std::int64_t{1} << 62;

/// The defaults of a P x Q grid: the table's entry, and where the 1 x 1 entry has GPU panels:
///  - P = 1: the 1 x 1 row bound times Q. Of a trailing block of m rows a process updates
///    m^2 NB / Q while its CPU panel has all m rows (m NB^2), so a CPU panel stops hiding behind
///    the update at Q times the 1 x 1 row count;
///  - P > 1: every panel on the GPU. A CPU panel over process rows pays an MPI all-reduce per
///    column for its pivot search: on 2 x H200 (2 x 1, N = 127000) it made the iterations
///    panel-bound from the start (docs/hpl.md, "Several GPUs").
tuned_defaults defaults_for_grid(device_class c, int p, int q);

/// The sizing rule's result.
struct sizing {
  std::int64_t n = 0;          ///< a multiple of nb (0 when not even one block fits)
  std::int64_t bytes_used = 0; ///< per process: the matrix part plus the workspaces
  std::int64_t margin = 0;     ///< per process: the memory left free by the rule
};

/// The largest N (a multiple of nb) for memory_bytes per process (CUDA: the device's free
/// memory; CPU: the host's available memory divided by the node's ranks) on a p x q grid.
sizing choose_n(backend be, std::int64_t memory_bytes, int p, int q, int nb);

/// The memory choose_n sizes against on this process: CUDA device `ordinal`'s free memory,
/// or the host's available memory divided by `ranks_on_node`. 0 when unknown.
std::int64_t memory_for_sizing(backend be, int ordinal, int ranks_on_node);

/// The CPU backends' default N is also held to a run of about this many seconds (memory alone
/// allows runs of hours there): GPU500_HPL_SECONDS (decimal, in (0, 1e7]; else usage_error), or 60.
double cpu_default_seconds();
/// Flop/s of this process's BLAS on a rank-256 update of a 1024 x 1024 block (the shape of the
/// LU's trailing update at the CPU's NB), in double (DGEMM) or single (SGEMM) precision: the best
/// of three after one untimed call, about 0.05 s with OpenBLAS on two cores, 1 s with the
/// reference BLAS.
double cpu_gemm_rate(bool single_precision);
/// The largest multiple of nb (nb at least) whose LU (2/3 N^3 flops) ends within `seconds` at
/// `flops_per_second`.
std::int64_t n_for_time(double flops_per_second, double seconds, int nb);
/// The CPU's default N: the smaller of by_memory and n_for_time(rate, cpu_default_seconds(), nb);
/// with `print`, the line saying so on stderr ("<command>: N = ... expected from a <probe> probe
/// ...; about T s; -N chooses another"). memory_words: how the memory bound is named.
std::int64_t cpu_default_n(const char* command, const char* probe, std::int64_t by_memory, const char* memory_words,
                           double rate, int nb, bool print);

}  // namespace gpu500::hpl
