// glht_stress: the GPU stress harness of GLHT's concurrency protocol. Every block of a launch is
// one iteration with its own tiny table (32-128 buckets), its own key range, thread count and
// operation mix, all drawn from the iteration's seed; the device code is compiled with scheduling
// jitter (GPU500_HASH_JITTER: random __nanosleep at the protocol's race windows), so rare
// interleavings become common; finds take their locked fallback after 2 inconsistent look-ups
// instead of 8. Each tile runs a random mix of insert / erase / find through the
// device API (hopscotch_ref) on three classes of keys:
// Key ranges reach 200% of the buckets and the stash has 64 pairs, so the overflow stash fills and
// its pairs change homes.
//   stable  inserted before the mix and never erased: every find must return its exact value;
//   owned   written by one tile only: that tile knows the key's state and checks every status
//           and every find of it exactly;
//   shared  written by every tile: a find may hit or miss, but a value must be one stored for
//           that key (values carry their key in the high 32 bits).
// At the end of the iteration the block checks the quiescent table: every stable and owned key
// as expected, no key twice, every key within 31 slots of its home and named by its home's hop
// bitmap, hop bits exact, no lock held, versions even, no reserved slot left, every stash member
// in its home's stash window, overflow flags exact.
//
//   glht_stress [--iterations N] [--variants NAME,...] [--seed S]
// runs N iterations (default 10,000) of every GLHT test variant (tests/unit/hash/glht_variants.hpp)
// and prints one line per variant; exit status 1 on any wrong answer, lost key or broken
// invariant, 77 without a GPU.
#define GPU500_HASH_JITTER 1
#define GPU500_HASH_OPTIMISTIC_TRIES 2  // the locked fallback of find more often

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/hash/hopscotch_ref.cuh"
#include "glht_variants.hpp"

namespace gpu500::hash::stress {

constexpr int kBlock = 256;
constexpr int kMaxBuckets = 128;
constexpr int kMaxSlots = kMaxBuckets + hop_range;
constexpr int kMaxKeys = 192;  // key range <= 2 * buckets
constexpr int kOpsPerTile = 64;
/// Stash pairs of the iteration's table: 64 instead of stash_pairs(n) = 256, so that the homes'
/// stash windows overlap and pairs change hands between homes often.
constexpr int kStashPairs = 64;
/// 64-bit words of one iteration's table: records (4 per slot) or slots + bucket words, the
/// occupancy bits and the stash.
constexpr int kStashAt = 6 * kMaxSlots + 4;
constexpr int kWordsPerBlock = kStashAt + 2 * kStashPairs;

enum counter : int { iterations, operations, wrong, lost, duplicate, broken, no_room, stashed_keys, n_counters };

struct first_error {
  unsigned long long block, key, got, what;  // what: 1 + counter of the first error
};

__device__ __forceinline__ std::uint64_t mix(std::uint64_t x) { return fmix64(x + 0x9e3779b97f4a7c15ULL); }

/// The iteration's shape, from its seed.
struct shape {
  std::uint64_t n;  // buckets
  int keys;         // key range [0, keys): stable [0, s1), owned [s1, s2), shared [s2, keys)
  int s1, s2;
  int threads;      // active threads (whole tiles)
  int ins, era;     // percentages
  __device__ explicit shape(std::uint64_t seed, int G) {
    const std::uint64_t r = mix(seed);
    n = 32 + (r % 97);  // 32 .. 128 buckets
    // Key range 40% .. 200% of the buckets, mostly present: past n + 32 keys the stash takes the rest.
    const int lf = 40 + static_cast<int>((r >> 8) % 161);
    keys = static_cast<int>(n * static_cast<std::uint64_t>(lf) / 100);
    if (keys > kMaxKeys) keys = kMaxKeys;
    s1 = keys / 4, s2 = keys / 2;
    const int tiles_max = kBlock / G;
    int tiles = 1 + static_cast<int>((r >> 16) % static_cast<std::uint64_t>(tiles_max));
    threads = tiles * G;
    ins = 30 + static_cast<int>((r >> 24) % 41);
    era = 5 + static_cast<int>((r >> 32) % 21);
  }
};

__device__ __forceinline__ value_type value_for(key_type k, std::uint64_t tag) {
  return (k << 32) | (tag & 0xffffffffULL);
}

template <int G, int S>
__global__ void __launch_bounds__(kBlock) stress_kernel(hopscotch_view proto, std::uint64_t* arena,
                                                        std::uint64_t seed, std::uint64_t first,
                                                        unsigned long long* counters, first_error* err) {
  const std::uint64_t iter = first + blockIdx.x;
  const shape sh(mix(seed) ^ iter, G);
  std::uint64_t* w = arena + static_cast<std::size_t>(blockIdx.x) * kWordsPerBlock;
  const std::uint64_t slots = sh.n + hop_range;
  // The iteration's table: same options as proto, arrays in this block's slice of the arena.
  hopscotch_view v = proto;
  v.n_buckets = sh.n;
  if (proto.stride == 4) {
    v.keys = w, v.values = w + 1, v.meta = w + 2;
  } else {
    v.keys = w;
    v.values = proto.stride == 2 ? w + 1 : w + slots;
    v.meta = w + 4 * kMaxSlots;
  }
  v.occ = proto.occ ? w + 6 * kMaxSlots : nullptr;
  v.stash = w + kStashAt;
  v.stash_slots = kStashPairs;
  for (int i = threadIdx.x; i < 2 * kStashPairs; i += blockDim.x) v.stash[i] = empty_key;
  for (int i = threadIdx.x; i < static_cast<int>(slots); i += blockDim.x) {
    *v.key_ptr(i) = empty_key;
    *v.value_ptr(i) = 0;
    *v.meta_ptr(i) = 0;
  }
  if (v.occ && threadIdx.x < 4) v.occ[threadIdx.x] = 0;
  __shared__ value_type owned[kMaxKeys];  // owned keys: the value stored, 0 when absent
  for (int i = threadIdx.x; i < kMaxKeys; i += blockDim.x) owned[i] = 0;
  __syncthreads();

  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  const int tile_id = static_cast<int>(threadIdx.x) / G, tiles = sh.threads / G;
  const bool active = static_cast<int>(threadIdx.x) < sh.threads;
  unsigned long long bad[n_counters] = {};
  auto report = [&](counter c, key_type k, value_type got) {
    if (!t.leader()) return;  // every lane of the tile sees the same answer
    ++bad[c];
    if (atomicCAS(&err->what, 0ULL, static_cast<unsigned long long>(c) + 1) == 0) {
      err->block = iter, err->key = k, err->got = got;
    }
  };
  // Stable keys first, by tiles in turn.
  if (active)
    for (int j = tile_id; j < sh.s1; j += tiles) {
      const insert_status st = ref.insert(t, static_cast<key_type>(j), value_for(j, 0xabcd));
      if (st != insert_status::inserted) report(st == insert_status::no_room ? no_room : wrong, j, 0);
    }
  __syncthreads();
  std::uint64_t r = mix(iter * 1315423911ULL + tile_id);
  // The warp's active lanes (whole tiles): with converge (tile 1) they meet before every operation.
  const int warp_base = static_cast<int>(threadIdx.x) & ~31;
  const int warp_active = sh.threads - warp_base >= 32 ? 32 : sh.threads - warp_base;
  const unsigned warp_mask = warp_active >= 32 ? 0xffffffffu : warp_active <= 0 ? 0u : (1u << warp_active) - 1u;
  if (active) {
    for (int i = 0; i < kOpsPerTile; ++i) {
      if (G == 1 && v.converge) __syncwarp(warp_mask);
      r = mix(r);
      const int p = static_cast<int>(r % 100);
      const int j = static_cast<int>((r >> 8) % static_cast<std::uint64_t>(sh.keys));
      const key_type k = static_cast<key_type>(j);
      const bool mine = j >= sh.s1 && j < sh.s2 && (j - sh.s1) % tiles == tile_id;
      const bool writable = j >= sh.s1 && (j >= sh.s2 || mine);
      if (p < sh.ins && writable) {
        const value_type val = value_for(k, r >> 32 | 1);
        const insert_status st = ref.insert(t, k, val);
        if (mine) {
          const insert_status want = owned[j] ? insert_status::present : insert_status::inserted;
          if (st == insert_status::no_room) bad[no_room] += t.leader();
          else if (st != want) report(wrong, k, static_cast<value_type>(st));
          if (st == insert_status::inserted && t.leader()) owned[j] = val;
        }
      } else if (p < sh.ins + sh.era && writable) {
        const bool e = ref.erase(t, k);
        if (mine) {
          if (e != (owned[j] != 0)) report(wrong, k, e);
          if (t.leader()) owned[j] = 0;
        }
      } else {
        value_type got = 0;
        const bool f = ref.find(t, k, got);
        if (j < sh.s1) {
          if (!f) report(lost, k, 0);
          else if (got != value_for(k, 0xabcd)) report(wrong, k, got);
        } else if (mine) {
          if (f != (owned[j] != 0)) report(f ? wrong : lost, k, got);
          else if (f && got != owned[j]) report(wrong, k, got);
        } else if (f && (got >> 32) != k) {
          report(wrong, k, got);  // a value never stored for k
        }
      }
      t.sync();
    }
  }
  __syncthreads();
  // Quiescent checks, one thread per key, then per slot.
  __shared__ int copies[kMaxKeys];
  __shared__ int stashed[kMaxSlots];  // stash members per bucket
  for (int i = threadIdx.x; i < kMaxKeys; i += blockDim.x) copies[i] = 0;
  for (int i = threadIdx.x; i < kMaxSlots; i += blockDim.x) stashed[i] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < static_cast<int>(v.stash_slots); i += blockDim.x) {
    const key_type k = v.stash[2 * i];
    if (k == reserved_key || (valid_key(k) && k >= static_cast<key_type>(sh.keys))) ++bad[broken];
    if (!valid_key(k) || k >= static_cast<key_type>(sh.keys)) continue;
    atomicAdd(&copies[k], 1);
    ++bad[stashed_keys];  // not an error: how much the stash was used
    const std::uint64_t h = home_bucket(k, sh.n);
    atomicAdd(&stashed[h], 1);
    const std::uint64_t d = (i + v.stash_slots - stash_home(h, v.stash_slots)) % v.stash_slots;
    if (d >= stash_window || !(*v.meta_ptr(h) & layout::overflow)) ++bad[broken];
    if ((v.stash[2 * i + 1] >> 32) != k) ++bad[wrong];
  }
  __syncthreads();
  for (int s = threadIdx.x; s < static_cast<int>(slots); s += blockDim.x) {
    const key_type k = *v.key_ptr(s);
    const std::uint64_t m = *v.meta_ptr(s);
    if (m & layout::lock_mask) ++bad[broken];
    if (detail::version_odd(m)) ++bad[broken];
    if (s >= static_cast<int>(sh.n) && detail::bitmap(m)) ++bad[broken];
    if (((m & layout::overflow) != 0) != (stashed[s] > 0)) ++bad[broken];  // the flag is exact
    for (unsigned b = detail::bitmap(m); b; b &= b - 1) {  // every named slot holds a key of this home
      const key_type x = *v.key_ptr(s + __ffs(b) - 1);
      if (!valid_key(x) || home_bucket(x, sh.n) != static_cast<std::uint64_t>(s)) ++bad[broken];
    }
    if (k == reserved_key) ++bad[broken];
    if (v.occ && k == empty_key && ((v.occ[s >> 6] >> (s & 63)) & 1u)) ++bad[broken];  // a stale bit
    if (!valid_key(k)) continue;
    if (k >= static_cast<key_type>(sh.keys)) {
      ++bad[broken];
      continue;
    }
    atomicAdd(&copies[k], 1);
    const std::uint64_t h = home_bucket(k, sh.n);
    const std::uint64_t d = static_cast<std::uint64_t>(s) - h;
    if (d >= hop_range || !((*v.meta_ptr(h) >> d) & 1u)) ++bad[broken];
    if (v.occ && !((v.occ[s >> 6] >> (s & 63)) & 1u)) ++bad[broken];
    if ((*v.value_ptr(s) >> 32) != k) ++bad[wrong];
  }
  __syncthreads();
  for (int j = threadIdx.x; j < sh.keys; j += blockDim.x) {
    if (copies[j] > 1) ++bad[duplicate];
    if (j < sh.s1 && copies[j] != 1) ++bad[lost];
    if (j >= sh.s1 && j < sh.s2 && copies[j] != (owned[j] != 0 ? 1 : 0)) ++bad[lost];
  }
  if (threadIdx.x == 0) {
    atomicAdd(&counters[iterations], 1ULL);
    atomicAdd(&counters[operations], static_cast<unsigned long long>(sh.s1 + tiles * kOpsPerTile));
  }
  for (int c = wrong; c < n_counters; ++c)
    if (bad[c]) atomicAdd(&counters[c], bad[c]);
}

using kernel_fn = void (*)(hopscotch_view, std::uint64_t*, std::uint64_t, std::uint64_t, unsigned long long*,
                           first_error*);

template <int G>
kernel_fn pick_stride(unsigned stride, bool static_stride) {
  if (!static_stride) return stress_kernel<G, 0>;
  return stride == 4 ? stress_kernel<G, 4> : stride == 2 ? stress_kernel<G, 2> : stress_kernel<G, 1>;
}
kernel_fn pick(int tile, unsigned stride, bool static_stride) {
  switch (tile) {
    case 1: return pick_stride<1>(stride, static_stride);
    case 4: return pick_stride<4>(stride, static_stride);
    case 8: return pick_stride<8>(stride, static_stride);
    default: return pick_stride<32>(stride, static_stride);
  }
}

struct totals {
  unsigned long long c[n_counters] = {};
  first_error e{};
  unsigned long long fallbacks = 0;  // finds that took the locked fallback
};

totals run_variant(const testing::variant& var, long iterations, std::uint64_t seed) {
  const hopscotch_options o = testing::options_of(var);
  hopscotch_view proto = testing::view_options(o);
  constexpr long kBlocks = 2048;  // iterations per launch
  gpu::device_buffer<std::uint64_t> arena(static_cast<std::size_t>(kBlocks) * kWordsPerBlock);
  // Any non-null pointer marks "occupancy bits on"; the kernel points it into the block's slice.
  proto.occ = o.occupancy ? arena.data() : nullptr;
  gpu::device_buffer<unsigned long long> counters(n_counters);
  gpu::device_buffer<first_error> err(1);
  counters.zero();
  err.zero();
  const kernel_fn k = pick(var.tile, proto.stride, var.static_stride);
  for (long done = 0; done < iterations; done += kBlocks) {
    const auto blocks = static_cast<unsigned>(std::min(kBlocks, iterations - done));
    k<<<blocks, kBlock>>>(proto, arena.data(), seed, static_cast<std::uint64_t>(done), counters.data(), err.data());
    GPU500_CUDA_CHECK_LAUNCH();
  }
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  totals t;
  GPU500_CUDA_CHECK(cudaMemcpyFromSymbol(&t.fallbacks, detail::jitter_fallbacks, sizeof t.fallbacks));
  const unsigned long long zero = 0;
  GPU500_CUDA_CHECK(cudaMemcpyToSymbol(detail::jitter_fallbacks, &zero, sizeof zero));
  const auto c = gpu::to_host(counters);
  for (int i = 0; i < n_counters; ++i) t.c[i] = c[i];
  t.e = gpu::to_host(err)[0];
  return t;
}

}  // namespace gpu500::hash::stress

int main(int argc, char** argv) {
  using namespace gpu500::hash;
  long iterations = 10000;
  std::uint64_t seed = 1;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--iterations" && i + 1 < argc) iterations = std::atol(argv[++i]);
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--variants" && i + 1 < argc) only = "," + std::string(argv[++i]) + ",";
    else {
      std::fprintf(stderr, "usage: glht_stress [--iterations N] [--variants NAME,...] [--seed S]\n");
      return 2;
    }
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("glht_stress: no CUDA device, skipped\n");
    return 77;
  }
  int major = 0;
  GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  bool failed = false;
  int ran = 0;
  for (const auto& var : testing::all_variants()) {
    const std::string name = testing::name_of(var);
    if (!only.empty() && only.find("," + name + ",") == std::string::npos) continue;
    if (!testing::runs_on(var, major)) {  // the pair-CAS insert below compute capability 9.0
      std::printf("%-40s skipped: needs compute capability 9.0\n", name.c_str());
      continue;
    }
    ++ran;
    const auto t = stress::run_variant(var, iterations, seed);
    using stress::counter;
    const bool bad = t.c[counter::wrong] || t.c[counter::lost] || t.c[counter::duplicate] || t.c[counter::broken] ||
                     t.c[counter::iterations] != static_cast<unsigned long long>(iterations);
    std::printf("%-40s iterations %llu  operations %llu  wrong %llu  lost %llu  duplicate %llu  broken %llu  "
                "no_room %llu  locked finds %llu  in stash %llu  %s\n",
                name.c_str(), t.c[counter::iterations], t.c[counter::operations], t.c[counter::wrong],
                t.c[counter::lost], t.c[counter::duplicate], t.c[counter::broken], t.c[counter::no_room],
                t.fallbacks, t.c[counter::stashed_keys], bad ? "FAILED" : "ok");
    if (t.e.what)
      std::printf("    first error: iteration %llu key %llu got %llu (counter %llu)\n", t.e.block, t.e.key, t.e.got,
                  t.e.what - 1);
    std::fflush(stdout);
    failed |= bad;
  }
  if (ran == 0) {
    std::fprintf(stderr, "glht_stress: no variant matches\n");
    return 2;
  }
  std::printf("glht_stress: %d variants x %ld iterations: %s\n", ran, iterations, failed ? "FAILED" : "passed");
  return failed ? 1 : 0;
}
