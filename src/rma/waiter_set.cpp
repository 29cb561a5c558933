#include "rma/waiter_set.hpp"

#include <atomic>

namespace remora::rma {

namespace {

// The waiter total, read on every release. A part this process maps is read with a plain
// sequentially consistent load rather than a remote fetch-add of 0 (a locked instruction on
// the releaser's fast path): the release and the waiters' registrations are read-modify-writes
// in the same total order, so the load still sees every waiter registered before the release.
uint64_t waiter_total(transport::Transport& transport, const transport::Segment& sync, int owner) {
  if (void* part = transport.address(sync, owner)) {
    auto* word =
        reinterpret_cast<uint64_t*>(static_cast<unsigned char*>(part) + SyncLayout::kWaiterTotal);
    return std::atomic_ref<uint64_t>(*word).load(std::memory_order_seq_cst);
  }
  return SyncWord(transport, sync, owner, SyncLayout::kWaiterTotal).load();
}

}  // namespace

void WaiterSet::wake_all() const {
  if (waiter_total(transport_, sync_, owner_) == 0) return;
  for (int rank = 0; rank <= layout_.nranks; ++rank) {  // the last slot: the node's ghost
    if (SyncWord(transport_, sync_, owner_, layout_.waiter_count(rank)).load() == 0) continue;
    const int endpoint = rank < layout_.nranks ? rank : transport_.ghost_of(owner_);
    if (endpoint >= 0) transport_.wake(endpoint);
  }
}

}  // namespace remora::rma
