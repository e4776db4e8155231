// The slot-protocol model's erase and hopscotch move (slot_protocol_checker.hpp): the two
// operations that take a key out of a slot, each under its home's lock with the version odd while
// the slot changes; the erase empties a slot or a stash pair, the move (an insert of another bucket
// making room) copies a member into a hole and gives its old slot back.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "slot_protocol_checker.hpp"

namespace gpu500::hash::testing::protocol {

/// The erase: lock the home (0), look the key up among the named slots (1) and in the stash of a
/// flagged bucket (11); in a slot: version odd (2), empty the slot (3), clear the hop bit with the
/// version even and unlock (4); in the stash: version odd (12), empty the pair (13), keep or clear
/// the overflow flag, version even, unlock (14); absent: unlock (9).
inline bool checker::erase_step(node& n, std::size_t t, const operation& o, int h, std::string& what,
                                const std::function<void()>& next_op) {
  thread_state& s = n.threads[t];
  word& m = n.mem.meta[h];
  switch (s.pc) {
    case 0:
      return lock_home(s, m, h, what);
    case 1: {
      const int f = scan_step(n, s, o, h);
      what += "reads a named key";
      if (f == 1) s.pc = 2;
      if (f == -1) s.pc = 11, s.i = 0;
      return true;
    }
    case 11: {
      const int f = stash_step(n, s, o);
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
  return false;
}

/// A hopscotch move (swap_value_into_empty of detail/hopscotch_displace.cuh) into hole o.value
/// of bucket h = home_of(o.key): claim the hole, swap_lock h by CAS on the word read, set the
/// new hop bit with the version odd, copy value then key, make the source reserved, clear its
/// bit with the version even and unlock, and give the source back (empty).
inline bool checker::move_step(node& n, thread_state& s, const operation& o, int h, std::string& what,
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

}  // namespace gpu500::hash::testing::protocol
