#include "progress/poll_pacing.hpp"

#include <sched.h>

#include <algorithm>

#include "core/clock.hpp"

namespace remora::progress {

void PollPacing::progressed() {
  in_loop_ = false;
}

PollPacing::Action PollPacing::idle(const WaitPolicy& policy, uint64_t start_ns, uint64_t now_ns) {
  if (!in_loop_ || start_ns - last_call_ns_ > kLoopGapNs) {
    in_loop_ = true;
    loop_start_ns_ = start_ns;
    yields_ = 0;
    sleep_ns_ = 0;
  }
  if (now_ns - loop_start_ns_ < policy.spin_ns) return {};
  if (yields_ < policy.yields || now_ns - loop_start_ns_ < policy.spin_ns + kYieldPhaseNs) {
    ++yields_;
    return {Step::Yield, 0};
  }
  const uint64_t cap = std::min(kMaxSleepNs, policy.max_sleep_ns);
  sleep_ns_ = sleep_ns_ == 0 ? std::min(policy.first_sleep_ns, cap) : std::min(sleep_ns_ * 2, cap);
  return {Step::Sleep, sleep_ns_};
}

namespace {
thread_local PollPacing pacing;
}

PacedTestCall::PacedTestCall() : start_ns_(now_ns()) {}

void PacedTestCall::finish(transport::Transport& transport, bool progressed,
                           transport::Ready ready) {
  if (progressed) {
    pacing.progressed();
    return;
  }
  const PollPacing::Action action = pacing.idle(transport.wait_policy(), start_ns_, now_ns());
  if (action.step == PollPacing::Step::Yield) sched_yield();
  if (action.step == PollPacing::Step::Sleep)
    transport.sleep(action.sleep_ns, ready, transport::Sleeper::Application);
  pacing.ended(now_ns());
}

}  // namespace remora::progress
