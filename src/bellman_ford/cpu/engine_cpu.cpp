// CPU engines of dense Bellman-Ford: serial and OpenMP, one Jacobi round as bellman_ford.hpp
// defines it, on the by_source matrix.
//
// Loop order: the rows j (sources) are cut into one contiguous block per thread; a thread
// streams its block row by row (contiguous memory, no row read twice) and folds each row into its
// own (min, argmin) of every column, in passes of at most max_tile columns so that the partial
// results being updated stay in L1; then the threads' partials are merged column by column in
// thread order and committed. (Cutting the columns instead gives a thread a narrow strip of every
// row: with a power-of-two pitch those strips fall into the same cache sets and the matrix never
// stays in cache between rounds.) The fold is written with vectors of one register and compiled
// for AVX-512F, AVX2 and the baseline (SSE2 on x86-64), the widest the CPU has chosen at run time
// (the build itself targets the baseline). Ascending j with a strict '<' within a block, and
// blocks merged in order with a strict '<', keep the smallest j among equal candidates: the tie
// rule every engine follows. The OpenMP engine runs a round of fewer than
// engine_config::cpu_parallel_work relaxations on one thread (starting and joining a team costs
// more than it saves there), a larger one on every thread (at least min_rows rows each); the
// serial engine is the same code on one thread. No row is
// skipped (not even rows of unreached vertices): the CPU does the same work as the GPU kernels.
// The engine references the caller's matrix (no copy): it must outlive the solves.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "../engines.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"

namespace gpu500::bellman_ford::detail {
namespace {

constexpr index_t max_tile = 4096;     // columns per pass: 32 KB of (min, argmin) scratch, in L1
constexpr index_t min_rows = 4;        // rows per thread, at least
/// The fold's vectors: L floats (and L indices), one register of the instruction set. (Members
/// of a class template: GCC drops vector_size on an alias template.)
template <int L>
struct vec {
  typedef float f __attribute__((vector_size(L * sizeof(float))));
  typedef std::int32_t i __attribute__((vector_size(L * sizeof(std::int32_t))));
  static_assert(sizeof(f) == L * sizeof(float) && sizeof(i) == L * sizeof(std::int32_t));
};
using isa = engine_config::cpu_isa;

/// best[i], arg[i] = min and first argmin over j in [j0, j1) of cur[j] + w(j, v0 + i), for i < len
/// (len a multiple of 32, hence of L: columns past the graph's read the +inf padding).
/// Inlined into one function per instruction set (below) with L floats per vector: one register
/// of that set (wider generic vectors would be split, and their selects done element by element).
template <int L>
__attribute__((always_inline)) inline void fold_tile_body(const float* __restrict w, index_t ld,
                                                          const float* __restrict cur, index_t j0, index_t j1,
                                                          index_t v0,
                                                          index_t len, float* __restrict best,
                                                          std::int32_t* __restrict arg) {
  const float inf_value = inf;
  for (index_t i = 0; i < len; ++i) {
    best[i] = inf_value;
    arg[i] = -1;
  }
  // Rows in groups of four: a vector's (min, argmin) is loaded once per group and the four rows
  // are folded into it in ascending order (the tie rule), so that loads of the scratch and
  // stores to it do not limit the fold.
  constexpr index_t group = 4;
  const index_t grouped = j0 + (j1 - j0) / group * group;
  for (index_t j = j0; j < j1; j += (j < grouped ? group : 1)) {
    const index_t rows = j < grouped ? group : 1;
    typename vec<L>::f d[group];
    typename vec<L>::i jj[group];
    const float* __restrict row[group];
    for (index_t r = 0; r < group; ++r) {
      const index_t jr = j + std::min(r, rows - 1);
      d[r] = typename vec<L>::f{} + cur[jr];
      jj[r] = typename vec<L>::i{} + static_cast<std::int32_t>(jr);
      row[r] = w + jr * ld + v0;
    }
    for (index_t i = 0; i < len; i += L) {
      typename vec<L>::f b;
      typename vec<L>::i a;
      std::memcpy(&b, best + i, sizeof b);
      std::memcpy(&a, arg + i, sizeof a);
      for (index_t r = 0; r < group; ++r) {  // a short group repeats its row: no effect ('<')
        typename vec<L>::f x;
        std::memcpy(&x, row[r] + i, sizeof x);
        const typename vec<L>::f c = d[r] + x;
        const typename vec<L>::i lt = c < b;
        b = lt ? c : b;
        a = lt ? jj[r] : a;
      }
      std::memcpy(best + i, &b, sizeof b);
      std::memcpy(arg + i, &a, sizeof a);
    }
  }
}

using fold_fn = void (*)(const float*, index_t, const float*, index_t, index_t, index_t, index_t, float*,
                         std::int32_t*);

void fold_tile_baseline(const float* w, index_t ld, const float* cur, index_t j0, index_t j1, index_t v0, index_t len,
                        float* best, std::int32_t* arg) {
  fold_tile_body<4>(w, ld, cur, j0, j1, v0, len, best, arg);  // SSE2 on x86-64
}

/// The smallest of p[0 .. n) (n a multiple of 4 L): the host bandwidth probe's read, four
/// independent vectors in flight.
template <int L>
__attribute__((always_inline)) inline float min_body(const float* __restrict p, std::size_t n) {
  using f = typename vec<L>::f;
  f m[4];
  for (auto& x : m) x = f{} + inf;
  for (std::size_t i = 0; i < n; i += 4 * L)
    for (int k = 0; k < 4; ++k) {
      f x;
      std::memcpy(&x, p + i + k * L, sizeof x);
      m[k] = x < m[k] ? x : m[k];
    }
  float r = inf;
  for (const auto& x : m)
    for (int l = 0; l < L; ++l) r = std::min(r, x[l]);
  return r;
}
using min_fn = float (*)(const float*, std::size_t);
float min_baseline(const float* p, std::size_t n) { return min_body<4>(p, n); }

/// One instruction set's kernels: the engines' fold and the host bandwidth probe's read.
struct isa_kernels {
  fold_fn fold;
  min_fn min;
  const char* name;
};

#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("avx2"))) void fold_tile_avx2(const float* w, index_t ld, const float* cur, index_t j0,
                                                    index_t j1, index_t v0, index_t len, float* best,
                                                    std::int32_t* arg) {
  fold_tile_body<8>(w, ld, cur, j0, j1, v0, len, best, arg);
}
__attribute__((target("avx512f"))) void fold_tile_avx512(const float* w, index_t ld, const float* cur, index_t j0,
                                                         index_t j1, index_t v0, index_t len, float* best,
                                                         std::int32_t* arg) {
  fold_tile_body<16>(w, ld, cur, j0, j1, v0, len, best, arg);
}
__attribute__((target("avx2"))) float min_avx2(const float* p, std::size_t n) { return min_body<8>(p, n); }
__attribute__((target("avx512f"))) float min_avx512(const float* p, std::size_t n) { return min_body<16>(p, n); }
bool cpu_has(isa i) {
  __builtin_cpu_init();
  if (i == isa::avx512) return __builtin_cpu_supports("avx512f") != 0;
  if (i == isa::avx2) return __builtin_cpu_supports("avx2") != 0;
  return true;
}
#else
bool cpu_has(isa i) { return i == isa::baseline || i == isa::automatic; }
#endif

/// The kernels of the asked instruction set (automatic: the widest this CPU has); asking for one
/// the CPU lacks is an error.
isa_kernels kernels_for(isa want) {
  if (want == isa::automatic) want = cpu_has(isa::avx512) ? isa::avx512 : cpu_has(isa::avx2) ? isa::avx2 : isa::baseline;
  const char* name = want == isa::avx512 ? "AVX-512F" : want == isa::avx2 ? "AVX2" : "baseline ISA";
  if (!cpu_has(want)) throw usage_error(std::string("bellman-ford cpu engine: this CPU has no ") + name);
#if defined(__GNUC__) && defined(__x86_64__)
  if (want == isa::avx512) return {fold_tile_avx512, min_avx512, name};
  if (want == isa::avx2) return {fold_tile_avx2, min_avx2, name};
#endif
  return {fold_tile_baseline, min_baseline, name};
}

class cpu_engine final : public engine {
 public:
  cpu_engine(bool parallel, const engine_config& cfg) : parallel_(parallel), parallel_work_(cfg.cpu_parallel_work) {
    if (parallel_work_ < 0) throw usage_error("bellman-ford cpu engine: cpu_parallel_work must be >= 0");
    const isa_kernels k = kernels_for(cfg.isa);
    fold_ = k.fold;
    isa_name_ = k.name;
  }

  engine_kind kind() const override { return parallel_ ? engine_kind::openmp : engine_kind::serial; }
  std::string description() const override {
    return (parallel_ ? "openmp: " + std::to_string(omp_get_max_threads()) + " threads" : std::string("serial: 1 thread")) +
           ", " + isa_name_;
  }
  int max_group() const override { return 1 << 30; }
  layout uploaded_layout() const override { return m_ ? m_->lay : layout::by_source; }

  void upload(const dense_matrix& m) override {
    GPU500_EXPECTS(m.lay == layout::by_source, "cpu bellman-ford engine reads the by_source layout");
    m_ = &m;
    cur_.assign(static_cast<std::size_t>(m.n), inf);
    next_ = cur_;
    pred_.assign(static_cast<std::size_t>(m.n), -1);
  }

  void init(index_t source) override {
    GPU500_EXPECTS(m_, "cpu bellman-ford engine: upload first");
    std::fill(cur_.begin(), cur_.end(), inf);
    std::fill(pred_.begin(), pred_.end(), -1);
    cur_[static_cast<std::size_t>(source)] = 0.0f;
    changed_ = false;
  }

  void round(variant, int, bool reset_flag, bool) override {
    GPU500_EXPECTS(m_, "cpu bellman-ford engine: upload first");
    if (reset_flag) changed_ = false;
    const index_t n = m_->n, ld = m_->ld;
    const int max_threads = parallel_ ? omp_get_max_threads() : 1;
    const int threads =
        n * n < parallel_work_ ? 1 : static_cast<int>(std::clamp<index_t>(n / min_rows, 1, max_threads));
    // Every thread's partial (min, argmin) of every column: ld entries each.
    const std::size_t need = static_cast<std::size_t>(threads) * static_cast<std::size_t>(ld);
    if (best_.size() < need) {
      best_.resize(need);
      arg_.resize(need);
    }
    const float* w = m_->w.data();
    const float* cur = cur_.data();
    float* next = next_.data();
    float* best = best_.data();
    std::int32_t* arg = arg_.data();
    std::int32_t* pred = pred_.data();
    const fold_fn fold = fold_;
    // Thread t of a team of `team`: fold rows [j0, j1) into its partials, every column in passes
    // of at most max_tile (fold), then merge the team's partials for its share of the columns
    // and commit them (merge; a team runs it after a barrier).
    const auto fold_rows = [&](int t, int team) {
      const index_t j0 = n * t / team, j1 = n * (t + 1) / team;
      float* b = best + static_cast<std::size_t>(t) * static_cast<std::size_t>(ld);
      std::int32_t* a = arg + static_cast<std::size_t>(t) * static_cast<std::size_t>(ld);
      for (index_t v0 = 0; v0 < n; v0 += max_tile) {
        const index_t len = std::min(max_tile, ld - v0);  // ld: a multiple of 32, past n +inf
        fold(w, ld, cur, j0, j1, v0, len, b + v0, a + v0);
      }
    };
    // Merge in thread order (lower rows first: a later thread wins only with a smaller value,
    // which keeps the smallest j on ties) and commit; true when a distance fell.
    const auto merge = [&](index_t v, int team) {
      float bv = best[v];
      std::int32_t av = arg[v];
      for (int u = 1; u < team; ++u) {
        const std::size_t k = static_cast<std::size_t>(u) * static_cast<std::size_t>(ld) + static_cast<std::size_t>(v);
        if (best[k] < bv) {
          bv = best[k];
          av = arg[k];
        }
      }
      if (bv < cur[v]) {
        next[v] = bv;
        pred[v] = av;
        return true;
      }
      next[v] = cur[v];
      return false;
    };
    bool any = false;
    if (threads == 1) {  // no team at all: a one-thread parallel region still costs a few hundred ns
      fold_rows(0, 1);
      for (index_t v = 0; v < n; ++v) any = merge(v, 1) || any;
    } else {
#pragma omp parallel num_threads(threads) reduction(|| : any)
      {
        const int team = omp_get_num_threads();
        fold_rows(omp_get_thread_num(), team);
#pragma omp barrier
#pragma omp for schedule(static) nowait
        for (index_t v = 0; v < n; ++v) any = merge(v, team) || any;
      }
    }
    changed_ = changed_ || any;
    cur_.swap(next_);
  }

  bool changed() override { return changed_; }
  void download(std::vector<float>& dist, std::vector<std::int32_t>& pred) override {
    dist = cur_;
    pred = pred_;
  }
  void finish() override {}

 private:
  bool parallel_;
  std::int64_t parallel_work_;
  fold_fn fold_ = nullptr;
  std::string isa_name_;
  const dense_matrix* m_ = nullptr;
  std::vector<float> cur_, next_;
  std::vector<std::int32_t> pred_;
  std::vector<float> best_;        // per-round scratch of the fold: ld entries per thread
  std::vector<std::int32_t> arg_;
  bool changed_ = false;
};

}  // namespace

}  // namespace gpu500::bellman_ford::detail

namespace gpu500::bellman_ford {

double host_read_bandwidth(std::size_t bytes, int reps) {
  using namespace detail;
  constexpr std::size_t chunk = 64;  // floats: a thread's share is whole chunks (4 vectors of 16)
  const std::size_t n = std::max<std::size_t>(bytes / sizeof(float) / chunk, 1) * chunk;
  const min_fn read = kernels_for(isa::automatic).min;
  std::unique_ptr<float[]> buf(new float[n]);
  // A thread's share of the team's, in whole chunks; the same split first-touches and reads
  // (same NUMA node) when both teams have the same size, and covers the buffer in any case.
  const auto share = [&](std::size_t& lo, std::size_t& hi) {
    const std::size_t chunks = n / chunk, t = static_cast<std::size_t>(omp_get_thread_num()),
                      team = static_cast<std::size_t>(omp_get_num_threads());
    lo = chunks * t / team * chunk;
    hi = chunks * (t + 1) / team * chunk;
  };
#pragma omp parallel
  {
    std::size_t lo = 0, hi = 0;
    share(lo, hi);
    for (std::size_t i = lo; i < hi; ++i) buf[i] = static_cast<float>(i % 1000) + 1.0f;
  }
  buf[n / 2] = -1.0f;  // the minimum: checked, so that the reads cannot be optimised away
  double best = 0;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    float m = inf;
    stopwatch sw;
#pragma omp parallel reduction(min : m)
    {
      std::size_t lo = 0, hi = 0;
      share(lo, hi);
      m = std::min(m, read(buf.get() + lo, hi - lo));
    }
    const double sec = sw.seconds();
    GPU500_EXPECTS(m == -1.0f, "host_read_bandwidth: wrong minimum");
    best = std::max(best, static_cast<double>(n * sizeof(float)) / sec / 1e9);
  }
  return best;
}

}  // namespace gpu500::bellman_ford

namespace gpu500::bellman_ford::detail {

std::unique_ptr<engine> make_cpu_engine(bool parallel, const engine_config& cfg) {
  return std::make_unique<cpu_engine>(parallel, cfg);
}

}  // namespace gpu500::bellman_ford::detail
