// gpu500/graph500/mpi_pipeline.hpp — the Graph500 pipeline over MPI ranks: a host backend
// (OpenMP inside each rank) and a CUDA backend (one GPU per rank, everything on the device).
//
// Vertices are shared by a 1-D block partition (dist/partition.hpp); every rank keeps the rows of
// its own vertices (global column ids, float weights). Per kernel (docs/distributed.md):
//  - generation: rank r generates edges [r*M/R, (r+1)*M/R) of the counter-based Kronecker
//    generator, so the union over ranks is the one-process edge list, bit for bit;
//  - kernel 1: every edge goes to the owners of its two endpoints (one all-to-all), which build
//    their rows by a counting sort (self-loops dropped, duplicates kept, weights kept);
//  - BFS: direction-optimising (Beamer); top-down levels send (child, parent) pairs to the
//    children's owners, bottom-up levels all-gather the frontier as a bitmap; the direction is
//    decided from global counts (one reduction per level);
//  - SSSP: the delta-stepping engine of one process (the host's, or the GPU's) with light and
//    heavy edges, relaxation requests (vertex, distance, parent) sent to the owners, the hubs'
//    heavy buckets pulled;
//  - validation: the reference's rules, checked without any rank holding the graph: the
//    endpoints' levels or distances fetched from their owners; it shares no search code with the kernels.
// The host backend is the pipeline of one process (cpu_pipeline.hpp) on the ranks' communicator.
// The CUDA backend runs the CUDA engines of one process over the ranks, handing device buffers to
// NCCL or a CUDA-aware MPI (or staging them through page-locked host memory); its validator is
// the GPU one over the ranks where it fits, else the host one (validation is untimed).
// Every method is collective: all ranks call it in the same order (the harness does). Times are
// the slowest rank's, measured from a barrier. With one rank (or without MPI) it runs as one
// process.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "gpu500/bfs/cuda.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/graph500/pipeline.hpp"
#include "gpu500/sssp/detail/cuda_options.hpp"

namespace gpu500::graph500 {

/// The CUDA backend's options over ranks (the host backend takes cpu_pipeline_options, as on one
/// process).
struct mpi_options {
  /// The validator asks each arc's far end of its owner even where every rank could hold one
  /// float per vertex (by default it all-gathers those when they fit; the tests check both ways).
  bool validator_asks_owners = false;
  /// Validate on the host (the host backend's validator, over host copies of the rows) even where
  /// the GPU validator's whole-graph arrays fit in the GPU's free memory (the tests check both;
  /// past that memory the host validator runs anyway).
  bool host_validator = false;
  /// The SSSP searches kernel 1's rows in place instead of its copy relabelled with the BFS's
  /// ids (what a run does where that copy and the GPU validator do not both fit; the tests check
  /// both ways).
  bool sssp_in_place = false;
  /// --vertex-bits: the width of the vertex ids in the rows the searches walk, 32 or 64 (0: 32 where
  /// every id fits; kernel 1's rows on the device hold 64-bit ids whatever the width). A width
  /// the graph does not fit is refused.
  int vertex_bits = 0;
  /// The CUDA BFS's techniques and knobs (gpu500/bfs/cuda.hpp), as on one process.
  bfs::cuda::options cuda_bfs{};
  /// The CUDA SSSP's (gpu500/sssp/cuda.hpp), as on one process.
  sssp::cuda::options cuda_sssp{};
  /// Let several ranks of a node use one GPU (ranks on a node beyond its GPUs are otherwise a
  /// usage_error). Rank k of a node takes GPU k mod (GPUs of the node).
  bool share_gpus = false;
  /// Exchange through page-locked host buffers even when NCCL or MPI could move device memory
  /// (default: NCCL, see no_nccl; else device buffers when MPIX_Query_cuda_support() says so).
  bool host_staging = false;
  /// Exchange through a CUDA-aware MPI (or staging) even where NCCL could run (default: NCCL
  /// between the GPUs when the build has it and every rank has a GPU of its own).
  bool no_nccl = false;
  /// Edges of a rank's slice per round of kernel 1 (0: the default, 2^26; the tests make it small
  /// to run many rounds).
  index_t kernel1_round_edges = 0;
};

/// What the harness needs (pipeline) plus the distributed run's own figures and result slices.
class mpi_pipeline : public pipeline {
 public:
  /// The vertices this rank owns.
  [[nodiscard]] virtual dist::vertex_range owned() const = 0;
  /// Arcs stored in this rank's rows (two per input edge that is not a self-loop, over all ranks).
  [[nodiscard]] virtual index_t local_arcs() const = 0;
  /// The last BFS's (or, for sssp = true, SSSP's) parents of the owned vertices, in global ids
  /// (writable: tests corrupt them to check the validator).
  [[nodiscard]] virtual std::span<std::int64_t> local_parents(bool sssp) = 0;
  /// The last SSSP's distances of the owned vertices (-1: not reached).
  [[nodiscard]] virtual std::span<float> local_distances() = 0;
  /// The bucket width the SSSP uses (after the adaptive rule).
  [[nodiscard]] virtual float sssp_delta() const = 0;
  /// Per-level record of the last BFS and the last SSSP: {"bfs": [...], "sssp": [...]}, each entry
  /// {level, direction, frontier, bytes, compute_seconds, comm_seconds, compute_seconds_by_rank,
  /// comm_seconds_by_rank}: frontier and bytes summed over the ranks, the plain seconds rank 0's,
  /// the _by_rank arrays every rank's in rank order. Collective (it gathers the seconds).
  [[nodiscard]] virtual json::value trace() const = 0;
};

/// The host pipeline on the ranks of `comm` (collective; cpu_pipeline.cpp): the one of one
/// process, over a 1-D block partition. Throws usage_error for bad parameters and resource_error
/// (on every rank, naming the sizes) when a rank's share will not fit in its part of the host's
/// available memory.
std::unique_ptr<mpi_pipeline> make_cpu_pipeline(const dist::communicator& comm, const graph::kronecker_params& p,
                                                const cpu_pipeline_options& o = {});

/// The CUDA backend on the ranks of `comm` (collective), one GPU per rank chosen by the node-local
/// rank. Throws usage_error when the build has no CUDA backend, a rank sees no GPU, or a node runs
/// more ranks than it has GPUs without share_gpus; resource_error (on every rank) when a rank's
/// share will not fit its part of its GPU's free memory.
std::unique_ptr<mpi_pipeline> make_mpi_cuda_pipeline(const dist::communicator& comm, const graph::kronecker_params& p,
                                                     const mpi_options& o = {});

/// Host bytes one rank needs at its peak with `ranks` ranks (an even share of the graph), of which
/// `ranks_per_host` run on its host (they share the SSSP's offered distances), its rows holding
/// vertex ids of `vertex_bits` bits.
std::size_t mpi_pipeline_bytes(const graph::kronecker_params& p, int ranks, int ranks_per_host = 1,
                               int vertex_bits = 64);

}  // namespace gpu500::graph500
