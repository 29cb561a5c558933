// Whether this thread is a progress agent: a rank's progress thread or the node's ghost, the
// threads that run progress/serve_loop.hpp. A transport may let an agent wait differently from
// the application's threads (mpi/router.hpp: across nodes without yields).
#pragma once

namespace remora::transport {

// Set by serve_until for the rest of the thread's life. initial-exec and constinit: a direct TLS
// access (as detail::running_handler).
[[gnu::tls_model("initial-exec")]] inline thread_local constinit bool agent_thread = false;

}  // namespace remora::transport
