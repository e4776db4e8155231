// gpu500/dist/placement.hpp — where a rank runs: its GPU and its cores.
//
// One MPI rank per GPU: a rank's GPU is its node-local rank (communicator::node_rank(), the
// ranks of MPI_COMM_TYPE_SHARED) modulo the GPUs its host shows; more ranks on a host than GPUs
// is an error unless the ranks may share GPUs. Every GPU component (Graph500 over ranks, HPL,
// HPL-MxP) places its ranks through this header.
//
// Cores (the HPL programs, which bind): with several ranks on a host each is bound
// (sched_setaffinity) to a slice of the host's cores: the ranks whose GPUs hang off the same CPUs
// (the GPU's /sys/bus/pci/devices/<bus id>/local_cpulist) split those CPUs evenly; without that
// list the host's cores are split evenly. OpenBLAS and OpenMP then get the slice size minus one
// thread (the panel thread). A single rank on a host is left as it is, except a CUDA rank on a
// host where its GPU is near only some of the cores it may use (several sockets): it is bound to
// those, with as many threads, so that the CPU panel's threads and memory stay on the GPU's
// socket. (The programs that do not bind size their OpenMP teams by host_threads.hpp.)
#pragma once

#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"

namespace gpu500::dist {

// ---- The GPU of a rank ----

/// The GPU of node-local rank `node_rank` on a host of `gpus` GPUs (`gpus` below 1 counts as 1).
[[nodiscard]] constexpr int gpu_of_node_rank(int node_rank, int gpus) { return node_rank % (gpus < 1 ? 1 : gpus); }
/// The ranks of a host that share node rank `node_rank`'s GPU when each of the host's
/// `node_ranks` ranks takes gpu_of_node_rank; this rank included, so at least 1. Ranks on GPUs
/// that get more ranks than others see a larger count, which is what dividing a GPU's free
/// memory needs.
[[nodiscard]] constexpr int ranks_on_gpu_of(int node_rank, int node_ranks, int gpus) {
  const int g = gpus < 1 ? 1 : gpus;
  const int device = node_rank % g;
  return node_ranks > device ? (node_ranks - 1 - device) / g + 1 : 1;
}
/// The CUDA devices this process sees, without creating a context on any (0 without CUDA).
[[nodiscard]] int gpu_count();
/// Makes CUDA device `ordinal` (wrapped modulo gpu_count(), negative as 0) this process's
/// current device; throws gpu500::error naming the CUDA error. Nothing without CUDA.
void use_gpu(int ordinal);
/// Makes the GPU of node-local rank `node_rank` (gpu_of_node_rank) the current device; throws
/// resource_error "<program>: --backend cuda needs a CUDA device" when there is none.
void use_gpu_of_rank(int node_rank, const char* program = "HPL");
/// PCI bus id of CUDA device `ordinal` ("0000:1B:00.0"); empty when unknown or without CUDA.
[[nodiscard]] std::string gpu_pci_bus_id(int ordinal);

// ---- The cores of a rank ----

/// Parse a Linux CPU list ("0-3,8,10-11"); malformed parts are skipped.
[[nodiscard]] std::vector<int> parse_cpu_list(const std::string& s);
/// Format a sorted CPU list back into ranges ("0-3,8").
[[nodiscard]] std::string format_cpu_list(const std::vector<int>& cpus);
/// The cores of node-local rank `local_rank` out of `near.size()` ranks on the node: near[i] =
/// the CPUs nearest rank i's GPU (empty: unknown). Ranks with the same non-empty near list split
/// its cores (those in node_cores) evenly in rank order; a rank whose list is unknown or holds
/// none of node_cores gets an even slice of node_cores over all ranks. Slices are contiguous,
/// their sizes differ by at most one; with more ranks than cores a rank gets one core
/// (round-robin).
[[nodiscard]] std::vector<int> core_slice(const std::vector<int>& node_cores, const std::vector<std::vector<int>>& near,
                                          int local_rank);
/// The cores a lone process is bound to: those of `near` (its GPU's local_cpulist) among
/// `allowed` (its affinity mask), when they are fewer than `allowed`; else none (left as it is).
[[nodiscard]] std::vector<int> lone_process_cores(const std::vector<int>& allowed, const std::vector<int>& near);

// ---- Both, for a process of the HPL programs ----

/// Where this process runs.
struct placement {
  int local_rank = 0, local_size = 1;
  int gpu = -1;            ///< CUDA device ordinal (-1: CPU backend)
  std::vector<int> cores;  ///< bound to these (empty: left unbound)
  bool near_gpu = false;   ///< the slice came from the GPU's local_cpulist
  int threads = 0;         ///< OpenBLAS / OpenMP threads set (0: unchanged)
};

/// Node-local rank and rank count of the world communicator (0 of 1 without MPI). Collective
/// when MPI is initialised.
[[nodiscard]] placement node_placement();
/// Choose the GPU and bind this process (see the file comment). Throws usage_error when the
/// node's ranks outnumber its GPUs and !share_gpus; `program` begins the messages.
placement place_process(backend be, bool share_gpus, const char* program = "hpl");
/// One line: rank, node rank, GPU, cores, threads.
[[nodiscard]] std::string describe(const placement& p, int world_rank);

}  // namespace gpu500::dist
