// bf_sync_floor: what one round of the resident dense Bellman-Ford costs before any arithmetic.
// Each kernel runs `rounds` iterations of one way for the blocks of a launch to meet, with the
// same launch shape as the resident schedule (512 threads per block) and no work between:
//   cluster_sync      one cluster of B blocks, cluster.sync() per round;
//   cluster_sync_or   the same plus the block-wide __syncthreads_or the round needs for its flag;
//   async_exchange    one cluster of B blocks, each sends a 4-byte flag to every other block with
//                     an asynchronous remote store counted on the receiver's mbarrier and waits
//                     for its own mbarrier (the resident kernel's exchange, without the distances);
//   warp_exchange     one cluster of B blocks, every warp sends a 4-byte value to every other
//                     block the same way, writes its own block's copy and arrives on its own
//                     mbarrier; no block barrier (the warp-exchange resident kernel's meeting);
//   grid_sync         a cooperative grid of B blocks, grid.sync() per round;
//   launch            an empty kernel of B blocks launched `rounds` times back to back.
// Prints nanoseconds per round (best of 5 launches) and the SM clock from clock64, so that a round
// of the resident schedule can be put against the floor of its barrier.
//   bf_sync_floor [rounds (default 20000)] [threads per block: 512 (default) or 1024]
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "gpu500/core/cuda/check.cuh"
#include "kernels.cuh"

namespace cg = cooperative_groups;
using namespace gpu500::bellman_ford::cuda;

namespace {

int threads = 512;  // as the resident schedule's default; argv[2] may say 1024

__global__ void cluster_sync_kernel(int rounds, int with_or, long long* cycles) {
  const long long c0 = clock64();
  int acc = 0;
  for (int k = 0; k < rounds; ++k) {
    if (with_or) acc += __syncthreads_or(k & threadIdx.x);
    cg::this_cluster().sync();
  }
  if (threadIdx.x == 0 && blockIdx.x == 0) cycles[0] = clock64() - c0 + (acc == -1);
}

__global__ void async_exchange_kernel(int rounds, long long* cycles) {
  __shared__ unsigned long long bar[2];
  __shared__ int flags[2][resident_policy::max_cluster];
  const int b = blockIdx.x, blocks = gridDim.x, t = threadIdx.x;
  const unsigned bars = smem_address(bar);
  if (t == 0) barrier_init_pair(bars, 1);
  cg::this_cluster().sync();
  const long long c0 = clock64();
  int acc = 0;
  for (int k = 0; k < rounds; ++k) {
    const unsigned mine = bars + 8 * ((k + 1) & 1);
    int* slot = flags[(k + 1) & 1];
    if (t == 0) barrier_expect(mine, 4u * static_cast<unsigned>(blocks - 1));
    const int any = __syncthreads_or(k & 1);
    slot[b] = any;
    if (t < blocks - 1) {
      const unsigned rank = static_cast<unsigned>(t < b ? t : t + 1);
      store_async(cluster_address(smem_address(slot + b), rank), static_cast<unsigned>(any), cluster_address(mine, rank));
    }
    barrier_wait(mine, static_cast<unsigned>((k >> 1) & 1));
    int f = 0;
    for (int i = 0; i < blocks; ++i) f |= slot[i];
    acc += f;
  }
  cg::this_cluster().sync();
  if (t == 0 && b == 0) cycles[0] = clock64() - c0 + (acc == -1);
}

__global__ void warp_exchange_kernel(int rounds, long long* cycles) {
  __shared__ unsigned long long bar[2];
  __shared__ float vals[2][resident_policy::max_cluster * 32];  // [parity][block * 32 + warp]
  const int b = blockIdx.x, blocks = gridDim.x, t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int warps = static_cast<int>(blockDim.x >> 5);
  const unsigned bars = smem_address(bar);
  if (t == 0) barrier_init_pair(bars, static_cast<unsigned>(warps));
  cg::this_cluster().sync();
  const bool sends = lane < blocks && lane != b;
  unsigned to[2] = {0, 0}, to_bar[2] = {0, 0};
  if (sends)
    for (int p = 0; p < 2; ++p) {
      to[p] = cluster_address(smem_address(&vals[p][b * 32 + warp]), static_cast<unsigned>(lane));
      to_bar[p] = cluster_address(bars + 8 * p, static_cast<unsigned>(lane));
    }
  const long long c0 = clock64();
  float acc = 0;
  for (int k = 0; k < rounds; ++k) {
    const int p = (k + 1) & 1;
    const unsigned mine = bars + 8 * p;
    const float v = acc + static_cast<float>(k);
    if (sends) store_async(p ? to[1] : to[0], __float_as_uint(v), p ? to_bar[1] : to_bar[0]);
    if (lane == 0) {
      vals[p][b * 32 + warp] = v;
      if (warp == 0) barrier_expect(mine, 4u * static_cast<unsigned>((blocks - 1) * warps));
      else barrier_arrive(mine);
    }
    barrier_wait(mine, static_cast<unsigned>((k >> 1) & 1));
    acc += vals[p][lane < blocks ? lane * 32 : 0] * 0.0f;  // reads what arrived
  }
  cg::this_cluster().sync();
  if (t == 0 && b == 0) cycles[0] = clock64() - c0 + (acc == -1.0f);
}
__global__ void grid_sync_kernel(int rounds, long long* cycles) {
  const long long c0 = clock64();
  for (int k = 0; k < rounds; ++k) cg::this_grid().sync();
  if (threadIdx.x == 0 && blockIdx.x == 0) cycles[0] = clock64() - c0;
}

__global__ void empty_kernel() {}

struct timing {
  float ms = 1e30f;
  long long cycles = 0;
};

template <class Launch>
timing best_of(Launch launch, long long* dcycles) {
  cudaEvent_t e0, e1;
  GPU500_CUDA_CHECK(cudaEventCreate(&e0));
  GPU500_CUDA_CHECK(cudaEventCreate(&e1));
  timing best;
  launch();  // warm-up
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 5; ++i) {
    GPU500_CUDA_CHECK(cudaEventRecord(e0));
    launch();
    GPU500_CUDA_CHECK(cudaEventRecord(e1));
    GPU500_CUDA_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    GPU500_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (ms < best.ms) {
      best.ms = ms;
      if (dcycles) GPU500_CUDA_CHECK(cudaMemcpy(&best.cycles, dcycles, sizeof(long long), cudaMemcpyDeviceToHost));
    }
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return best;
}

void report(const char* what, int blocks, int rounds, timing t) {
  const double ns = t.ms * 1e6 / rounds;
  if (t.cycles > 0)
    std::printf("%-16s blocks %4d  %8.1f ns/round  %7.0f cycles/round  SM clock %.2f GHz\n", what, blocks, ns,
                static_cast<double>(t.cycles) / rounds, static_cast<double>(t.cycles) / (t.ms * 1e6));
  else
    std::printf("%-16s blocks %4d  %8.1f ns/round\n", what, blocks, ns);
}

/// Launches kernel k as one cluster of `blocks` blocks.
template <class... Args>
void cluster_launch(void (*k)(Args...), int blocks, Args... args) {
  cudaLaunchConfig_t cfg{};
  cudaLaunchAttribute attr[1];
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(threads);
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = blocks;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  GPU500_CUDA_CHECK(cudaLaunchKernelEx(&cfg, k, args...));
}

}  // namespace

static int run(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
  threads = argc > 2 ? std::atoi(argv[2]) : 512;
  if (rounds < 1 || (threads != 512 && threads != 1024)) {
    std::fprintf(stderr, "usage: bf_sync_floor [rounds >= 1] [512|1024]\n");
    return 2;
  }
  cudaDeviceProp prop{};
  GPU500_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, %d rounds per launch, %d threads per block\n", prop.name, prop.multiProcessorCount,
              rounds, threads);
  long long* c = nullptr;
  GPU500_CUDA_CHECK(cudaMalloc(&c, sizeof(long long)));
  GPU500_CUDA_CHECK(cudaFuncSetAttribute(cluster_sync_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  GPU500_CUDA_CHECK(cudaFuncSetAttribute(async_exchange_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  GPU500_CUDA_CHECK(cudaFuncSetAttribute(warp_exchange_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (const int blocks : {2, 8, 16}) {
    report("cluster_sync", blocks, rounds, best_of([&] { cluster_launch(cluster_sync_kernel, blocks, rounds, 0, c); }, c));
    report("cluster_sync_or", blocks, rounds,
           best_of([&] { cluster_launch(cluster_sync_kernel, blocks, rounds, 1, c); }, c));
    report("async_exchange", blocks, rounds, best_of([&] { cluster_launch(async_exchange_kernel, blocks, rounds, c); }, c));
    report("warp_exchange", blocks, rounds, best_of([&] { cluster_launch(warp_exchange_kernel, blocks, rounds, c); }, c));
  }
  for (const int blocks : {16, 128, prop.multiProcessorCount}) {
    report("grid_sync", blocks, rounds, best_of([&] {
             int r = rounds;
             void* args[] = {&r, &c};
             GPU500_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_sync_kernel), dim3(blocks), dim3(threads),
                                               args, 0));
           }, c));
  }
  const int launches = rounds < 2000 ? rounds : 2000;
  for (const int blocks : {16, 128}) {
    report("launch", blocks, launches, best_of([&] {
             for (int i = 0; i < launches; ++i) empty_kernel<<<blocks, threads>>>();
             GPU500_CUDA_CHECK(cudaGetLastError());
           }, nullptr));
  }
  cudaFree(c);
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bf_sync_floor: %s\n", e.what());
    return 1;
  }
}
