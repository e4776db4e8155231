// The progress line of `gpu500 hpl` (rank 0, stderr): after each panel iteration the percentage
// of the LU's flops done, the rate so far and the estimated time left — a live line (\r) on a
// terminal, otherwise one line each time another 10 % of the flops is done.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>

namespace gpu500::hpl::detail {

class progress_meter {
 public:
  /// live: rewrite one line with \r (a terminal); else a line per 10 % of the flops.
  progress_meter(std::int64_t n, int nb, std::FILE* out, bool live);
  /// columns: columns factored so far.
  void update(std::int64_t columns);
  /// Ends the live line.
  void finish();

 private:
  std::int64_t n_;
  int nb_;
  std::FILE* out_;
  bool live_;
  int next_decile_ = 1;
  double t_first_ = -1, done_first_ = 0, last_print_ = -1;
  bool printed_ = false;
};

/// The callback for run_options::progress that feeds `m` (empty when m is null).
std::function<void(std::int64_t)> progress_callback(progress_meter* m);

/// True when the stream is a terminal.
bool is_terminal(std::FILE* f);

}  // namespace gpu500::hpl::detail
