// The RMA work of the node's ghost process (REMORA_PROGRESS=ghost, after Casper): it serves
// the owner-computes requests addressed to every rank of the node. It has no Window objects:
// a request names the window's data and sync segments (mapped by the ghost when they were
// allocated, see transport/shm/ghost_segments.hpp), and the lock-table geometry is read from
// the target's sync part. The update takes the target's lock-table stripes exactly as the
// target's own agent would (rma/locked_update.hpp), so atomicity across strategies and paths
// is unchanged; the reply goes straight to the origin.
#pragma once

#include <memory>

#include "transport/transport.hpp"

namespace remora::rma {

class GhostService {
 public:
  // Registers the request handler on a ghost endpoint; it must be the first service there
  // (its id is kGhostOwnerComputesHandler, which the ranks address).
  static int create(transport::Transport& transport, std::unique_ptr<GhostService>* out);

 private:
  explicit GhostService(transport::Transport& transport) : transport_(transport) {}
  static void on_request(int source, const void* payload, size_t bytes, void* context);

  transport::Transport& transport_;
};

}  // namespace remora::rma
