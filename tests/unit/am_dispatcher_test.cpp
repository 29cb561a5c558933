#include "transport/am_dispatcher.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace remora::transport {
namespace {

struct Received {
  std::vector<std::pair<int, std::string>> messages;
};

void record(int source, const void* payload, size_t bytes, void* context) {
  static_cast<Received*>(context)->messages.emplace_back(
      source, std::string(static_cast<const char*>(payload), bytes));
}

TEST(AmDispatcher, ReassemblesInterleavedChunksPerSource) {
  AmDispatcher dispatcher(3);
  Received received;
  int id = -1;
  ASSERT_EQ(dispatcher.register_handler(record, &received, &id), REMORA_SUCCESS);
  EXPECT_EQ(id, 0);
  // Source 1 sends "abcdef" in three chunks; source 2's single-chunk message lands between.
  dispatcher.accept_chunk(1, id, true, false, 6, "ab", 2);
  dispatcher.accept_chunk(2, id, true, true, 3, "xyz", 3);
  dispatcher.accept_chunk(1, id, false, false, 6, "cd", 2);
  dispatcher.accept_chunk(1, id, false, true, 6, "ef", 2);
  EXPECT_TRUE(dispatcher.pending());
  EXPECT_TRUE(dispatcher.dispatch());
  ASSERT_EQ(received.messages.size(), 2u);
  EXPECT_EQ(received.messages[0], std::make_pair(2, std::string("xyz")));
  EXPECT_EQ(received.messages[1], std::make_pair(1, std::string("abcdef")));
  EXPECT_FALSE(dispatcher.pending());
  EXPECT_FALSE(dispatcher.dispatch());
}

struct Nested {
  AmDispatcher* dispatcher;
  int calls = 0;
  bool nested_result = true;
  bool was_in_handler = false;
};

void nest(int, const void*, size_t, void* context) {
  auto* nested = static_cast<Nested*>(context);
  ++nested->calls;
  nested->was_in_handler = AmDispatcher::in_handler();
  nested->nested_result = nested->dispatcher->dispatch();  // must not run the second message now
}

TEST(AmDispatcher, HandlersNeverNest) {
  AmDispatcher dispatcher(1);
  Nested nested{&dispatcher};
  int id = -1;
  ASSERT_EQ(dispatcher.register_handler(nest, &nested, &id), REMORA_SUCCESS);
  dispatcher.accept_chunk(0, id, true, true, 0, nullptr, 0);
  dispatcher.accept_chunk(0, id, true, true, 0, nullptr, 0);
  EXPECT_TRUE(dispatcher.dispatch());
  EXPECT_EQ(nested.calls, 2);
  EXPECT_FALSE(nested.nested_result);
  EXPECT_TRUE(nested.was_in_handler);
  EXPECT_FALSE(AmDispatcher::in_handler());
}

TEST(AmDispatcher, MessagesForAHandlerNotYetRegisteredWaitForItInOrder) {
  AmDispatcher dispatcher(2);
  Received first, second;
  int id = -1;
  ASSERT_EQ(dispatcher.register_handler(record, &first, &id), REMORA_SUCCESS);
  // Handler 1 is not registered yet (a peer finished start-up before this rank did).
  dispatcher.accept_chunk(1, 1, true, true, 2, "m1", 2);
  dispatcher.accept_chunk(1, 0, true, true, 2, "x1", 2);
  EXPECT_TRUE(dispatcher.dispatch());
  EXPECT_EQ(first.messages.size(), 1u);
  EXPECT_TRUE(second.messages.empty());
  dispatcher.accept_chunk(1, 1, true, true, 2, "m2", 2);  // in the inbox when 1 is registered
  ASSERT_EQ(dispatcher.register_handler(record, &second, &id), REMORA_SUCCESS);
  ASSERT_EQ(id, 1);
  dispatcher.accept_chunk(1, 1, true, true, 2, "m3", 2);
  EXPECT_TRUE(dispatcher.dispatch());
  ASSERT_EQ(second.messages.size(), 3u);
  EXPECT_EQ(second.messages[0].second, "m1");
  EXPECT_EQ(second.messages[1].second, "m2");
  EXPECT_EQ(second.messages[2].second, "m3");
  EXPECT_FALSE(dispatcher.pending());
}

TEST(AmDispatcher, HandlerIdsAreGivenOutInOrderUpToTheLimit) {
  AmDispatcher dispatcher(1);
  Received received;
  int id = -1;
  for (int i = 0; i < AmDispatcher::kMaxHandlers; ++i) {
    ASSERT_EQ(dispatcher.register_handler(record, &received, &id), REMORA_SUCCESS);
    ASSERT_EQ(id, i);
  }
  EXPECT_EQ(dispatcher.register_handler(record, &received, &id), REMORA_ERR_NOMEM);
  EXPECT_EQ(dispatcher.handler_count(), AmDispatcher::kMaxHandlers);
}

}  // namespace
}  // namespace remora::transport
