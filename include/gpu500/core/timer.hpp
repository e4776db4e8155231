// gpu500/core/timer.hpp — wall-clock timing (seconds, double), as MPI_Wtime is used by the references.
#pragma once

#include <chrono>

namespace gpu500 {

/// Seconds since an arbitrary fixed point (monotonic).
inline double wall_time() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

/// A stopwatch started on construction.
class stopwatch {
 public:
  stopwatch() : start_(wall_time()) {}
  void restart() { start_ = wall_time(); }
  [[nodiscard]] double seconds() const { return wall_time() - start_; }

 private:
  double start_;
};

}  // namespace gpu500
