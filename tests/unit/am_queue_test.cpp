#include "transport/shm/am_queue.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace remora::shm {
namespace {

// A queue in ordinary (64-byte aligned) memory; threads stand in for processes.
class QueueMemory {
 public:
  QueueMemory(int nranks, uint32_t slots, uint32_t slot_bytes)
      : bytes_(AmQueue::bytes_needed(nranks, slots, slot_bytes)),
        memory_(static_cast<uint8_t*>(std::aligned_alloc(64, (bytes_ + 63) / 64 * 64))),
        queue_(memory_, nranks, slots, slot_bytes) {
    std::memset(memory_, 0, bytes_);
    queue_.initialize();
  }
  ~QueueMemory() { std::free(memory_); }
  AmQueue& queue() { return queue_; }

 private:
  size_t bytes_;
  uint8_t* memory_;
  AmQueue queue_;
};

TEST(AmQueue, DeliversChunksInOrderWithTheirHeaders) {
  QueueMemory memory(2, 16, 256);
  AmQueue& queue = memory.queue();
  EXPECT_FALSE(queue.has_message());
  const char text[] = "hello";
  ASSERT_TRUE(queue.try_enqueue(1, 7, kChunkFirst | kChunkLast, 6, text, 6));
  ASSERT_TRUE(queue.try_enqueue(0, 3, kChunkFirst, 0, nullptr, 0));
  EXPECT_TRUE(queue.has_message());
  std::vector<AmChunk> seen;
  std::string first_payload;
  const size_t drained = queue.drain(
      [&](const AmChunk& chunk) {
        if (seen.empty()) first_payload.assign(static_cast<const char*>(chunk.data), chunk.bytes);
        seen.push_back(chunk);
      },
      100);
  ASSERT_EQ(drained, 2u);
  EXPECT_EQ(seen[0].source, 1);
  EXPECT_EQ(seen[0].handler, 7);
  EXPECT_EQ(seen[0].total_bytes, 6u);
  EXPECT_EQ(first_payload, std::string("hello", 6));
  EXPECT_EQ(seen[1].source, 0);
  EXPECT_EQ(seen[1].bytes, 0u);
  EXPECT_FALSE(queue.has_message());
}

TEST(AmQueue, FullQueueRefusesWithoutOverwritingAndRecoversAfterDrain) {
  QueueMemory memory(1, 16, 128);
  AmQueue& queue = memory.queue();
  uint64_t value = 0;
  for (value = 0; value < 16; ++value)
    ASSERT_TRUE(queue.try_enqueue(0, 0, kChunkFirst | kChunkLast, 8, &value, 8));
  EXPECT_FALSE(queue.has_space());
  EXPECT_FALSE(queue.try_enqueue(0, 0, kChunkFirst | kChunkLast, 8, &value, 8));
  uint64_t expected = 0;
  auto check = [&](const AmChunk& chunk) {
    uint64_t got;
    std::memcpy(&got, chunk.data, 8);
    EXPECT_EQ(got, expected++);
  };
  EXPECT_EQ(queue.drain(check, 1), 1u);
  EXPECT_TRUE(queue.has_space());
  ASSERT_TRUE(queue.try_enqueue(0, 0, kChunkFirst | kChunkLast, 8, &value, 8));  // value 16
  EXPECT_EQ(queue.drain(check, 100), 16u);
  EXPECT_EQ(expected, 17u);
}

TEST(AmQueue, ManyProducersKeepPerProducerOrderAndLoseNothing) {
  constexpr int kProducers = 4;
  constexpr uint64_t kPerProducer = 50000;
  QueueMemory memory(kProducers, 64, 64);
  AmQueue& queue = memory.queue();
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&queue, p] {
      for (uint64_t i = 0; i < kPerProducer; ++i)
        while (!queue.try_enqueue(p, 0, kChunkFirst | kChunkLast, 8, &i, 8))
          std::this_thread::yield();
    });
  }
  std::vector<uint64_t> next(kProducers, 0);
  uint64_t received = 0, out_of_order = 0;
  while (received < kProducers * kPerProducer) {
    const size_t drained = queue.drain(
        [&](const AmChunk& chunk) {
          uint64_t value;
          std::memcpy(&value, chunk.data, 8);
          if (value != next[static_cast<size_t>(chunk.source)]) ++out_of_order;
          next[static_cast<size_t>(chunk.source)] = value + 1;
        },
        1000);
    received += drained;
    if (drained == 0) std::this_thread::yield();
  }
  for (auto& producer : producers) producer.join();
  EXPECT_EQ(out_of_order, 0u);
  for (int p = 0; p < kProducers; ++p) EXPECT_EQ(next[static_cast<size_t>(p)], kPerProducer);
  EXPECT_FALSE(queue.has_message());
}

TEST(AmQueue, SpaceWaitersAreWokenByTheConsumer) {
  QueueMemory memory(3, 16, 128);
  AmQueue& queue = memory.queue();
  std::vector<int> woken;
  queue.wake_space_waiters([&](int sender) { woken.push_back(sender); });
  EXPECT_TRUE(woken.empty());
  queue.add_space_waiter(2);
  queue.wake_space_waiters([&](int sender) { woken.push_back(sender); });
  EXPECT_EQ(woken, std::vector<int>{2});
  queue.remove_space_waiter(2);
  woken.clear();
  queue.wake_space_waiters([&](int sender) { woken.push_back(sender); });
  EXPECT_TRUE(woken.empty());
}

}  // namespace
}  // namespace remora::shm
