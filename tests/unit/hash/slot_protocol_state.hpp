// The state of the slot-protocol model (slot_protocol_model.hpp): the 2-bucket table (bucket
// words, 4 slots, a 2-pair stash), the starting tables of the scenarios, the homes of the model's
// keys, and the hopscotch invariants of a quiescent table, checked at the end of every schedule.
#pragma once

#include <cstdint>
#include <string>

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

/// The keys of the model and their homes: 7 and 11 live in bucket 1, the others in bucket 0.
inline int home_of(std::uint8_t k) { return k == 7 || k == 11 ? 1 : 0; }

/// Key k (value 10 k) in `slot`, named by its home's hop bit.
inline void place(table& t, int slot, std::uint8_t k) {
  t.mem.key[slot] = k, t.mem.value[slot] = static_cast<std::uint8_t>(k * 10);
  t.mem.meta[home_of(k)].bitmap |= static_cast<std::uint8_t>(1u << (slot - home_of(k)));
  if (k == 4) t.value_of_4 = 40;
}

/// Key 4 (value 40) in stash pair 0, bucket 0 flagged.
inline void stash_4(table& t) {
  t.mem.meta[0].overflow = 1;
  t.mem.stash_key[0] = 4, t.mem.stash_value[0] = 40, t.value_of_4 = 40;
}

/// Key 5 (value 50) in slot 0 and key 4 (value 40) in slot 1, both homed at bucket 0.
inline table slots_table() {
  table t;
  place(t, 0, 5), place(t, 1, 4);
  return t;
}

/// Every slot taken (5, 6, 10 homed at bucket 0; 11 homed at bucket 1 in slot 3), key 4 (value 40)
/// in stash pair 0: every insert goes to the stash.
inline table stash_table() {
  table t;
  place(t, 0, 5), place(t, 1, 6), place(t, 2, 10), place(t, 3, 11), stash_4(t);
  return t;
}

/// Key 4 (value 40) in stash pair 0 while bucket 0 names no slot (its members were erased after
/// key 4 overflowed), key 11 of bucket 1 in slot 3: a find of 4 reads a word with an empty
/// bitmap and must still look in the stash, which the overflow flag says.
inline table stash_only_table() {
  table t;
  place(t, 3, 11), stash_4(t);
  return t;
}

/// Key 5 (value 50) in slot 0, homed at bucket 0; key 4 absent: inserts of 4 race for slots 1 and
/// 2 (and slot 0 once 5 is erased).
inline table one_member_table() {
  table t;
  place(t, 0, 5);
  return t;
}

/// Key 4 (value 40) in its home slot 0 and key 5 (value 50) in slot 1, both of bucket 0, and key
/// 11 of bucket 1 in slot 2; slot 3 is free. A move (hopscotch displacement) can take 4 from slot
/// 0 to slot 2 only after 11 left for slot 3, and each move frees a slot inside bucket 0's window
/// (the second one key 4's home slot, while 4 is still a member).
inline table crowded_table() {
  table t;
  place(t, 0, 4), place(t, 1, 5), place(t, 2, 11);
  return t;
}

/// The hopscotch invariants of a quiescent table (model.hpp's check_hopscotch_invariants on the
/// model's table), and key 4's place in it against its abstract value: "" when they hold, else
/// what is broken.
inline std::string quiescent_violation(const shared_state& mem, std::uint8_t value_of_4) {
  int named[kSlots] = {};
  std::uint8_t found4 = 0;
  int copies4 = 0;
  for (int b = 0; b < kBuckets; ++b) {
    const word& m = mem.meta[b];
    if (m.lock || (m.version & 1u)) return "bucket " + std::to_string(b) + " is locked or has an odd version";
    for (int i = 0; i < kWindow; ++i) {
      if (!((m.bitmap >> i) & 1u)) continue;
      const int slot = b + i;
      if (slot >= kSlots || mem.key[slot] >= kReserved || home_of(mem.key[slot]) != b)
        return "bucket " + std::to_string(b) + " names slot " + std::to_string(slot) + ", which holds no key of it";
      ++named[slot];
      if (mem.key[slot] == 4) found4 = mem.value[slot], ++copies4;
    }
    bool stashed = false;
    for (int p = 0; p < kStash; ++p) stashed |= mem.stash_key[p] < kReserved && home_of(mem.stash_key[p]) == b;
    if (stashed != (m.overflow != 0)) return "bucket " + std::to_string(b) + "'s overflow flag is wrong";
  }
  for (int slot = 0; slot < kSlots; ++slot) {
    if (mem.key[slot] == kReserved) return "slot " + std::to_string(slot) + " is still reserved";
    if (mem.key[slot] != kEmpty && named[slot] != 1)
      return "slot " + std::to_string(slot) + " holds key " + std::to_string(mem.key[slot]) + " named by " +
             std::to_string(named[slot]) + " hop bits";
    for (int other = slot + 1; other < kSlots; ++other)
      if (mem.key[slot] < kReserved && mem.key[slot] == mem.key[other])
        return "key " + std::to_string(mem.key[slot]) + " is in two slots";
  }
  for (int p = 0; p < kStash; ++p) {
    if (mem.stash_key[p] == kReserved) return "stash pair " + std::to_string(p) + " is still reserved";
    if (mem.stash_key[p] == 4) found4 = mem.stash_value[p], ++copies4;
  }
  if (copies4 > 1) return "key 4 is in the table twice";
  if (found4 != value_of_4)
    return "the table holds " + (copies4 ? "value " + std::to_string(found4) : std::string("no key 4")) +
           " for key 4, whose abstract value is " + std::to_string(value_of_4);
  return "";
}

}  // namespace gpu500::hash::testing::protocol
