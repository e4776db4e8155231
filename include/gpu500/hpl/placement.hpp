// gpu500/hpl/placement.hpp — one process per GPU under mpirun: which GPU and which cores.
//
// Every rank takes the GPU of its node-local rank (MPI_Comm_split_type shared); more ranks on a
// node than GPUs is an error unless the ranks may share GPUs (--share-gpus: node-local rank
// modulo the GPU count). With several ranks on a node each is bound (sched_setaffinity) to a
// slice of the node's cores: the ranks whose GPUs hang off the same CPUs (the GPU's
// /sys/bus/pci/devices/<bus id>/local_cpulist) split those CPUs evenly; without that list the
// node's cores are split evenly. OpenBLAS and OpenMP then get the slice size minus one thread
// (the panel thread). A single rank on a node is left as it is, except a CUDA rank on a host where
// its GPU is near only some of the cores it may use (several sockets): it is bound to those, with
// as many threads, so that the CPU panel's threads and memory stay on the GPU's socket.
#pragma once

#include <string>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500::hpl {

/// Parse a Linux CPU list ("0-3,8,10-11"); malformed parts are skipped.
std::vector<int> parse_cpu_list(const std::string& s);
/// Format a sorted CPU list back into ranges ("0-3,8").
std::string format_cpu_list(const std::vector<int>& cpus);

/// The cores of node-local rank `local_rank` out of `near.size()` ranks on the node: near[i] =
/// the CPUs nearest rank i's GPU (empty: unknown). Ranks with the same non-empty near list split
/// its cores (those in node_cores) evenly in rank order; a rank whose list is unknown or holds
/// none of node_cores gets an even slice of node_cores over all ranks. Slices are contiguous,
/// their sizes differ by at most one; with more ranks than cores a rank gets one core
/// (round-robin).
std::vector<int> core_slice(const std::vector<int>& node_cores, const std::vector<std::vector<int>>& near,
                            int local_rank);

/// The cores a lone process is bound to: those of `near` (its GPU's local_cpulist) among
/// `allowed` (its affinity mask), when they are fewer than `allowed`; else none (left as it is).
std::vector<int> lone_process_cores(const std::vector<int>& allowed, const std::vector<int>& near);

/// Where this process runs.
struct placement {
  int local_rank = 0, local_size = 1;
  int gpu = -1;            ///< CUDA device ordinal (-1: CPU backend)
  std::vector<int> cores;  ///< bound to these (empty: left unbound)
  bool near_gpu = false;   ///< the slice came from the GPU's local_cpulist
  int threads = 0;         ///< OpenBLAS / OpenMP threads set (0: unchanged)
};

/// Node-local rank and rank count (0 of 1 without MPI). Collective when MPI is initialised.
placement node_placement();
/// Choose the GPU and bind this process (see the file comment). Throws usage_error when the
/// node's ranks outnumber its GPUs and !share_gpus; `program` begins the messages.
placement place_process(backend be, bool share_gpus, const char* program = "hpl");
/// One line: rank, node rank, GPU, cores, threads.
std::string describe(const placement& p, int world_rank);

}  // namespace gpu500::hpl
