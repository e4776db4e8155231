// An exhaustive interleaving checker of GLHT's slot protocol (the device code in
// gpu500/hash/hopscotch_ref.cuh and detail/), on a table of 2 buckets, 4 slots and a stash of 2
// pairs (the overflow stash of detail/hopscotch_stash.cuh, one window shared by both buckets).
//
// Each operation is a sequence of atomic steps that mirrors the device code's accesses one for
// one: a bucket-word load, a slot-key load, a value load, a CAS, a store. Threads are step
// machines; explore() visits every interleaving of their steps (depth-first over the reachable
// states, each state once), so a protocol whose find can return a wrong answer in some schedule
// is caught, however rare that schedule is on a GPU. The model is sequentially consistent: it
// finds protocol races (ABA, a slot reused between two reads), not missing fences.
//
// Linearisability of a find: its answer (absent, or a value) must be the abstract state of its
// key at some moment between the find's first and last step. The abstract state changes at the
// writers' linearisation points (insert: the store or CAS that publishes the hop bit; erase: the
// store that empties the slot), and every state a find could have seen is kept in its thread's
// `seen` set, which is part of the explored state. The writers are checked the same way: an
// insert of key 4 that takes effect must find it absent, one that reports "present" and an erase
// that reports "absent" must have seen that state, an erase must empty a present key; every
// schedule must end (no thread left waiting) in a table that keeps the hopscotch invariants and
// holds key 4 exactly as its abstract value says (slot_protocol_state.hpp).
//
// Inserts follow one of the insert_protocol variants: the locked insert of the device code, the
// pair-CAS insert (one 16-byte CAS claims and fills a slot, a CAS of the home word publishes its
// hop bit; docs/hash.md) with its look-up first or its claim first, and three variants of it
// broken on purpose. Moves model hopscotch displacement (swap_value_into_empty).
//
// Files: slot_protocol_state.hpp holds the table (its memory, the scenarios' starting tables, the
// quiescent invariants); slot_protocol_checker.hpp the model's vocabulary and the checker's class;
// slot_protocol_locked_insert.hpp, slot_protocol_pair_cas.hpp, slot_protocol_erase_move.hpp and
// slot_protocol_find.hpp the step machines of the operations; this header the explorer: the
// depth-first search over the interleavings and the dispatch of a thread's step.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "slot_protocol_checker.hpp"
#include "slot_protocol_erase_move.hpp"
#include "slot_protocol_find.hpp"
#include "slot_protocol_locked_insert.hpp"
#include "slot_protocol_pair_cas.hpp"
#include "slot_protocol_state.hpp"

namespace gpu500::hash::testing::protocol {

inline result checker::explore() {
  node n;
  n.mem = start_.mem;
  n.abs4 = start_.value_of_4;
  n.threads.resize(programs_.size());
  n.seen.resize(programs_.size());
  result r;
  std::vector<std::string> path;
  dfs(n, path, r);
  r.states = visited_.size();
  return r;
}

inline void checker::count_claims(const node& n, result& r) const {
  for (std::size_t a = 0; a < n.threads.size(); ++a)
    if (n.threads[a].claimed && programs_[a][n.threads[a].op].key == 4 && n.abs4 != 0) {
      ++r.claims_beside_4;
      break;
    }
  for (std::size_t a = 0; a < n.threads.size(); ++a)
    for (std::size_t b = a + 1; b < n.threads.size(); ++b) {
      const thread_state &x = n.threads[a], &y = n.threads[b];
      if (x.claimed && y.claimed && programs_[a][x.op].key == programs_[b][y.op].key && x.slot != y.slot) {
        ++r.two_claims;
        return;
      }
    }
}

inline void checker::fail(std::vector<std::string>& path, result& r, const std::string& why) {
  r.violation = true;
  for (const auto& line : path) r.trace += line + "\n";
  r.trace += "VIOLATION: " + why + "\n";
}

inline void checker::dfs(const node& n, std::vector<std::string>& path, result& r) {
  if (r.violation || !visited_.insert(n.bytes()).second) return;
  count_claims(n, r);
  bool running = false, moved = false;
  for (std::size_t t = 0; t < n.threads.size() && !r.violation; ++t) {
    if (n.threads[t].op >= programs_[t].size()) continue;
    running = true;
    node next = n;
    std::string what;
    if (!step(next, t, what)) continue;  // blocked on a lock: no state change
    moved = true;
    if (what.find("fails to publish") != std::string::npos) ++r.failed_publishes;
    if (what.find("(unpublished)") != std::string::npos) ++r.unpublished_reads;
    path.push_back("thread " + std::to_string(t) + ": " + what);
    if (what.find("VIOLATION") != std::string::npos) {
      r.violation = true;
      for (const auto& line : path) r.trace += line + "\n";
    } else {
      dfs(next, path, r);
    }
    path.pop_back();
    if (r.violation) return;
  }
  if (running && !moved) fail(path, r, "deadlock: every thread left waits");
  if (!running) {
    const std::string broken = quiescent_violation(n.mem, n.abs4);
    if (!broken.empty()) fail(path, r, "the quiescent table: " + broken);
  }
}

// One step of thread t; false when it cannot move (it waits for a lock).
inline bool checker::step(node& n, std::size_t t, std::string& what) {
  thread_state& s = n.threads[t];
  const operation& o = programs_[t][s.op];
  const int h = home_of(o.key);
  auto next_op = [&] { s = thread_state{static_cast<std::uint8_t>(s.op + 1)}; };
  static const char* const names[] = {"insert(", "erase(", "find(", "move("};
  what = names[static_cast<int>(o.what)] + std::to_string(o.key) + ") ";
  if (!s.started) {  // the operation begins: what key 4 is now
    s.started = true;
    n.seen[t] = o.key == 4 ? bit(n.abs4) : 0;
    if (o.what == kind::insert && insert_ != insert_protocol::locked)
      s.pc = insert_ == insert_protocol::pair_cas_claim_first ? 42 : 40;
  }
  switch (o.what) {
    case kind::move:
      return move_step(n, s, o, h, what, next_op);
    case kind::insert:
      if (s.pc >= 40) return pair_insert_step(n, t, o, h, what, next_op);
      return locked_insert_step(n, t, o, h, what, next_op);
    case kind::erase:
      return erase_step(n, t, o, h, what, next_op);
    case kind::find:
      return find_step(n, s, n.seen[t], o, h, what, next_op);
  }
  return false;
}

}  // namespace gpu500::hash::testing::protocol
