// The slot-protocol model's find (slot_protocol_checker.hpp): the optimistic probe under the
// bucket word's version (the named slots, the stash of a flagged bucket), retried a set number of
// times, then a fallback (an ordered scan, or the look-up under the home's lock); its answer checked
// against the states key 4 had during the find.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "slot_protocol_checker.hpp"

namespace gpu500::hash::testing::protocol {

/// The find's steps: pcs 0-4 the optimistic probe (4: the stash of a flagged bucket; an even
/// word naming no member and no stash answers absent at once), 10-13 the
/// ordered scan, 20-24 the locked look-up, 30 the answer (checked against `seen`).
inline bool checker::find_step(node& n, thread_state& s, const std::uint64_t& seen, const operation& o, int h,
                               std::string& what, const std::function<void()>& next_op) {
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

}  // namespace gpu500::hash::testing::protocol
