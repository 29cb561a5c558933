// The RMA work of the node's ghost process (REMORA_PROGRESS=ghost, after Casper): it serves
// the owner-computes requests addressed to every rank of the node. It has no Window objects:
// a request names the window's data and sync segments (mapped by the ghost when they were
// allocated, see transport/shm/ghost_segments.hpp), and the lock-table geometry is read from
// the target's sync part. The update takes the target's lock-table stripes exactly as the
// target's own agent would (rma/accumulate/locked_update.hpp), so atomicity across strategies and
// paths is unchanged; the reply goes straight to the origin. It also serves the lock and unlock
// requests of other nodes' origins for the node's ranks' passive-target lock words
// (lock_server.hpp), finding the window's sync segment by its id the same way.
#pragma once

#include <memory>

#include "rma/locks/lock_server.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

class GhostService {
 public:
  // Registers the request handlers on a ghost endpoint; they must be the first services there
  // (their ids are kGhostOwnerComputesHandler and kGhostLockHandler, which the ranks address).
  // ghosts: the endpoint's directory, which finds the ranks' segments by id.
  static int create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                    std::unique_ptr<GhostService>* out);

 private:
  GhostService(transport::Transport& transport, const transport::GhostDirectory& ghosts)
      : transport_(transport), ghosts_(ghosts), locks_(transport, ghosts) {}
  static void on_request(int source, const void* payload, size_t bytes, void* context);
  static void on_lock_request(int source, const void* payload, size_t bytes, void* context);

  transport::Transport& transport_;
  const transport::GhostDirectory& ghosts_;
  LockServer locks_;
};

}  // namespace remora::rma
