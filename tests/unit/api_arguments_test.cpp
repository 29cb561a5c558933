// Every public function rejects bad input with an error code and a message that names the
// argument; nothing crashes. Runs as a job of one rank (no launcher). Tests run in the order
// written when the binary runs whole; CTest runs each in its own process.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "remora.h"

namespace {

// Expects status `code` and a last-error message containing every fragment.
void expect_error(int status, int code, std::initializer_list<const char*> fragments) {
  EXPECT_EQ(status, code) << remora_last_error();
  const std::string message = remora_last_error();
  for (const char* fragment : fragments)
    EXPECT_NE(message.find(fragment), std::string::npos)
        << "message \"" << message << "\" lacks \"" << fragment << "\"";
}

void noop_handler(int, const void*, size_t, void*) {}

TEST(ApiBeforeInit, EveryCallFailsWithNotInitialized) {
  int flag = -1;
  ASSERT_EQ(remora_initialized(&flag), REMORA_SUCCESS);
  if (flag == 1) GTEST_SKIP() << "Remora already initialized in this process";
  EXPECT_EQ(flag, 0);
  expect_error(remora_rank(), REMORA_ERR_NOT_INITIALIZED, {"remora_rank", "remora_init"});
  expect_error(remora_size(), REMORA_ERR_NOT_INITIALIZED, {"remora_size"});
  expect_error(remora_local_rank(), REMORA_ERR_NOT_INITIALIZED, {"remora_local_rank"});
  expect_error(remora_local_size(), REMORA_ERR_NOT_INITIALIZED, {"remora_local_size"});
  expect_error(remora_node(), REMORA_ERR_NOT_INITIALIZED, {"remora_node"});
  expect_error(remora_rank_node(0), REMORA_ERR_NOT_INITIALIZED, {"remora_rank_node"});
  expect_error(remora_local_ranks(nullptr, 0), REMORA_ERR_NOT_INITIALIZED, {"remora_local_ranks"});
  expect_error(remora_progress(), REMORA_ERR_NOT_INITIALIZED, {"remora_progress"});
  expect_error(remora_barrier(), REMORA_ERR_NOT_INITIALIZED, {"remora_barrier"});
  expect_error(remora_finalize(), REMORA_ERR_NOT_INITIALIZED, {"remora_finalize"});
  remora_segment_t segment = nullptr;
  expect_error(remora_segment_allocate(8, &segment), REMORA_ERR_NOT_INITIALIZED,
               {"remora_segment_allocate"});
  expect_error(remora_put(segment, 0, 0, &flag, 4), REMORA_ERR_NOT_INITIALIZED, {"remora_put"});
  expect_error(remora_get(segment, 0, 0, &flag, 4), REMORA_ERR_NOT_INITIALIZED, {"remora_get"});
  expect_error(remora_fetch_add(segment, 0, 0, 1, nullptr), REMORA_ERR_NOT_INITIALIZED,
               {"remora_fetch_add"});
  int id = 0;
  expect_error(remora_am_register(noop_handler, nullptr, &id), REMORA_ERR_NOT_INITIALIZED,
               {"remora_am_register"});
  expect_error(remora_am_send(0, 0, nullptr, 0), REMORA_ERR_NOT_INITIALIZED, {"remora_am_send"});
  EXPECT_GT(remora_wtime(), 0.0);
}

TEST(ApiBeforeInit, InitRejectsHalfGivenArguments) {
  int flag = -1;
  ASSERT_EQ(remora_initialized(&flag), REMORA_SUCCESS);
  if (flag == 1) GTEST_SKIP() << "Remora already initialized in this process";
  int argc = 1;
  expect_error(remora_init(&argc, nullptr), REMORA_ERR_ARG, {"remora_init", "argc", "argv"});
  expect_error(remora_initialized(nullptr), REMORA_ERR_ARG, {"remora_initialized", "flag"});
}

class Api : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    int flag = 0;
    ASSERT_EQ(remora_initialized(&flag), REMORA_SUCCESS);
    if (!flag) {
      ASSERT_EQ(remora_init(nullptr, nullptr), REMORA_SUCCESS) << remora_last_error();
    }
  }
};

TEST_F(Api, IdentityOfAJobOfOneRank) {
  EXPECT_EQ(remora_rank(), 0);
  EXPECT_EQ(remora_size(), 1);
  EXPECT_EQ(remora_local_rank(), 0);
  EXPECT_EQ(remora_local_size(), 1);
  EXPECT_EQ(remora_node(), 0);
  EXPECT_EQ(remora_rank_node(0), 0);
  int ranks[4] = {-1, -1, -1, -1};
  EXPECT_EQ(remora_local_ranks(ranks, 4), 1);
  EXPECT_EQ(ranks[0], 0);
  EXPECT_EQ(ranks[1], -1);
  EXPECT_EQ(remora_barrier(), REMORA_SUCCESS);
  EXPECT_EQ(remora_progress(), REMORA_SUCCESS);
  expect_error(remora_init(nullptr, nullptr), REMORA_ERR_STATE, {"already initialized"});
}

TEST_F(Api, IdentityCallsRejectBadArguments) {
  expect_error(remora_rank_node(1), REMORA_ERR_RANK, {"remora_rank_node", "rank=1"});
  expect_error(remora_rank_node(-1), REMORA_ERR_RANK, {"rank=-1"});
  expect_error(remora_local_ranks(nullptr, -2), REMORA_ERR_ARG, {"capacity=-2"});
  expect_error(remora_local_ranks(nullptr, 3), REMORA_ERR_ARG, {"ranks", "NULL"});
  EXPECT_EQ(remora_local_ranks(nullptr, 0), 1);
}

TEST_F(Api, SegmentCallsRejectBadArguments) {
  remora_segment_t segment = nullptr;
  expect_error(remora_segment_allocate(64, nullptr), REMORA_ERR_ARG, {"segment", "NULL"});
  expect_error(remora_segment_allocate(static_cast<size_t>(-5), &segment), REMORA_ERR_ARG,
               {"bytes=", "negative"});
  ASSERT_EQ(remora_segment_allocate(64, &segment), REMORA_SUCCESS) << remora_last_error();
  int64_t value = 5, old = 0;
  char buffer[128] = {};

  expect_error(remora_put(nullptr, 0, 0, buffer, 8), REMORA_ERR_ARG, {"remora_put", "segment"});
  expect_error(remora_put(segment, 1, 0, buffer, 8), REMORA_ERR_RANK, {"remora_put", "target=1"});
  expect_error(remora_put(segment, -1, 0, buffer, 8), REMORA_ERR_RANK, {"target=-1"});
  expect_error(remora_put(segment, 0, 0, nullptr, 8), REMORA_ERR_ARG, {"source", "NULL"});
  expect_error(remora_put(segment, 0, 60, buffer, 8), REMORA_ERR_RANGE, {"offset=60", "bytes=8"});
  expect_error(remora_put(segment, 0, 0, buffer, static_cast<size_t>(-1)), REMORA_ERR_RANGE,
               {"negative"});
  expect_error(remora_get(segment, 0, 65, buffer, 0), REMORA_ERR_RANGE,
               {"remora_get", "offset=65"});
  expect_error(remora_get(segment, 0, 0, nullptr, 1), REMORA_ERR_ARG, {"destination"});
  EXPECT_EQ(remora_put(segment, 0, 64, nullptr, 0), REMORA_SUCCESS);  // empty at the end: fine

  size_t count[3] = {8, 4, 2}, stride[2] = {16, 64};
  expect_error(remora_put_strided(segment, 0, 0, stride, buffer, stride, count, 9), REMORA_ERR_ARG,
               {"stride_levels=9"});
  expect_error(remora_put_strided(segment, 0, 0, stride, buffer, stride, nullptr, 1),
               REMORA_ERR_ARG, {"count"});
  expect_error(remora_put_strided(segment, 0, 0, nullptr, buffer, stride, count, 1), REMORA_ERR_ARG,
               {"target_stride"});
  expect_error(remora_get_strided(segment, 0, 0, stride, buffer, nullptr, count, 1), REMORA_ERR_ARG,
               {"local_stride"});
  // 2 levels span 8 + 3*16 + 1*64 = 120 bytes: outside a 64-byte part.
  expect_error(remora_put_strided(segment, 0, 0, stride, buffer, stride, count, 2),
               REMORA_ERR_RANGE, {"remora_put_strided"});
  EXPECT_EQ(remora_put_strided(segment, 0, 0, stride, buffer, stride, count, 1), REMORA_SUCCESS);

  expect_error(remora_fetch_add(segment, 0, 4, 1, &old), REMORA_ERR_ALIGN, {"offset=4"});
  expect_error(remora_swap(segment, 0, 64, 1, &old), REMORA_ERR_RANGE,
               {"remora_swap", "offset=64"});
  expect_error(remora_compare_swap(segment, 2, 0, 1, 2, &old), REMORA_ERR_RANK,
               {"remora_compare_swap", "target=2"});
  expect_error(remora_segment_size(segment, 0, nullptr), REMORA_ERR_ARG, {"bytes"});
  expect_error(remora_segment_pointer(segment, 3, nullptr), REMORA_ERR_RANK, {"rank=3"});
  expect_error(remora_flush(segment, 7), REMORA_ERR_RANK, {"remora_flush", "target=7"});
  expect_error(remora_flush_all(nullptr), REMORA_ERR_ARG, {"remora_flush_all"});

  // The segment still works after all of that.
  ASSERT_EQ(remora_put(segment, 0, 8, &value, 8), REMORA_SUCCESS);
  ASSERT_EQ(remora_fetch_add(segment, 0, 8, 10, &old), REMORA_SUCCESS);
  EXPECT_EQ(old, 5);
  ASSERT_EQ(remora_compare_swap(segment, 0, 8, 15, 99, &old), REMORA_SUCCESS);
  EXPECT_EQ(old, 15);
  ASSERT_EQ(remora_get(segment, 0, 8, &old, 8), REMORA_SUCCESS);
  EXPECT_EQ(old, 99);

  remora_segment_t stale = segment;
  ASSERT_EQ(remora_segment_free(&segment), REMORA_SUCCESS);
  EXPECT_EQ(segment, nullptr);
  expect_error(remora_put(stale, 0, 0, buffer, 8), REMORA_ERR_ARG, {"not a live segment"});
  expect_error(remora_segment_free(&stale), REMORA_ERR_ARG, {"remora_segment_free"});
  expect_error(remora_segment_free(nullptr), REMORA_ERR_ARG, {"segment", "NULL"});
}

int handled_bytes = -1;
void count_handler(int, const void*, size_t bytes, void*) {
  handled_bytes = static_cast<int>(bytes);
}

TEST_F(Api, ActiveMessageCallsRejectBadArguments) {
  int id = -1;
  expect_error(remora_am_register(nullptr, nullptr, &id), REMORA_ERR_ARG, {"handler", "NULL"});
  expect_error(remora_am_register(count_handler, nullptr, nullptr), REMORA_ERR_ARG, {"handler_id"});
  ASSERT_EQ(remora_am_register(count_handler, nullptr, &id), REMORA_SUCCESS);
  expect_error(remora_am_send(1, id, nullptr, 0), REMORA_ERR_RANK, {"remora_am_send", "target=1"});
  expect_error(remora_am_send(0, id + 1, nullptr, 0), REMORA_ERR_ARG, {"handler_id="});
  expect_error(remora_am_send(0, -1, nullptr, 0), REMORA_ERR_ARG, {"handler_id=-1"});
  expect_error(remora_am_send(0, id, nullptr, 3), REMORA_ERR_ARG, {"payload", "NULL"});
  char byte = 0;
  expect_error(remora_am_send(0, id, &byte, static_cast<size_t>(1) << 40), REMORA_ERR_ARG,
               {"REMORA_AM_MAX_BYTES"});
  // A message to oneself is delivered by progress.
  char payload[3000] = {};
  ASSERT_EQ(remora_am_send(0, id, payload, sizeof payload), REMORA_SUCCESS);
  for (int i = 0; i < 1000 && handled_bytes < 0; ++i) remora_progress();
  EXPECT_EQ(handled_bytes, 3000);
}

TEST(ApiAfterFinalize, CallsFailAndInitCannotRestart) {
  int flag = 0;
  ASSERT_EQ(remora_initialized(&flag), REMORA_SUCCESS);
  if (!flag) {
    ASSERT_EQ(remora_init(nullptr, nullptr), REMORA_SUCCESS) << remora_last_error();
  }
  ASSERT_EQ(remora_finalize(), REMORA_SUCCESS) << remora_last_error();
  ASSERT_EQ(remora_initialized(&flag), REMORA_SUCCESS);
  EXPECT_EQ(flag, 0);
  expect_error(remora_rank(), REMORA_ERR_NOT_INITIALIZED, {"remora_finalize was already called"});
  expect_error(remora_init(nullptr, nullptr), REMORA_ERR_STATE, {"after remora_finalize"});
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
