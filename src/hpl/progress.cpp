// The progress line of `gpu500 hpl` (progress.hpp): flops done after k columns of an order-n
// LU = HPL's count for n minus the count for the n - k trailing columns.
#include "progress.hpp"

#include <unistd.h>

#include <algorithm>

#include "gpu500/core/timer.hpp"
#include "gpu500/hpl/pdgesv.hpp"

namespace gpu500::hpl::detail {

progress_meter::progress_meter(std::int64_t n, int nb, std::FILE* out, bool live)
    : n_(n), nb_(nb), out_(out), live_(live) {}

void progress_meter::update(std::int64_t columns) {
  if (n_ <= 0 || out_ == nullptr) return;
  const double total = hpl_flops(static_cast<double>(n_));
  const double done = total - hpl_flops(static_cast<double>(n_ - std::min(columns, n_)));
  const double now = wall_time();
  if (t_first_ < 0) {
    t_first_ = now;
    done_first_ = done;
  }
  const double frac = done / total;
  const bool end = columns >= n_;
  if (live_) {
    if (!end && last_print_ >= 0 && now - last_print_ < 0.2) return;
  } else {
    if (frac * 10 < next_decile_ && !end) return;
    while (next_decile_ <= 10 && frac * 10 >= next_decile_) ++next_decile_;
  }
  last_print_ = now;
  const double rate = now > t_first_ ? (done - done_first_) / (now - t_first_) : 0;
  char eta[32] = "--";
  if (rate > 0) std::snprintf(eta, sizeof eta, "%.1f s", (total - done) / rate);
  std::fprintf(out_, "%shpl: N=%lld NB=%d %5.1f%% of the flops, %.3f TFLOP/s, %s left%s", live_ ? "\r" : "",
               static_cast<long long>(n_), nb_, 100.0 * frac, rate / 1e12, eta, live_ ? "   " : "\n");
  std::fflush(out_);
  printed_ = true;
}

void progress_meter::finish() {
  if (live_ && printed_ && out_ != nullptr) std::fputc('\n', out_);
  printed_ = false;
}

std::function<void(std::int64_t)> progress_callback(progress_meter* m) {
  if (m == nullptr) return {};
  return [m](std::int64_t columns) { m->update(columns); };
}

bool is_terminal(std::FILE* f) { return f != nullptr && isatty(fileno(f)) == 1; }

}  // namespace gpu500::hpl::detail
