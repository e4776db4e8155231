// gpu500/core/cuda/step_timer.hpp — the parts of a level as the GPU saw them: CUDA events recorded
// on one stream at the host's step boundaries, read after the level's own synchronisation, so
// that timing adds no synchronisation. A step's time runs from its mark to the next mark (or to
// the end mark): the GPU's work of the step and any time the stream waited for the host (a
// launch, a host-side exchange), which is what a level's latency is made of. The engines over
// MPI ranks put them into the per-level trace (gpu500/dist/trace.hpp). A timer made off records
// nothing and costs nothing (an event's launch is about a launch's host time), so an engine marks
// its parts unconditionally and the caller decides whether they are timed.
// Plain C++ (no CUDA headers), as memory.hpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;
struct CUevent_st;
typedef struct CUevent_st* cudaEvent_t;

namespace gpu500::gpu {

class step_timer {
 public:
  /// Events are recorded on `stream` (null: the legacy default stream) when `on`; off, every
  /// call below does nothing and take() returns no steps.
  explicit step_timer(bool on, cudaStream_t stream = nullptr) : on_(on), stream_(stream) {}
  ~step_timer();
  step_timer(const step_timer&) = delete;
  step_timer& operator=(const step_timer&) = delete;

  /// Starts the step `name` (a literal; the previous step ends here).
  void mark(const char* name);
  /// Ends the last step; the events may complete later.
  void end();
  /// Synchronises with the end mark and returns each step's seconds in mark order, steps of the
  /// same name summed into the first; then forgets the marks (the events are kept for reuse).
  std::vector<std::pair<std::string, double>> take();
  /// Forgets the marks of a level that ended without end() (a loop's last, empty test).
  void drop() {
    names_.clear();
    ended_ = false;
  }
  [[nodiscard]] bool on() const { return on_; }

 private:
  cudaEvent_t event(std::size_t i);

  bool on_;
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;    // grows to the most marks a level makes
  std::vector<const char*> names_;     // the marks of the current level
  bool ended_ = false;
};

}  // namespace gpu500::gpu
