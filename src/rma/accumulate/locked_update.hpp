// The lock-table path of an accumulate: lock the stripes of the target range, read, compute,
// write back, unlock. Used by the caller-computes strategy (at the origin), by the
// owner-computes handler (at the target) and by the node's ghost process (on behalf of the
// target), so all three exclude each other through the same locks in the target's sync part.
#pragma once

#include <atomic>
#include <cstdint>

#include "rma/locks/sync_geometry.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

struct AccArgs;
class UserMemory;

// What the lock-table path needs of a window: its two segments and lock-table geometry.
struct WindowMemory {
  transport::Transport* transport;
  const transport::Segment* data;
  const transport::Segment* sync;
  SyncGeometry geometry;
  uint64_t granularity;
  // Touched around updates of this process's own part (see Window::touch_local_edge); may be
  // null.
  std::atomic<uint64_t>* local_edge;
  // A window over user memory: the data is read and written there instead (the target is
  // this rank or reachable by single copy). May be null.
  const UserMemory* user = nullptr;
  // Only the target's node takes its lock-table stripes (LockTable's node_local).
  bool node_local_locks = false;
};

class LockTable;

// table: the target's lock table when the caller keeps one (a window does, per target), else
// nullptr and one is built for the call.
int apply_locked(const WindowMemory& memory, const AccArgs& args, LockTable* table = nullptr);

}  // namespace remora::rma
