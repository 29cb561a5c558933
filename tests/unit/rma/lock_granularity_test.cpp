// The lock table's stripe size across nodes: coarse only where the table goes through the
// network, and exclusion between overlapping ranges whatever the granularity.
#include "rma/locks/lock_granularity.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "rma/locks/lock_table.hpp"

namespace remora::rma {
namespace {

TEST(LockTableGranularity, CoarseOnlyThroughTheNetwork) {
  WindowOptions options;
  options.lock_granularity = 256;
  options.lock_granularity_remote = 65536;
  EXPECT_EQ(lock_table_granularity(options, false), 256u);
  EXPECT_EQ(lock_table_granularity(options, true), 65536u);
  options.lock_granularity = 1 << 20;  // already coarser: kept
  EXPECT_EQ(lock_table_granularity(options, true), uint64_t{1} << 20);
  options.lock_granularity = 256;
  options.lock_granularity_remote = 16;  // a smaller minimum changes nothing
  EXPECT_EQ(lock_table_granularity(options, true), 256u);
}

TEST(LockTableGranularity, AnAccumulateUpToOneStripeTakesAtMostTwo) {
  const uint64_t granularity = 65536, stripes = 256;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t offset = rng() % (uint64_t{64} << 20);
    const uint64_t bytes = 1 + rng() % granularity;
    EXPECT_LE(stripes_for_range(offset, bytes, granularity, stripes).size(), 2u);
  }
  // 32 KiB at 256-byte stripes took 128 stripes; at 64 KiB it takes one.
  EXPECT_EQ(stripes_for_range(65536 * 3, 32768, 256, stripes).size(), 128u);
  EXPECT_EQ(stripes_for_range(65536 * 3, 32768, granularity, stripes).size(), 1u);
}

// Every path to a location takes the window's one granularity, so mutual exclusion needs that
// two overlapping ranges share a stripe, for fine and coarse granularities alike (including
// ranges that wrap around the table).
TEST(LockTableGranularity, OverlappingRangesShareAStripe) {
  std::mt19937_64 rng(11);
  for (uint64_t granularity : {uint64_t{16}, uint64_t{256}, uint64_t{65536}}) {
    for (uint64_t stripes : {uint64_t{1}, uint64_t{3}, uint64_t{256}}) {
      const uint64_t span = granularity * stripes * 3;
      for (int i = 0; i < 2000; ++i) {
        const uint64_t a = rng() % span, a_bytes = 1 + rng() % (granularity * 4);
        const uint64_t b = a + rng() % a_bytes;  // b starts inside [a, a + a_bytes)
        const uint64_t b_bytes = 1 + rng() % (granularity * 4);
        const std::vector<uint64_t> x =
            stripes_for_range(a, a_bytes, granularity, stripes).indices();
        const std::vector<uint64_t> y =
            stripes_for_range(b, b_bytes, granularity, stripes).indices();
        std::vector<uint64_t> common;
        std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(common));
        EXPECT_FALSE(common.empty())
            << "granularity " << granularity << " stripes " << stripes << " [" << a << "+"
            << a_bytes << ") [" << b << "+" << b_bytes << ")";
      }
    }
  }
}

}  // namespace
}  // namespace remora::rma
