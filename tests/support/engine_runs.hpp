// tests/support/engine_runs.hpp — drivers that run a CPU search engine (BFS or SSSP) over the
// test graphs: every root of every case with the engine's buffers reused across roots, and the
// orders of prepare() and run() every engine must accept. Both set the OpenMP thread count for
// the run and restore it after.
#pragma once

#include <cstdint>
#include <vector>

#include <omp.h>

#include "gpu500/graph/csr.hpp"
#include "graphs.hpp"

namespace gpu500::test {

/// The orders of prepare() (the untimed reset before a timed search) and run() that every engine
/// must accept, on `threads` OpenMP threads: prepared, not prepared (run() resets by itself),
/// prepared twice, and the first root again without a reset. check(root, what) after each search;
/// roots needs 3 entries.
template <class Engine, class Check>
void check_prepare_orders(Engine& e, const std::vector<std::int64_t>& roots, int threads, Check&& check) {
  omp_set_num_threads(threads);
  e.prepare();
  e.run(roots[0]);
  check(roots[0], "prepared");
  e.run(roots[1]);
  check(roots[1], "not prepared");
  e.prepare();
  e.prepare();
  e.run(roots[2]);
  check(roots[2], "prepared twice");
  e.run(roots[0]);
  check(roots[0], "again, not prepared");
  omp_set_num_threads(omp_get_num_procs());
}

/// Runs every root of every case through one Engine per graph (buffers reused across roots) with
/// `threads` OpenMP threads: check(case, oracle, root, engine) after each search, where the oracle
/// is make_oracle(case), built once per graph.
template <class V, class Engine, class Options, class MakeOracle, class Check>
void for_each_search(const std::vector<graph_case>& cases, const Options& o, int threads, MakeOracle&& make_oracle,
                     Check&& check) {
  omp_set_num_threads(threads);
  for (const auto& c : cases) {
    const auto g = graph::build_csr<V>(c.edges);
    const auto oracle = make_oracle(c);
    Engine e(g.view(), o);
    for (auto root : c.roots) {
      e.run(root);
      check(c, oracle, root, e);
    }
  }
  omp_set_num_threads(omp_get_num_procs());
}

}  // namespace gpu500::test
