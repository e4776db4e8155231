// CPU engines of dense Bellman-Ford: serial and OpenMP, one Jacobi round as bellman_ford.hpp
// defines it, on the by_source matrix.
//
// Loop order: vertices are cut into tiles of columns; for a tile, rows j = 0..n-1 are streamed in
// order and each row's contiguous strip is folded into the tile's private (min, argmin) with
// branch-free selects (the compiler vectorises it). Ascending j with a strict '<' keeps the
// smallest j among equal candidates, the tie rule every engine follows. The OpenMP engine runs
// the tiles in parallel (from N = 256 on: below, starting threads costs more than the round);
// the serial engine is the same loop on one thread. No row is skipped
// (not even rows of unreached vertices): the CPU does the same work as the GPU kernels.
// The engine references the caller's matrix (no copy): it must outlive the solves.
#include <omp.h>

#include <algorithm>
#include <string>

#include "../engines.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::bellman_ford::detail {
namespace {

class cpu_engine final : public engine {
 public:
  explicit cpu_engine(bool parallel) : parallel_(parallel) {}

  engine_kind kind() const override { return parallel_ ? engine_kind::openmp : engine_kind::serial; }
  std::string description() const override {
    return parallel_ ? "openmp: " + std::to_string(omp_get_max_threads()) + " threads" : std::string("serial: 1 thread");
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
    const int threads = parallel_ ? omp_get_max_threads() : 1;
    const index_t tile = std::clamp<index_t>(((n + threads - 1) / threads + 15) & ~index_t{15}, 16, 4096);
    const index_t tiles = (n + tile - 1) / tile;
    const float* w = m_->w.data();
    const float* cur = cur_.data();
    float* next = next_.data();
    std::int32_t* pred = pred_.data();
    bool any = false;
#pragma omp parallel for schedule(dynamic) reduction(|| : any) if (parallel_ && n >= 256)
    for (index_t t = 0; t < tiles; ++t) {
      const index_t v0 = t * tile, len = std::min(tile, n - v0);
      std::vector<float> best(static_cast<std::size_t>(len), inf);
      std::vector<std::int32_t> arg(static_cast<std::size_t>(len), -1);
      float* b = best.data();
      std::int32_t* a = arg.data();
      for (index_t j = 0; j < n; ++j) {
        const float dj = cur[j];
        const float* row = w + j * ld + v0;
        const auto jj = static_cast<std::int32_t>(j);
#pragma omp simd
        for (index_t i = 0; i < len; ++i) {
          const float c = dj + row[i];
          const bool lt = c < b[i];
          b[i] = lt ? c : b[i];
          a[i] = lt ? jj : a[i];
        }
      }
      for (index_t i = 0; i < len; ++i) {
        const index_t v = v0 + i;
        if (b[i] < cur[v]) {
          next[v] = b[i];
          pred[v] = a[i];
          any = true;
        } else {
          next[v] = cur[v];
        }
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
  const dense_matrix* m_ = nullptr;
  std::vector<float> cur_, next_;
  std::vector<std::int32_t> pred_;
  bool changed_ = false;
};

}  // namespace

std::unique_ptr<engine> make_cpu_engine(bool parallel) { return std::make_unique<cpu_engine>(parallel); }

}  // namespace gpu500::bellman_ford::detail
