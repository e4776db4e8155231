// The floor under a resident round of dense Bellman-Ford (see gpu500/bellman_ford/sync_floor.hpp):
// one kernel per way for the blocks of a launch to meet, each running `rounds` iterations of that
// meeting with no work between, timed by CUDA events and block 0's clock64.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "cluster_ops.cuh"
#include "gpu500/bellman_ford/sync_floor.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "policies.cuh"

namespace gpu500::bellman_ford {
namespace {

namespace cg = cooperative_groups;
using namespace cuda;

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

/// Launches kernel k as one cluster of `blocks` blocks.
template <class... Args>
void cluster_launch(void (*k)(Args...), int blocks, int threads, Args... args) {
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

sync_floor_row row(const char* what, int blocks, int rounds, timing t) { return {what, blocks, rounds, t.ms, t.cycles}; }

}  // namespace

sync_floor_result sync_floor(int rounds, int threads) {
  if (rounds < 1 || (threads != 512 && threads != 1024))
    throw usage_error("bf_sync_floor: rounds must be >= 1 and threads per block 512 or 1024");
  cudaDeviceProp prop{};
  GPU500_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  sync_floor_result res;
  res.device = prop.name;
  res.sms = prop.multiProcessorCount;
  const gpu::device_buffer<long long> cycles(1);
  long long* c = cycles.data();
  GPU500_CUDA_CHECK(cudaFuncSetAttribute(cluster_sync_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  GPU500_CUDA_CHECK(cudaFuncSetAttribute(async_exchange_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  GPU500_CUDA_CHECK(cudaFuncSetAttribute(warp_exchange_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (const int blocks : {2, 8, 16}) {
    res.rows.push_back(
        row("cluster_sync", blocks, rounds, best_of([&] { cluster_launch(cluster_sync_kernel, blocks, threads, rounds, 0, c); }, c)));
    res.rows.push_back(row("cluster_sync_or", blocks, rounds,
                           best_of([&] { cluster_launch(cluster_sync_kernel, blocks, threads, rounds, 1, c); }, c)));
    res.rows.push_back(row("async_exchange", blocks, rounds,
                           best_of([&] { cluster_launch(async_exchange_kernel, blocks, threads, rounds, c); }, c)));
    res.rows.push_back(row("warp_exchange", blocks, rounds,
                           best_of([&] { cluster_launch(warp_exchange_kernel, blocks, threads, rounds, c); }, c)));
  }
  for (const int blocks : {16, 128, prop.multiProcessorCount}) {
    res.rows.push_back(row("grid_sync", blocks, rounds, best_of([&] {
                             int r = rounds;
                             void* args[] = {&r, &c};
                             GPU500_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_sync_kernel),
                                                                           dim3(blocks), dim3(threads), args, 0));
                           }, c)));
  }
  const int launches = rounds < 2000 ? rounds : 2000;
  for (const int blocks : {16, 128}) {
    res.rows.push_back(row("launch", blocks, launches, best_of([&] {
                             for (int i = 0; i < launches; ++i) empty_kernel<<<blocks, threads>>>();
                             GPU500_CUDA_CHECK(cudaGetLastError());
                           }, nullptr)));
  }
  return res;
}

}  // namespace gpu500::bellman_ford
