// The one waiting policy of Remora (DESIGN.md section 4): poll for a bounded time, then
// sched_yield a bounded number of times, then sleep until woken or a timeout. Every wait in
// the library, in every layer, goes through Backoff so that no rank busy-waits without bound
// on an oversubscribed node.
#pragma once

#include <sched.h>

#include <algorithm>
#include <cstdint>

#include "core/clock.hpp"
#include "core/config.hpp"

namespace remora {

struct WaitPolicy {
  uint64_t spin_ns = 20000;
  int yields = 8;
  uint64_t first_sleep_ns = 20000;
  uint64_t max_sleep_ns = 2000000;
  bool oversubscribed = false;
};

// Whether a rank's progress thread (REMORA_PROGRESS=thread) competes for a CPU: it spins in
// its waits on one node; across nodes it sleeps between polls of MPI.
enum class ProgressThreadWaits { Spinning, Sleeping };

// The policy for this process: spin shortened when the node's ranks (and their spinning
// progress threads) outnumber the CPUs.
WaitPolicy make_wait_policy(const Config& config, int ranks_on_node, int cpus,
                            ProgressThreadWaits progress_waits = ProgressThreadWaits::Spinning);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

class Backoff {
 public:
  explicit Backoff(const WaitPolicy& policy) : policy_(policy), sleep_ns_(policy.first_sleep_ns) {}

  // Called after each unsuccessful check of the awaited condition. In the sleep phase it calls
  // sleep(timeout_ns), which must block until an event arrives or the timeout passes; the
  // timeout doubles up to the policy's maximum.
  template <typename Sleep>
  void pause(Sleep&& sleep) {
    if (spinning_) {
      // The spin starts at the first pause (a wait whose condition already holds reads no
      // clock), and the clock is read every kClockStride pauses only: on a virtual machine one
      // clock_gettime costs as much as several pauses.
      if (spins_ % kClockStride == 0) {
        const uint64_t now = now_ns();
        if (spins_ == 0) start_ns_ = now;
        if (now - start_ns_ >= policy_.spin_ns) spinning_ = false;
      }
      if (spinning_) {
        ++spins_;
        cpu_relax();
        return;
      }
    }
    if (yields_done_ < policy_.yields) {
      ++yields_done_;
      sched_yield();
      return;
    }
    sleep(sleep_ns_);
    sleep_ns_ = std::min(sleep_ns_ * 2, policy_.max_sleep_ns);
  }

  bool sleeping_phase() const { return !spinning_ && yields_done_ >= policy_.yields; }

  // Called when a round of the wait made progress (a message handled). A wait in its sleep
  // phase goes back to the yields: a rank serving a stream of messages (owner-computes
  // accumulates while it waits in a barrier) would otherwise go to sleep after each one, and a
  // sleep costs a futex round trip and, with membarrier wakes, a membarrier(2) (about 1 us per
  // message on this project's VM). The yields are bounded, so a wait still sleeps once the
  // stream stops.
  void progressed() {
    if (sleeping_phase()) yields_done_ = 0;
  }

 private:
  static constexpr uint64_t kClockStride = 8;
  WaitPolicy policy_;
  uint64_t start_ns_ = 0;
  uint64_t spins_ = 0;
  uint64_t sleep_ns_;
  int yields_done_ = 0;
  bool spinning_ = true;
};

}  // namespace remora
