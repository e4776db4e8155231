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
// writers' linearisation points (insert: the store that publishes the hop bit; erase: the store
// that empties the slot), and every state a find could have seen is kept in the find's `seen`
// set, which is part of the explored state.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

namespace gpu500::hash::testing::protocol {

constexpr int kBuckets = 2, kSlots = 4, kWindow = 3;  // an item lives within 3 slots of its home
constexpr int kStash = 2;
constexpr std::uint8_t kEmpty = 0xff, kReserved = 0xfe;

struct word {  // a bucket word: hop bitmap, multiple_lock, overflow flag, version
  std::uint8_t bitmap = 0, lock = 0, overflow = 0, version = 0;
};

struct shared_state {
  std::uint8_t key[kSlots] = {kEmpty, kEmpty, kEmpty, kEmpty};
  std::uint8_t value[kSlots] = {0, 0, 0, 0};
  std::uint8_t stash_key[kStash] = {kEmpty, kEmpty};
  std::uint8_t stash_value[kStash] = {0, 0};
  word meta[kBuckets];
};

/// A starting table and the abstract value of key 4 in it (0: absent).
struct table {
  shared_state mem;
  std::uint8_t value_of_4 = 0;
};

/// Key 5 (value 50) in slot 0 and key 4 (value 40) in slot 1, both homed at bucket 0.
inline table slots_table() {
  table t;
  t.mem.key[0] = 5, t.mem.value[0] = 50;
  t.mem.key[1] = 4, t.mem.value[1] = 40;
  t.mem.meta[0].bitmap = 0b011;
  t.value_of_4 = 40;
  return t;
}

/// Every slot taken (5, 6, 10 homed at bucket 0; 11 homed at bucket 1 in slot 3), key 4 (value 40)
/// in stash pair 0: every insert goes to the stash.
inline table stash_table() {
  table t;
  const std::uint8_t keys[kSlots] = {5, 6, 10, 11};
  for (int i = 0; i < kSlots; ++i) t.mem.key[i] = keys[i], t.mem.value[i] = static_cast<std::uint8_t>(keys[i] * 10);
  t.mem.meta[0].bitmap = 0b111, t.mem.meta[0].overflow = 1;
  t.mem.meta[1].bitmap = 0b100;
  t.mem.stash_key[0] = 4, t.mem.stash_value[0] = 40;
  t.value_of_4 = 40;
  return t;
}

/// Key 4 (value 40) in stash pair 0 while bucket 0 names no slot (its members were erased after
/// key 4 overflowed), key 11 of bucket 1 in slot 3: a find of 4 reads a word with an empty
/// bitmap and must still look in the stash, which the overflow flag says.
inline table stash_only_table() {
  table t;
  t.mem.key[3] = 11, t.mem.value[3] = 110;
  t.mem.meta[0].overflow = 1;
  t.mem.meta[1].bitmap = 0b100;
  t.mem.stash_key[0] = 4, t.mem.stash_value[0] = 40;
  t.value_of_4 = 40;
  return t;
}

/// How a find falls back after its optimistic attempts.
enum class fallback {
  ordered_scan,  ///< the former fallback: scan the window in order, key, hop bit, value, key again
  locked,        ///< the look-up under the home's lock (the device code now)
};

enum class kind : std::uint8_t { insert, erase, find };
struct operation {
  kind what;
  std::uint8_t key;
  std::uint8_t value = 0;
};

/// The keys of the model and their homes: 7 and 11 live in bucket 1, the others in bucket 0.
inline int home_of(std::uint8_t k) { return k == 7 || k == 11 ? 1 : 0; }

/// One thread: its program, its position and its registers.
struct thread_state {
  std::uint8_t op = 0, pc = 0, i = 0, tries = 0;
  std::uint8_t m_bitmap = 0, m_version = 0, m_overflow = 0, slot = 0xff, v = 0;
  bool found = false, in_stash = false, published = false;
};

struct result {
  bool violation = false;
  std::string trace;  ///< the schedule of the first violation: one line per step
  std::uint64_t states = 0;
};

class checker {
 public:
  /// `stash_erase_bumps_version = false` breaks the protocol on purpose (an erase from the stash
  /// that leaves the version alone), to show that the checker catches what the version prevents.
  checker(std::vector<std::vector<operation>> programs, fallback f, int optimistic_tries, table start = slots_table(),
          bool stash_erase_bumps_version = true)
      : programs_(std::move(programs)), fallback_(f), tries_(optimistic_tries), start_(start),
        bump_(stash_erase_bumps_version) {}

  /// Every interleaving from the starting table; finds are of key 4.
  result explore() {
    node n;
    n.mem = start_.mem;
    n.abs4 = start_.value_of_4;
    n.seen = bit(n.abs4);
    n.threads.resize(programs_.size());
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
    std::uint8_t abs4 = 0;   // abstract value of key 4 (0: absent)
    std::uint64_t seen = 0;  // the abstract values of key 4 since the find began
    [[nodiscard]] std::string bytes() const {
      std::string s(reinterpret_cast<const char*>(&mem), sizeof mem);
      for (const auto& t : threads) s.append(reinterpret_cast<const char*>(&t), sizeof t);
      s.push_back(static_cast<char>(abs4));
      s.append(reinterpret_cast<const char*>(&seen), sizeof seen);
      return s;
    }
  };
  static std::uint64_t bit(std::uint8_t v) { return 1ULL << (v % 64); }

  std::vector<std::vector<operation>> programs_;
  fallback fallback_;
  int tries_;
  table start_;
  bool bump_;
  std::unordered_set<std::string> visited_;

  void dfs(const node& n, std::vector<std::string>& path, result& r) {
    if (r.violation || !visited_.insert(n.bytes()).second) return;
    for (std::size_t t = 0; t < n.threads.size(); ++t) {
      if (n.threads[t].op >= programs_[t].size()) continue;
      node next = n;
      std::string what;
      if (!step(next, t, what)) continue;  // blocked on a lock: no state change
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
  }

  static void set_abs(node& n, std::uint8_t key, std::uint8_t value) {
    if (key != 4) return;
    n.abs4 = value;
    n.seen |= bit(value);
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
    const std::string op_name = (o.what == kind::insert ? "insert(" : o.what == kind::erase ? "erase(" : "find(") +
                                std::to_string(o.key) + ") ";
    what = op_name;
    switch (o.what) {
      case kind::insert:
        switch (s.pc) {
          case 0:
            if (!lock()) return false;
            what += "locks bucket " + std::to_string(h), s.pc = 1, s.i = 0;
            return true;
          case 1: {
            const int f = scan_step();
            what += "reads a named key";
            if (f == 1) s.pc = 9;                 // present: unlock
            if (f == -1) s.pc = 11, s.i = 0;      // absent from the slots: the stash
            return true;
          }
          case 11: {
            const int f = stash_step();
            what += "reads a stash key";
            if (f == 1) s.pc = 9;
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
            set_abs(n, o.key, o.value);
            what += "publishes the hop bit and unlocks";
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
            if (s.m_overflow) set_abs(n, o.key, o.value), s.published = true;
            what += "stores key in stash pair " + std::to_string(s.slot);
            return true;
          case 10:
            m.overflow = 1, m.version = static_cast<std::uint8_t>(m.version + 2), m.lock = 0;
            if (!s.published) set_abs(n, o.key, o.value);
            what += "sets the overflow flag, bumps the version, unlocks";
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
            if (f == -1) s.pc = 9;
            return true;
          }
          case 12:
            if (bump_) ++m.version;
            s.pc = 13;
            what += bump_ ? "makes the version odd" : "leaves the version alone (broken on purpose)";
            return true;
          case 13:
            n.mem.stash_key[s.slot] = kEmpty, s.pc = 14;
            set_abs(n, o.key, 0);
            what += "empties stash pair " + std::to_string(s.slot);
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
            set_abs(n, o.key, 0);
            what += "empties slot " + std::to_string(s.slot);
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
        return find_step(n, s, o, h, what, next_op);
    }
    return false;
  }

  /// The find's steps: pcs 0-4 the optimistic probe (4: the stash of a flagged bucket; an even
  /// word naming no member and no stash answers absent at once), 10-13 the
  /// ordered scan, 20-24 the locked look-up, 30 the answer (checked against `seen`).
  bool find_step(node& n, thread_state& s, const operation& o, int h, std::string& what,
                 const std::function<void()>& next_op) {
    word& m = n.mem.meta[h];
    switch (s.pc) {
      case 0:  // load the bucket word
        if (s.tries == 0) n.seen = bit(n.abs4);  // the find begins: what key 4 is now
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
        what += "reads key of slot " + std::to_string(slot);
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
        const bool ok = (n.seen & bit(answer)) != 0;
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
