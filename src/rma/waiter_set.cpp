#include "rma/waiter_set.hpp"

namespace remora::rma {

void WaiterSet::wake_all() const {
  if (SyncWord(transport_, sync_, owner_, SyncLayout::kWaiterTotal).load() == 0) return;
  for (int rank = 0; rank < layout_.nranks; ++rank)
    if (SyncWord(transport_, sync_, owner_, layout_.waiter_count(rank)).load() != 0)
      transport_.wake(rank);
}

}  // namespace remora::rma
