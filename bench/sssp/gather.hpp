// bench/sssp/gather.hpp — the random-read baseline of bench_sssp_gpu (gather.cu).
#pragma once

#include <cstddef>

/// Billions of independent 8-byte reads per second at uniformly random positions of an array of
/// `words` 8-byte words on the current GPU (best of 5 launches); 0 when the array does not fit.
double random_gather_rate(std::size_t words);
