// gpu500/hash/model.hpp — the oracle of the hash component: a sequential model of a key -> value
// map with the same operation semantics as the tables, and the checker of a concurrent batch.
//
// The checker shares no code with any table: it decodes table_snapshot with its own constants and
// recomputes home buckets with its own copy of the hash (fmix64 + multiply-high).
//
// What a concurrent batch determines, per key K (before = the model before the batch):
//   * K not in the batch:                   unchanged (same presence, same value)
//   * K only inserted:                      present; value = before's, or one of the inserted
//                                           values when K was absent; exactly one insert reports
//                                           inserted when K was absent, none when present
//   * K only erased:                        absent; exactly one erase succeeds iff K was present
//   * K inserted and erased:                presence after - presence before = successful inserts
//                                           - successful erases; value one of before's / inserted
//   * a find of K with no write of K:       before's answer; with writes: any value it returns is
//                                           before's or an inserted one
// and no key appears that was neither present before nor inserted.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpu500/hash/common.hpp"

namespace gpu500::hash {

/// Sequential model: what each operation does when operations run one at a time.
class sequential_model {
 public:
  op_result apply(const op& o);
  insert_status insert(key_type k, value_type v);
  bool erase(key_type k);
  bool find(key_type k, value_type& v) const;
  [[nodiscard]] std::size_t size() const { return m_.size(); }
  [[nodiscard]] const std::unordered_map<key_type, value_type>& contents() const { return m_; }
  /// Replace the contents by the valid keys of a snapshot (after a batch has been checked).
  void assign(const std::unordered_map<key_type, value_type>& c) { m_ = c; }

 private:
  std::unordered_map<key_type, value_type> m_;
};

struct check_report {
  bool ok = true;
  std::int64_t errors = 0;
  std::vector<std::string> messages;  ///< the first few errors
  std::int64_t keys_checked = 0;      ///< keys whose final state the checks covered
  void fail(std::string msg);
  [[nodiscard]] std::string summary() const;
};

/// Structural invariants of a hopscotch snapshot: no key twice, every key within 31 slots after
/// its home, hop bitmaps exact, no lock flag held, versions even, no reserved slot left.
/// Also returns the contents (key -> value) through `contents` when it is not null.
check_report check_hopscotch_invariants(const table_snapshot& s,
                                        std::unordered_map<key_type, value_type>* contents = nullptr);

/// Checks one concurrent batch against the model state before it (see the header comment).
/// `after` is the table's contents after the batch. `allow_no_room`: accept no_room statuses (an
/// async batch that did not grow); those inserts then count as not having happened.
check_report check_batch(const std::unordered_map<key_type, value_type>& before, std::span<const op> ops,
                         std::span<const op_result> results, const std::unordered_map<key_type, value_type>& after,
                         bool allow_no_room = false);

/// The checker's own home-bucket function (agrees with home_bucket; kept separate on purpose).
std::uint64_t oracle_home(key_type k, std::uint64_t n_buckets);

}  // namespace gpu500::hash
