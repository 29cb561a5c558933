// The loop of an agent whose only job is progress: a rank's progress thread
// (REMORA_PROGRESS=thread) and the node's ghost process (REMORA_PROGRESS=ghost). It polls while
// messages keep arriving; once idle it waits with the transport's policy for agents
// (transport/agent_thread.hpp: across nodes without yields), which ends in a futex sleep on the
// endpoint's progress wake word that senders interrupt (across nodes: that times out after
// REMORA_MPI_POLL_US). It never busy-polls.
#pragma once

#include <atomic>

#include "transport/transport.hpp"

namespace remora::progress {

// Serves until stopping is true (whoever sets it must then wake the endpoint's progress
// sleeper). Once the job aborts nothing can complete: it then only sleeps until stopping.
void serve_until(transport::Transport& transport, const std::atomic<bool>& stopping);

}  // namespace remora::progress
