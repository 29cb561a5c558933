// The node's ghost process (REMORA_PROGRESS=ghost, after Casper): remorarun starts it next to
// the ranks with the same environment. It attaches to the job's control block as the ghost
// endpoint, registers the services the ranks address there, and serves them, asleep while
// idle, until the launcher ends it (SIGTERM once every rank has exited, or the job's teardown).
#pragma once

#include <atomic>

#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

namespace remora::api {

// Returns only if start-up fails: then a negative status, with the reason in last_error().
int run_ghost_process();

// The ghost's work on its endpoint (remorarun's ghost, or a ghost rank under MPI, see
// launch.cpp): registers the ghost services and serves them until stopping. ghosts: the
// endpoint's ghost directory (it finds the ranks' segments by id).
int serve_as_ghost(transport::Transport& endpoint, const transport::GhostDirectory& ghosts,
                   const std::atomic<bool>& stopping);

}  // namespace remora::api
