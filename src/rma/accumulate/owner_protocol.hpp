// The owner-computes messages (paper 000), shared by the two agents that can serve them: the
// target's own progress engine (OwnerComputes) and the node's ghost process (GhostService).
// A request names the target and the window both ways: by window id for the target, by its
// segments' ids for the ghost, which has no Window objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

struct AccArgs;
struct WindowMemory;

constexpr size_t kOwnerMaxElementBytes = 16;

// The ghost's handler id for requests: the first service the ghost program registers.
constexpr int kGhostOwnerComputesHandler = transport::kGhostFirstServiceHandler;

struct OwnerRequest {
  uint64_t window_id;
  uint64_t offset;  // bytes, at the target
  uint64_t count;
  uint64_t token;          // the origin's reply state, or 0 when no result is wanted
  uint64_t result_offset;  // bytes into the origin's result buffer
  uint64_t data_segment;   // Segment::id of the window's data and sync segments
  uint64_t sync_segment;
  int32_t target;         // the rank whose memory is updated
  int32_t reply_handler;  // the origin's handler for the reply
  int32_t type;
  int32_t op;
  int32_t compare_swap;  // payload: origin element, then compare element
  int32_t has_alpha;
  // The owner applies it with CPU atomics (Window::owner_applies_native: the same path as a
  // caller on the target's node), else under the lock table. Set by the origin for the ghost,
  // which has no Window to decide it.
  int32_t apply_native;
  unsigned char alpha[kOwnerMaxElementBytes];
};

struct OwnerReply {
  uint64_t window_id;
  uint64_t token;
  uint64_t result_offset;
  int64_t target;  // whose memory was updated: the replying endpoint may be the ghost
};

// Decodes a request, has apply(request, args) perform it (args come filled in, with
// args.target = request.target; apply returns false if it cannot, and then nothing is sent)
// and sends source the reply, with the previous values when the origin asked for them.
using ApplyRequest = std::function<bool(const OwnerRequest&, const AccArgs&)>;

// Where requests to target go: the endpoint and its handler id. The one place that routes
// owner-computes requests (docs/rma.md): the target itself (its progress engine), or the
// ghost process of the target's node when it has one and can reach the memory.
struct OwnerAgent {
  int endpoint;
  int handler;
};

// How the owner applies one owner-computes request, for the target's own handler
// (owner_computes.cpp) and for the node's ghost (ghost_service.cpp): one function, so the two
// follow the same rule (acc_route.hpp): CPU atomics when native (the path every rank of the
// owner's node takes for that location and type), else the lock table.
int apply_owner_request(const WindowMemory& memory, const AccArgs& args, bool native);

void serve_owner_request(transport::Transport& transport, int source, const void* payload,
                         size_t bytes, const ApplyRequest& apply);

}  // namespace remora::rma
