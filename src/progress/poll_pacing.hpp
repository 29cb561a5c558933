// Pacing of polling calls, the test-style ones (remora_array_test, remora_request_test/testall,
// remora_win_test).
// Applications call them in tight loops while the work they test for is done elsewhere: by
// this rank's progress thread, by another rank, or by MPI. Back to back, such a loop keeps the
// core from the thread or rank it waits for (on this 2-core machine the progress thread's
// sched_yield handed the core straight back to it). So the waiting policy (DESIGN.md section 4)
// applies across the calls of such a loop: after the policy's spin time of calls that made no
// progress, each idle call yields, for kYieldPhaseNs (and at least the policy's yields); after
// that it sleeps, for at most kMaxSleepNs (a test call never blocks for long; a message
// arriving ends the sleep). Yielding first matters under MPI: a loop that sleeps at once stops
// polling MPI, whose progress (MPICH) the operations being tested for may need. A call
// that makes progress, and a call that begins more than kLoopGapNs after the previous one
// ended, start over: a loop that computes between its tests (bench/nbc_overhead: 256 dependent
// multiply-adds and more per test) is not paced; a loop of nothing but tests has gaps of tens
// of nanoseconds.
#pragma once

#include <cstdint>

#include "core/backoff.hpp"
#include "transport/transport.hpp"

namespace remora::progress {

class PollPacing {
 public:
  static constexpr uint64_t kLoopGapNs = 250;
  static constexpr uint64_t kYieldPhaseNs = 1000000;
  static constexpr uint64_t kMaxSleepNs = 100000;

  enum class Step { None, Yield, Sleep };
  struct Action {
    Step step = Step::None;
    uint64_t sleep_ns = 0;
  };

  // A test call made progress (or completed).
  void progressed();
  // A test call that began at start_ns made no progress: what to do before returning.
  Action idle(const WaitPolicy& policy, uint64_t start_ns, uint64_t now_ns);
  // The call (and its yield or sleep) ended at now_ns.
  void ended(uint64_t now_ns) { last_call_ns_ = now_ns; }

 private:
  bool in_loop_ = false;
  uint64_t loop_start_ns_ = 0;
  uint64_t last_call_ns_ = 0;
  int yields_ = 0;
  uint64_t sleep_ns_ = 0;
};

// One test call: constructed when the call begins; finish() applies this thread's pacing:
// progressed says whether the call made progress or completed; when not, it may yield or sleep
// briefly (returning early once ready()).
class PacedTestCall {
 public:
  PacedTestCall();
  void finish(transport::Transport& transport, bool progressed, transport::Ready ready);

 private:
  uint64_t start_ns_;
};

}  // namespace remora::progress
