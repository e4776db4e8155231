// Delta-stepping SSSP over a 1-D block partition (internal; Meyer & Sanders, J. Algorithms 2003,
// bucket-synchronous as in the Graph500 reference's sssp). Bucket k holds the vertices with a
// tentative distance in [k*delta, (k+1)*delta). The ranks agree on the smallest non-empty bucket,
// then repeat light phases (relax the light arcs, w < delta, of the bucket's vertices) until the
// bucket stays empty everywhere, then relax the heavy arcs of every vertex the bucket settled
// once. A relaxation is a request (the vertex's row at its owner, distance, parent) sent to the vertex's owner, which
// keeps it when it lowers the distance; a rank does not send a vertex a distance above one it
// or another rank of its host has already offered it (the ranks of a host share one array of
// offers, dist::node_shared; a byte per vertex, that offer's bucket, decides most of those tests
// without the offered float). Distances are single float adds of the stored weights,
// as the validator demands. A vertex whose distance falls again is queued again (label
// correcting), so the result does not depend on rounding at bucket borders. Inside a rank the
// relaxations and their application are OpenMP-parallel (a compare-and-swap minimum per vertex);
// the bucket structure is kept by one thread. The light arcs are copied into rows of their own
// when the engine is built (kernel 1), so a light phase reads none of the heavy ones; a heavy
// phase reads the pulls' heavy rows (below) where they were built.
// A bucket whose settled rows hold a large share of the graph's arcs (the hubs' early buckets)
// pulls instead of pushing its heavy arcs, as the CUDA engine does: the ranks all-gather the
// bucket's vertices and distances, and every row not yet settled scans its own heavy arcs, kept
// in ascending weight, for them, leaving the row once lo + w passes its best candidate (the graph
// is symmetric, so the row's arcs are the arcs into it). No request is sent for that bucket.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/node_shared.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "local_graph.hpp"

namespace gpu500::graph500::mpi {

struct sssp_policy {
  float delta = 0.1f;           ///< bucket width (> 0)
  bool no_light_heavy = false;  ///< every arc in the bucket's phases, no heavy phase
  /// A bucket whose settled rows hold at least this share of the graph's arcs pulls its heavy
  /// arcs instead of pushing them (0: every bucket; above 1: none).
  double pull_share = 0.1;
};

class sssp_engine {
 public:
  /// A relaxation request, sent to the owner of the relaxed vertex: its index among the owner's
  /// rows (a block of the partition holds fewer than 2^32 vertices), the tentative distance and the
  /// parent that offers it (a global id). 16 bytes.
  struct request {
    std::int64_t parent;
    std::uint32_t local;
    float dist;
  };
  static_assert(sizeof(request) == 16);

  sssp_engine(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
              sssp_policy pol);

  /// Untimed reset (the reference's clean_shortest; collective over the host's ranks).
  void prepare();
  /// The timed search (collective).
  void run(index_t root);
  /// Input edges with both ends reached (collective).
  [[nodiscard]] index_t traversed_edges() const;

  [[nodiscard]] std::span<std::int64_t> parents() { return parent_; }
  [[nodiscard]] std::span<float> distances() { return dist_; }
  [[nodiscard]] const std::vector<level_record>& levels() const { return levels_; }

 private:
  enum class arcs { light, heavy, all };
  /// Queue owned row l (distance d) in its bucket, never below `floor`.
  void enqueue(index_t l, float d, index_t floor);
  /// Drops the recent entry (recent_) of a bucket about to be erased.
  void forget(const std::map<index_t, std::vector<index_t>>::iterator& it);
  /// Relaxes the chosen arcs of `rows`, exchanges the requests and applies the arrivals; returns
  /// the bytes sent to other ranks.
  index_t relax(const std::vector<index_t>& rows, arcs which, index_t floor);
  /// Applies arrived requests: distances lowered, parents set, lowered vertices queued.
  void apply(const std::vector<request>& in, index_t floor);
  /// The engine's copies of the rows, built with it (kernel 1): the light arcs, and, where pulls
  /// can happen, the heavy arcs in ascending weight (collective).
  void build_light_rows();
  void build_pull_rows();
  /// The heavy step of bucket b as a pull: the bucket's rows and distances all-gathered, every
  /// owned row not yet settled looks for them among its heavy arcs; returns the bytes received.
  index_t pull(index_t b);
  void record(int phase, const char* what, index_t local_count, index_t bytes, double seconds);

  const dist::communicator& c_;
  dist::block_partition part_;
  graph::csr_view<std::int64_t> g_;
  sssp_policy pol_;
  std::vector<float> dist_;
  std::vector<std::int64_t> parent_;
  std::vector<index_t> bucket_;                     // the bucket an owned row is queued in, -1 none
  std::map<index_t, std::vector<index_t>> buckets_;  // bucket -> rows (stale entries skipped)
  // The buckets enqueue appended to lately, by bucket modulo their number (a phase's lowered rows
  // fall into a few buckets near the current one): each spares a walk down the map.
  struct recent_bucket {
    index_t bucket = 0;
    std::vector<index_t>* rows = nullptr;  // null: none (or erased since)
  };
  std::array<recent_bucket, 64> recent_{};
  std::vector<char> settled_mark_, lowered_;
  // Per vertex of the whole graph: a distance this rank or another rank of its host has offered
  // it in this search, the smallest one unless two offers raced (requests that cannot lower a
  // distance are not sent), and an offer's bucket as a byte (254 for any later bucket, 255 before
  // any offer), which answers most tests without the float. One copy per host, in offers_, so
  // that the host's caches hold one (16 ranks' copies of their own overflowed them).
  dist::node_shared offers_;
  float* offered_ = nullptr;
  std::uint8_t* offered_bucket_ = nullptr;
  /// Resets this rank's share of the offers, then waits for the host's other ranks.
  void clear_offers();
  // The light arcs (w < delta) of every owned row, in row order, built with the engine (kernel 1):
  // the light phases, which may expand a vertex several times, read only these.
  std::vector<index_t> light_off_;
  std::vector<std::int64_t> light_col_;
  std::vector<float> light_wt_;
  // Pulls: each owned row's heavy arcs in ascending weight, a bitmap of the pulled bucket's
  // vertices over the whole graph (cleared after each pull), the pairs all-gathered.
  struct pulled {
    std::uint32_t local;
    float dist;
  };
  bool pulls_ = false;
  index_t graph_arcs_ = 0;  // over every rank (also the bound of a phase's exchange)
  std::vector<index_t> heavy_off_;
  std::vector<std::int64_t> heavy_col_;
  std::vector<float> heavy_wt_;
  std::vector<std::uint64_t> bucket_bits_;
  std::vector<pulled> pulled_mine_, pulled_all_;
  std::vector<index_t> pull_lowered_;  // the rows a pull lowered
  std::vector<index_t> frontier_, settled_;
  std::vector<level_record> levels_;
  // The exchange's buffers, kept between phases: per-thread-per-rank requests, the send buffer,
  // its counts and the arrivals.
  std::vector<std::vector<request>> scratch_;
  std::vector<request> out_, in_;
  std::vector<index_t> counts_;
  double comm_seconds_ = 0;
};

}  // namespace gpu500::graph500::mpi
