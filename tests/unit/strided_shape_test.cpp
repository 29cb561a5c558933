#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "transport/transport.hpp"

namespace remora::transport {
namespace {

TEST(StridedShape, ContiguousIsOneBlock) {
  StridedShape shape;
  shape.count[0] = 100;
  std::vector<std::pair<size_t, size_t>> blocks;
  shape.for_each_block([&](size_t l, size_t r) { blocks.emplace_back(l, r); });
  EXPECT_EQ(blocks, (std::vector<std::pair<size_t, size_t>>{{0, 0}}));
  EXPECT_EQ(shape.total_bytes(), 100u);
}

TEST(StridedShape, TwoLevelsVisitEveryBlockWithItsOwnStrides) {
  // 3 x 2 blocks of 8 bytes: local rows 8 bytes apart (packed), remote rows 32 apart, planes
  // local 24 / remote 1000 apart.
  StridedShape shape;
  shape.levels = 2;
  shape.count[0] = 8;
  shape.count[1] = 3;
  shape.count[2] = 2;
  shape.local_stride[0] = 8;
  shape.local_stride[1] = 24;
  shape.remote_stride[0] = 32;
  shape.remote_stride[1] = 1000;
  std::vector<std::pair<size_t, size_t>> blocks;
  shape.for_each_block([&](size_t l, size_t r) { blocks.emplace_back(l, r); });
  const std::vector<std::pair<size_t, size_t>> expected = {{0, 0},     {8, 32},    {16, 64},
                                                           {24, 1000}, {32, 1032}, {40, 1064}};
  EXPECT_EQ(blocks, expected);
  EXPECT_EQ(shape.total_bytes(), 48u);
}

}  // namespace
}  // namespace remora::transport
