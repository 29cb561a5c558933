#include "coll/records.hpp"

#include <gtest/gtest.h>

#include <string>

namespace remora::coll {
namespace {

TEST(Records, RoundTripIncludingEmptyRecords) {
  std::vector<uint8_t> buffer;
  const std::string first = "alpha", third = "gamma!";
  append_record(&buffer, 4, first.data(), first.size());
  append_record(&buffer, 0, nullptr, 0);
  append_record(&buffer, 9, third.data(), third.size());
  std::vector<std::pair<size_t, std::string>> seen;
  EXPECT_TRUE(for_each_record(buffer, [&](size_t index, const uint8_t* data, size_t bytes) {
    seen.emplace_back(index, std::string(reinterpret_cast<const char*>(data), bytes));
  }));
  const std::vector<std::pair<size_t, std::string>> expected{{4, first}, {0, ""}, {9, third}};
  EXPECT_EQ(seen, expected);
}

TEST(Records, TruncatedBufferIsMalformed) {
  std::vector<uint8_t> buffer;
  const char data[] = "payload";
  append_record(&buffer, 1, data, sizeof data);
  buffer.pop_back();
  EXPECT_FALSE(for_each_record(buffer, [](size_t, const uint8_t*, size_t) {}));
  buffer.resize(3);
  EXPECT_FALSE(for_each_record(buffer, [](size_t, const uint8_t*, size_t) {}));
}

}  // namespace
}  // namespace remora::coll
