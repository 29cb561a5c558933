// Pacing of test-style calls: idle calls in a tight loop spin, then yield for 1 ms, then sleep
// for short bounded times; progress or a pause between calls starts over.
#include "progress/poll_pacing.hpp"

#include <gtest/gtest.h>

namespace remora::progress {
namespace {

using Step = PollPacing::Step;

WaitPolicy policy() {
  WaitPolicy p;
  p.spin_ns = 1000;
  p.yields = 2;
  p.first_sleep_ns = 20000;
  p.max_sleep_ns = 2000000;
  return p;
}

// Calls back to back, 100 ns apart: returns the steps taken.
std::vector<PollPacing::Action> idle_calls(PollPacing& pacing, uint64_t* now, int count) {
  std::vector<PollPacing::Action> actions;
  for (int i = 0; i < count; ++i) {
    const uint64_t start = *now;
    *now += 100;
    actions.push_back(pacing.idle(policy(), start, *now));
    if (actions.back().step == Step::Sleep) *now += actions.back().sleep_ns;
    pacing.ended(*now);
  }
  return actions;
}

TEST(PollPacing, SpinsThenYieldsThenSleepsBounded) {
  PollPacing pacing;
  uint64_t now = 1000000;
  const std::vector<PollPacing::Action> actions = idle_calls(pacing, &now, 12000);
  size_t i = 0;
  while (i < actions.size() && actions[i].step == Step::None) ++i;
  EXPECT_GE(i, 5u);  // 1 us of spinning at 100 ns per call
  const size_t first_yield = i;
  while (i < actions.size() && actions[i].step == Step::Yield) ++i;
  EXPECT_GE(i - first_yield, PollPacing::kYieldPhaseNs / 100 - 1);  // then yields for 1 ms
  ASSERT_LT(i + 5, actions.size());
  uint64_t previous = 0;
  for (size_t j = i; j < actions.size(); ++j) {
    EXPECT_EQ(actions[j].step, Step::Sleep);
    EXPECT_GE(actions[j].sleep_ns, previous);
    EXPECT_LE(actions[j].sleep_ns, PollPacing::kMaxSleepNs);
    previous = actions[j].sleep_ns;
  }
  EXPECT_EQ(previous, PollPacing::kMaxSleepNs);
}

TEST(PollPacing, ProgressStartsOver) {
  PollPacing pacing;
  uint64_t now = 1000000;
  EXPECT_EQ(idle_calls(pacing, &now, 12000).back().step, Step::Sleep);
  pacing.progressed();
  pacing.ended(now);
  EXPECT_EQ(idle_calls(pacing, &now, 1).back().step, Step::None);
}

TEST(PollPacing, APauseBetweenCallsIsNoSpinLoop) {
  PollPacing pacing;
  uint64_t now = 1000000;
  EXPECT_EQ(idle_calls(pacing, &now, 12000).back().step, Step::Sleep);
  now += PollPacing::kLoopGapNs + 1;  // the application computed between two tests
  EXPECT_EQ(idle_calls(pacing, &now, 1).back().step, Step::None);
}

}  // namespace
}  // namespace remora::progress
