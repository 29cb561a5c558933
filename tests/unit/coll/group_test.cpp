#include "coll/group.hpp"

#include <gtest/gtest.h>

namespace remora::coll {
namespace {

TEST(Group, RanksMapBothWays) {
  const Group group({5, 2, 7}, 8);
  EXPECT_EQ(group.size(), 3);
  EXPECT_EQ(group.world_rank(1), 2);
  EXPECT_EQ(group.rank_of(7), 2);
  EXPECT_EQ(group.rank_of(0), Group::kUndefined);
  EXPECT_EQ(group.rank_of(-1), Group::kUndefined);
  EXPECT_EQ(group.rank_of(8), Group::kUndefined);
}

TEST(Group, InclKeepsTheGivenOrderExclTheGroupsOrder) {
  const Group group({5, 2, 7, 1}, 8);
  EXPECT_EQ(group.incl({3, 0}).world_ranks(), (std::vector<int>{1, 5}));
  EXPECT_EQ(group.excl({0, 2}).world_ranks(), (std::vector<int>{2, 1}));
  EXPECT_EQ(group.incl({}).size(), 0);
}

TEST(Group, UnionAppendsTheSecondGroupsNewMembers) {
  const Group first({3, 1}, 6), second({1, 4, 0, 3}, 6);
  EXPECT_EQ(first.unite(second).world_ranks(), (std::vector<int>{3, 1, 4, 0}));
}

TEST(Group, TranslateGoesThroughWorldRanks) {
  const Group first({3, 1, 5}, 6), second({5, 3}, 6);
  EXPECT_EQ(first.translate(0, second), 1);
  EXPECT_EQ(first.translate(1, second), Group::kUndefined);
  EXPECT_EQ(first.translate(2, second), 0);
}

}  // namespace
}  // namespace remora::coll
