// Ghost progress (REMORA_PROGRESS=ghost, after Casper): where the helper process of each node
// is, and, on that helper, the node's segments it maps. Every transport implements it (without
// ghosts ghost_of is -1 for every rank); the runtime hands it to the layers that route requests
// to a ghost or serve them on one (rma), which receive it next to the transport, not through it.
#pragma once

#include <cstdint>

namespace remora::transport {

struct Segment;

// Handler ids on a ghost endpoint: the transport's own come first, then the services the ghost
// program registers, in a fixed order, from this id on.
constexpr int kGhostFirstServiceHandler = 1;

class GhostDirectory {
 public:
  // The active-message endpoint (>= the job's size) of the ghost that serves rank's
  // passive-target work, or -1 when rank's node has none.
  virtual int ghost_of(int rank) const = 0;
  // On a ghost endpoint: a segment of the node's ranks by Segment::id, or nullptr.
  virtual const Segment* shared_segment(uint64_t id) const = 0;

 protected:
  ~GhostDirectory() = default;
};

}  // namespace remora::transport
