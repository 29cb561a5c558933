#include "progress/serve_loop.hpp"

#include "transport/agent_thread.hpp"

namespace remora::progress {

void serve_until(transport::Transport& transport, const std::atomic<bool>& stopping) {
  transport::agent_thread = true;
  while (!stopping.load(std::memory_order_acquire)) {
    bool woke = false;
    transport.wait_until(
        [&stopping, &woke] { return woke || stopping.load(std::memory_order_acquire); },
        [&transport, &woke] { return woke = transport.poll(); },
        transport::Sleeper::ProgressThread);
    if (transport.aborting()) {
      // Nothing more can complete; sleep until stopped or the launcher ends the process.
      transport.sleep(
          100000000, [&stopping] { return stopping.load(std::memory_order_acquire); },
          transport::Sleeper::ProgressThread);
    }
  }
}

}  // namespace remora::progress
