#include "rma/bulk_copy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace remora::rma {
namespace {

// Every byte of [dst, dst + bytes) holds the source's, and the guard bytes around it keep theirs:
// at sizes around the loop's threshold and block (head, blocks, tail overlapping the last block),
// and at every relative alignment of source and destination within a cache line.
TEST(BulkCopy, CopiesExactlyTheRangeAtEveryAlignment) {
  constexpr size_t kGuard = 64;
  const size_t sizes[] = {65,
                          159,
                          160,
                          kBulkCopyLoopBytes - 1,
                          kBulkCopyLoopBytes,
                          kBulkCopyLoopBytes + 1,
                          kBulkCopyLoopBytes + 31,
                          kBulkCopyLoopBytes + 127,
                          kBulkCopyLoopBytes + 128,
                          kBulkCopyLoopBytes + 129,
                          65536 + 77,
                          524288};
  std::vector<unsigned char> source(524288 + 2 * kGuard);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<unsigned char>(i * 131 + (i >> 8) * 7 + 1);
  std::vector<unsigned char> target(524288 + 3 * kGuard);
  for (size_t bytes : sizes)
    for (size_t src_offset : {size_t{0}, size_t{1}, size_t{16}, size_t{33}, size_t{63}})
      for (size_t dst_offset = 0; dst_offset < 64; dst_offset += 7) {
        const size_t end = 2 * kGuard + dst_offset + bytes;  // the bytes this case looks at
        std::fill(target.begin(), target.begin() + static_cast<ptrdiff_t>(end),
                  static_cast<unsigned char>(0xA5));
        bulk_copy(target.data() + kGuard + dst_offset, source.data() + src_offset, bytes);
        size_t wrong = 0;
        for (size_t i = 0; i < end; ++i) {
          const bool inside = i >= kGuard + dst_offset && i < kGuard + dst_offset + bytes;
          const unsigned char want = inside ? source[src_offset + i - kGuard - dst_offset]
                                            : static_cast<unsigned char>(0xA5);
          wrong += target[i] != want ? 1 : 0;
        }
        EXPECT_EQ(wrong, 0u) << "bytes " << bytes << " source +" << src_offset << " target +"
                             << dst_offset;
      }
}

}  // namespace
}  // namespace remora::rma
