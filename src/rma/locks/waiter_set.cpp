#include "rma/locks/waiter_set.hpp"

#include <atomic>

namespace remora::rma {

WaiterSet::WaiterSet(transport::Transport& transport, const transport::Segment& sync,
                     SyncGeometry geometry, int owner, WaiterRegistry registry)
    : transport_(transport),
      sync_(sync),
      geometry_(geometry),
      owner_(owner),
      registry_(registry),
      total_offset_(registry == WaiterRegistry::LockTable ? SyncGeometry::kWaiterTotal
                                                          : SyncGeometry::kLockWaiterTotal) {
  const bool node_local =
      registry == WaiterRegistry::LockTable ? geometry.node_local_table : geometry.node_local_lock;
  part_ = node_local || geometry.cpu_atomics
              ? static_cast<unsigned char*>(transport.address(sync, owner))
              : nullptr;
}

SyncWord WaiterSet::word(size_t offset) const {
  if (part_ != nullptr) return SyncWord(reinterpret_cast<uint64_t*>(part_ + offset));
  return SyncWord(transport_, sync_, owner_, offset);
}

size_t WaiterSet::count_offset(int rank) const {
  const int slot = rank < geometry_.nranks ? rank : geometry_.nranks;
  return registry_ == WaiterRegistry::LockTable ? geometry_.waiter_count(slot)
                                                : geometry_.lock_waiter_count(slot);
}

// The waiter total is read on every release. A part this process maps is read with a plain
// sequentially consistent load rather than a remote fetch-add of 0 (a locked instruction on
// the releaser's fast path): the release and the waiters' registrations are read-modify-writes
// in the same total order, so the load still sees every waiter registered before the release.
void WaiterSet::wake_all() const {
  uint64_t total = 0;
  void* part = part_ != nullptr ? part_ : transport_.address(sync_, owner_);
  if (part != nullptr) {
    auto* word = reinterpret_cast<uint64_t*>(static_cast<unsigned char*>(part) + total_offset_);
    total = std::atomic_ref<uint64_t>(*word).load(std::memory_order_seq_cst);
  } else {
    total = word(total_offset_).load();
  }
  if (total == 0) return;
  for (int rank = 0; rank <= geometry_.nranks; ++rank) {  // the last slot: the node's ghost
    if (word(count_offset(rank)).load() == 0) continue;
    const int endpoint = rank < geometry_.nranks       ? rank
                         : geometry_.ghosts != nullptr ? geometry_.ghosts->ghost_of(owner_)
                                                       : -1;
    if (endpoint >= 0) transport_.wake(endpoint);
  }
}

}  // namespace remora::rma
