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
