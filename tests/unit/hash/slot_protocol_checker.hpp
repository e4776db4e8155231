// The vocabulary of the slot-protocol model (slot_protocol_model.hpp): the operations, the insert
// protocols and find fallbacks it checks, a thread's registers, the result of an exploration, and
// the checker's class: its configuration, the explored state (the table of slot_protocol_state.hpp,
// every thread, key 4's abstract value and what each operation on it has seen), the
// linearisability bookkeeping of the writers and finds, and the lock-holding look-ups shared by the
// locked insert and the erase. The step machines are defined in slot_protocol_locked_insert.hpp,
// slot_protocol_pair_cas.hpp, slot_protocol_erase_move.hpp and slot_protocol_find.hpp; the
// explorer in slot_protocol_model.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "slot_protocol_state.hpp"


namespace gpu500::hash::testing::protocol {

/// How a find falls back after its optimistic attempts.
enum class fallback {
  ordered_scan,  ///< the former fallback: scan the window in order, key, hop bit, value, key again
  locked,        ///< the look-up under the home's lock (the device code now)
};

/// How an insert claims a slot and publishes it.
enum class insert_protocol : std::uint8_t {
  locked,  ///< the device code now: lock home, look up, claim a hole by CAS on its key, store value
           ///< and key, publish the hop bit and unlock in one store
  pair_cas,  ///< no lock: look up under the home word w, claim the first free slot of the window with
             ///< one pair CAS {empty, *} -> {k, v}, publish with CAS(word, w, w | bit); a failed
             ///< publish looks again under the new word, keeping the slot (docs/hash.md)
  pair_cas_claim_first,  ///< the same with the claim issued before the look-up (speculative)
  // Broken on purpose, to show that the checker notices:
  pair_cas_or_publish,     ///< publishes with atomicOr of the bit: no check of the word it looked under
  pair_cas_store_publish,  ///< publishes with a plain store of the word it looked under plus the bit
  pair_cas_bit_first,      ///< publishes the bit (by the validated CAS) before the pair is stored
};

/// `move` is a hopscotch displacement (swap_value_into_empty) by an insert of another bucket: it
/// claims the hole `value` (a slot index), moves the first member of home_of(key) below the hole
/// into it, and gives back the slot the member left.
enum class kind : std::uint8_t { insert, erase, find, move };
struct operation {
  kind what;
  std::uint8_t key;
  std::uint8_t value = 0;
};

/// One thread: its program, its position and its registers.
struct thread_state {
  std::uint8_t op = 0, pc = 0, i = 0, tries = 0;
  std::uint8_t m_bitmap = 0, m_version = 0, m_overflow = 0, slot = 0xff, v = 0;
  std::uint8_t hole = 0xff, after = 0;  // a move's hole; where a given-back pair claim goes next
  bool found = false, in_stash = false, published = false;
  bool started = false, claimed = false, looked = false;  // the pair-CAS insert's progress
};

struct result {
  bool violation = false;
  std::string trace;  ///< the schedule of the first violation: one line per step
  std::uint64_t states = 0;
  // Witnesses that a scenario reaches the pair-CAS insert's risky interleavings:
  std::uint64_t two_claims = 0;        ///< states where two inserts of one key hold claims on two slots
  std::uint64_t claims_beside_4 = 0;   ///< states where an insert of 4 holds a claim while 4 is present
  std::uint64_t unpublished_reads = 0; ///< steps where a look-up reads a claimed pair whose bit is not set
  std::uint64_t failed_publishes = 0;  ///< publishing CASes that failed (the word changed)
};

class checker {
 public:
  /// `stash_erase_bumps_version = false` breaks the protocol on purpose (an erase from the stash
  /// that leaves the version alone), to show that the checker catches what the version prevents.
  checker(std::vector<std::vector<operation>> programs, fallback f, int optimistic_tries, table start = slots_table(),
          bool stash_erase_bumps_version = true)
      : programs_(std::move(programs)), fallback_(f), tries_(optimistic_tries), start_(start),
        bump_(stash_erase_bumps_version) {}

  /// Every insert of the programs follows `p` (the locked insert by default).
  checker& with_insert(insert_protocol p) {
    insert_ = p;
    return *this;
  }

  /// Every interleaving from the starting table; finds are of key 4.
  result explore();

 private:
  struct node {
    shared_state mem;
    std::vector<thread_state> threads;
    std::uint8_t abs4 = 0;            // abstract value of key 4 (0: absent)
    std::vector<std::uint64_t> seen;  // per thread: key 4's abstract values since its operation on 4 began
    [[nodiscard]] std::string bytes() const {
      std::string s(reinterpret_cast<const char*>(&mem), sizeof mem);
      for (const auto& t : threads) s.append(reinterpret_cast<const char*>(&t), sizeof t);
      s.push_back(static_cast<char>(abs4));
      s.append(reinterpret_cast<const char*>(seen.data()), seen.size() * sizeof(std::uint64_t));
      return s;
    }
  };
  static std::uint64_t bit(std::uint8_t v) { return 1ULL << (v % 64); }

  std::vector<std::vector<operation>> programs_;
  fallback fallback_;
  int tries_;
  table start_;
  bool bump_;
  insert_protocol insert_ = insert_protocol::locked;
  std::unordered_set<std::string> visited_;

  /// " (unpublished)" when `slot` holds a pair claimed by an insert that has not published it.
  static std::string claim_note(const node& n, int slot) {
    for (const auto& u : n.threads)
      if (u.claimed && u.slot == slot) return " (unpublished)";
    return "";
  }

  void set_abs(node& n, std::uint8_t key, std::uint8_t value) const {
    if (key != 4) return;
    n.abs4 = value;
    for (std::size_t u = 0; u < n.threads.size(); ++u)
      if (n.threads[u].op < programs_[u].size() && programs_[u][n.threads[u].op].key == 4) n.seen[u] |= bit(value);
  }
  /// An insert of `key` takes effect (reports inserted): key 4 must have been absent.
  void take_effect(node& n, std::uint8_t key, std::uint8_t value, std::string& what) const {
    if (key == 4 && n.abs4 != 0) what += "  <-- VIOLATION: key 4 inserted while present";
    set_abs(n, key, value);
  }
  /// An erase of `key` takes effect (empties its slot): key 4 must have been present.
  static void erase_effect(const node& n, std::uint8_t key, std::string& what) {
    if (key == 4 && n.abs4 == 0) what += "  <-- VIOLATION: key 4 erased while absent";
  }
  /// An operation of thread t on `key` reports "present" (an insert) or "absent" (an erase): key 4
  /// must have had that state at some moment of the operation.
  static void check_seen(const node& n, std::size_t t, std::uint8_t key, bool present, std::string& what) {
    if (key != 4) return;
    const bool ok = present ? (n.seen[t] & ~bit(0)) != 0 : (n.seen[t] & bit(0)) != 0;
    if (!ok) what += present ? "  <-- VIOLATION: reports key 4 present, absent throughout"
                             : "  <-- VIOLATION: reports key 4 absent, present throughout";
  }

  /// Locks the home word m for s, keeping its bitmap and overflow flag; false while it is locked.
  static bool lock(thread_state& s, word& m) {
    if (m.lock) return false;
    m.lock = 1;
    s.m_bitmap = m.bitmap, s.m_overflow = m.overflow;
    return true;
  }
  /// The first step of the locked insert and of the erase: lock home h (pc 0 -> 1, the window's
  /// walk from its start); false while it is locked.
  static bool lock_home(thread_state& s, word& m, int h, std::string& what) {
    if (!lock(s, m)) return false;
    what += "locks bucket " + std::to_string(h), s.pc = 1, s.i = 0;
    return true;
  }
  /// Under the lock, with the overflow flag: one stash pair per step (s.i walks the pairs).
  /// 1: found (s.slot = pair), 0: go on, -1: not found.
  static int stash_step(const node& n, thread_state& s, const operation& o) {
    if (!s.m_overflow || s.i >= kStash) return -1;
    const int pair = s.i++;
    if (n.mem.stash_key[pair] == o.key) {
      s.slot = static_cast<std::uint8_t>(pair);
      return 1;
    }
    return 0;
  }
  /// Scan the named slots of home h under the lock, one key load per step: s.i walks the window.
  /// 1: found (s.slot), 0: go on, -1: not found.
  static int scan_step(const node& n, thread_state& s, const operation& o, int h) {
    while (s.i < kWindow && !((s.m_bitmap >> s.i) & 1u)) ++s.i;
    if (s.i == kWindow) return -1;
    const int slot = h + s.i++;
    if (n.mem.key[slot] == o.key) {
      s.slot = static_cast<std::uint8_t>(slot);
      return 1;
    }
    return 0;
  }

  // The explorer (slot_protocol_model.hpp).
  void count_claims(const node& n, result& r) const;
  static void fail(std::vector<std::string>& path, result& r, const std::string& why);
  void dfs(const node& n, std::vector<std::string>& path, result& r);
  /// One step of thread t; false when it cannot move (it waits for a lock).
  bool step(node& n, std::size_t t, std::string& what);

  // The step machines of the operations, each in its own header.
  bool locked_insert_step(node& n, std::size_t t, const operation& o, int h, std::string& what,
                          const std::function<void()>& next_op);
  bool pair_insert_step(node& n, std::size_t t, const operation& o, int h, std::string& what,
                        const std::function<void()>& next_op);
  bool erase_step(node& n, std::size_t t, const operation& o, int h, std::string& what,
                  const std::function<void()>& next_op);
  bool move_step(node& n, thread_state& s, const operation& o, int h, std::string& what,
                 const std::function<void()>& next_op) const;
  bool find_step(node& n, thread_state& s, const std::uint64_t& seen, const operation& o, int h, std::string& what,
                 const std::function<void()>& next_op);
};

}  // namespace gpu500::hash::testing::protocol
