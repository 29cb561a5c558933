#include <gtest/gtest.h>

#include <vector>

#include "coll/algorithms/common.hpp"
#include "coll/shm_fast.hpp"
#include "rma/reduce_op.hpp"

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

// The small path's limits in elements (ShmFast::elements_in) equal the divisions they replace,
// for every datatype's size and for sizes that are no power of two.
TEST(Blocks, ElementsInEqualsTheDivision) {
  std::vector<size_t> extents = {3, 12, 24};
  for (int type = 0; type < 64; ++type)
    if (rma::datatype_size(type) != 0) extents.push_back(rma::datatype_size(type));
  for (size_t extent : extents)
    for (size_t bytes :
         {size_t{0}, size_t{1}, size_t{7}, size_t{28}, size_t{56}, size_t{1024}, size_t{1} << 40})
      EXPECT_EQ(ShmFast::elements_in(bytes, extent), bytes / extent) << bytes << " " << extent;
}

}  // namespace
}  // namespace remora::coll
