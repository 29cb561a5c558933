// Transport::wait_until calls ready() until it returns true and never after (a caller's ready()
// may act: a blocking application-bypass contribution deposits itself when its slot is free,
// and one that deposited twice left its slot full of a call already folded, which hung the
// 8-rank bypass tests). The shm transport's sleep() calls ready() before it blocks; with no
// spin and no yields every pause is such a sleep, so one of the first calls below holds inside
// it, where the loop used to call ready() once more.
#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "core/config.hpp"
#include "transport/shm/shm_transport.hpp"

namespace remora {
namespace {

TEST(WaitUntil, NeverCallsReadyAfterItHeld) {
  Config config = default_config();
  config.wait_spin_us = 0;
  config.wait_spin_oversubscribed_us = 0;
  config.wait_yields = 0;
  config.wait_sleep_max_us = 10;
  shm::ControlBlock block;
  ASSERT_EQ(shm::ControlBlock::create(1, "wait-unit", 64, 1024, false, &block), REMORA_SUCCESS);
  std::unique_ptr<shm::ShmTransport> transport;
  ASSERT_EQ(shm::ShmTransport::create(std::move(block), 0, config, &transport), REMORA_SUCCESS);
  // The call that holds falls at every place of the loop: its checks and the sleep's.
  for (int holds_at = 1; holds_at <= 12; ++holds_at) {
    int calls = 0, after = 0;
    const int status = transport->wait_until([&] {
      if (calls >= holds_at) ++after;
      return ++calls >= holds_at;
    });
    EXPECT_EQ(status, REMORA_SUCCESS);
    EXPECT_EQ(calls - after, holds_at);
    EXPECT_EQ(after, 0) << "ready() called " << after << " times after it held at call "
                        << holds_at;
  }
}

}  // namespace
}  // namespace remora
