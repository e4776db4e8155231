// Forwards to the shared test graphs and engine drivers (tests/support/), under their former
// namespace gpu500::testing.
#pragma once

#include "../../support/engine_runs.hpp"
#include "../../support/graphs.hpp"

namespace gpu500 {
namespace testing = test;
}
