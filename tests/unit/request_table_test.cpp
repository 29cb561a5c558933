// The request table behind remora_request_t (core/request_table.hpp): handles of live requests
// are distinct and find their own request, also past one chunk of slots; removed ones are
// reported as freed and never alias the requests that reuse their slots; invented ones are
// refused; threads adding and removing at once (the lock-free free stack) never share a slot.
#include "core/request_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace {

using remora::RequestTable;

class Numbered final : public remora::Request {
 public:
  explicit Numbered(int n) : number(n) {}
  bool done() const override { return true; }
  int status() const override { return 0; }
  const int number;
};

int number_of(const std::shared_ptr<remora::Request>& request) {
  return request == nullptr ? -1 : static_cast<const Numbered&>(*request).number;
}

TEST(RequestTable, ManyLiveRemovedOutOfOrderThenSlotsReused) {
  RequestTable table;
  constexpr int kCount = 3 * static_cast<int>(RequestTable::kChunkSlots) + 17;
  std::vector<void*> handles;
  for (int i = 0; i < kCount; ++i) {
    handles.push_back(table.add(std::make_shared<Numbered>(i)));
    ASSERT_NE(handles.back(), nullptr);
  }
  EXPECT_EQ(std::set<void*>(handles.begin(), handles.end()).size(), handles.size());
  for (int i = 0; i < kCount; ++i) EXPECT_EQ(number_of(table.find(handles[size_t(i)])), i);

  std::vector<int> order(static_cast<size_t>(kCount));
  for (int i = 0; i < kCount; ++i) order[size_t(i)] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::set<void*> freed;
  for (size_t k = 0; k < order.size(); ++k) {
    const int i = order[k];
    EXPECT_EQ(number_of(table.remove(handles[size_t(i)])), i);
    freed.insert(handles[size_t(i)]);
    RequestTable::Miss miss = RequestTable::Miss::None;
    EXPECT_EQ(table.find(handles[size_t(i)], &miss), nullptr);
    EXPECT_EQ(miss, RequestTable::Miss::Freed);
    EXPECT_EQ(table.remove(handles[size_t(i)]), nullptr);  // a second remove frees nothing
    // The requests not removed yet are untouched by the removals around them.
    if (k % 97 == 0) {
      for (size_t j = k + 1; j < order.size(); ++j)
        ASSERT_EQ(number_of(table.find(handles[size_t(order[j])])), order[j]);
    }
  }

  // The slots are reused (no new chunk), under new handles: the old ones stay freed.
  std::vector<void*> again;
  for (int i = 0; i < kCount; ++i) {
    again.push_back(table.add(std::make_shared<Numbered>(kCount + i)));
    ASSERT_EQ(freed.count(again.back()), 0u) << "a freed handle was given again";
  }
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(number_of(table.find(again[size_t(i)])), kCount + i);
    EXPECT_EQ(table.find(handles[size_t(i)]), nullptr);
  }
  for (void* handle : again) EXPECT_NE(table.remove(handle), nullptr);
}

TEST(RequestTable, InventedHandlesAreRefused) {
  RequestTable table;
  void* live = table.add(std::make_shared<Numbered>(1));
  const auto value = reinterpret_cast<uintptr_t>(live);
  int local = 0;
  const std::vector<void*> invented = {
      nullptr,
      &local,                                                 // an address
      reinterpret_cast<void*>(value + 1),                     // a slot never used
      reinterpret_cast<void*>(value + (uintptr_t{1} << 32)),  // the live slot, even generation
      reinterpret_cast<void*>(value + (uintptr_t{2} << 32)),  // the live slot, later generation
      reinterpret_cast<void*>(value + RequestTable::kChunkSlots * 5),  // a chunk not made
      reinterpret_cast<void*>(value ^ (uintptr_t{1} << 24)),           // the tag byte wrong
  };
  for (void* handle : invented) {
    RequestTable::Miss miss = RequestTable::Miss::None;
    EXPECT_EQ(table.find(handle, &miss), nullptr) << handle;
    EXPECT_NE(miss, RequestTable::Miss::None) << handle;
    EXPECT_EQ(table.remove(handle), nullptr) << handle;
  }
  EXPECT_EQ(number_of(table.find(live)), 1);  // untouched by the attempts
  EXPECT_EQ(number_of(table.remove(live)), 1);
}

// Threads add, find and remove at once, each its own requests, a few hundred live at a time:
// every find returns the thread's own request (two threads never got one slot).
TEST(RequestTable, ConcurrentAddsAndRemovesNeverShareASlot) {
  RequestTable table;
  constexpr int kThreads = 4, kRounds = 200, kLive = 300;
  std::vector<std::thread> threads;
  std::vector<int> errors(kThreads, 0);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&table, &errors, t] {
      std::mt19937 random(static_cast<unsigned>(t));
      std::vector<std::pair<void*, int>> mine;
      for (int round = 0; round < kRounds; ++round) {
        while (mine.size() < static_cast<size_t>(kLive)) {
          const int number = t * 1000000 + round * 1000 + static_cast<int>(mine.size());
          mine.emplace_back(table.add(std::make_shared<Numbered>(number)), number);
        }
        std::shuffle(mine.begin(), mine.end(), random);
        for (size_t k = 0; k < mine.size() / 2; ++k)
          if (number_of(table.remove(mine[k].first)) != mine[k].second) ++errors[size_t(t)];
        mine.erase(mine.begin(), mine.begin() + static_cast<std::ptrdiff_t>(mine.size() / 2));
        for (const auto& [handle, number] : mine)
          if (number_of(table.find(handle)) != number) ++errors[size_t(t)];
      }
      for (const auto& [handle, number] : mine)
        if (number_of(table.remove(handle)) != number) ++errors[size_t(t)];
    });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[size_t(t)], 0) << "thread " << t;
}

}  // namespace
