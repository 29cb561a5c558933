#include "coll/instance_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace remora::coll
