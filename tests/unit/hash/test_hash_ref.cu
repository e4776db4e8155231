// GPU tests of GLHT's device-side API from user kernels and of the async bulk API (skip without
// a GPU). Checks on the host with model.hpp (no code shared with the kernels). Also the static
// benchmark's device-side check (bench_gpu::check_static_results) on results with known faults.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <unordered_set>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/hash/bench.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/hopscotch_ref.cuh"
#include "gpu500/hash/model.hpp"

using namespace gpu500;
using namespace gpu500::hash;

#define SKIP_WITHOUT_GPU() \
  if (!gpu500::cuda_available()) GTEST_SKIP() << "no CUDA device"
#define CUDA_OK(x) ASSERT_EQ((x), cudaSuccess)
#define SKIP_WITHOUT_PAIR_CAS()                                                                                 \
  SKIP_WITHOUT_GPU();                                                                                           \
  if (gpu500::cuda_devices().front().sm_major < 9) GTEST_SKIP() << "the pair-CAS insert needs compute capability 9.0"

namespace {

using gpu::device_buffer;
using gpu::to_device;
using gpu::to_host;

// A user kernel: tile G per key, inserts.
template <int G>
__global__ void user_insert(hopscotch_view v, const key_type* keys, int n, insert_status* st) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
  const int i = static_cast<int>(gpu::global_thread_id() / G);
  if (i >= n) return;  // uniform per tile
  const auto r = ref.insert(t, keys[i], keys[i] * 3 + 1);
  if (t.leader()) st[i] = r;
}

template <int G>
__global__ void user_find(hopscotch_view v, const key_type* keys, int n, value_type* out, std::uint8_t* found) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
  const int i = static_cast<int>(gpu::global_thread_id() / G);
  if (i >= n) return;
  value_type x = 0;
  const bool f = ref.find(t, keys[i], x);
  if (t.leader()) out[i] = x, found[i] = f;
}

template <int G>
__global__ void user_erase(hopscotch_view v, const key_type* keys, int n, std::uint8_t* erased) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
  const int i = static_cast<int>(gpu::global_thread_id() / G);
  if (i >= n) return;
  const bool e = ref.erase(t, keys[i]);
  if (t.leader()) erased[i] = e;
}

/// One kernel, two roles: tiles with even index write (erase a key of `churn_out`, insert one of
/// `churn_in`: displacement at high load), odd tiles look up `stable` keys over and over. A key
/// of `stable` is present throughout, so every look-up must hit with its value. S: the slot stride
/// as hopscotch_ref takes it (0: read from the view).
template <int G, int S = 0>
__global__ void churn_while_finding(hopscotch_view v, const key_type* churn_out, const key_type* churn_in, int nchurn,
                                    const key_type* stable, int nstable, int rounds, unsigned long long* misses,
                                    unsigned long long* wrong, insert_status* st) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  const int tid = static_cast<int>(gpu::global_thread_id() / G);
  const int ntiles = static_cast<int>(gpu::grid_threads() / G);
  if (tid % 2 == 0) {
    for (int i = tid / 2; i < nchurn; i += ntiles / 2) {
      ref.erase(t, churn_out[i]);
      const auto r = ref.insert(t, churn_in[i], churn_in[i] * 3 + 1);
      if (t.leader()) st[i] = r;
    }
  } else {
    for (int r = 0; r < rounds; ++r)
      for (int i = tid / 2; i < nstable; i += ntiles / 2) {
        value_type x = 0;
        const bool f = ref.find(t, stable[i], x);
        if (t.leader()) {
          if (!f) atomicAdd(misses, 1ULL);
          else if (x != stable[i] * 3 + 1) atomicAdd(wrong, 1ULL);
        }
      }
  }
}

template <int G>
void device_api_roundtrip(const hopscotch_options& o) {
  hopscotch_map t(1 << 12, o);
  std::vector<key_type> keys(3000);
  std::mt19937_64 rng(G);
  for (auto& k : keys) k = rng() >> 1;
  keys[10] = keys[11];  // one duplicate
  const auto dkb = to_device(keys);
  device_buffer<insert_status> dstb(keys.size());
  device_buffer<value_type> dvb(keys.size());
  device_buffer<std::uint8_t> dfb(keys.size());
  const key_type* dk = dkb.data();
  insert_status* dst = dstb.data();
  value_type* dv = dvb.data();
  std::uint8_t* df = dfb.data();
  const int n = static_cast<int>(keys.size());
  const int blocks = (n * G + 127) / 128;
  user_insert<G><<<blocks, 128>>>(t.view(), dk, n, dst);
  CUDA_OK(cudaDeviceSynchronize());
  const auto st = to_host(dst, keys.size());
  int inserted = 0;
  for (auto s : st) inserted += s == insert_status::inserted;
  EXPECT_EQ(inserted, n - 1);
  user_find<G><<<blocks, 128>>>(t.view(), dk, n, dv, df);
  CUDA_OK(cudaDeviceSynchronize());
  const auto f = to_host(df, keys.size());
  const auto v = to_host(dv, keys.size());
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(f[i]);
    ASSERT_EQ(v[i], keys[i] * 3 + 1);
  }
  user_erase<G><<<(n / 2 * G + 127) / 128, 128>>>(t.view(), dk, n / 2, df);
  CUDA_OK(cudaDeviceSynchronize());
  std::unordered_map<key_type, value_type> want;
  for (int i = n / 2; i < n; ++i) want[keys[i]] = keys[i] * 3 + 1;
  std::unordered_map<key_type, value_type> got;
  const auto rep = check_hopscotch_invariants(t.snapshot(), &got);
  EXPECT_TRUE(rep.ok) << rep.summary();
  EXPECT_EQ(got, want);
}

template <int G, int S = 0>
void finds_never_miss_during_displacement(find_mode mode, slot_layout layout = slot_layout::split,
                                          bool precheck = true, bool home_first = false, bool home_claim = false,
                                          bool pair_store = false, bool occupancy = false, bool overlap_claim = false,
                                          bool pair_cas = false) {
  const index_t n = 1 << 13;
  hopscotch_options o;
  o.tile = G;
  o.find = mode;
  o.layout = layout;
  o.precheck = precheck;
  o.home_first = home_first;
  o.home_claim = home_claim;
  o.pair_store = pair_store;
  o.occupancy = occupancy;
  o.overlap_claim = overlap_claim;
  o.pair_cas = pair_cas;
  hopscotch_map t(n, o);
  // 0.72 stable + 0.10 churn-out present; churn replaces the 0.10 by new keys (load stays ~0.82,
  // so inserts keep hopping holes back through the stable keys' neighbourhoods).
  const auto ns = static_cast<std::size_t>(n * 72 / 100), nc = static_cast<std::size_t>(n * 10 / 100);
  std::vector<key_type> stable(ns), out(nc), in(nc);
  for (std::size_t i = 0; i < ns; ++i) stable[i] = fmix64(i + 1) >> 1;
  for (std::size_t i = 0; i < nc; ++i) out[i] = fmix64(i + 1000000) >> 1, in[i] = fmix64(i + 2000000) >> 1;
  std::vector<key_type> pre = stable;
  pre.insert(pre.end(), out.begin(), out.end());
  std::vector<value_type> pv(pre.size());
  for (std::size_t i = 0; i < pre.size(); ++i) pv[i] = pre[i] * 3 + 1;
  t.insert(pre, pv);
  ASSERT_EQ(t.grow_count(), 0);
  const auto dsb = to_device(stable);
  const auto doutb = to_device(out);
  const auto dinb = to_device(in);
  device_buffer<unsigned long long> counterb(2);
  counterb.zero();
  device_buffer<insert_status> dstb(nc);
  const key_type* ds = dsb.data();
  const key_type* dout = doutb.data();
  const key_type* din = dinb.data();
  unsigned long long* counters = counterb.data();
  insert_status* dst = dstb.data();
  churn_while_finding<G, S><<<264, 256>>>(t.view(), dout, din, static_cast<int>(nc), ds, static_cast<int>(ns), 4,
                                       counters, counters + 1, dst);
  CUDA_OK(cudaDeviceSynchronize());
  const auto c = to_host(counters, 2);
  EXPECT_EQ(c[0], 0u) << "finds missed a present key";
  EXPECT_EQ(c[1], 0u) << "finds returned a wrong value";
  std::unordered_map<key_type, value_type> got;
  const auto rep = check_hopscotch_invariants(t.snapshot(), &got);
  EXPECT_TRUE(rep.ok) << rep.summary();
  for (auto k : stable) ASSERT_EQ(got.count(k), 1u);
  for (auto k : out) ASSERT_EQ(got.count(k), 0u);
  const auto st = to_host(dst, nc);
  std::size_t in_present = 0;
  for (std::size_t i = 0; i < nc; ++i) {
    in_present += got.count(in[i]);
    // An insert may find no room (no growth inside a kernel), but never silently.
    ASSERT_EQ(got.count(in[i]) == 1, st[i] == insert_status::inserted) << "status " << int(st[i]);
  }
  EXPECT_GT(in_present, nc * 9 / 10);
}

}  // namespace

TEST(GlhtDeviceApi, UserKernelsWarpPerOp) {
  SKIP_WITHOUT_GPU();
  device_api_roundtrip<32>({});
}
TEST(GlhtDeviceApi, UserKernelsFourLanesPerOpBitmapFind) {
  SKIP_WITHOUT_GPU();
  hopscotch_options o;
  o.tile = 4;
  o.find = find_mode::bitmap;
  device_api_roundtrip<4>(o);
}
TEST(GlhtDeviceApi, UserKernelsThreadPerOp) {
  SKIP_WITHOUT_GPU();
  hopscotch_options o;
  o.tile = 1;
  device_api_roundtrip<1>(o);
}

TEST(GlhtDeviceApi, UserKernelsThreadPerOpInterleavedSlots) {
  SKIP_WITHOUT_GPU();
  hopscotch_options o;
  o.tile = 1;
  o.find = find_mode::bitmap;
  o.layout = slot_layout::interleaved;
  device_api_roundtrip<1>(o);
}

TEST(GlhtDeviceApi, UserKernelsRecords) {
  SKIP_WITHOUT_GPU();
  hopscotch_options o;
  o.layout = slot_layout::record;
  device_api_roundtrip<32>(o);
  o.tile = 1;
  o.find = find_mode::bitmap;
  device_api_roundtrip<1>(o);
}

TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementWarp) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<32>(find_mode::window);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementThreadBitmap) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<1>(find_mode::bitmap);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementThreadBitmapInterleaved) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<1>(find_mode::bitmap, slot_layout::interleaved);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementThreadNoPrecheck) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<1, 2>(find_mode::bitmap, slot_layout::interleaved, false);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementThreadRecords) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, false);
  finds_never_miss_during_displacement<1, 0>(find_mode::bitmap, slot_layout::record, true);
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, false, true);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementThreadHomeClaimPairStore) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, false, false, true, true);
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, true, false, true, true);
  finds_never_miss_during_displacement<1, 2>(find_mode::bitmap, slot_layout::interleaved, false, false, true, true);
  finds_never_miss_during_displacement<1, 0>(find_mode::bitmap, slot_layout::record, false, false, true, false);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementOccupancyBits) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, false, false, true, true, true);
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, true, false, true, true, true);
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, false, false, false, false, true);
  finds_never_miss_during_displacement<1, 0>(find_mode::bitmap, slot_layout::record, false, false, true, false, true);
  finds_never_miss_during_displacement<32, 4>(find_mode::window, slot_layout::record, true, false, false, false, true);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementOverlappedClaim) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, false, false, false, true, true,
                                             true);
  finds_never_miss_during_displacement<1, 0>(find_mode::bitmap, slot_layout::record, true, false, false, false, true,
                                             true);
}
TEST(GlhtDeviceApi, UserKernelsOccupancyBits) {
  SKIP_WITHOUT_GPU();
  hopscotch_options o;
  o.layout = slot_layout::record;
  o.occupancy = true;
  device_api_roundtrip<32>(o);
  o.tile = 1;
  o.find = find_mode::bitmap;
  o.home_claim = true;
  device_api_roundtrip<1>(o);
  o.home_claim = false;
  o.overlap_claim = true;  // a user kernel on such a view claims the same way
  device_api_roundtrip<1>(o);
}
// The pair-CAS insert from user kernels (hopscotch_ref<1> reads the option from the view), and
// under churn at LF 0.82, where its inserts race erases, moves and the locked fallback.
TEST(GlhtDeviceApi, UserKernelsPairCas) {
  SKIP_WITHOUT_PAIR_CAS();
  hopscotch_options o;
  o.tile = 1;
  o.find = find_mode::bitmap;
  o.pair_cas = true;
  o.layout = slot_layout::interleaved;
  device_api_roundtrip<1>(o);
  o.layout = slot_layout::record;
  device_api_roundtrip<1>(o);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementPairCas) {
  SKIP_WITHOUT_PAIR_CAS();
  finds_never_miss_during_displacement<1, 2>(find_mode::bitmap, slot_layout::interleaved, true, false, false, false,
                                             false, false, true);
  finds_never_miss_during_displacement<1, 4>(find_mode::bitmap, slot_layout::record, false, false, false, false, false,
                                             false, true);
  finds_never_miss_during_displacement<1, 0>(find_mode::bitmap, slot_layout::record, true, false, true, true, false,
                                             false, true);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementWarpRecords) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<32, 4>(find_mode::window, slot_layout::record, true);
}
TEST(GlhtDeviceApi, FindsNeverMissDuringDisplacementWarpNoPrecheck) {
  SKIP_WITHOUT_GPU();
  finds_never_miss_during_displacement<32, 1>(find_mode::window, slot_layout::split, false);
}

// The async API never grows: a full table reports no_room per key and keeps what it accepted.
TEST(GlhtAsync, FullTableReportsNoRoomAndLosesNothing) {
  SKIP_WITHOUT_GPU();
  hopscotch_options o;
  o.probe_limit = 64;
  hopscotch_map t(64, o);
  std::vector<op> ops;
  for (key_type k = 0; k < 400; ++k) ops.push_back({k * 7919 + 1, k, op_kind::insert});
  for (key_type k = 0; k < 100; ++k) ops.push_back({k * 7919 + 1, 0, op_kind::find});
  const auto dopsb = to_device(ops);
  device_buffer<op_result> dresb(ops.size());
  const op* dops = dopsb.data();
  op_result* dres = dresb.data();
  cudaStream_t s;
  CUDA_OK(cudaStreamCreate(&s));
  t.mixed_async(dops, static_cast<index_t>(ops.size()), dres, s);
  CUDA_OK(cudaStreamSynchronize(s));
  const auto res = to_host(dres, ops.size());
  int no_room = 0;
  for (std::size_t i = 0; i < 400; ++i) no_room += res[i].code == static_cast<std::uint32_t>(insert_status::no_room);
  EXPECT_GT(no_room, 0);
  EXPECT_EQ(t.capacity(), 64);
  std::unordered_map<key_type, value_type> after;
  const auto inv = check_hopscotch_invariants(t.snapshot(), &after);
  EXPECT_TRUE(inv.ok) << inv.summary();
  const auto rep = check_batch({}, ops, res, after, /*allow_no_room=*/true);
  EXPECT_TRUE(rep.ok) << rep.summary();
  EXPECT_EQ(static_cast<int>(after.size()), 400 - no_room);
  cudaStreamDestroy(s);
}

// The static benchmark's check counts each kind of fault once, and nothing on correct results.
TEST(HashBenchCheck, StaticResultsCountEveryFault) {
  SKIP_WITHOUT_GPU();
  using st = insert_status;
  // Keys 0-5: 0-1 correct; 2 inserted but not found; 3 found with a wrong value; 4 no room and
  // absent, placed by the second insert; 5 no room yet found (a phantom), 'present' the second
  // time (wrong: nobody inserted it). Absent keys: the second found (a phantom).
  const std::vector<st> first = {st::inserted, st::inserted, st::inserted, st::inserted, st::no_room, st::no_room};
  const std::vector<st> again = {st::present, st::present, st::present, st::inserted, st::inserted, st::present};
  const std::vector<std::uint8_t> found = {1, 1, 0, 1, 0, 1}, miss = {0, 1, 0};
  const std::vector<value_type> want = {10, 11, 12, 13, 14, 15}, got = {10, 11, 0, 99, 0, 15};
  const auto d_first = to_device(first), d_again = to_device(again);
  const auto d_found = to_device(found), d_miss = to_device(miss);
  const auto d_want = to_device(want), d_got = to_device(got);
  const auto c = bench_gpu::check_static_results(d_first.data(), d_again.data(), d_found.data(), d_got.data(),
                                                 d_want.data(), 6, d_miss.data(), 3);
  EXPECT_EQ(c.no_room, 2);
  EXPECT_EQ(c.bad_status, 0);
  EXPECT_EQ(c.missed, 1);        // key 2
  EXPECT_EQ(c.wrong, 1);         // key 3
  EXPECT_EQ(c.phantom, 2);       // key 5 and the second absent key
  EXPECT_EQ(c.bad_again, 2);     // key 3 'inserted' again, key 5 'present'
  EXPECT_EQ(c.placed_again, 1);  // key 4
  // The first two keys alone, no statuses (a table that reports none), no misses: clean.
  const auto ok = bench_gpu::check_static_results(nullptr, nullptr, d_found.data(), d_got.data(), d_want.data(), 2,
                                                  d_miss.data(), 1);
  EXPECT_EQ(ok.no_room + ok.bad_status + ok.missed + ok.wrong + ok.phantom + ok.bad_again + ok.placed_again, 0);
}
