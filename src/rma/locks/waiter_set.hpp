// Who waits for a lock in one rank's sync part, so that whoever releases a lock there wakes
// exactly the ranks that wait (and nobody when nobody waits). A waiter registers (its rank's
// count, then the total), re-checks, and sleeps through the transport's wait loop; a releaser
// publishes the release, then reads the total and wakes each registered rank. The transport's
// sleep protocol closes the race between the re-check and the sleep; its bounded sleep only
// limits how late a lost wake-up would be noticed.
//
// A part has two registries: the lock table's stripes and the passive-target lock word. Each
// is node-local (CPU atomics on the owner's mapping) exactly when its lock is (SyncGeometry), so
// every process that counts in it uses the same kind of atomics.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/asymmetric_fence.hpp"
#include "rma/locks/sync_geometry.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

enum class WaiterRegistry { LockTable, LockWord };

class WaiterSet {
 public:
  WaiterSet(transport::Transport& transport, const transport::Segment& sync, SyncGeometry geometry,
            int owner, WaiterRegistry registry = WaiterRegistry::LockTable);

  // Waits until ready() (called repeatedly; must be idempotent once true). Serves incoming
  // messages meanwhile, so the caller must not hold a lock that a handler could need.
  template <typename F>
  int wait(const F& ready) {
    if (ready()) return REMORA_SUCCESS;
    const SyncWord mine = word(count_offset(transport_.rank()));
    const SyncWord total = word(total_offset_);
    mine.fetch_add(1);
    total.fetch_add(1);
    // Lock-table releasers on a mapped registry, and writers releasing a mapped lock word
    // (Window::unlock), store, then read the total behind a light fence only
    // (LockTable::release_then_wake): the heavy side goes here, between the registration and
    // wait_until's first re-check.
    if (registry_ == WaiterRegistry::LockTable || part_ != nullptr) heavy_fence();
    const int status = transport_.wait_until(ready);
    total.fetch_add(~uint64_t{0});
    mine.fetch_add(~uint64_t{0});
    return status;
  }

  // After a release: wakes every rank with a thread registered as a waiter.
  void wake_all() const;
  // Whether the registry is on this process's mapping and nobody is registered (a sequentially
  // consistent load of the total, as wake_all's): the releaser of a mapped stripe then has
  // nothing to wake, without a call.
  // The total of registered waiters on this process's mapping (what none_registered_here
  // loads), or nullptr when the registry is reached through the transport.
  uint64_t* total_here() const {
    return part_ != nullptr ? reinterpret_cast<uint64_t*>(part_ + total_offset_) : nullptr;
  }
  bool none_registered_here() const {
    return part_ != nullptr &&
           std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(part_ + total_offset_))
                   .load(std::memory_order_seq_cst) == 0;
  }

 private:
  SyncWord word(size_t offset) const;
  // Rank's count; every endpoint beyond the ranks (the node's ghost) has the last slot.
  size_t count_offset(int rank) const;

  transport::Transport& transport_;
  const transport::Segment& sync_;
  SyncGeometry geometry_;
  int owner_;
  WaiterRegistry registry_;
  size_t total_offset_;
  unsigned char* part_;  // the owner's sync part when the registry is node-local, else null
};

}  // namespace remora::rma
