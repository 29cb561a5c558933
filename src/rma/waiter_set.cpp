#include "rma/waiter_set.hpp"

namespace remora::rma {

void WaiterSet::wake_all() const {
  if (SyncWord(transport_, sync_, owner_, SyncLayout::kWaiterTotal).load() == 0) return;
  for (int rank = 0; rank <= layout_.nranks; ++rank) {  // the last slot: the node's ghost
    if (SyncWord(transport_, sync_, owner_, layout_.waiter_count(rank)).load() == 0) continue;
    const int endpoint = rank < layout_.nranks ? rank : transport_.ghost_of(owner_);
    if (endpoint >= 0) transport_.wake(endpoint);
  }
}

}  // namespace remora::rma
