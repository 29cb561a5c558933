// Owner-computes accumulates (paper 000): the origin sends the operation and its data in an
// active message; the target's progress engine applies it under the target's lock table (the
// same locks as caller-computes, so the two paths interoperate) and replies with the previous
// values, or with an empty acknowledgement that completes the request for flush/unlock/fence.
// Messages from one origin to one target are delivered in order, so accumulates from one
// origin are applied at the target in the order they were issued.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "rma/accumulate/owner_protocol.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

class Window;
struct AccArgs;

class OwnerComputes {
 public:
  // Registers the request and reply handlers: every rank must create it at the same point.
  static int create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                    std::unique_ptr<OwnerComputes>* out);

  // Windows that requests may address, by id.
  void attach(Window* window);
  void detach(Window* window);

  // Sends args to args.target; returns once every result has arrived (at once without one).
  int send(Window& window, const AccArgs& args);
  // A window of this process by id, or nullptr (also for AgentRdma's handlers).
  Window* find(uint64_t id);
  // Who serves window's owner-computes requests to target (the one routing decision: a ghost
  // per node plugs in here).
  OwnerAgent agent_for(const Window& window, int target) const;

 private:
  OwnerComputes(transport::Transport& transport, const transport::GhostDirectory& ghosts)
      : transport_(transport), ghosts_(ghosts) {}
  static void on_request(int source, const void* payload, size_t bytes, void* context);
  static void on_reply(int source, const void* payload, size_t bytes, void* context);

  transport::Transport& transport_;
  const transport::GhostDirectory& ghosts_;
  int request_handler_ = -1;
  int reply_handler_ = -1;
  // Released by send() after it prepared its reply state, acquired by on_reply(): an
  // in-process edge for what already happens before through the target, which checkers such
  // as ThreadSanitizer cannot see across processes.
  std::atomic<uint64_t> requests_sent_{0};
  std::mutex mutex_;  // handlers on the progress thread look windows up concurrently
  std::unordered_map<uint64_t, Window*> windows_;
};

}  // namespace remora::rma
