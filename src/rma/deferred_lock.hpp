// The deferred lock of paper 001 §5.1. lock() only records the epoch; operations are queued
// with references to their origin data (MPI: origin buffers are not modified until unlock or
// flush_local, which force the queue);
// unlock() takes the lock word, performs them with the gets last (their completion then implies
// the completion of everything before them) and releases the word. An epoch with a single
// operation takes the lock-op-unlock path: lock word, the operation, release, in one step with
// no queue walk. flush() in a deferred epoch forces the lock and the queued operations; the
// rest of the epoch then runs as an immediate one. A lock on this rank's own window is taken
// at once, because local loads and stores inside the epoch rely on it.
// lock_all is deferred the same way: a shared epoch to every target, each with its own queue;
// unlock_all completes them one target at a time (so it holds at most one lock word, plus its
// own), flush / flush_all force them.
#pragma once

#include <cstdint>
#include <vector>

#include "rma/epoch.hpp"
#include "rma/op_queue.hpp"

namespace remora::rma {

class Window;

class DeferredLock {
 public:
  explicit DeferredLock(Window& window);

  // A lock on target (already recorded in the epoch state): held now only if target is us.
  int lock(int target);
  // The queue of target's epoch while its lock word is not yet taken, else nullptr.
  OpQueue* pending(int target) {
    const auto t = static_cast<size_t>(target);
    return waiting_[t] ? &queues_[t] : nullptr;
  }
  // Takes the lock word if not yet taken and performs the queued operations.
  int force(int target);
  // Completes the epoch and releases the lock word (or, never taken, does it all in one go).
  int unlock(int target);
  // lock_all / unlock_all (already recorded in the epoch state): shared epochs to every target.
  int lock_all();
  int unlock_all();

 private:
  // The epoch's lock mode to target: shared under lock_all.
  LockMode mode(int target) const;

  Window& window_;
  // Per target: a deferred epoch whose lock word is not yet taken. Bytes, not vector<bool>,
  // whose bit proxies cost a read-modify-write on every lock and unlock.
  std::vector<uint8_t> waiting_;
  std::vector<OpQueue> queues_;
};

}  // namespace remora::rma
