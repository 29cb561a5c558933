// The passive-target lock of one rank's window: a reader-writer lock in one word of that rank's
// sync part, taken with remote atomics (no message, no target involvement):
//   shared:    fetch-add 1; if the writer bit was set, undo and wait until it clears;
//   exclusive: compare-and-swap 0 -> writer bit; else wait until the word is 0.
// Releases subtract what they added and wake registered waiters. Readers that arrive while a
// writer waits may overtake it (no writer preference): windows locks are short-lived epochs.
#pragma once

#include <cstdint>

#include "rma/sync_layout.hpp"
#include "rma/waiter_set.hpp"

namespace remora::rma {

class RwLock {
 public:
  static constexpr uint64_t kWriter = uint64_t{1} << 62;

  RwLock(transport::Transport& transport, const transport::Segment& sync, SyncLayout layout,
         int owner)
      : word_(transport, sync, owner, SyncLayout::kLockWord),
        waiters_(transport, sync, layout, owner) {}

  int lock_shared();
  int lock_exclusive();
  void unlock_shared();
  void unlock_exclusive();

 private:
  bool try_shared();
  SyncWord word_;
  WaiterSet waiters_;
};

}  // namespace remora::rma
