#include "coll/context_ids.hpp"

#include <gtest/gtest.h>

namespace remora::coll {
namespace {

TEST(ContextIds, WorldIsTakenAndTheLowestCommonFreeIdWins) {
  ContextIds mine, theirs;
  std::vector<uint64_t> agreed = mine.free_mask();
  uint32_t id = 0;
  ASSERT_TRUE(ContextIds::lowest(agreed, &id));
  EXPECT_EQ(id, 1u);  // 0 is the world's
  theirs.take(1);
  theirs.take(2);
  const std::vector<uint64_t> other = theirs.free_mask();
  for (size_t word = 0; word < agreed.size(); ++word) agreed[word] &= other[word];
  ASSERT_TRUE(ContextIds::lowest(agreed, &id));
  EXPECT_EQ(id, 3u);
}

TEST(ContextIds, ReleasedIdsAreReusedAndExhaustionIsReported) {
  ContextIds ids;
  uint32_t id = 0;
  for (size_t taken = 1; taken < ContextIds::kCount; ++taken) {
    ASSERT_TRUE(ContextIds::lowest(ids.free_mask(), &id));
    ids.take(id);
  }
  EXPECT_FALSE(ContextIds::lowest(ids.free_mask(), &id));
  ids.release(777);
  ASSERT_TRUE(ContextIds::lowest(ids.free_mask(), &id));
  EXPECT_EQ(id, 777u);
}

}  // namespace
}  // namespace remora::coll
