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
  result explore() {
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

  void count_claims(const node& n, result& r) const {
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
  /// " (unpublished)" when `slot` holds a pair claimed by an insert that has not published it.
  static std::string claim_note(const node& n, int slot) {
    for (const auto& u : n.threads)
      if (u.claimed && u.slot == slot) return " (unpublished)";
    return "";
  }

  static void fail(std::vector<std::string>& path, result& r, const std::string& why) {
    r.violation = true;
    for (const auto& line : path) r.trace += line + "\n";
    r.trace += "VIOLATION: " + why + "\n";
  }

  void dfs(const node& n, std::vector<std::string>& path, result& r) {
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

  /// One step of thread t; false when it cannot move (it waits for a lock).
  bool step(node& n, std::size_t t, std::string& what) {
    thread_state& s = n.threads[t];
    const operation& o = programs_[t][s.op];
    const int h = home_of(o.key);
    word& m = n.mem.meta[h];
    auto next_op = [&] { s = thread_state{static_cast<std::uint8_t>(s.op + 1)}; };
    auto lock = [&]() -> bool {
      if (m.lock) return false;
      m.lock = 1;
      s.m_bitmap = m.bitmap, s.m_overflow = m.overflow;
      return true;
    };
    // Under the lock, with the overflow flag: one stash pair per step (s.i walks the pairs).
    auto stash_step = [&]() -> int {  // 1: found (s.slot = pair), 0: go on, -1: not found
      if (!s.m_overflow || s.i >= kStash) return -1;
      const int pair = s.i++;
      if (n.mem.stash_key[pair] == o.key) {
        s.slot = static_cast<std::uint8_t>(pair);
        return 1;
      }
      return 0;
    };
    // Scan the named slots under the lock, one key load per step: s.i walks the window.
    auto scan_step = [&]() -> int {  // 1: found (s.slot), 0: go on, -1: not found
      while (s.i < kWindow && !((s.m_bitmap >> s.i) & 1u)) ++s.i;
      if (s.i == kWindow) return -1;
      const int slot = h + s.i++;
      if (n.mem.key[slot] == o.key) {
        s.slot = static_cast<std::uint8_t>(slot);
        return 1;
      }
      return 0;
    };
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
        switch (s.pc) {
          case 0:
            if (!lock()) return false;
            what += "locks bucket " + std::to_string(h), s.pc = 1, s.i = 0;
            return true;
          case 1: {
            const int f = scan_step();
            what += "reads a named key";
            if (f == 1) s.pc = 9, check_seen(n, t, o.key, true, what);  // present: unlock
            if (f == -1) s.pc = 11, s.i = 0;      // absent from the slots: the stash
            return true;
          }
          case 11: {
            const int f = stash_step();
            what += "reads a stash key";
            if (f == 1) s.pc = 9, check_seen(n, t, o.key, true, what);
            if (f == -1) s.pc = 2, s.i = 0;  // absent: claim
            return true;
          }
          case 2: {  // claim: CAS empty -> reserved on slot h + i (one CAS per step)
            const int slot = h + s.i;
            if (s.i >= kWindow || slot >= kSlots) {
              s.pc = 6, s.i = 0;
              what += "finds no slot: the stash";
              return true;
            }
            if (n.mem.key[slot] == kEmpty) {
              n.mem.key[slot] = kReserved, s.slot = static_cast<std::uint8_t>(slot), s.pc = 3;
              what += "claims slot " + std::to_string(slot);
            } else {
              ++s.i;
              what += "passes slot " + std::to_string(slot);
            }
            return true;
          }
          case 3:
            n.mem.value[s.slot] = o.value, s.pc = 4;
            what += "stores value " + std::to_string(o.value) + " in slot " + std::to_string(s.slot);
            return true;
          case 4:
            n.mem.key[s.slot] = o.key, s.pc = 5;
            what += "stores key in slot " + std::to_string(s.slot);
            return true;
          case 5:
            m.bitmap = static_cast<std::uint8_t>(s.m_bitmap | (1u << (s.slot - h))), m.lock = 0;
            what += "publishes the hop bit and unlocks";
            take_effect(n, o.key, o.value, what);
            next_op();
            return true;
          case 6:  // claim a stash pair: CAS empty -> reserved
            if (s.i >= kStash) {
              s.pc = 9;
              what += "finds the stash full";
              return true;
            }
            if (n.mem.stash_key[s.i] == kEmpty) {
              n.mem.stash_key[s.i] = kReserved, s.slot = s.i, s.pc = 7;
              what += "claims stash pair " + std::to_string(s.slot);
            } else {
              what += "passes stash pair " + std::to_string(s.i++);
            }
            return true;
          case 7:
            n.mem.stash_value[s.slot] = o.value, s.pc = 8;
            what += "stores value " + std::to_string(o.value) + " in stash pair " + std::to_string(s.slot);
            return true;
          case 8:  // finds of a flagged bucket take the pair from here on
            n.mem.stash_key[s.slot] = o.key, s.pc = 10;
            what += "stores key in stash pair " + std::to_string(s.slot);
            if (s.m_overflow) take_effect(n, o.key, o.value, what), s.published = true;
            return true;
          case 10:
            m.overflow = 1, m.version = static_cast<std::uint8_t>(m.version + 2), m.lock = 0;
            what += "sets the overflow flag, bumps the version, unlocks";
            if (!s.published) take_effect(n, o.key, o.value, what);
            next_op();
            return true;
          case 9:
            m.lock = 0;
            what += "unlocks";
            next_op();
            return true;
        }
        break;
      case kind::erase:
        switch (s.pc) {
          case 0:
            if (!lock()) return false;
            what += "locks bucket " + std::to_string(h), s.pc = 1, s.i = 0;
            return true;
          case 1: {
            const int f = scan_step();
            what += "reads a named key";
            if (f == 1) s.pc = 2;
            if (f == -1) s.pc = 11, s.i = 0;
            return true;
          }
          case 11: {
            const int f = stash_step();
            what += "reads a stash key";
            if (f == 1) s.pc = 12;
            if (f == -1) s.pc = 9, check_seen(n, t, o.key, false, what);
            return true;
          }
          case 12:
            if (bump_) ++m.version;
            s.pc = 13;
            what += bump_ ? "makes the version odd" : "leaves the version alone (broken on purpose)";
            return true;
          case 13:
            n.mem.stash_key[s.slot] = kEmpty, s.pc = 14;
            what += "empties stash pair " + std::to_string(s.slot);
            erase_effect(n, o.key, what);
            set_abs(n, o.key, 0);
            return true;
          case 14: {  // other members of h in the stash? (they change only under h's lock)
            bool more = false;
            for (int i = 0; i < kStash; ++i)
              more |= i != s.slot && n.mem.stash_key[i] < kReserved && home_of(n.mem.stash_key[i]) == h;
            m.overflow = more, m.lock = 0;
            if (bump_) ++m.version;
            what += more ? "keeps the overflow flag" : "clears the overflow flag";
            what += ", version even, unlocks";
            next_op();
            return true;
          }
          case 2:
            ++m.version, s.pc = 3;
            what += "makes the version odd";
            return true;
          case 3:
            n.mem.key[s.slot] = kEmpty, s.pc = 4;
            what += "empties slot " + std::to_string(s.slot);
            erase_effect(n, o.key, what);
            set_abs(n, o.key, 0);
            return true;
          case 4:
            m.bitmap = static_cast<std::uint8_t>(s.m_bitmap & ~(1u << (s.slot - h))), ++m.version, m.lock = 0;
            what += "clears the hop bit, version even, unlocks";
            next_op();
            return true;
          case 9:
            m.lock = 0;
            what += "unlocks";
            next_op();
            return true;
        }
        break;
      case kind::find:
        return find_step(n, s, n.seen[t], o, h, what, next_op);
    }
    return false;
  }

  /// A hopscotch move (swap_value_into_empty of detail/hopscotch_displace.cuh) into hole o.value
  /// of bucket h = home_of(o.key): claim the hole, swap_lock h by CAS on the word read, set the
  /// new hop bit with the version odd, copy value then key, make the source reserved, clear its
  /// bit with the version even and unlock, and give the source back (empty).
  bool move_step(node& n, thread_state& s, const operation& o, int h, std::string& what,
                 const std::function<void()>& next_op) const {
    word& m = n.mem.meta[h];
    const std::string hole = std::to_string(s.hole);
    switch (s.pc) {
      case 0:  // claim the hole: CAS empty -> reserved
        s.hole = o.value;
        if (n.mem.key[o.value] != kEmpty) {
          what += "finds slot " + std::to_string(o.value) + " taken: no move";
          next_op();
          return true;
        }
        n.mem.key[o.value] = kReserved, s.pc = 1;
        what += "claims hole " + std::to_string(o.value);
        return true;
      case 1:  // read the word of the swap head (only try-locked: wait while locked)
        if (m.lock) return false;
        s.m_bitmap = m.bitmap, s.m_version = m.version, s.m_overflow = m.overflow, s.pc = 2;
        what += "reads the word of bucket " + std::to_string(h);
        return true;
      case 2: {  // swap_lock: CAS on the word read
        if (m.lock || m.bitmap != s.m_bitmap || m.version != s.m_version || m.overflow != s.m_overflow) {
          s.pc = 1;
          what += "fails to swap_lock bucket " + std::to_string(h);
          return true;
        }
        m.lock = 2;
        const unsigned below = s.m_bitmap & ((1u << (s.hole - h)) - 1u);
        if (below == 0) {  // no member before the hole: unlock, give the hole back
          m.lock = 0, s.pc = 8, s.slot = s.hole;
          what += "swap_locks bucket " + std::to_string(h) + ", finds no member to move and unlocks";
          return true;
        }
        s.slot = static_cast<std::uint8_t>(h + __builtin_ctz(below)), s.pc = 3;
        what += "swap_locks bucket " + std::to_string(h);
        return true;
      }
      case 3:  // temporary duplication: the new bit, the version odd
        m.bitmap = static_cast<std::uint8_t>(s.m_bitmap | (1u << (s.hole - h)));
        m.version = static_cast<std::uint8_t>(s.m_version + 1), s.pc = 4;
        what += "names hole " + hole + " beside slot " + std::to_string(s.slot) + ", version odd";
        return true;
      case 4:
        n.mem.value[s.hole] = n.mem.value[s.slot], s.pc = 5;
        what += "copies value " + std::to_string(n.mem.value[s.slot]) + " into slot " + hole;
        return true;
      case 5:
        n.mem.key[s.hole] = n.mem.key[s.slot], s.pc = 6;
        what += "copies key " + std::to_string(n.mem.key[s.slot]) + " into slot " + hole;
        return true;
      case 6:
        n.mem.key[s.slot] = kReserved, s.pc = 7;
        what += "makes slot " + std::to_string(s.slot) + " the new hole";
        return true;
      case 7:
        m.bitmap = static_cast<std::uint8_t>((s.m_bitmap | (1u << (s.hole - h))) & ~(1u << (s.slot - h)));
        m.version = static_cast<std::uint8_t>(s.m_version + 2), m.lock = 0, s.pc = 8;
        what += "clears the bit of slot " + std::to_string(s.slot) + ", version even, unlocks";
        return true;
      case 8:
        n.mem.key[s.slot] = kEmpty;
        what += "gives slot " + std::to_string(s.slot) + " back";
        next_op();
        return true;
    }
    return false;
  }

  /// The pair-CAS insert (insert_protocol::pair_cas and its variants), pcs 40-49:
  ///  40  load the home word (acquire), waiting while it is locked or its version odd; a flagged
  ///      word (members in the stash) sends the insert to the locked one (pc 0)
  ///  41  the named keys, one per step: k found -> 43 (or 47 when holding a claim); none -> 42
  ///      (or 44 when holding a claim)
  ///  42  the claim: one pair CAS {empty, *} -> {k, v} on the first free slot of the window (not
  ///      named, so no look-up sees it); k already there -> 40; no free slot -> the locked insert
  ///  43  k found: the version again, as a find validates -> present, or 40
  ///  44  publish: CAS(word, w, w | bit) on the unlocked, even word w of the look-up (release: the
  ///      pair and the look-up's loads before it) -> inserted, its linearisation point; a failure
  ///      (the word changed) -> 40, keeping the claim: the look-up runs again under the new word
  ///  47  give the claim back (empty) -> s.after
  ///  48, 49  the broken bit-first variant: pick a free slot (no claim), publish (44), store the pair
  bool pair_insert_step(node& n, std::size_t t, const operation& o, int h, std::string& what,
                        const std::function<void()>& next_op) {
    thread_state& s = n.threads[t];
    word& m = n.mem.meta[h];
    const std::string slot_name = "slot " + std::to_string(s.slot);
    auto to_locked = [&] { s.pc = 0, s.i = 0; };
    switch (s.pc) {
      case 40:
        if (m.lock || (m.version & 1u)) return false;
        s.m_bitmap = m.bitmap, s.m_version = m.version, s.m_overflow = m.overflow, s.i = 0, s.looked = true;
        what += "loads the bucket word (version " + std::to_string(m.version) + ")";
        if (m.overflow) {
          what += ", flagged: the locked insert";
          if (s.claimed) s.pc = 47, s.after = 0;
          else to_locked();
        } else {
          s.pc = 41;
        }
        return true;
      case 41: {
        while (s.i < kWindow && !((s.m_bitmap >> s.i) & 1u)) ++s.i;
        if (s.i == kWindow) {
          what += "has no named slot left";
          s.i = 0;
          s.pc = s.claimed ? 44 : insert_ == insert_protocol::pair_cas_bit_first ? 48 : 42;
          return true;
        }
        const int slot = h + s.i++;
        what += "reads key of slot " + std::to_string(slot) + claim_note(n, slot);
        if (n.mem.key[slot] == o.key) {
          what += ": found";
          if (s.claimed) s.pc = 47, s.after = 40;
          else s.pc = 43;
        }
        return true;
      }
      case 42: {
        const int slot = h + s.i;
        if (s.i >= kWindow || slot >= kSlots) {
          what += "finds no free slot in the window: the locked insert";
          to_locked();
          return true;
        }
        const std::uint8_t x = n.mem.key[slot];
        if (x == kEmpty) {
          n.mem.key[slot] = o.key, n.mem.value[slot] = o.value;
          s.slot = static_cast<std::uint8_t>(slot), s.claimed = true, s.pc = s.looked ? 44 : 40;
          what += "claims slot " + std::to_string(slot) + " with the pair (" + std::to_string(o.key) + ", " +
                  std::to_string(o.value) + ")";
        } else if (x == o.key) {
          s.pc = 40;
          what += "finds key " + std::to_string(o.key) + " in slot " + std::to_string(slot) + ": looks again";
        } else {
          ++s.i;
          what += "passes slot " + std::to_string(slot);
        }
        return true;
      }
      case 43:
        if (m.version != s.m_version) {
          s.pc = 40;
          what += "sees the version changed: looks again";
          return true;
        }
        what += "sees the version unchanged: present";
        check_seen(n, t, o.key, true, what);
        next_op();
        return true;
      case 44: {
        const auto b = static_cast<std::uint8_t>(1u << (s.slot - h));
        if (insert_ == insert_protocol::pair_cas_or_publish) {
          m.bitmap |= b;
          what += "publishes the hop bit of " + slot_name + " by atomicOr";
        } else if (insert_ == insert_protocol::pair_cas_store_publish) {
          m = word{static_cast<std::uint8_t>(s.m_bitmap | b), 0, s.m_overflow, s.m_version};
          what += "publishes the hop bit of " + slot_name + " by storing its word";
        } else if (m.lock || m.bitmap != s.m_bitmap || m.version != s.m_version || m.overflow != s.m_overflow) {
          s.pc = 40;
          what += "fails to publish: the word changed";
          return true;
        } else {
          m.bitmap |= b;
          what += "publishes the hop bit of " + slot_name + " by CAS";
        }
        take_effect(n, o.key, o.value, what);
        if (insert_ == insert_protocol::pair_cas_bit_first) s.pc = 49;
        else next_op();
        return true;
      }
      case 47:
        n.mem.key[s.slot] = kEmpty;
        what += "gives " + slot_name + " back";
        s.claimed = false, s.slot = 0xff, s.pc = s.after;
        if (s.pc == 0) to_locked();
        return true;
      case 48: {  // bit-first: a free slot, not claimed
        const int slot = h + s.i;
        if (s.i >= kWindow || slot >= kSlots) {
          what += "finds no free slot in the window: the locked insert";
          to_locked();
          return true;
        }
        what += "reads key of slot " + std::to_string(slot);
        if (n.mem.key[slot] == kEmpty) s.slot = static_cast<std::uint8_t>(slot), s.pc = 44;
        else ++s.i;
        return true;
      }
      case 49:
        n.mem.key[s.slot] = o.key, n.mem.value[s.slot] = o.value;
        what += "stores the pair in " + slot_name;
        next_op();
        return true;
    }
    return false;
  }

  /// The find's steps: pcs 0-4 the optimistic probe (4: the stash of a flagged bucket; an even
  /// word naming no member and no stash answers absent at once), 10-13 the
  /// ordered scan, 20-24 the locked look-up, 30 the answer (checked against `seen`).
  bool find_step(node& n, thread_state& s, const std::uint64_t& seen, const operation& o, int h, std::string& what,
                 const std::function<void()>& next_op) {
    word& m = n.mem.meta[h];
    switch (s.pc) {
      case 0:  // load the bucket word
        s.m_bitmap = m.bitmap, s.m_version = m.version, s.m_overflow = m.overflow, s.i = 0, s.found = false;
        what += "loads the bucket word (version " + std::to_string(m.version) + ")";
        s.pc = m.version & 1u ? 3 : 1;
        if (!(m.version & 1u) && m.bitmap == 0 && !m.overflow) {  // no member, no stash: absent now
          s.pc = 30;
          what += ", which names no member";
        }
        return true;
      case 1: {  // one named key per step
        while (s.i < kWindow && !((s.m_bitmap >> s.i) & 1u)) ++s.i;
        if (s.i == kWindow) {
          s.pc = s.m_overflow ? 4 : 3, s.i = 0;
          what += "has no named slot left";
          return true;
        }
        const int slot = h + s.i++;
        what += "reads key of slot " + std::to_string(slot) + claim_note(n, slot);
        if (n.mem.key[slot] == o.key) s.slot = static_cast<std::uint8_t>(slot), s.found = true, s.pc = 2;
        return true;
      }
      case 2:
        s.v = s.in_stash ? n.mem.stash_value[s.slot] : n.mem.value[s.slot], s.pc = 3;
        what += "reads value " + std::to_string(s.v);
        return true;
      case 4:  // the flagged bucket's stash, one pair per step
        if (s.i == kStash) {
          s.pc = 3;
          what += "has no stash pair left";
          return true;
        }
        what += "reads key of stash pair " + std::to_string(s.i);
        if (n.mem.stash_key[s.i] == o.key) s.slot = s.i, s.in_stash = true, s.found = true, s.pc = 2;
        else ++s.i;
        return true;
      case 3: {  // validate the version
        const bool ok = !(s.m_version & 1u) && m.version == s.m_version;
        what += ok ? "sees the version unchanged" : "sees the version changed: retry";
        if (ok) {
          s.pc = 30;
        } else if (++s.tries < tries_) {
          s.pc = 0, s.in_stash = false;
        } else {
          s.in_stash = false;
          s.pc = fallback_ == fallback::ordered_scan ? 10 : 20;
          s.i = 0, s.found = false;
        }
        return true;
      }
      case 10:  // ordered scan: key of slot h + i
        if (s.i == kWindow) {
          s.pc = 30;
          what += "ends the ordered scan";
          return true;
        }
        what += "reads key of slot " + std::to_string(h + s.i);
        if (n.mem.key[h + s.i] == o.key) s.pc = 11;
        else ++s.i;
        return true;
      case 11:  // its hop bit
        what += "reads the hop bit of slot " + std::to_string(h + s.i);
        if ((m.bitmap >> s.i) & 1u) s.pc = 12;
        else s.pc = 10, ++s.i;
        return true;
      case 12:
        s.v = n.mem.value[h + s.i], s.pc = 13;
        what += "reads value " + std::to_string(s.v);
        return true;
      case 13:  // the key again
        what += "reads key of slot " + std::to_string(h + s.i) + " again";
        if (n.mem.key[h + s.i] == o.key) s.found = true, s.pc = 30;
        else s.pc = 10, ++s.i;
        return true;
      case 20:
        if (m.lock) return false;
        m.lock = 1, s.m_bitmap = m.bitmap, s.m_overflow = m.overflow, s.i = 0, s.pc = 21;
        what += "locks bucket " + std::to_string(h);
        return true;
      case 21: {
        while (s.i < kWindow && !((s.m_bitmap >> s.i) & 1u)) ++s.i;
        if (s.i == kWindow) {
          s.pc = s.m_overflow ? 24 : 23, s.i = 0;
          what += "has no named slot left";
          return true;
        }
        const int slot = h + s.i++;
        what += "reads key of slot " + std::to_string(slot);
        if (n.mem.key[slot] == o.key) s.slot = static_cast<std::uint8_t>(slot), s.found = true, s.pc = 22;
        return true;
      }
      case 22:
        s.v = s.in_stash ? n.mem.stash_value[s.slot] : n.mem.value[s.slot], s.pc = 23;
        what += "reads value " + std::to_string(s.v);
        return true;
      case 24:
        if (s.i == kStash) {
          s.pc = 23;
          what += "has no stash pair left";
          return true;
        }
        what += "reads key of stash pair " + std::to_string(s.i);
        if (n.mem.stash_key[s.i] == o.key) s.slot = s.i, s.in_stash = true, s.found = true, s.pc = 22;
        else ++s.i;
        return true;
      case 23:
        m.lock = 0, s.pc = 30;
        what += "unlocks";
        return true;
      case 30: {
        const std::uint8_t answer = s.found ? s.v : 0;
        const bool ok = (seen & bit(answer)) != 0;
        what += s.found ? "returns value " + std::to_string(answer) : std::string("returns absent");
        if (!ok) what += "  <-- VIOLATION: key 4 never had this state during the find";
        next_op();
        return true;
      }
    }
    return false;
  }
};

}  // namespace gpu500::hash::testing::protocol
