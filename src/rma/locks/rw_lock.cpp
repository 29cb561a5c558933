#include "rma/locks/rw_lock.hpp"

#include <utility>

namespace remora::rma {

SyncWord RwLock::word_of(transport::Transport& transport, const transport::Segment& sync,
                         SyncGeometry geometry, int owner, size_t offset) {
  auto* part = static_cast<unsigned char*>(transport.address(sync, owner));
  if ((geometry.node_local_lock || geometry.cpu_atomics) && part != nullptr)
    return SyncWord(reinterpret_cast<uint64_t*>(part + offset));
  return SyncWord(transport, sync, owner, offset);
}

RwLock::RwLock(transport::Transport& transport, const transport::Segment& sync,
               SyncGeometry geometry, int owner, std::function<void()> kick)
    : word_(word_of(transport, sync, geometry, owner, SyncGeometry::kLockWord)),
      pending_(word_of(transport, sync, geometry, owner, SyncGeometry::kRemoteLockPending)),
      node_local_(geometry.node_local_lock),
      waiters_(transport, sync, geometry, owner, WaiterRegistry::LockWord),
      kick_(std::move(kick)) {}

bool RwLock::try_shared() {
  if (uint64_t* here = word_.address()) return try_shared_at(here);
  if ((word_.fetch_add(1) & kWriter) == 0) return true;
  word_.fetch_add(~uint64_t{0});
  released();  // our transient count may have made a writer's attempt fail
  return false;
}

int RwLock::lock_shared() {
  while (!try_shared()) {
    if (int status = waiters_.wait([this] { return (word_.load() & kWriter) == 0; })) return status;
  }
  return REMORA_SUCCESS;
}

int RwLock::lock_exclusive() {
  while (!try_exclusive()) {
    if (int status = waiters_.wait([this] { return word_.load() == 0; })) return status;
  }
  return REMORA_SUCCESS;
}

// After the word changed in the releasing direction. The release and the agent's count are
// both read-modify-writes, and this load is sequentially consistent: either it sees the
// agent's count, or the agent's attempt comes after the release and sees it.
void RwLock::released() {
  // A registry this process maps with nobody registered: nothing to wake, without the call.
  if (!waiters_.none_registered_here()) waiters_.wake_all();
  if (node_local_ && kick_ && pending_.load() != 0) kick_();
}

void RwLock::unlock_shared() {
  word_.fetch_add(~uint64_t{0});
  released();
}

void RwLock::unlock_exclusive() {
  word_.fetch_add(uint64_t{0} - kWriter);  // keeps the transient counts of arriving readers
  released();
}

}  // namespace remora::rma
