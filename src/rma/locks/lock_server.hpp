// Passive-target locks across nodes, the agent's side. On a window that spans nodes and has a
// progress agent (the target's progress thread, or its node's ghost), the lock word of each
// rank's part is node-local (rw_lock.hpp): an origin on another node does not touch it but
// sends lock and unlock requests to the target's agent (remote_locks.hpp), which applies them
// with the node's CPU atomics. A lock that cannot be granted at once is not refused: the agent
// holds it and grants it (replies) when it can, retrying its held requests after every request
// it serves and whenever a rank of the node that released the word kicks it (it counts the
// held requests in the part's kRemoteLockPending word, which every releaser reads).
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

// The ghost's handler id for lock requests: the second service the ghost registers.
constexpr int kGhostLockHandler = transport::kGhostFirstServiceHandler + 1;

enum class LockRequestKind : int32_t {
  LockShared,
  LockExclusive,
  UnlockShared,
  UnlockExclusive,
  Kick
};

struct LockRequest {
  uint64_t window_id;     // for the target's own agent
  uint64_t sync_segment;  // Segment::id of the window's sync segment, for the ghost
  uint64_t token;         // the origin's wait (LockWait), or 0 (a kick is not answered)
  int32_t target;         // whose lock word
  int32_t kind;           // LockRequestKind
  int32_t reply_handler;  // the origin's handler for the reply
  int32_t unused = 0;
};

struct LockReply {
  uint64_t token;
};

// Where lock requests to a target go: its agent's endpoint and handler id.
struct LockAgent {
  int endpoint;
  int handler;
};

class LockServer {
 public:
  LockServer(transport::Transport& transport, const transport::GhostDirectory& ghosts)
      : transport_(transport), ghosts_(ghosts) {}

  // Serves one request from source on the window whose sync segment is sync (resolved by the
  // caller: the window by id, or the ghost's mapping by segment id). Never blocks.
  void serve(int source, const LockRequest& request, const transport::Segment& sync);
  // Grants every held request that can be granted now.
  void grant_held();

 private:
  struct Held {
    int source;
    LockRequest request;
    const transport::Segment* sync;
  };
  void reply(int source, const LockRequest& request);

  transport::Transport& transport_;
  const transport::GhostDirectory& ghosts_;
  std::mutex mutex_;  // the application thread and the progress thread may both serve
  std::vector<Held> held_;
};

}  // namespace remora::rma
