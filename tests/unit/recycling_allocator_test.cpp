// core/recycling_allocator.hpp, which an rget's request across nodes is made with: a freed
// block is the same thread's next one; live objects never share a block, however many are live
// and in whatever order they are freed; a block freed by another thread is that thread's.
#include "core/recycling_allocator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace {

struct Payload {
  explicit Payload(uint64_t v) : value(v), check(~v) {}
  uint64_t value;
  uint64_t check;
};

std::shared_ptr<Payload> make(uint64_t value) {
  return std::allocate_shared<Payload>(remora::RecyclingAllocator<Payload>(), value);
}

TEST(RecyclingAllocator, FreedBlockIsTheNextOne) {
  auto first = make(1);
  const void* block = first.get();
  first.reset();
  auto second = make(2);
  EXPECT_EQ(second.get(), block);
  EXPECT_EQ(second->value, 2u);
  EXPECT_EQ(second->check, ~uint64_t{2});
}

// More live at once than a thread keeps (256), freed in a random order, twice over: every live
// object keeps its own value (two live objects in one block would overwrite each other).
TEST(RecyclingAllocator, ManyLiveNeverShareABlock) {
  std::mt19937 random(11);
  for (int round = 0; round < 3; ++round) {
    std::vector<std::shared_ptr<Payload>> live;
    for (uint64_t i = 0; i < 1000; ++i) live.push_back(make(i + 1000 * uint64_t(round)));
    std::set<const void*> blocks;
    for (const auto& object : live) EXPECT_TRUE(blocks.insert(object.get()).second);
    std::shuffle(live.begin(), live.end(), random);
    while (!live.empty()) {
      live.pop_back();
      if (live.size() % 100 == 0) {
        for (const auto& object : live) ASSERT_EQ(object->check, ~object->value);
      }
    }
  }
}

TEST(RecyclingAllocator, BlockFreedByAnotherThreadIsThatThreadsNext) {
  auto made = make(5);
  const void* block = made.get();
  const void* reused = nullptr;
  std::thread other([&made, &reused] {
    made.reset();  // freed here: kept by this thread
    auto next = make(6);
    reused = next.get();
    EXPECT_EQ(next->value, 6u);
  });
  other.join();
  EXPECT_EQ(reused, block);
}

}  // namespace
