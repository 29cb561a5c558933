// A wait for a condition that needs every rank of the node to arrive: the central barrier
// (ShmTransport::node_barrier) and the deferred fence's exchange of counts on one node. On an
// oversubscribed node, until the last rank arrives some awaited rank is off the CPU, often
// queued behind the waiter on the same core, so the waiting policy's spin phase only delays it:
// each round that makes no progress yields the CPU at once (the library lock let go, as in the
// back-off). Not oversubscribed, it is Transport::wait_until.
#pragma once

#include <sched.h>

#include "core/threads.hpp"
#include "transport/transport.hpp"

namespace remora::transport {

template <typename F>
int wait_for_node(Transport& transport, const F& ready) {
  if (!transport.wait_policy().oversubscribed) return transport.wait_until(ready);
  return transport.wait_until(ready, [&transport, &ready] {
    if (transport.poll()) return true;
    if (!ready()) {
      threads::Unlocked unlocked;
      sched_yield();
    }
    return false;
  });
}

}  // namespace remora::transport
