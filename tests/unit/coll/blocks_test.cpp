#include <gtest/gtest.h>

#include "coll/algorithms/common.hpp"

namespace remora::coll {
namespace {

TEST(Blocks, EvenBlocksCoverTheBufferAndDifferByAtMostOneElement) {
  for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{1000}})
    for (size_t parts : {size_t{1}, size_t{3}, size_t{8}}) {
      const Blocks blocks = even_blocks(count, 4, parts);
      ASSERT_EQ(blocks.size(), parts);
      size_t at = 0;
      for (size_t block = 0; block < parts; ++block) {
        EXPECT_EQ(blocks.offset[block], at);
        EXPECT_LE(blocks.bytes[block], (count / parts + 1) * 4);
        EXPECT_GE(blocks.bytes[block], (count / parts) * 4);
        at = blocks.end(block);
      }
      EXPECT_EQ(at, count * 4);
    }
}

TEST(Blocks, FromCountsAndDisplacements) {
  const Blocks blocks = blocks_of({2, 0, 3}, {5, 0, 1}, 8);
  EXPECT_EQ(blocks.offset, (std::vector<size_t>{40, 0, 8}));
  EXPECT_EQ(blocks.bytes, (std::vector<size_t>{16, 0, 24}));
}

TEST(RelativeRanks, RoundTrip) {
  for (int size = 1; size <= 9; ++size)
    for (int root = 0; root < size; ++root)
      for (int rank = 0; rank < size; ++rank)
        EXPECT_EQ(absolute_rank(relative_rank(rank, root, size), root, size), rank);
  EXPECT_EQ(modulo(-3, 5), 2);
}

}  // namespace
}  // namespace remora::coll
