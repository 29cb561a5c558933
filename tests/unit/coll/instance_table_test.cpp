#include "coll/instance_table.hpp"

#include <gtest/gtest.h>

namespace remora::coll {
namespace {

// An instance without a schedule (the shm fast path) shares the numbering of scheduled ones,
// is found running with its signature, keeps a failure announced for it, and ends like any.
TEST(InstanceTable, UnscheduledInstancesShareNumbersAndKeepAnnouncedFailures) {
  InstanceTable table;
  table.open(5, {0, 1}, 0);
  Failure announced;
  EXPECT_EQ(table.begin(5, 11, &announced), 0u);
  table.end(5, 0);
  EXPECT_EQ(table.begin_unscheduled(5, 22, &announced), 1u);
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
  table.end_unscheduled(5, 1);
  found = table.find(5, 1);
  EXPECT_EQ(found.state, InstanceTable::State::Ended);
  EXPECT_EQ(found.signature, 22u);
  EXPECT_EQ(table.announced(5, 1).code, 0);
  // A failure announced before the instance begins is handed to it when it does.
  EXPECT_EQ(table.announce(5, 2, Failure{-5, "early"}), nullptr);
  EXPECT_EQ(table.begin_unscheduled(5, 22, &announced), 2u);
  EXPECT_EQ(announced.code, -5);
  EXPECT_EQ(announced.message, "early");
  table.end_unscheduled(5, 2);
  EXPECT_EQ(table.begin(5, 11, &announced), 3u);
  EXPECT_EQ(announced.code, 0);
}

}  // namespace
}  // namespace remora::coll
