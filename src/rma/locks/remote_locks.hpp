// Passive-target locks across nodes, the ranks' side (the agent's side: lock_server.hpp). An
// origin whose target's lock word is node-local on another node sends its lock and unlock
// requests to the target's agent and waits for the reply with the waiting policy; a rank that
// released a node-local lock word while the agent holds requests for it kicks the agent. Every
// rank also serves, with its progress engine, the requests addressed to itself as an agent
// (thread progress).
#pragma once

#include <memory>

#include "rma/epoch.hpp"
#include "rma/locks/lock_server.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

class OwnerComputes;
class Window;

class RemoteLocks {
 public:
  // Registers the request and reply handlers: every rank must create it at the same point.
  // windows: finds a window by id for requests addressed to this rank.
  static int create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                    OwnerComputes& windows, std::unique_ptr<RemoteLocks>* out);

  // Takes (lock) or releases (unlock) target's lock word through its agent; returns once the
  // agent has applied it.
  int lock(const Window& window, int target, LockMode mode);
  int unlock(const Window& window, int target, LockMode mode);
  // Tells target's agent that the word was released here while it held requests.
  void kick(const Window& window, int target);

 private:
  RemoteLocks(transport::Transport& transport, const transport::GhostDirectory& ghosts,
              OwnerComputes& windows)
      : transport_(transport), ghosts_(ghosts), windows_(windows), server_(transport, ghosts) {}
  LockAgent agent_for(const Window& window, int target) const;
  int request(const Window& window, int target, LockRequestKind kind);
  static void on_request(int source, const void* payload, size_t bytes, void* context);
  static void on_reply(int source, const void* payload, size_t bytes, void* context);

  transport::Transport& transport_;
  const transport::GhostDirectory& ghosts_;
  OwnerComputes& windows_;
  LockServer server_;
  int request_handler_ = -1;
  int reply_handler_ = -1;
};

}  // namespace remora::rma
