// Who waits for a lock in one rank's sync part, so that whoever releases a lock there wakes
// exactly the ranks that wait (and nobody when nobody waits). A waiter registers (its rank's
// count, then the total), re-checks, and sleeps through the transport's wait loop; a releaser
// publishes the release, then reads the total and wakes each registered rank. The transport's
// sleep protocol closes the race between the re-check and the sleep; its bounded sleep only
// limits how late a lost wake-up would be noticed.
#pragma once

#include "rma/sync_layout.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

class WaiterSet {
 public:
  WaiterSet(transport::Transport& transport, const transport::Segment& sync, SyncLayout layout,
            int owner)
      : transport_(transport), sync_(sync), layout_(layout), owner_(owner) {}

  // Waits until ready() (called repeatedly; must be idempotent once true). Serves incoming
  // messages meanwhile, so the caller must not hold a lock that a handler could need.
  template <typename F>
  int wait(const F& ready) {
    if (ready()) return REMORA_SUCCESS;
    const SyncWord mine(transport_, sync_, owner_, layout_.waiter_count(transport_.rank()));
    const SyncWord total(transport_, sync_, owner_, SyncLayout::kWaiterTotal);
    mine.fetch_add(1);
    total.fetch_add(1);
    const int status = transport_.wait_until(ready);
    total.fetch_add(~uint64_t{0});
    mine.fetch_add(~uint64_t{0});
    return status;
  }

  // After a release: wakes every rank with a thread registered as a waiter.
  void wake_all() const;

 private:
  transport::Transport& transport_;
  const transport::Segment& sync_;
  SyncLayout layout_;
  int owner_;
};

}  // namespace remora::rma
