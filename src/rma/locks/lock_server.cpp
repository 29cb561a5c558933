#include "rma/locks/lock_server.hpp"

#include "rma/locks/rw_lock.hpp"

namespace remora::rma {
namespace {

// The agent touches the header words only (lock word, held count, lock waiters), which do not
// depend on the lock table's size; no kick, since the agent retries its held requests itself.
RwLock lock_of(transport::Transport& transport, const transport::GhostDirectory& ghosts,
               const transport::Segment& sync, int target) {
  SyncGeometry geometry{transport.size(), 0};
  geometry.node_local_lock = true;
  geometry.ghosts = &ghosts;
  return RwLock(transport, sync, geometry, target);
}

}  // namespace

void LockServer::serve(int source, const LockRequest& request, const transport::Segment& sync) {
  switch (static_cast<LockRequestKind>(request.kind)) {
    case LockRequestKind::LockShared:
    case LockRequestKind::LockExclusive: {
      // Counted before the first attempt: a release that comes after the attempt's failure
      // then sees the count and kicks (RwLock::released).
      lock_of(transport_, ghosts_, sync, request.target).remote_pending().fetch_add(1);
      std::lock_guard guard(mutex_);
      held_.push_back(Held{source, request, &sync});
      break;
    }
    case LockRequestKind::UnlockShared:
      lock_of(transport_, ghosts_, sync, request.target).unlock_shared();
      reply(source, request);
      break;
    case LockRequestKind::UnlockExclusive:
      lock_of(transport_, ghosts_, sync, request.target).unlock_exclusive();
      reply(source, request);
      break;
    case LockRequestKind::Kick:
      break;
  }
  grant_held();
}

void LockServer::grant_held() {
  std::vector<Held> granted;
  {
    std::lock_guard guard(mutex_);
    std::erase_if(held_, [this, &granted](const Held& held) {
      RwLock lock = lock_of(transport_, ghosts_, *held.sync, held.request.target);
      const bool exclusive =
          static_cast<LockRequestKind>(held.request.kind) == LockRequestKind::LockExclusive;
      if (!(exclusive ? lock.try_exclusive() : lock.try_shared())) return false;
      lock.remote_pending().fetch_add(~uint64_t{0});
      granted.push_back(held);
      return true;
    });
  }
  // Outside the mutex: a send may poll, and a handler then serve again.
  for (const Held& held : granted) reply(held.source, held.request);
}

void LockServer::reply(int source, const LockRequest& request) {
  const LockReply reply{request.token};
  transport_.am_send(source, request.reply_handler, &reply, sizeof reply);
}

}  // namespace remora::rma
