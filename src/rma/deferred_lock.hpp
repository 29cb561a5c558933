// The deferred lock of paper 001 §5.1. lock() only records the epoch; operations are queued
// with references to their origin data (MPI: origin buffers are not modified until unlock or
// flush_local, which force the queue);
// unlock() takes the lock word, performs them with the gets last (their completion then implies
// the completion of everything before them) and releases the word. The first put or get of an
// epoch is not queued but kept in a per-target slot (kind, offset, length, buffer pointer): an
// epoch with that one operation takes the lock-op-unlock path of paper 001 at unlock (lock
// word, one memcpy or transport call, release) with no queue at all. On one node, a first
// operation that is a put whose target's lock word is free takes the word at once with one
// attempt (never waiting) and does the put: the rest of the epoch runs as an immediate one, so a
// deferred lock-put-unlock costs what the immediate one does (take_now). A second operation moves
// the slot into the queue first, so the queue keeps issue order. Accumulates are always queued
// (their arguments do not fit the slot). flush() in
// a deferred epoch forces the lock and the queued operations; the rest of the epoch then runs as an
// immediate one. A lock on this rank's own window is taken at once, because local loads and stores
// inside the epoch rely on it. lock_all is deferred the same way: a shared epoch to every target,
// each with its own queue; unlock_all completes them one target at a time (so it holds at most one
// lock word, plus its own), flush / flush_all force them.
#pragma once

#include <cstdint>
#include <vector>

#include "rma/epoch.hpp"
#include "rma/op_queue.hpp"
#include "rma/target_bytes.hpp"

namespace remora::rma {

class Window;

class DeferredLock {
 public:
  explicit DeferredLock(Window& window);

  // A lock on target (already recorded in the epoch state): held now only if target is us.
  int lock(int target);
  // The queue of target's epoch while its lock word is not yet taken (the slot moved into it
  // first), else nullptr.
  OpQueue* pending(int target) {
    const auto t = static_cast<size_t>(target);
    if (!waiting_[t]) return nullptr;
    spill(t);
    waiting_[t] = kRecorded;  // the caller queues an operation
    return &queues_[t];
  }
  // Records a put or get to target while its lock word is not yet taken: true if recorded (in
  // the slot when it is the epoch's first operation), false if it is to be done now.
  bool defer_put(int target, uint64_t offset, const void* origin, size_t bytes) {
    return defer(target, OpKind::Put, offset, const_cast<void*>(origin), bytes);
  }
  bool defer_get(int target, uint64_t offset, void* result, size_t bytes) {
    return defer(target, OpKind::Get, offset, result, bytes);
  }
  // The values of waiting_[target]: not waiting (the word is held, or no epoch), waiting with
  // nothing recorded yet (slot and queue empty), waiting with operations recorded; and waiting
  // with nothing recorded in an epoch that Window::lock's fast path opened (the target's word is
  // a CPU atomic on this mapping and checked, not NOCHECK), exclusive or shared, where
  // Window::put tries the word inline. Any value but kNotWaiting is waiting.
  static constexpr uint8_t kNotWaiting = 0, kFresh = 1, kRecorded = 2, kFreshExclusive = 3,
                           kFreshShared = 4;
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

  // The epoch's first put or get, not yet in the queue.
  struct Slot {
    bool used = false;
    OpKind kind = OpKind::Put;
    uint64_t offset = 0;
    size_t bytes = 0;
    void* buffer = nullptr;  // the origin of a put (only read), the result of a get
  };
  bool defer(int target, OpKind kind, uint64_t offset, void* buffer, size_t bytes) {
    const auto t = static_cast<size_t>(target);
    if (!waiting_[t]) return false;
    Slot& slot = slots_[t];
    if (!slot.used && queues_[t].empty()) {
      if (kind == OpKind::Put && take_now(target, offset, buffer, bytes)) return true;
      slot = Slot{true, kind, offset, bytes, buffer};
      waiting_[t] = kRecorded;
      return true;
    }
    return queue(target, kind, offset, buffer, bytes);
  }
  // A later operation of the epoch: the slot moves into the queue, then the operation (out of
  // line, so that the first operation's path stays small).
  bool queue(int target, OpKind kind, uint64_t offset, void* buffer, size_t bytes);
  // The epoch's first operation is a put to a target whose put is a memcpy on this mapping
  // and whose lock word is a CPU atomic here (or not taken: NOCHECK): one attempt at the word,
  // never waiting. On success the put is done (a memcpy on the mapping) and the epoch runs as
  // an immediate one from here (unlock only releases); when the word is busy, false: the put
  // goes into the slot and unlock takes the lock-op-unlock path.
  bool take_now(int target, uint64_t offset, const void* origin, size_t bytes);
  // Moves target t's slot, if used, into its queue (it is then the queue's first operation).
  void spill(size_t t);
  // Performs the slot's operation (lock word held).
  int perform_slot(int target);

  Window& window_;
  // Per world rank: a deferred epoch whose lock word is not yet taken (kFresh, kRecorded,
  // kFreshExclusive or kFreshShared), else kNotWaiting. In the window's per-target records
  // (Window::Target::deferred_waiting, which the fast paths of lock, put and unlock read and
  // write there; kNotWaiting on every window without a deferred lock).
  TargetBytes<uint8_t> waiting_;
  std::vector<OpQueue> queues_;
  std::vector<Slot> slots_;
};

}  // namespace remora::rma
