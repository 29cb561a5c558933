// The passive-target lock of one rank's window: a reader-writer lock in one word of that rank's
// sync part, taken with atomics (no message, no target involvement):
//   shared:    on a word of this mapping (direct), compare-and-swap n -> n + 1 while the
//              writer bit is clear, so a reader never changes a word a writer holds; through
//              the transport (one round trip), fetch-add 1 and, if the writer bit was set, undo;
//              either way wait until the bit clears if it was set;
//   exclusive: compare-and-swap 0 -> writer bit; else wait until the word is 0.
// Releases subtract what they added and wake registered waiters. On a direct word the writer's
// word is exactly the writer bit while it holds it, so its release may be a plain store of 0
// (Window::unlock's fast path; its waiter check pairs a light fence with the waiters' heavy one,
// core/asymmetric_fence.hpp). Readers that arrive while a writer waits may overtake it (no
// writer preference): windows locks are short-lived epochs.
//
// The word and its waiters are the transport's remote atomics, or, when the geometry says the
// lock is node-local (a window across nodes with a progress agent), CPU atomics on the
// owner's node's mapping: only that node's ranks and the owner's agent then touch it, and
// ranks of other nodes ask the agent (lock_server.hpp), which takes it with the same
// try_shared / try_exclusive.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "rma/locks/sync_geometry.hpp"
#include "rma/locks/waiter_set.hpp"

namespace remora::rma {

class RwLock {
 public:
  static constexpr uint64_t kWriter = uint64_t{1} << 62;

  // kick: called after a release (node-local locks only) when the owner's agent holds lock
  // requests of other nodes that may now be granted; the agent itself passes none.
  RwLock(transport::Transport& transport, const transport::Segment& sync, SyncGeometry geometry,
         int owner, std::function<void()> kick = {});

  int lock_shared();
  int lock_exclusive();
  void unlock_shared();
  void unlock_exclusive();

  // One attempt, without waiting (the agent never blocks).
  bool try_shared();
  // try_shared on a direct word: compare-and-swap n -> n + 1 while the writer bit is clear (no
  // transient count for a writer's plain-store release to overwrite). The first attempt
  // assumes a free word: one compare-and-swap when uncontended.
  static bool try_shared_at(uint64_t* word) {
    std::atomic_ref<uint64_t> lock_word(*word);
    uint64_t seen = 0;
    while (!lock_word.compare_exchange_weak(seen, seen + 1))
      if ((seen & kWriter) != 0) return false;
    return true;
  }
  bool try_exclusive() { return word_.compare_swap(0, kWriter); }
  // Whether the word is taken with CPU atomics on this process's mapping.
  bool direct() const { return word_.direct(); }
  // The word and its waiter total on this process's mapping, for the lock fast path of
  // Window (nullptr when not direct()): taking the word there is exactly try_exclusive or a
  // successful try_shared, releasing it is unlock_* when the total is 0 (then released() has
  // nobody to wake), on a lock that is not node-local (no agent to kick).
  uint64_t* word_here() const { return word_.address(); }
  uint64_t* waiter_total_here() const { return waiters_.total_here(); }
  bool node_local() const { return node_local_; }
  // After the word changed in the releasing direction: wakes the registered waiters (and kicks
  // the agent of a node-local lock that holds requests).
  void released();
  // The count of requests the agent holds for this part (node-local locks only).
  const SyncWord& remote_pending() const { return pending_; }

 private:
  static SyncWord word_of(transport::Transport& transport, const transport::Segment& sync,
                          SyncGeometry geometry, int owner, size_t offset);

  SyncWord word_;
  SyncWord pending_;
  bool node_local_;
  WaiterSet waiters_;
  std::function<void()> kick_;
};

}  // namespace remora::rma
