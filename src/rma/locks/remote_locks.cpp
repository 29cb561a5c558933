#include "rma/locks/remote_locks.hpp"

#include <atomic>
#include <cstring>

#include "core/log.hpp"
#include "rma/accumulate/owner_computes.hpp"
#include "rma/window.hpp"

namespace remora::rma {
namespace {

// The origin's wait for one reply; requests name it by address (a token).
struct LockWait {
  std::atomic<bool> done{false};
  uint64_t token() { return reinterpret_cast<uintptr_t>(this); }
};

}  // namespace

int RemoteLocks::create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                        OwnerComputes& windows, std::unique_ptr<RemoteLocks>* out) {
  std::unique_ptr<RemoteLocks> locks(new RemoteLocks(transport, ghosts, windows));
  if (int status = transport.am_register(on_request, locks.get(), &locks->request_handler_))
    return status;
  if (int status = transport.am_register(on_reply, locks.get(), &locks->reply_handler_))
    return status;
  *out = std::move(locks);
  return REMORA_SUCCESS;
}

// The ghost of the target's node when the window's sync segment is shared with it (a window
// over every rank); otherwise the target's own progress engine.
LockAgent RemoteLocks::agent_for(const Window& window, int target) const {
  const int ghost = window.ghost_serves_locks() ? ghosts_.ghost_of(target) : -1;
  if (ghost >= 0) return {ghost, kGhostLockHandler};
  return {target, request_handler_};
}

int RemoteLocks::lock(const Window& window, int target, LockMode mode) {
  return request(
      window, target,
      mode == LockMode::Exclusive ? LockRequestKind::LockExclusive : LockRequestKind::LockShared);
}

int RemoteLocks::unlock(const Window& window, int target, LockMode mode) {
  // The reply also tells that the agent no longer needs the window (it may be freed next).
  return request(window, target,
                 mode == LockMode::Exclusive ? LockRequestKind::UnlockExclusive
                                             : LockRequestKind::UnlockShared);
}

void RemoteLocks::kick(const Window& window, int target) {
  const LockAgent agent = agent_for(window, target);
  if (agent.endpoint == transport_.rank()) return server_.grant_held();
  const LockRequest request{window.id(),
                            window.sync_segment().id,
                            0,
                            target,
                            static_cast<int32_t>(LockRequestKind::Kick),
                            reply_handler_};
  transport_.am_send(agent.endpoint, agent.handler, &request, sizeof request);
}

int RemoteLocks::request(const Window& window, int target, LockRequestKind kind) {
  const LockAgent agent = agent_for(window, target);
  LockWait wait;
  const LockRequest request{window.id(), window.sync_segment().id,   wait.token(),
                            target,      static_cast<int32_t>(kind), reply_handler_};
  if (int status = transport_.am_send(agent.endpoint, agent.handler, &request, sizeof request))
    return status;
  return transport_.wait_until([&wait] { return wait.done.load(std::memory_order_acquire); });
}

void RemoteLocks::on_request(int source, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<RemoteLocks*>(context);
  LockRequest request;
  if (bytes < sizeof request) return;  // not ours: only RemoteLocks builds requests
  std::memcpy(&request, payload, sizeof request);
  const Window* window = self->windows_.find(request.window_id);
  if (window == nullptr) {
    log(LogLevel::Error, "lock request from rank %d for unknown window %llu", source,
        static_cast<unsigned long long>(request.window_id));
    return;
  }
  self->server_.serve(source, request, window->sync_segment());
}

void RemoteLocks::on_reply(int, const void* payload, size_t bytes, void* context) {
  (void)context;
  LockReply reply;
  if (bytes < sizeof reply) return;
  std::memcpy(&reply, payload, sizeof reply);
  auto* wait = reinterpret_cast<LockWait*>(static_cast<uintptr_t>(reply.token));
  wait->done.store(true, std::memory_order_release);  // last touch: the waiter may return
}

}  // namespace remora::rma
