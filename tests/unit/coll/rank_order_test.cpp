#include "coll/rank_order.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "coll/algorithms/algorithms.hpp"

namespace remora::coll {
namespace {

TEST(RankOrder, NodeAwareMakesNodesContiguousLeadersFirst) {
  // Ranks placed round-robin on 3 nodes: node 0 has 0, 3, 6; node 1 has 1, 4; node 2 has 2, 5.
  const std::vector<int> node_of = {0, 1, 2, 0, 1, 2, 0};
  EXPECT_EQ(node_aware_order(node_of), (std::vector<int>{0, 3, 6, 1, 4, 2, 5}));
  // Already contiguous: the identity.
  EXPECT_EQ(node_aware_order({0, 0, 1, 1}), (std::vector<int>{0, 1, 2, 3}));
  // Nodes come in the order of their lowest rank, whatever their ids.
  EXPECT_EQ(node_aware_order({7, 2, 7, 2}), (std::vector<int>{0, 2, 1, 3}));
}

TEST(RankOrder, PositionsInvertRanks) {
  const RankOrder order({2, 0, 3, 1});
  EXPECT_EQ(order.position_of, (std::vector<int>{1, 3, 0, 2}));
  EXPECT_FALSE(order.identity());
  EXPECT_TRUE(RankOrder({0, 1, 2}).identity());
  EXPECT_EQ(reverse_order(4), (std::vector<int>{3, 2, 1, 0}));
}

TEST(RankOrder, PermutationCheck) {
  const int good[] = {1, 2, 0};
  const int repeated[] = {1, 1, 0};
  const int outside[] = {0, 1, 3};
  const int negative[] = {0, -1, 2};
  EXPECT_TRUE(is_permutation(good, 3));
  EXPECT_FALSE(is_permutation(repeated, 3));
  EXPECT_FALSE(is_permutation(outside, 3));
  EXPECT_FALSE(is_permutation(negative, 3));
}

TEST(RankOrder, ArgumentsFollowPositions) {
  const RankOrder order({2, 0, 1});
  CollectiveArgs args;
  args.root = 2;
  args.recv_counts = {10, 20, 30};
  args.recv_displs = {0, 10, 30};
  to_positions(Operation::Gather, order, &args);
  EXPECT_EQ(args.root, 0);  // rank 2 is at position 0
  EXPECT_EQ(args.recv_counts, (std::vector<size_t>{30, 10, 20}));
  EXPECT_EQ(args.recv_displs, (std::vector<size_t>{30, 0, 10}));
  // reduce_scatter: the input's back-to-back layout in rank order becomes explicit.
  CollectiveArgs scatter;
  scatter.recv_counts = {1, 2, 3};
  to_positions(Operation::ReduceScatter, order, &scatter);
  EXPECT_EQ(scatter.recv_counts, (std::vector<size_t>{3, 1, 2}));
  EXPECT_EQ(scatter.recv_displs, (std::vector<size_t>{3, 0, 1}));
}

TEST(RankOrder, ScanAndBypassKeepRankOrder) {
  EXPECT_FALSE(follows_order(Operation::Scan, Algorithm::RecursiveDoubling));
  EXPECT_FALSE(follows_order(Operation::Reduce, Algorithm::ApplicationBypass));
  EXPECT_TRUE(follows_order(Operation::Reduce, Algorithm::Binomial));
  EXPECT_TRUE(follows_order(Operation::Alltoall, Algorithm::Bruck));
}

}  // namespace
}  // namespace remora::coll
