// cuco_static_map: cuCollections' static_map (NVIDIA, github.com/NVIDIA/cuCollections), the peer
// of GLHT, measured like `gpu500 hash static`: the same 2^26 distinct keys and values
// (fmix64 of a seeded counter, as src/hash/cpu/bench.cpp draws them), a table of keys / LF slots,
// bulk insert into an empty map, find of every key (hit), contains of as many absent keys (miss),
// and the same inserts again into the full map (`again`: what cuCollections' own insert benchmark
// times, since it never clears its map); the median of --runs, CUDA-event timing, and one row per
// load factor in the columns of `gpu500 hash static` so that the two outputs sit side by side.
// Built only when CMake is given -DGPU500_CUCO_DIR=<a cuCollections checkout> (bench/hash/cuco.sh).
//
//   cuco_static_map [--keys N] [--lf 0.8,0.9] [--runs N] [--seed N]
//
// Two rows per load factor: `cuco` (static_map's defaults: linear probing with 4 lanes per
// operation and the xxhash_64 hash) and `cuco-cg1` (one lane per operation).
#include <cuda_runtime.h>

#include <cuda/std/functional>
#include <thrust/functional.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

// cuCollections releases before CCCL 3.0 name thrust::identity, which CCCL 3.0 (CUDA 13) removed.
#if defined(CCCL_MAJOR_VERSION) && CCCL_MAJOR_VERSION >= 3
namespace thrust {
template <class T = void>
struct identity {
  template <class U>
  __host__ __device__ constexpr U&& operator()(U&& x) const noexcept {
    return static_cast<U&&>(x);
  }
};
}  // namespace thrust
#endif

#include <cuco/static_map.cuh>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/hash/common.hpp"

namespace {

using gpu500::index_t;
using key_type = std::uint64_t;
using pair_type = cuco::pair<key_type, key_type>;
namespace gpu = gpu500::gpu;

constexpr int kBlock = 256;
/// Lower bound of DRAM bytes per operation, the model of `gpu500 hash static`.
constexpr double kBytesInsert = 16 + 1 + 64, kBytesHit = 8 + 8 + 1 + 64, kBytesMiss = 8 + 1 + 32;

/// The benchmark's keys: present keys take i in [0, n), absent keys i in [n, 2n); values are a
/// hash of the key (src/hash/cpu/bench.cpp).
__global__ void make_inputs(std::uint64_t base, index_t n, key_type* keys, key_type* values, pair_type* pairs,
                            key_type* absent) {
  using gpu500::hash::fmix64;
  for (const index_t i : gpu::grid_stride(n)) {
    const key_type k = fmix64(base + static_cast<std::uint64_t>(i)) >> 1;
    const key_type v = fmix64(k ^ 0x5bd1e995ULL) >> 1;
    keys[i] = k, values[i] = v, pairs[i] = pair_type{k, v};
    absent[i] = fmix64(base + static_cast<std::uint64_t>(n + i)) >> 1;
  }
}

/// counts[0] += found values that differ from the stored ones (a key not found reads the empty
/// value), counts[1] += absent keys found.
__global__ void validate(index_t n, const key_type* values, const key_type* got, const bool* miss,
                         unsigned long long* counts) {
  unsigned long long wrong = 0, phantom = 0;
  for (const index_t i : gpu::grid_stride(n)) {
    wrong += got[i] != values[i];
    phantom += miss[i];
  }
  if (wrong) atomicAdd(&counts[0], wrong);
  if (phantom) atomicAdd(&counts[1], phantom);
}

template <class F>
double timed(F&& f) {
  cudaEvent_t a, b;
  GPU500_CUDA_CHECK(cudaEventCreate(&a));
  GPU500_CUDA_CHECK(cudaEventCreate(&b));
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  GPU500_CUDA_CHECK(cudaEventRecord(a));
  f();
  GPU500_CUDA_CHECK(cudaEventRecord(b));
  GPU500_CUDA_CHECK(cudaEventSynchronize(b));
  float ms = 0;
  GPU500_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  GPU500_CUDA_CHECK(cudaEventDestroy(a));
  GPU500_CUDA_CHECK(cudaEventDestroy(b));
  return ms / 1e3;
}

double copy_bandwidth_gbs(std::size_t bytes) {
  gpu::device_buffer<char> a(bytes), b(bytes);
  GPU500_CUDA_CHECK(cudaMemset(a.data(), 1, bytes));
  std::vector<double> t;
  for (int i = 0; i < 6; ++i)
    t.push_back(timed([&] { GPU500_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice)); }));
  t.erase(t.begin());  // warm-up
  return 2.0 * static_cast<double>(bytes) / gpu500::median(t) / 1e9;
}

struct inputs {
  index_t n;
  gpu::device_buffer<key_type> keys, values, absent, got;
  gpu::device_buffer<pair_type> pairs;
  gpu::device_buffer<bool> miss;
  gpu::device_buffer<unsigned long long> counts;
  inputs(index_t n_, std::uint64_t seed)
      : n(n_), keys(n_), values(n_), absent(n_), got(n_), pairs(n_), miss(n_), counts(2) {
    const std::uint64_t base = gpu500::hash::fmix64(seed) << 32;
    gpu::launch(make_inputs, gpu::grid_blocks(n, kBlock, 4), kBlock, 0, nullptr, base, n, keys.data(), values.data(),
                pairs.data(), absent.data());
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  }
};

/// One row: the map with probing scheme Probe at load factor lf.
template <class Probe>
bool run_row(const char* name, const inputs& in, double lf, int runs, double copy_gbs) {
  const auto capacity = static_cast<std::size_t>(static_cast<double>(in.n) / lf + 0.5);
  using map_type = cuco::static_map<key_type, key_type, cuco::extent<std::size_t>, cuda::thread_scope_device,
                                    thrust::equal_to<key_type>, Probe>;
  map_type map{capacity, cuco::empty_key<key_type>{~key_type{0}}, cuco::empty_value<key_type>{~key_type{0}}};
  std::vector<double> ti, th, tm, ta;
  for (int r = 0; r < runs; ++r) {
    map.clear();
    ti.push_back(timed([&] { map.insert_async(in.pairs.data(), in.pairs.data() + in.n); }));
    th.push_back(timed([&] { map.find_async(in.keys.data(), in.keys.data() + in.n, in.got.data()); }));
    tm.push_back(timed([&] { map.contains_async(in.absent.data(), in.absent.data() + in.n, in.miss.data()); }));
    ta.push_back(timed([&] { map.insert_async(in.pairs.data(), in.pairs.data() + in.n); }));
  }
  // Validation of the last run: every key present once with its value, no absent key found.
  const auto size = static_cast<index_t>(map.size());
  in.counts.zero();
  gpu::launch(validate, gpu::grid_blocks(in.n, kBlock, 4), kBlock, 0, nullptr, in.n, in.values.data(), in.got.data(),
              in.miss.data(), in.counts.data());
  const auto c = gpu::to_host(in.counts);
  const bool ok = size == in.n && c[0] == 0 && c[1] == 0;
  const double n = static_cast<double>(in.n);
  const double gi = n / gpu500::median(ti) / 1e9, gh = n / gpu500::median(th) / 1e9;
  const double gm = n / gpu500::median(tm) / 1e9, ga = n / gpu500::median(ta) / 1e9;
  auto pct = [&](double gops, double bytes) { return copy_gbs > 0 ? 100.0 * gops * bytes / copy_gbs : 0.0; };
  std::printf("%-14s %5.2f %11.3f %11.3f %11.3f %11.3f %7.1f%% %7.1f%% %7.1f%% %9lld  %s\n", name, lf, gi, gh, gm, ga,
              pct(gi, kBytesInsert), pct(gh, kBytesHit), pct(gm, kBytesMiss), static_cast<long long>(in.n - size),
              ok ? "ok" : "FAILED");
  if (!ok)
    std::printf("  %s: %lld keys held of %lld, %llu wrong values, %llu absent keys found\n", name,
                static_cast<long long>(size), static_cast<long long>(in.n), c[0], c[1]);
  std::printf("  %s at LF %.2f: %zu slots (the map rounds the capacity up: load %.3f)\n", name, lf,
              static_cast<std::size_t>(map.capacity()), n / static_cast<double>(map.capacity()));
  std::fflush(stdout);
  return ok;
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "cuco_static_map: %s\nusage: cuco_static_map [--keys N] [--lf 0.8,0.9] [--runs N] [--seed N]\n",
               why.c_str());
  std::exit(2);
}

int run(int argc, char** argv) {
  index_t keys = index_t{1} << 26;
  std::vector<double> lfs{0.8, 0.9};
  int runs = 3;
  std::uint64_t seed = 2019;  // gpu500 hash's default seed
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage("missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--keys") keys = std::atoll(v.c_str());
    else if (a == "--runs") runs = std::atoi(v.c_str());
    else if (a == "--seed") seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--lf") {
      lfs.clear();
      std::stringstream in(v);
      for (std::string x; std::getline(in, x, ',');) lfs.push_back(std::atof(x.c_str()));
    } else {
      usage("unknown option " + a);
    }
  }
  if (keys < 1 || runs < 1) usage("--keys and --runs must be positive");
  for (double lf : lfs)
    if (!(lf > 0 && lf < 1)) usage("load factors must be in (0, 1)");
  cudaDeviceProp prop{};
  int dev = 0;
  GPU500_CUDA_CHECK(cudaGetDevice(&dev));
  GPU500_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  const double copy_gbs = copy_bandwidth_gbs(std::size_t{1} << 30);
  std::printf("cuco static_map: %lld distinct keys, 64-bit keys and values, median of %d runs, device %s, "
              "device copy %.0f GB/s\n",
              static_cast<long long>(keys), runs, prop.name, copy_gbs);
  std::printf("%-14s %5s %11s %11s %11s %11s %8s %8s %8s %9s  %s\n", "table", "LF", "insert G/s", "hit G/s",
              "miss G/s", "again G/s", "ins %bw", "hit %bw", "miss %bw", "no room", "valid");
  const inputs in(keys, seed);
  bool ok = true;
  for (double lf : lfs) {
    ok &= run_row<cuco::linear_probing<4, cuco::default_hash_function<key_type>>>("cuco", in, lf, runs, copy_gbs);
    ok &= run_row<cuco::linear_probing<1, cuco::default_hash_function<key_type>>>("cuco-cg1", in, lf, runs, copy_gbs);
  }
  std::printf("validation: %s\n", ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuco_static_map: %s\n", e.what());
    return 1;
  }
}
