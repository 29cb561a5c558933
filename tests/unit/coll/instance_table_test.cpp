#include "coll/instance_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace remora::coll {
namespace {

// An instance without a schedule (the shm fast path) shares the numbering of scheduled ones,
// is found running with its signature, keeps a failure announced for it, and ends like any.
TEST(InstanceTable, UnscheduledInstancesShareNumbersAndKeepAnnouncedFailures) {
  InstanceTable table;
  table.open(5, {0, 1}, 0);
  InstanceTable::Context* slot = table.slot(5);
  EXPECT_EQ(table.slot(5), slot);  // the same entry every time
  Failure announced;
  EXPECT_EQ(table.begin(5, 11, &announced), 0u);
  table.end(5, 0);
  EXPECT_EQ(table.begin_unscheduled(slot, 22, &announced), 1u);
  EXPECT_EQ(announced.code, 0);
  InstanceTable::Found found = table.find(5, 1);
  EXPECT_EQ(found.state, InstanceTable::State::Running);
  EXPECT_EQ(found.signature, 22u);
  EXPECT_EQ(found.schedule, nullptr);
  EXPECT_EQ(table.announced(5, 1).code, 0);
  const uint64_t before = table.announcements();
  EXPECT_EQ(table.announce(5, 1, Failure{-3, "first"}), nullptr);
  EXPECT_EQ(table.announce(5, 1, Failure{-4, "second"}), nullptr);
  EXPECT_EQ(table.announcements(), before + 2);
  const Failure failure = table.announced(5, 1);
  EXPECT_EQ(failure.code, -3);  // the first announcement explains it
  EXPECT_EQ(failure.message, "first");
  table.end_unscheduled(slot, 1);
  found = table.find(5, 1);
  EXPECT_EQ(found.state, InstanceTable::State::Ended);
  EXPECT_EQ(found.signature, 22u);
  EXPECT_EQ(table.announced(5, 1).code, 0);
  // A failure announced before the instance begins is handed to it when it does.
  EXPECT_EQ(table.announce(5, 2, Failure{-5, "early"}), nullptr);
  EXPECT_EQ(table.begin_unscheduled(slot, 22, &announced), 2u);
  EXPECT_EQ(announced.code, -5);
  EXPECT_EQ(announced.message, "early");
  table.end_unscheduled(slot, 2);
  EXPECT_EQ(table.begin(5, 11, &announced), 3u);
  EXPECT_EQ(announced.code, 0);
}

// Unscheduled instances take their numbers without the lock while another thread begins
// scheduled ones on the same context: every number is taken once, and while an unscheduled
// instance runs, find() (under the lock) sees it running with its signature.
TEST(InstanceTable, UnscheduledAndScheduledBeginsFromTwoThreadsTakeDistinctNumbers) {
  InstanceTable table;
  table.open(7, {0, 1}, 0);
  InstanceTable::Context* slot = table.slot(7);
  constexpr int kEach = 20000;
  std::vector<uint64_t> scheduled, unscheduled;
  int wrong = 0;
  std::thread other([&] {
    Failure announced;
    for (int i = 0; i < kEach; ++i) {
      const uint64_t sequence = table.begin(7, 11, &announced);
      scheduled.push_back(sequence);
      table.end(7, sequence);
    }
  });
  Failure announced;
  for (int i = 0; i < kEach; ++i) {
    const uint64_t sequence = table.begin_unscheduled(slot, 22, &announced);
    unscheduled.push_back(sequence);
    const InstanceTable::Found found = table.find(7, sequence);
    if (found.state != InstanceTable::State::Running || found.signature != 22u) ++wrong;
    table.end_unscheduled(slot, sequence);
  }
  other.join();
  EXPECT_EQ(wrong, 0);
  std::vector<uint64_t> all = scheduled;
  all.insert(all.end(), unscheduled.begin(), unscheduled.end());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i);  // each number once, no gap
  // Alone again: the next number follows, and the instance ends with its signature.
  const uint64_t last = table.begin_unscheduled(slot, 33, &announced);
  EXPECT_EQ(last, all.size());
  table.end_unscheduled(slot, last);
  const InstanceTable::Found found = table.find(7, last);
  EXPECT_EQ(found.state, InstanceTable::State::Ended);
  EXPECT_EQ(found.signature, 33u);
}

// An ended instance's entry is kept for the next one to begin in (one allocation less per
// collective): the next instance finds none of the ended one's state (its signature, the
// failure announced for it while it ran), and the ended one stays ended with its signature.
TEST(InstanceTable, AnEndedInstancesEntryCarriesNothingIntoTheNext) {
  InstanceTable table;
  table.open(9, {0, 1}, 0);
  Failure announced;
  EXPECT_EQ(table.begin(9, 11, &announced), 0u);
  EXPECT_EQ(table.begin(9, 12, &announced), 1u);                         // two running at once
  EXPECT_EQ(table.announce(9, 0, Failure{-3, "zero failed"}), nullptr);  // running, not started
  table.end(9, 0);
  table.end(9, 1);  // a spare is kept already: this entry is freed
  EXPECT_EQ(table.find(9, 0).state, InstanceTable::State::Ended);
  EXPECT_EQ(table.find(9, 0).signature, 11u);
  for (uint64_t sequence = 2; sequence < 40; ++sequence) {
    const auto signature = static_cast<uint32_t>(100 + sequence);
    EXPECT_EQ(table.begin(9, signature, &announced), sequence);
    EXPECT_EQ(announced.code, 0);
    const InstanceTable::Found found = table.find(9, sequence);
    EXPECT_EQ(found.state, InstanceTable::State::Running);
    EXPECT_EQ(found.signature, signature);
    EXPECT_EQ(found.schedule, nullptr);
    const Failure since = table.started(9, sequence, nullptr);
    EXPECT_EQ(since.code, 0) << since.message;
    EXPECT_TRUE(since.message.empty());
    table.end(9, sequence);
    EXPECT_EQ(table.find(9, sequence).state, InstanceTable::State::Ended);
    EXPECT_EQ(table.find(9, sequence).signature, signature);
  }
  EXPECT_EQ(table.find(9, 40).state, InstanceTable::State::Future);
}

// Nonblocking calls without a schedule take entries of their own beside the blocking calls'
// entry: several run at once (each found running with its signature, each keeping the failure
// announced for it), a call that finds every entry taken uses begin() instead, and an ended
// entry is free again. A failure announced while no entry named its instance yet (it waits in
// future) is kept for a running instance when a later one begins.
TEST(InstanceTable, RequestEntriesRunSeveralInstancesAtOnce) {
  InstanceTable table;
  table.open(3, {0, 1}, 0);
  InstanceTable::Context* slot = table.slot(3);
  Failure announced;
  std::vector<int> entries;
  std::vector<uint64_t> sequences;
  for (int i = 0; i < InstanceTable::kRequestEntries; ++i) {
    const int entry = InstanceTable::claim(slot);
    ASSERT_GE(entry, 1);
    EXPECT_EQ(std::count(entries.begin(), entries.end(), entry), 0);  // each entry once
    entries.push_back(entry);
    sequences.push_back(table.begin_unscheduled(slot, 40 + i, &announced, entry));
    EXPECT_EQ(sequences.back(), static_cast<uint64_t>(i));
    EXPECT_EQ(announced.code, 0);
  }
  EXPECT_EQ(InstanceTable::claim(slot), -1);      // all taken
  EXPECT_EQ(table.begin(3, 50, &announced), 4u);  // the fallback shares the numbering
  // The blocking calls' entry is not among them.
  EXPECT_EQ(table.begin_unscheduled(slot, 60, &announced), 5u);
  for (int i = 0; i < InstanceTable::kRequestEntries; ++i) {
    const InstanceTable::Found found = table.find(3, sequences[i]);
    EXPECT_EQ(found.state, InstanceTable::State::Running);
    EXPECT_EQ(found.signature, static_cast<uint32_t>(40 + i));
  }
  EXPECT_EQ(table.find(3, 5).signature, 60u);
  EXPECT_EQ(table.announce(3, 2, Failure{-7, "two failed"}), nullptr);
  EXPECT_EQ(table.announced(3, 2).code, -7);
  EXPECT_EQ(table.announced(3, 1).code, 0);
  EXPECT_EQ(table.announced(3, 3).code, 0);
  // Ending one frees its entry; the others keep running.
  table.end_unscheduled(slot, sequences[2], entries[2]);
  EXPECT_EQ(table.find(3, 2).state, InstanceTable::State::Ended);
  EXPECT_EQ(table.find(3, 2).signature, 42u);
  EXPECT_EQ(table.announced(3, 2).code, 0);
  EXPECT_EQ(table.find(3, 3).state, InstanceTable::State::Running);
  EXPECT_EQ(InstanceTable::claim(slot), entries[2]);
  // A failure announced for instance 7 before it begins reaches it; one left in future for a
  // running instance (as an announcement that lands while its number is taken would be) is not
  // dropped by the later begin.
  EXPECT_EQ(table.announce(3, 7, Failure{-8, "seven failed"}), nullptr);
  slot->future.emplace(1, Failure{-9, "one failed"});
  slot->has_future.store(true);
  table.end_unscheduled(slot, 5);
  table.end(3, 4);
  EXPECT_EQ(table.begin_unscheduled(slot, 70, &announced, entries[2]), 6u);
  EXPECT_EQ(announced.code, 0);
  EXPECT_EQ(table.announced(3, 1).code, -9);  // kept: instance 1 still runs
  EXPECT_EQ(table.begin_unscheduled(slot, 80, &announced), 7u);
  EXPECT_EQ(announced.code, -8);
  EXPECT_EQ(announced.message, "seven failed");
  table.end_unscheduled(slot, 7);
  for (int i : {0, 1, 3}) table.end_unscheduled(slot, sequences[i], entries[i]);
  table.end_unscheduled(slot, 6, entries[2]);
  for (uint64_t sequence = 0; sequence < 8; ++sequence)
    EXPECT_EQ(table.find(3, sequence).state, InstanceTable::State::Ended) << sequence;
  EXPECT_EQ(table.find(3, 1).signature, 41u);
}

// Request entries are claimed and numbered by one thread and ended by another (a request
// completes on whichever thread tests it) while a third begins scheduled instances: every
// number is taken once, every entry is claimed by one instance at a time, and each instance is
// found running with its signature until it ends.
TEST(InstanceTable, RequestEntriesEndedByAnotherThreadTakeDistinctNumbers) {
  constexpr int kEach = 20000;
  InstanceTable table;
  table.open(8, {2, 3, 4}, 1);
  InstanceTable::Context* const slot = table.slot(8);
  std::vector<uint64_t> requests, scheduled;
  std::mutex mutex;
  std::deque<std::pair<int, uint64_t>> running;  // claimed entries, oldest first
  std::atomic<bool> begun_all{false};
  int wrong = 0, shared_entries = 0, fallbacks = 0;
  std::thread ender([&] {
    for (;;) {
      bool popped = false, finished = false;
      std::pair<int, uint64_t> oldest{0, 0};
      {
        std::lock_guard lock(mutex);
        if (!running.empty()) {
          oldest = running.front();
          running.pop_front();
          popped = true;
        } else {
          finished = begun_all.load();
        }
      }
      if (finished) return;
      if (!popped) {
        std::this_thread::yield();  // tests run more threads than cores
        continue;
      }
      table.end_unscheduled(slot, oldest.second, oldest.first);
    }
  });
  std::thread other([&] {
    Failure announced;
    for (int i = 0; i < kEach; ++i) {
      scheduled.push_back(table.begin(8, 11, &announced));
      table.end(8, scheduled.back());
    }
  });
  Failure announced;
  for (int i = 0; i < kEach; ++i) {
    const auto signature = static_cast<uint32_t>(100 + i % 7);
    const int entry = InstanceTable::claim(slot);
    if (entry < 0) {
      ++fallbacks;
      requests.push_back(table.begin(8, signature, &announced));
      table.end(8, requests.back());
      continue;
    }
    const uint64_t sequence = table.begin_unscheduled(slot, signature, &announced, entry);
    requests.push_back(sequence);
    const InstanceTable::Found found = table.find(8, sequence);
    if (found.state != InstanceTable::State::Running || found.signature != signature) ++wrong;
    std::lock_guard lock(mutex);
    for (const auto& other_entry : running)
      if (other_entry.first == entry) ++shared_entries;
    running.emplace_back(entry, sequence);
  }
  begun_all.store(true);
  ender.join();
  other.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(shared_entries, 0);
  std::vector<uint64_t> all = scheduled;
  all.insert(all.end(), requests.begin(), requests.end());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i);  // each number once, no gap
  // Every entry is free again, and every request instance ended.
  for (int i = 0; i < InstanceTable::kRequestEntries; ++i) EXPECT_GE(InstanceTable::claim(slot), 1);
  EXPECT_EQ(InstanceTable::claim(slot), -1);
  for (uint64_t sequence : requests)
    ASSERT_EQ(table.find(8, sequence).state, InstanceTable::State::Ended) << sequence;
  (void)fallbacks;  // how often all entries were taken: scheduling decides
}

}  // namespace
}  // namespace remora::coll
