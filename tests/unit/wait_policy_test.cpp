#include <gtest/gtest.h>

#include "core/backoff.hpp"
#include "core/config.hpp"

namespace remora {
namespace {

TEST(WaitPolicy, OversubscriptionShortensTheSpin) {
  Config config = default_config();
  const WaitPolicy roomy = make_wait_policy(config, 2, 4);
  const WaitPolicy crowded = make_wait_policy(config, 8, 2);
  EXPECT_FALSE(roomy.oversubscribed);
  EXPECT_TRUE(crowded.oversubscribed);
  EXPECT_EQ(roomy.spin_ns, static_cast<uint64_t>(config.wait_spin_us) * 1000);
  EXPECT_EQ(crowded.spin_ns, static_cast<uint64_t>(config.wait_spin_oversubscribed_us) * 1000);
  EXPECT_LT(crowded.spin_ns, roomy.spin_ns);
  config.progress = "thread";  // 2 ranks and their progress threads on 2 CPUs
  EXPECT_TRUE(make_wait_policy(config, 2, 2).oversubscribed);
  EXPECT_FALSE(make_wait_policy(config, 2, 4).oversubscribed);
  // Across nodes the progress threads sleep between polls of MPI: 2 ranks fit 2 CPUs.
  EXPECT_FALSE(make_wait_policy(config, 2, 2, ProgressThreadWaits::Sleeping).oversubscribed);
  EXPECT_TRUE(make_wait_policy(config, 3, 2, ProgressThreadWaits::Sleeping).oversubscribed);
  config.oversubscribed = "yes";
  EXPECT_TRUE(make_wait_policy(config, 1, 64).oversubscribed);
  config.oversubscribed = "no";
  EXPECT_FALSE(make_wait_policy(config, 64, 1).oversubscribed);
}

// No spin: `yields` yields, then sleeps from 1 us up to max_sleep_ns.
WaitPolicy yields_then_sleeps(int yields, uint64_t max_sleep_ns) {
  WaitPolicy policy;
  policy.spin_ns = 0;
  policy.yields = yields;
  policy.first_sleep_ns = 1000;
  policy.max_sleep_ns = max_sleep_ns;
  return policy;
}

TEST(Backoff, SpinsThenYieldsThenSleepsWithGrowingBoundedTimeouts) {
  Backoff backoff(yields_then_sleeps(3, 4000));
  std::vector<uint64_t> sleeps;
  for (int i = 0; i < 8; ++i) backoff.pause([&](uint64_t ns) { sleeps.push_back(ns); });
  // 3 yields, then sleeps of 1, 2, 4, 4, 4 microseconds.
  EXPECT_EQ(sleeps, (std::vector<uint64_t>{1000, 2000, 4000, 4000, 4000}));
  EXPECT_TRUE(backoff.sleeping_phase());
}

TEST(Backoff, ProgressInTheSleepPhaseYieldsAgainBeforeTheNextSleep) {
  const WaitPolicy policy = yields_then_sleeps(2, 8000);
  Backoff backoff(policy);
  std::vector<uint64_t> sleeps;
  const auto sleep = [&](uint64_t ns) { sleeps.push_back(ns); };
  for (int i = 0; i < 3; ++i) backoff.pause(sleep);  // 2 yields, a sleep of 1 us
  ASSERT_TRUE(backoff.sleeping_phase());
  backoff.progressed();
  EXPECT_FALSE(backoff.sleeping_phase());
  for (int i = 0; i < 3; ++i) backoff.pause(sleep);  // 2 yields again, then 2 us: still growing
  EXPECT_EQ(sleeps, (std::vector<uint64_t>{1000, 2000}));
  EXPECT_TRUE(backoff.sleeping_phase());
  Backoff fresh(policy);
  fresh.progressed();  // in the spin or yield phase progress changes nothing
  for (int i = 0; i < 3; ++i) fresh.pause(sleep);
  EXPECT_EQ(sleeps, (std::vector<uint64_t>{1000, 2000, 1000}));
}

}  // namespace
}  // namespace remora
