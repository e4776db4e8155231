// The slot-protocol model's locked insert (slot_protocol_checker.hpp): the device code's insert,
// one step per access: the home locked, the look-up under the lock (the named slots, then the
// stash of a flagged bucket), a slot claimed by CAS, value and key stored, the hop bit published
// with the unlock; the stash when the window is full.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "slot_protocol_checker.hpp"

namespace gpu500::hash::testing::protocol {

/// The locked insert (insert_protocol::locked, the device code): lock the home (0), look the key
/// up among the named slots (1) and in the stash of a flagged bucket (11); absent: claim a free slot
/// of the window by CAS on its key (2), store value (3) and key (4), publish the hop bit and unlock
/// in one store (5); no free slot: claim a stash pair (6), store value (7) and key (8), flag the
/// bucket, bump the version and unlock (10); present or the stash full: unlock (9).
inline bool checker::locked_insert_step(node& n, std::size_t t, const operation& o, int h, std::string& what,
                                        const std::function<void()>& next_op) {
  thread_state& s = n.threads[t];
  word& m = n.mem.meta[h];
  switch (s.pc) {
    case 0:
      return lock_home(s, m, h, what);
    case 1: {
      const int f = scan_step(n, s, o, h);
      what += "reads a named key";
      if (f == 1) s.pc = 9, check_seen(n, t, o.key, true, what);  // present: unlock
      if (f == -1) s.pc = 11, s.i = 0;      // absent from the slots: the stash
      return true;
    }
    case 11: {
      const int f = stash_step(n, s, o);
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
  return false;
}

}  // namespace gpu500::hash::testing::protocol
