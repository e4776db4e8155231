// The GLHT hash table (gpu500::hash) from the user's own kernels: one kernel inserts keys through
// the device API (gpu500/hash/hopscotch_ref.cuh), one warp per key, a second looks them and some
// absent keys up; the host checks every answer. Without a GPU it says so and exits 0.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/launch.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/hopscotch_ref.cuh"

namespace h = gpu500::hash;

// Key i + 1 gets value 3 (i + 1); a warp per key (every lane passes the same key).
__global__ void insert_keys(h::hopscotch_view v, gpu500::index_t n, unsigned* failures) {
  const h::tile<32> t;
  const h::hopscotch_ref<32> ref(v);
  for (const gpu500::index_t i : gpu500::gpu::warp_stride(n)) {
    const h::key_type k = static_cast<h::key_type>(i) + 1;
    if (ref.insert(t, k, 3 * k) != h::insert_status::inserted && t.leader()) atomicAdd(failures, 1u);
  }
}

// Keys 1 .. 2n: the first n are present with value 3k, the rest absent.
__global__ void find_keys(h::hopscotch_view v, gpu500::index_t n, h::value_type* out, std::uint8_t* found) {
  const h::tile<32> t;
  const h::hopscotch_ref<32> ref(v);
  for (const gpu500::index_t i : gpu500::gpu::warp_stride(2 * n)) {
    h::value_type val = 0;
    const bool hit = ref.find(t, static_cast<h::key_type>(i) + 1, val);
    if (t.leader()) out[i] = val, found[i] = hit ? 1 : 0;
  }
}

int main() {
  if (!gpu500::cuda_available()) {
    std::printf("hash_device: no GPU here, skipped\n");
    return 0;
  }
  const gpu500::index_t n = 100000;
  h::hopscotch_map table(2 * n);
  gpu500::gpu::device_buffer<unsigned> failures(1);
  failures.zero();
  gpu500::gpu::device_buffer<h::value_type> values(2 * n);
  gpu500::gpu::device_buffer<std::uint8_t> found(2 * n);
  const int block = 256;
  gpu500::gpu::launch(insert_keys, gpu500::gpu::grid_blocks_warp_per_item(n, block), block, 0, nullptr, table.view(), n,
                      failures.data());
  gpu500::gpu::launch(find_keys, gpu500::gpu::grid_blocks_warp_per_item(2 * n, block), block, 0, nullptr, table.view(), n,
                      values.data(), found.data());
  gpu500::gpu::synchronize();
  const auto f = gpu500::gpu::to_host(failures);
  const auto val = gpu500::gpu::to_host(values);
  const auto hit = gpu500::gpu::to_host(found);
  std::size_t wrong = f[0];
  for (gpu500::index_t i = 0; i < 2 * n; ++i) {
    const h::key_type k = static_cast<h::key_type>(i) + 1;
    if (i < n ? !(hit[i] == 1 && val[i] == 3 * k) : hit[i] != 0) ++wrong;
  }
  std::printf("hash_device: %lld keys inserted from a user kernel, %lld looked up, table size %lld: %s\n",
              static_cast<long long>(n), static_cast<long long>(2 * n), static_cast<long long>(table.size()),
              wrong == 0 && table.size() == n ? "all correct" : "WRONG");
  return wrong == 0 && table.size() == n ? 0 : 1;
}
