#include "coll/staged_message.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace remora::coll {
namespace {

// Header then data, byte for byte, on either side of the size kept on the stack (2 KiB), and
// with no data at all (an empty contribution's null pointer is never read).
TEST(StagedMessage, HeaderThenDataAtEverySize) {
  const uint64_t header[2] = {0x0123456789abcdefULL, 42};
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{2048 - 16}, size_t{2048 - 15}, size_t{65536}}) {
    std::vector<uint8_t> data(bytes);
    for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
    const StagedMessage message(header, sizeof header, bytes > 0 ? data.data() : nullptr, bytes);
    ASSERT_EQ(message.size(), sizeof header + bytes);
    uint64_t read[2];
    std::memcpy(read, message.data(), sizeof read);
    EXPECT_EQ(read[0], header[0]);
    EXPECT_EQ(read[1], header[1]);
    for (size_t i = 0; i < bytes; ++i)
      ASSERT_EQ(message.data()[sizeof header + i], data[i]) << "byte " << i << " of " << bytes;
  }
}

}  // namespace
}  // namespace remora::coll
