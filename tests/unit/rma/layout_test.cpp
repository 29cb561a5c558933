// Layouts: normal forms, run walking against an element-by-element reference, matched runs
// between different layouts (with coalescing), and rejected arguments.
#include "rma/layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "remora/status.h"

namespace remora::rma {
namespace {

// The element offsets a layout touches, in order, from its runs.
std::vector<size_t> offsets(const Layout& layout) {
  std::vector<size_t> out;
  RunCursor cursor(layout);
  while (!cursor.done()) {
    for (size_t i = 0; i < cursor.left(); ++i) out.push_back(cursor.offset() + i);
    cursor.advance(cursor.left());
  }
  return out;
}

// Reference: the subarray's offsets by nested loops over a C-order index (Fortran by reversing).
std::vector<size_t> subarray_reference(std::vector<size_t> sizes, std::vector<size_t> subsizes,
                                       std::vector<size_t> starts, int order) {
  if (order == Layout::kOrderFortran) {
    std::reverse(sizes.begin(), sizes.end());
    std::reverse(subsizes.begin(), subsizes.end());
    std::reverse(starts.begin(), starts.end());
  }
  std::vector<size_t> out;
  const size_t n = sizes.size();
  size_t total = 1;
  for (size_t s : subsizes) total *= s;
  std::vector<size_t> index(n, 0);
  for (size_t e = 0; e < total; ++e) {
    size_t offset = 0;
    for (size_t d = 0; d < n; ++d) offset = offset * sizes[d] + starts[d] + index[d];
    out.push_back(offset);
    for (size_t d = n; d-- > 0;) {
      if (++index[d] < subsizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

TEST(Layout, ContiguousIsOneRun) {
  Layout layout;
  ASSERT_EQ(Layout::contiguous("f", 7, &layout), REMORA_SUCCESS);
  EXPECT_EQ(layout.elements(), 7u);
  EXPECT_EQ(layout.extent(), 7u);
  EXPECT_EQ(layout.runs(), 1u);
  ASSERT_EQ(Layout::contiguous("f", 0, &layout), REMORA_SUCCESS);
  EXPECT_EQ(layout.runs(), 0u);
  EXPECT_TRUE(offsets(layout).empty());
}

TEST(Layout, VectorRunsAndMerging) {
  Layout layout;
  ASSERT_EQ(Layout::vector("f", 3, 2, 5, &layout), REMORA_SUCCESS);
  EXPECT_EQ(offsets(layout), (std::vector<size_t>{0, 1, 5, 6, 10, 11}));
  EXPECT_EQ(layout.extent(), 12u);
  EXPECT_EQ(layout.runs(), 3u);
  ASSERT_EQ(Layout::vector("f", 4, 3, 3, &layout), REMORA_SUCCESS);  // stride == blocklen
  EXPECT_EQ(layout.runs(), 1u);
  EXPECT_EQ(layout.elements(), 12u);
  ASSERT_EQ(Layout::vector("f", 5, 0, 3, &layout), REMORA_SUCCESS);
  EXPECT_EQ(layout.elements(), 0u);
  EXPECT_EQ(layout.extent(), 0u);
}

TEST(Layout, SubarrayMatchesReferenceInBothOrders) {
  std::mt19937 random(42);
  for (int trial = 0; trial < 300; ++trial) {
    const int ndims = 1 + static_cast<int>(random() % 4);
    std::vector<size_t> sizes, subsizes, starts;
    for (int d = 0; d < ndims; ++d) {
      sizes.push_back(1 + random() % 5);
      subsizes.push_back(random() % (sizes.back() + 1));
      starts.push_back(random() % (sizes.back() - subsizes.back() + 1));
    }
    for (int order : {Layout::kOrderC, Layout::kOrderFortran}) {
      Layout layout;
      ASSERT_EQ(Layout::subarray("f", ndims, sizes.data(), subsizes.data(), starts.data(), order,
                                 &layout),
                REMORA_SUCCESS);
      const std::vector<size_t> expected = subarray_reference(sizes, subsizes, starts, order);
      EXPECT_EQ(offsets(layout), expected) << "trial " << trial << " order " << order;
      EXPECT_EQ(layout.elements(), expected.size());
      if (!expected.empty()) {
        EXPECT_EQ(layout.extent(), expected.back() + 1);
      }
    }
  }
}

TEST(Layout, WholeRowsOfASubarrayAreOneRun) {
  const size_t sizes[] = {4, 6}, subsizes[] = {2, 6}, starts[] = {1, 0};
  Layout layout;
  ASSERT_EQ(Layout::subarray("f", 2, sizes, subsizes, starts, Layout::kOrderC, &layout),
            REMORA_SUCCESS);
  EXPECT_EQ(layout.runs(), 1u);
  EXPECT_EQ(layout.first(), 6u);
  EXPECT_EQ(layout.elements(), 12u);
}

TEST(Layout, MatchedRunsPairElementsInOrderAndCoalesce) {
  Layout vector, contiguous, other;
  ASSERT_EQ(Layout::vector("f", 4, 3, 5, &vector), REMORA_SUCCESS);  // 0-2 5-7 10-12 15-17
  ASSERT_EQ(Layout::contiguous("f", 12, &contiguous), REMORA_SUCCESS);
  ASSERT_EQ(Layout::vector("f", 6, 2, 4, &other), REMORA_SUCCESS);  // 0-1 4-5 ... 20-21
  std::vector<MatchedRun> runs;
  auto record = [&runs](const MatchedRun& run) {
    runs.push_back(run);
    return 0;
  };
  ASSERT_EQ(matched_runs(vector, contiguous, record), 0);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[1].origin, 5u);
  EXPECT_EQ(runs[1].target, 3u);
  EXPECT_EQ(runs[1].count, 3u);
  runs.clear();
  ASSERT_EQ(matched_runs(contiguous, contiguous, record), 0);
  ASSERT_EQ(runs.size(), 1u);  // one piece, not one per element
  EXPECT_EQ(runs[0].count, 12u);
  // Element by element, the pairing is the i-th with the i-th.
  runs.clear();
  ASSERT_EQ(matched_runs(vector, other, record), 0);
  std::vector<size_t> from, to;
  for (const MatchedRun& run : runs)
    for (size_t i = 0; i < run.count; ++i) {
      from.push_back(run.origin + i);
      to.push_back(run.target + i);
    }
  EXPECT_EQ(from, offsets(vector));
  EXPECT_EQ(to, offsets(other));
  // A failing visit stops the walk and its status is returned.
  int calls = 0;
  EXPECT_EQ(
      matched_runs(vector, other, [&calls](const MatchedRun&) { return ++calls == 2 ? -6 : 0; }),
      -6);
  EXPECT_EQ(calls, 2);
}

TEST(Layout, RejectsBadArgumentsNamingThem) {
  Layout layout;
  auto expect = [](int status, const char* fragment) {
    EXPECT_EQ(status, REMORA_ERR_ARG);
    EXPECT_NE(std::string(last_error()).find(fragment), std::string::npos) << last_error();
  };
  expect(Layout::vector("f", 3, 4, 2, &layout), "f: stride=2 is smaller than blocklen=4");
  expect(Layout::vector("f", SIZE_MAX, 1, SIZE_MAX, &layout), "overflow");
  const size_t sizes[] = {4, 4}, subsizes[] = {2, 5}, starts[] = {3, 0}, zero[] = {0, 4},
               none[] = {0, 0};
  expect(Layout::subarray("f", 0, sizes, sizes, starts, 0, &layout), "ndims=0");
  expect(Layout::subarray("f", 33, sizes, sizes, starts, 0, &layout), "ndims=33");
  expect(Layout::subarray("f", 2, sizes, nullptr, starts, 0, &layout), "subsizes is NULL");
  expect(Layout::subarray("f", 2, sizes, sizes, starts, 2, &layout), "order=2");
  expect(Layout::subarray("f", 2, sizes, subsizes, starts, 0, &layout), "subsizes[1]=5");
  expect(Layout::subarray("f", 2, sizes, sizes, starts, 0, &layout), "starts[0]=3");
  expect(Layout::subarray("f", 2, zero, none, none, 0, &layout), "sizes[0]=0");
  const size_t huge[] = {SIZE_MAX / 2, 4};
  expect(Layout::subarray("f", 2, huge, huge, none, 0, &layout), "overflows");
}

}  // namespace
}  // namespace remora::rma
