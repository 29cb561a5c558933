#include "core/error.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

#include "remora/status.h"

namespace remora {
namespace {

TEST(Errors, FailRecordsAFormattedMessageAndReturnsTheCode) {
  clear_error();
  EXPECT_STREQ(remora_last_error(), "");
  EXPECT_EQ(fail(REMORA_ERR_RANK, "remora_put: target=%d is not a rank", 9), REMORA_ERR_RANK);
  EXPECT_STREQ(remora_last_error(), "remora_put: target=9 is not a rank");
  clear_error();
  EXPECT_STREQ(remora_last_error(), "");
}

TEST(Errors, MessagesArePerThread) {
  fail(REMORA_ERR_ARG, "main thread message");
  std::string other;
  std::thread([&other] {
    other = remora_last_error();
    fail(REMORA_ERR_ARG, "worker message");
  }).join();
  EXPECT_EQ(other, "");
  EXPECT_STREQ(remora_last_error(), "main thread message");
}

TEST(Errors, AMessageStaysValidThroughTheNextSevenFailures) {
  // Long messages, so that a reused buffer would have to be reallocated or overwritten.
  const std::string padding(200, 'x');
  fail(REMORA_ERR_ARG, "first failure %s", padding.c_str());
  const char* first = remora_last_error();
  const std::string expected = first;
  for (int i = 0; i < 7; ++i) {
    fail(REMORA_ERR_RANK, "later failure %d %s%s", i, padding.c_str(), padding.c_str());
    EXPECT_EQ(expected, first) << "after " << i + 1 << " later failures";
  }
  EXPECT_EQ(std::string(remora_last_error()), "later failure 6 " + padding + padding);
  clear_error();
  EXPECT_STREQ(remora_last_error(), "");
  EXPECT_EQ(expected, first);  // clearing does not touch a kept message either
}

TEST(Errors, EveryCodeHasADistinctDescription) {
  const int codes[] = {REMORA_SUCCESS,     REMORA_ERR_ARG,     REMORA_ERR_RANK,
                       REMORA_ERR_RANGE,   REMORA_ERR_ALIGN,   REMORA_ERR_NOT_INITIALIZED,
                       REMORA_ERR_STATE,   REMORA_ERR_CONFIG,  REMORA_ERR_NOMEM,
                       REMORA_ERR_SYSTEM,  REMORA_ERR_ABORTED, REMORA_ERR_UNSUPPORTED,
                       REMORA_ERR_INTERNAL};
  std::set<std::string> seen;
  for (int code : codes) {
    const std::string text = remora_strerror(code);
    EXPECT_NE(text, "unknown status code") << code;
    EXPECT_TRUE(seen.insert(text).second) << text;
  }
  EXPECT_STREQ(remora_strerror(12345), "unknown status code");
  // Range errors come from segments, windows and arrays alike.
  EXPECT_STREQ(remora_strerror(REMORA_ERR_RANGE), "outside the segment, window or array");
}

}  // namespace
}  // namespace remora
