// The slot protocol of GLHT's device code, checked exhaustively on a 2-bucket table
// (slot_protocol_model.hpp): every interleaving of a find with writers that erase key 4, let
// another key take its slot, and insert key 4 again. The former fallback of find (an ordered
// scan that re-read the key to validate its value) returns a value never stored for key 4 in
// one of those schedules; the look-up under the bucket lock never does. The same holds for keys
// in the overflow stash, whose protection (the version bump of an erase) the checker also removes
// on purpose to show that it notices.
#include <gtest/gtest.h>

#include "slot_protocol_model.hpp"

using namespace gpu500::hash::testing::protocol;

namespace {

// erase 4 (slot 1 empties), insert 7 (home 1: it takes slot 1), erase 7, insert 4 (slot 1 again)
const std::vector<operation> kSlotReuse = {
    {kind::erase, 4}, {kind::insert, 7, 70}, {kind::erase, 7}, {kind::insert, 4, 41}};

}  // namespace

TEST(SlotProtocol, OrderedScanFallbackReturnsAValueNeverStoredForItsKey) {
  checker c({{{kind::find, 4}}, kSlotReuse}, fallback::ordered_scan, 1);
  const auto r = c.explore();
  ASSERT_TRUE(r.violation) << "the checker must find the ABA on the slot (" << r.states << " states)";
  EXPECT_NE(r.trace.find("returns value 70"), std::string::npos) << r.trace;
  std::cout << "counterexample found by the checker:\n" << r.trace;
}

TEST(SlotProtocol, LockedFallbackIsLinearisable) {
  for (int tries : {1, 2}) {
    checker c({{{kind::find, 4}}, kSlotReuse}, fallback::locked, tries);
    const auto r = c.explore();
    EXPECT_FALSE(r.violation) << r.trace;
    EXPECT_GT(r.states, 500u);
  }
}

TEST(SlotProtocol, TwoWritersOnTheSameKeyAndTwoFinds) {
  // A second writer races the first for key 4's home lock and for the slot.
  checker c({{{kind::find, 4}, {kind::find, 4}}, kSlotReuse, {{kind::insert, 4, 42}, {kind::erase, 4}}},
            fallback::locked, 1);
  const auto r = c.explore();
  EXPECT_FALSE(r.violation) << r.trace;
  std::cout << r.states << " states explored\n";
}

TEST(SlotProtocol, TheOptimisticProbeAloneIsLinearisable) {
  // With enough optimistic attempts that the schedules reach the fallback rarely, and a reader
  // that starts while key 4 is absent.
  checker c({{{kind::find, 4}}, {{kind::erase, 4}, {kind::insert, 7, 70}, {kind::insert, 4, 43}}},
            fallback::locked, 3);
  const auto r = c.explore();
  EXPECT_FALSE(r.violation) << r.trace;
}

// The overflow stash (every slot taken, key 4 in the stash): erase 4 from the stash, let key 7 of
// the other bucket take its pair, erase 7, insert 4 again, while another writer races for key 4.
TEST(SlotProtocol, StashIsLinearisable) {
  for (int tries : {1, 2}) {
    checker c({{{kind::find, 4}}, kSlotReuse, {{kind::insert, 4, 42}, {kind::erase, 4}}}, fallback::locked, tries,
              stash_table());
    const auto r = c.explore();
    EXPECT_FALSE(r.violation) << r.trace;
    EXPECT_GT(r.states, 1000u);
    std::cout << r.states << " states explored\n";
  }
}

TEST(SlotProtocol, AWordNamingNoSlotStillSendsTheFindToTheStash) {
  // A find answers "absent" from the bucket word alone only when it names no member and no
  // stash: here bucket 0's bitmap is empty but key 4 is in the stash, while writers erase it,
  // reuse its pair and insert it again (into slot 0, now free).
  for (int tries : {1, 2}) {
    checker c({{{kind::find, 4}}, kSlotReuse}, fallback::locked, tries, stash_only_table());
    const auto r = c.explore();
    EXPECT_FALSE(r.violation) << r.trace;
    EXPECT_GT(r.states, 100u);
  }
}

TEST(SlotProtocol, AStashEraseWithoutAVersionBumpIsCaught) {
  checker c({{{kind::find, 4}}, kSlotReuse}, fallback::locked, 2, stash_table(), /*stash_erase_bumps_version=*/false);
  const auto r = c.explore();
  ASSERT_TRUE(r.violation) << "the checker must catch a stash pair reused under a find";
  EXPECT_NE(r.trace.find("returns value 70"), std::string::npos) << r.trace;
}

// ---------------------------------------------------------------- the pair-CAS insert (no lock)
// docs/hash.md, "The pair-CAS insert": look up under the home word w, claim the first free slot of
// the window with one 16-byte CAS of the pair, publish the hop bit with CAS(word, w, w | bit). The
// scenarios race it against itself (the same key claiming two different free slots, distinct keys
// in one neighbourhood), against finds (a find sees the claimed pair before its bit, never the bit
// before the pair), against locked erases, the stash and hopscotch moves. Every terminal state is
// checked against the hopscotch invariants and key 4's abstract value, every status against the
// states key 4 had during its operation.

namespace {

constexpr insert_protocol kPairCas[] = {insert_protocol::pair_cas, insert_protocol::pair_cas_claim_first};

const char* name(insert_protocol p) {
  switch (p) {
    case insert_protocol::pair_cas: return "pair_cas";
    case insert_protocol::pair_cas_claim_first: return "pair_cas_claim_first";
    case insert_protocol::pair_cas_or_publish: return "pair_cas_or_publish";
    case insert_protocol::pair_cas_store_publish: return "pair_cas_store_publish";
    case insert_protocol::pair_cas_bit_first: return "pair_cas_bit_first";
    default: return "locked";
  }
}

result explore(std::vector<std::vector<operation>> programs, insert_protocol p, table start, int tries = 1) {
  checker c(std::move(programs), fallback::locked, tries, start);
  const auto r = c.with_insert(p).explore();
  std::cout << name(p) << ", " << tries << (tries == 1 ? " try: " : " tries: ") << r.states
            << " states; states with one key claimed in two slots " << r.two_claims
            << ", with key 4 claimed while present " << r.claims_beside_4
            << ", look-ups reading an unpublished pair " << r.unpublished_reads << ", failed publishes "
            << r.failed_publishes << "\n";
  return r;
}

// Two inserts of key 4 while key 5 leaves slot 0: one insert passes slot 0 while 5 is there and
// claims slot 1, the other claims slot 0 once it is free, so the two hold two different slots.
const std::vector<std::vector<operation>> kSameKeyTwoSlots = {
    {{kind::find, 4}, {kind::find, 4}}, {{kind::insert, 4, 41}}, {{kind::erase, 5}, {kind::insert, 4, 42}}};

}  // namespace

TEST(SlotProtocol, PairCasInsertsOfOneKeyInTwoFreeSlotsLeaveOneCopy) {
  for (const auto p : kPairCas) {
    const auto r = explore(kSameKeyTwoSlots, p, one_member_table());
    EXPECT_FALSE(r.violation) << name(p) << "\n" << r.trace;
    EXPECT_GT(r.states, 5000u);
    EXPECT_GT(r.two_claims, 0u) << "the scenario must reach two claims of key 4 in two slots";
    EXPECT_GT(r.failed_publishes, 0u);
  }
}

TEST(SlotProtocol, PairCasInsertsOfDistinctKeysInOneNeighbourhood) {
  // 4 and 6 (bucket 0) and 7 (bucket 1, whose window overlaps bucket 0's) race for slots 1-3,
  // while a find of 4 runs and 4 is erased again.
  for (const auto p : kPairCas) {
    const auto r = explore({{{kind::find, 4}, {kind::find, 4}},
                            {{kind::insert, 4, 41}, {kind::erase, 4}},
                            {{kind::insert, 6, 60}, {kind::insert, 7, 70}}},
                           p, one_member_table());
    EXPECT_FALSE(r.violation) << name(p) << "\n" << r.trace;
    EXPECT_GT(r.states, 10000u);
  }
}

TEST(SlotProtocol, PairCasInsertRacesHopscotchMoves) {
  // Key 11 moves from slot 2 to 3, then key 4 from its home slot 0 to slot 2 (each move gives the
  // slot it left back), while an insert of 4 looks up, claims a free slot (slot 0 itself, once 4
  // has left it) and publishes: it must report present and leave no second copy.
  for (const auto p : kPairCas) {
    const auto r = explore({{{kind::find, 4}},
                            {{kind::move, 11, 3}, {kind::move, 4, 2}},
                            {{kind::insert, 4, 42}, {kind::erase, 4}, {kind::insert, 4, 43}}},
                           p, crowded_table());
    EXPECT_FALSE(r.violation) << name(p) << "\n" << r.trace;
    EXPECT_GT(r.claims_beside_4, 0u) << "the insert must reach a claim while 4 is a member elsewhere";
    EXPECT_GT(r.states, 10000u);
  }
}

TEST(SlotProtocol, PairCasInsertBesideLockedErasesAndFinds) {
  // The locked writers' scenarios: erase 4, let 7 take its slot, erase 7, insert 4 again, while a
  // second writer inserts and erases 4 and a find runs; the optimistic find given 1 or 2 tries.
  for (const auto p : kPairCas) {
    for (int tries : {1, 2}) {
      const auto r = explore({{{kind::find, 4}, {kind::find, 4}}, kSlotReuse, {{kind::insert, 4, 42}, {kind::erase, 4}}},
                             p, slots_table(), tries);
      EXPECT_FALSE(r.violation) << name(p) << "\n" << r.trace;
      EXPECT_GT(r.unpublished_reads, 0u) << "a look-up under an old word must reach a claimed pair";
    }
  }
}

TEST(SlotProtocol, PairCasInsertFallsBackToTheLockedInsertForTheStash) {
  // Every slot taken, key 4 in the stash: the pair-CAS insert finds its home flagged or its
  // window full and takes the locked insert, beside locked erases.
  for (const auto p : kPairCas) {
    const auto r = explore({{{kind::find, 4}}, kSlotReuse, {{kind::insert, 4, 42}, {kind::erase, 4}}}, p,
                           stash_table());
    EXPECT_FALSE(r.violation) << name(p) << "\n" << r.trace;
    EXPECT_GT(r.states, 1000u);
  }
}

TEST(SlotProtocol, LockedInsertRacesHopscotchMoves) {
  checker c({{{kind::find, 4}},
             {{kind::move, 11, 3}, {kind::move, 4, 2}},
             {{kind::insert, 4, 42}, {kind::erase, 4}, {kind::insert, 4, 43}}},
            fallback::locked, 1, crowded_table());
  const auto r = c.explore();
  EXPECT_FALSE(r.violation) << r.trace;
  std::cout << r.states << " states explored\n";
}

// The checker can fail: three pair-CAS inserts broken on purpose.

TEST(SlotProtocol, APublishByAtomicOrIsLostUnderALockHoldersStore) {
  // atomicOr is a read-modify-write, but it neither waits for the word's lock nor checks that the
  // word is still the one the look-up read: an erase holding the lock stores its whole word and
  // wipes the bit, and key 4, still inserted, is inserted a second time.
  const auto r = explore(kSameKeyTwoSlots, insert_protocol::pair_cas_or_publish, one_member_table());
  ASSERT_TRUE(r.violation) << "the checker must find the lost hop bit";
  EXPECT_NE(r.trace.find("inserted while present"), std::string::npos) << r.trace;
  std::cout << "counterexample found by the checker:\n" << r.trace;
}

TEST(SlotProtocol, APublishByAPlainStoreLosesAKey) {
  // The word stored whole from the look-up's copy wipes what changed since: another insert's hop
  // bit (here key 6's), or an erase's lock and version.
  const auto r = explore({{{kind::insert, 4, 41}}, {{kind::insert, 6, 60}}, {{kind::find, 4}}},
                         insert_protocol::pair_cas_store_publish, one_member_table());
  ASSERT_TRUE(r.violation) << "the checker must find the lost hop bit";
  EXPECT_NE(r.trace.find("VIOLATION"), std::string::npos) << r.trace;
  std::cout << "counterexample found by the checker:\n" << r.trace;
}

TEST(SlotProtocol, AHopBitPublishedBeforeItsPairSendsAFindToAnEmptySlot) {
  const auto r = explore({{{kind::insert, 4, 41}}, {{kind::find, 4}}}, insert_protocol::pair_cas_bit_first,
                         one_member_table());
  ASSERT_TRUE(r.violation) << "the checker must find the find that sees the bit before the pair";
  EXPECT_NE(r.trace.find("returns absent"), std::string::npos) << r.trace;
  std::cout << "counterexample found by the checker:\n" << r.trace;
}
