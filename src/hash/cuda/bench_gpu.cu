// src/hash/cuda/bench_gpu.cu — GPU side of the hash benchmark (gpu500/hash/bench.hpp): one
// adapter per table (GLHT and the baselines of baselines.hpp), CUDA-event timing, and validation
// of every result: the static results are counted against the inputs by a kernel of their own
// (no table code: the statuses, found flags and values each operation returned), the mixed
// batches on the host by the model checker.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/hash/baselines.hpp"
#include "gpu500/hash/bench.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/model.hpp"
#include "launch.cuh"

namespace gpu500::hash {

namespace bench_gpu {
namespace {

/// What the benchmark needs from a GPU table.
struct gpu_table {
  virtual ~gpu_table() = default;
  virtual void reset() = 0;      ///< empty the table (not timed)
  virtual void timed_setup() {}  ///< work timed together with the first operation (chained-alloc)
  virtual void insert(const key_type* k, const value_type* v, index_t n, insert_status* st) = 0;
  virtual void find(const key_type* k, index_t n, value_type* v, std::uint8_t* f) = 0;
  virtual void mixed(const op* ops, index_t n, op_result* r) = 0;
  [[nodiscard]] virtual bool reports_status() const { return true; }
  [[nodiscard]] virtual bool has_snapshot() const { return false; }
  virtual table_snapshot snapshot() { return {}; }
  int attempts = 1;
};

struct glht_table final : gpu_table {
  hopscotch_map m;
  glht_table(index_t cap, hopscotch_options o) : m(cap, o) {}
  void reset() override { m.clear(); }
  void insert(const key_type* k, const value_type* v, index_t n, insert_status* st) override {
    m.insert_async(k, v, n, st, nullptr);
  }
  void find(const key_type* k, index_t n, value_type* v, std::uint8_t* f) override { m.find_async(k, n, v, f, nullptr); }
  void mixed(const op* ops, index_t n, op_result* r) override { m.mixed_async(ops, n, r, nullptr); }
  [[nodiscard]] bool has_snapshot() const override { return true; }
  table_snapshot snapshot() override { return m.snapshot(); }
};

struct probing_table final : gpu_table {
  probing_map m;
  probing_table(index_t cap, probing p, bool interleaved = false, bool pair_cas = false)
      : m(cap, p, interleaved, pair_cas) {}
  void reset() override { m.clear(); }
  void insert(const key_type* k, const value_type* v, index_t n, insert_status* st) override {
    m.insert_async(k, v, n, st, nullptr);
  }
  void find(const key_type* k, index_t n, value_type* v, std::uint8_t* f) override { m.find_async(k, n, v, f, nullptr); }
  void mixed(const op* ops, index_t n, op_result* r) override { m.mixed_async(ops, n, r, nullptr); }
};

struct cuckoo_table final : gpu_table {
  cuckoo_map m;
  explicit cuckoo_table(index_t cap) : m(cap) {}
  void reset() override {}
  void insert(const key_type* k, const value_type* v, index_t n, insert_status*) override {
    try {
      attempts = m.build(k, v, n);
    } catch (const resource_error&) {
      throw;
    } catch (const error&) {
      attempts = -1;  // every seed set failed: reported as "no room" for all keys
    }
  }
  void find(const key_type* k, index_t n, value_type* v, std::uint8_t* f) override { m.find_async(k, n, v, f, nullptr); }
  void mixed(const op*, index_t, op_result*) override { throw error("cuckoo: static table"); }
  [[nodiscard]] bool reports_status() const override { return false; }
};

struct chained_table final : gpu_table {
  chained_map m;
  bool alloc_timed;
  chained_table(index_t buckets, index_t nodes, bool timed) : m(buckets, nodes, !timed), alloc_timed(timed) {}
  void reset() override { m.clear(); }
  void timed_setup() override {
    if (alloc_timed) m.allocate_pool();
  }
  void insert(const key_type* k, const value_type* v, index_t n, insert_status* st) override {
    m.insert_async(k, v, n, st, nullptr);
  }
  void find(const key_type* k, index_t n, value_type* v, std::uint8_t* f) override { m.find_async(k, n, v, f, nullptr); }
  void mixed(const op* ops, index_t n, op_result* r) override { m.mixed_async(ops, n, r, nullptr); }
};

std::unique_ptr<gpu_table> make_table(const std::string& name, index_t buckets, index_t inserts) {
  if (hopscotch_options o; parse_glht_variant(name, &o)) return std::make_unique<glht_table>(buckets, o);
  if (name == "linear") return std::make_unique<probing_table>(buckets, probing::linear);
  if (name == "linear-aos") return std::make_unique<probing_table>(buckets, probing::linear, true);
  if (name == "linear-aos-cas16") return std::make_unique<probing_table>(buckets, probing::linear, true, true);
  if (name == "quadratic") return std::make_unique<probing_table>(buckets, probing::quadratic);
  if (name == "cuckoo") return std::make_unique<cuckoo_table>(buckets);
  if (name == "chained") return std::make_unique<chained_table>(buckets, std::max<index_t>(inserts, 1), false);
  if (name == "chained-alloc") return std::make_unique<chained_table>(buckets, std::max<index_t>(inserts, 1), true);
  throw usage_error("hash: unknown table '" + name + "'");
}

/// Seconds taken by f() on the default stream (CUDA events).
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
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms / 1e3;
}

template <class T>
std::vector<T> download(const gpu::device_buffer<T>& d, std::size_t n) {
  return gpu::to_host(d.data(), n);
}

/// The counts of check_static_results, in static_check's order.
enum static_count { no_room, bad_status, missed, wrong, phantom, bad_again, placed_again, static_counts };

/// check_static_results on the device: grid-stride over the keys and the absent keys, one atomic
/// per warp and count. A key that found no room may be placed by the second insert (nobody else
/// inserts it).
__global__ void static_validation_kernel(const insert_status* st, const insert_status* again, const std::uint8_t* found,
                                         const value_type* got, const value_type* want, index_t n,
                                         const std::uint8_t* miss, index_t n_miss, unsigned long long* counts) {
  unsigned long long c[static_counts] = {};
  for (index_t i = gpu::global_thread_id(); i < n; i += gpu::grid_threads()) {
    const insert_status s = st ? st[i] : insert_status::inserted;
    if (s == insert_status::no_room) {
      ++c[no_room];
      c[phantom] += found[i] != 0;
      if (again) {
        c[placed_again] += again[i] == insert_status::inserted;
        c[bad_again] += again[i] != insert_status::inserted && again[i] != insert_status::no_room;
      }
      continue;
    }
    c[bad_status] += s != insert_status::inserted;
    c[missed] += !found[i];
    c[wrong] += found[i] && got[i] != want[i];
    if (again) c[bad_again] += again[i] != insert_status::present;
  }
  for (index_t j = gpu::global_thread_id(); j < n_miss; j += gpu::grid_threads()) c[phantom] += miss[j] != 0;
  for (int k = 0; k < static_counts; ++k) {
    for (int o = 16; o > 0; o /= 2) c[k] += __shfl_down_sync(0xffffffffu, c[k], o);
    if (gpu::lane_id() == 0 && c[k]) atomicAdd(&counts[k], c[k]);
  }
}

}  // namespace

static_check check_static_results(const insert_status* st, const insert_status* again, const std::uint8_t* found,
                                  const value_type* got, const value_type* want, index_t n,
                                  const std::uint8_t* miss, index_t n_miss) {
  gpu::device_buffer<unsigned long long> d(static_counts);
  GPU500_CUDA_CHECK(cudaMemset(d.data(), 0, sizeof(unsigned long long) * static_counts));
  static_validation_kernel<<<detail::launch_policy::for_device().grid(std::max<index_t>({n, n_miss, 1})), 256>>>(
      st, again, found, got, want, n, miss, n_miss, d.data());
  GPU500_CUDA_CHECK(cudaGetLastError());
  const auto c = download(d, static_counts);
  static_check r;
  r.no_room = static_cast<std::int64_t>(c[no_room]);
  r.bad_status = static_cast<std::int64_t>(c[bad_status]);
  r.missed = static_cast<std::int64_t>(c[missed]);
  r.wrong = static_cast<std::int64_t>(c[wrong]);
  r.phantom = static_cast<std::int64_t>(c[phantom]);
  r.bad_again = static_cast<std::int64_t>(c[bad_again]);
  r.placed_again = static_cast<std::int64_t>(c[placed_again]);
  return r;
}

bool available() { return cuda_available(); }

std::string device_name() {
  const auto d = cuda_devices();
  return d.empty() ? std::string("none") : d.front().name;
}

double copy_bandwidth_gbs(std::size_t bytes) {
  gpu::device_buffer<char> a(bytes), b(bytes);
  GPU500_CUDA_CHECK(cudaMemset(a.data(), 1, bytes));
  std::vector<double> t;
  for (int i = 0; i < 6; ++i)
    t.push_back(timed([&] { GPU500_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice)); }));
  t.erase(t.begin());  // warm-up
  return 2.0 * static_cast<double>(bytes) / median(t) / 1e9;
}

void check_static_memory(index_t keys, double load_factor) {
  const double n = static_cast<double>(keys), buckets = n / load_factor + 0.5;
  const double need = n * (4.0 * sizeof(key_type) + 2.0 * sizeof(insert_status) + 2.0) +
                      buckets * (sizeof(key_type) + sizeof(value_type));
  char what[96];
  std::snprintf(what, sizeof what, "hash static: %lld keys at load factor %g", static_cast<long long>(keys), load_factor);
  gpu::check_device_memory(what, need > 1.8e19 ? SIZE_MAX : static_cast<std::size_t>(need));
}

static_timing run_static(const std::string& name, const std::vector<key_type>& keys,
                         const std::vector<value_type>& values, const std::vector<key_type>& absent,
                         double load_factor, int runs, bool check_invariants) {
  const auto n = static_cast<index_t>(keys.size());
  const auto buckets = static_cast<index_t>(static_cast<double>(n) / load_factor + 0.5);
  check_static_memory(n, load_factor);
  auto table = make_table(name, buckets, n);
  const auto dk = gpu::to_device(keys);
  const auto dv = gpu::to_device(values);
  const auto dabs = gpu::to_device(absent);
  gpu::device_buffer<value_type> dout(n);
  gpu::device_buffer<insert_status> dst(n), dre(table->reports_status() ? n : 0);
  gpu::device_buffer<std::uint8_t> dfound(n), dmiss(n);
  std::vector<double> ti, th, tm, tr;
  static_timing r;
  for (int run = 0; run < runs; ++run) {
    table->reset();
    GPU500_CUDA_CHECK(cudaMemset(dst.data(), 0xff, n * sizeof(insert_status)));
    ti.push_back(timed([&] {
      table->timed_setup();
      table->insert(dk.data(), dv.data(), n, dst.data());
    }));
    th.push_back(timed([&] { table->find(dk.data(), n, dout.data(), dfound.data()); }));
    tm.push_back(timed([&] { table->find(dabs.data(), static_cast<index_t>(absent.size()), nullptr, dmiss.data()); }));
    // The same batch again into the full table: every key already present (what a benchmark
    // that inserts repeatedly into one table without clearing it measures after its first call).
    if (table->reports_status()) tr.push_back(timed([&] { table->insert(dk.data(), dv.data(), n, dre.data()); }));
  }
  r.insert_s = median(ti);
  r.find_hit_s = median(th);
  r.find_miss_s = median(tm);
  r.reinsert_s = tr.empty() ? 0 : median(tr);
  r.build_attempts = table->attempts;
  // Validation of the last run (static_validation_kernel).
  if (table->attempts < 0) {  // cuckoo: every seed set failed, the table holds no complete build
    r.no_room = n;
    return r;
  }
  const static_check c = check_static_results(table->reports_status() ? dst.data() : nullptr,
                                              table->reports_status() ? dre.data() : nullptr, dfound.data(), dout.data(),
                                              dv.data(), n, dmiss.data(), static_cast<index_t>(absent.size()));
  r.no_room = c.no_room;
  if (c.bad_status || c.missed || c.wrong || c.phantom || c.bad_again)
    r.error = std::to_string(c.bad_status) + " inserts not 'inserted', " + std::to_string(c.missed) + " keys missed, " +
              std::to_string(c.wrong) + " wrong values, " + std::to_string(c.phantom) + " absent keys found, " +
              std::to_string(c.bad_again) + " wrong statuses on the second insert";
  if (r.error.empty() && check_invariants && table->has_snapshot()) {
    std::unordered_map<key_type, value_type> contents;
    const auto rep = check_hopscotch_invariants(table->snapshot(), &contents);
    if (!rep.ok) r.error = "invariants " + rep.summary();
    else if (static_cast<std::int64_t>(contents.size()) != static_cast<std::int64_t>(keys.size()) - r.no_room + c.placed_again)
      r.error = "table holds " + std::to_string(contents.size()) + " keys";
  }
  return r;
}

mixed_timing run_mixed(const std::string& name, const std::vector<op>& ops, index_t range, int runs, bool validate) {
  const auto n = static_cast<index_t>(ops.size());
  index_t inserts = 0;
  for (const auto& o : ops) inserts += o.kind == op_kind::insert;
  mixed_timing r;
  if (static_only_table(name)) throw usage_error("hash: table '" + name + "' has no mixed operations");
  // GLHT and chaining: buckets for every key that can be present at once (load <= 0.8); the
  // probing tables never reuse a tombstone, so they get room for every insert.
  const index_t live = std::min(range, inserts);
  const index_t buckets = std::max<index_t>(static_cast<index_t>(1.25 * static_cast<double>(live)), 1024);
  const bool probing_table = name == "linear" || name == "linear-aos" || name == "quadratic";
  // Device memory before any allocation: the operations, their results, and a key and a value per
  // bucket at least.
  const double need = static_cast<double>(n) * (sizeof(op) + sizeof(op_result)) +
                      static_cast<double>(probing_table ? std::max<index_t>(buckets, 5 * inserts / 4 + 1024) : buckets) *
                          (sizeof(key_type) + sizeof(value_type));
  gpu::check_device_memory(("hash mixed: " + name + ", " + std::to_string(n) + " operations").c_str(),
                           static_cast<std::size_t>(need));
  auto table = make_table(name, probing_table ? std::max<index_t>(buckets, 5 * inserts / 4 + 1024) : buckets,
                          std::max<index_t>(inserts, 1));
  const auto dops = gpu::to_device(ops);
  gpu::device_buffer<op_result> dres(n);
  std::vector<double> t;
  for (int run = 0; run < runs; ++run) {
    table->reset();
    t.push_back(timed([&] {
      table->timed_setup();
      table->mixed(dops.data(), n, dres.data());
    }));
    if (run != 0 || !validate) continue;
    // Validate the first run: final contents (snapshot, or a find of every key of the range)
    // against the batch checker, with an empty table before.
    std::unordered_map<key_type, value_type> after;
    std::string err;
    if (table->has_snapshot()) {
      const auto rep = check_hopscotch_invariants(table->snapshot(), &after);
      if (!rep.ok) err = "invariants " + rep.summary();
    } else {
      std::vector<key_type> all(static_cast<std::size_t>(range));
      for (index_t k = 0; k < range; ++k) all[k] = static_cast<key_type>(k);
      const auto dk = gpu::to_device(all);
      gpu::device_buffer<value_type> dv(range);
      gpu::device_buffer<std::uint8_t> df(range);
      table->find(dk.data(), range, dv.data(), df.data());
      GPU500_CUDA_CHECK(cudaDeviceSynchronize());
      const auto f = download(df, all.size());
      const auto v = download(dv, all.size());
      for (std::size_t i = 0; i < all.size(); ++i)
        if (f[i]) after.emplace(all[i], v[i]);
    }
    const auto res = download(dres, ops.size());
    if (err.empty()) {
      const auto rep = check_batch({}, ops, res, after, /*allow_no_room=*/true);  // async: no growth
      if (!rep.ok) err = rep.summary();
    }
    r.checked = true;
    r.error = err;
  }
  r.seconds = median(t);
  return r;
}

}  // namespace bench_gpu
}  // namespace gpu500::hash
