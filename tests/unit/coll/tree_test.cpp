#include "coll/tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace remora::coll {
namespace {

constexpr TreeShape kShapes[] = {TreeShape::Binomial, TreeShape::Binary, TreeShape::Flat};

// Every shape at every size: parents and children agree, every rank is reached once from the
// root, and a subtree is the node plus its children's subtrees.
TEST(Tree, EveryShapeIsATreeSpanningAllRanks) {
  for (TreeShape shape : kShapes)
    for (int size = 1; size <= 33; ++size) {
      EXPECT_EQ(tree_node(shape, 0, size).parent, -1);
      for (int v = 0; v < size; ++v)
        for (int child : tree_node(shape, v, size).children) {
          ASSERT_LT(child, size);
          EXPECT_EQ(tree_node(shape, child, size).parent, v);
        }
      std::vector<int> all = subtree(shape, 0, size);
      std::sort(all.begin(), all.end());
      std::vector<int> expected(static_cast<size_t>(size));
      std::iota(expected.begin(), expected.end(), 0);
      EXPECT_EQ(all, expected) << "shape " << static_cast<int>(shape) << " size " << size;
    }
}

TEST(Tree, BinomialSubtreesAreContiguousRanges) {
  for (int size = 1; size <= 40; ++size)
    for (int v = 1; v < size; ++v) {
      std::vector<int> members = subtree(TreeShape::Binomial, v, size);
      std::sort(members.begin(), members.end());
      const int end = std::min(v + lowest_bit(v), size);
      ASSERT_EQ(static_cast<int>(members.size()), end - v);
      for (size_t i = 0; i < members.size(); ++i) EXPECT_EQ(members[i], v + static_cast<int>(i));
    }
}

TEST(Tree, ShapesHaveTheirDegree) {
  EXPECT_EQ(tree_node(TreeShape::Binomial, 0, 8).children, (std::vector<int>{4, 2, 1}));
  EXPECT_EQ(tree_node(TreeShape::Binary, 1, 8).children, (std::vector<int>{3, 4}));
  EXPECT_EQ(tree_node(TreeShape::Flat, 0, 4).children, (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(tree_node(TreeShape::Flat, 2, 4).children.empty());
}

}  // namespace
}  // namespace remora::coll
