// The slot-protocol model's pair-CAS insert (slot_protocol_checker.hpp; docs/hash.md, "The
// pair-CAS insert"): no lock; a look-up under the home word, one 16-byte CAS claims and fills a free
// slot, a CAS of the unchanged word publishes the hop bit. Its claim-first variant and three
// variants broken on purpose (publish by atomicOr, by a plain store, the bit before the pair).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "slot_protocol_checker.hpp"

namespace gpu500::hash::testing::protocol {

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
inline bool checker::pair_insert_step(node& n, std::size_t t, const operation& o, int h, std::string& what,
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

}  // namespace gpu500::hash::testing::protocol
