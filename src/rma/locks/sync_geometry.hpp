// The geometry of a window's sync segment (one part per rank, in that rank's memory): the
// passive-target lock word, the window's creation parameters (read by every rank), two
// registries of ranks waiting for a lock of the part (one for the accumulate lock table, one
// for the passive-target lock word) and the accumulate lock table. Words are accessed with the
// transport's remote atomics, so the protocol works wherever the transport does (on shared
// memory each is a CPU atomic and needs no message), except the node-local ones: on a window
// that spans nodes, words that only the owner's node touches are CPU atomics on its mapping
// (node_local_table, node_local_lock below), since MPI atomics are not atomic with them.
#pragma once

#include <atomic>

#include <cstddef>
#include <cstdint>

#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

struct SyncGeometry {
  static constexpr size_t kLockWord = 0;
  static constexpr size_t kDispUnit = 8;
  static constexpr size_t kStrategy = 16;
  static constexpr size_t kLockStripes = 24;
  static constexpr size_t kLockGranularity = 32;
  static constexpr size_t kWaiterTotal = 40;  // threads of all ranks waiting for a lock here
  static constexpr size_t kFenceDone = 48;    // operations completed here by deferred fences
  static constexpr size_t kSyncImpls = 56;    // fence implementation | lock implementation << 1
  // Lock requests of other nodes that the owner's agent holds, not yet granted (lock_server.hpp):
  // whoever releases the lock word node-locally and sees a count kicks the agent.
  static constexpr size_t kRemoteLockPending = 64;
  static constexpr size_t kLockWaiterTotal = 72;  // threads waiting for the lock word here
  static constexpr size_t kHeaderBytes = 80;
  static constexpr size_t kStripeBytes = 64;  // one cache line per stripe: no false sharing

  int nranks;
  uint64_t stripes;
  // Only the owner's node touches the lock-table stripes and their waiter registry (every
  // accumulate strategy but caller across nodes; WindowMemory::node_local_locks), or the
  // passive-target lock word and its registry (a window across nodes with a progress agent).
  bool node_local_table = false;
  bool node_local_lock = false;
  // The transport's atomics on this segment are CPU atomics on its mapping (one node): every
  // mapped word is used through CPU atomics directly, with the same effect and no call.
  bool cpu_atomics = false;
  // Where the nodes' ghosts are: the last waiter slot is the owner's node's ghost, which
  // whoever releases a lock wakes like any waiter. Null: no ghost waits here.
  const transport::GhostDirectory* ghosts = nullptr;

  // Threads of `rank` that wait for a lock-table stripe of this part; rank == nranks is the
  // node's ghost process (REMORA_PROGRESS=ghost), which takes stripes on the ranks' behalf.
  size_t waiter_count(int rank) const { return kHeaderBytes + 8 * static_cast<size_t>(rank); }
  // Threads of `rank` that wait for the passive-target lock word of this part.
  size_t lock_waiter_count(int rank) const { return waiter_count(nranks + 1 + rank); }
  size_t stripes_begin() const {
    const size_t end = lock_waiter_count(nranks + 1);
    return (end + kStripeBytes - 1) / kStripeBytes * kStripeBytes;
  }
  size_t stripe(uint64_t index) const {
    return stripes_begin() + static_cast<size_t>(index) * kStripeBytes;
  }
  // Post-start-complete-wait (pscw.hpp), after the stripes: monotonic counters, never reset.
  // In an origin's part, word r counts the exposure epochs rank r opened to it (post); in a
  // target's part, word r counts the access epochs rank r closed to it (complete).
  size_t pscw_posts_from(int rank) const { return stripe(stripes) + 8 * static_cast<size_t>(rank); }
  size_t pscw_completes_from(int rank) const { return pscw_posts_from(nranks + rank); }
  // The deferred fence on one node (deferred_fence.hpp), after the PSCW counters: two rows of
  // one word per rank, used by alternate closing fences; in an origin's part, word r of row
  // `parity` is the number of operations it performs on rank r in that epoch.
  size_t fence_counts(int parity, int rank) const {
    return pscw_posts_from(2 * nranks) + 8 * static_cast<size_t>(parity * nranks + rank);
  }
  // The immediate fence on one node (Window::fence): in each rank's part, the number of fences
  // this rank entered that end or open an epoch (its fence mark, member_marks.hpp); monotonic,
  // never reset. A fence that ends an epoch waits until every member's word reaches its own
  // count; after one that only opens (NOPRECEDE), the first access waits for that.
  size_t fence_entries() const { return fence_counts(2, 0); }
  // The deferred fence on one node: in each rank's part, the number of closing fences whose
  // row of counts this rank has written (monotonic, never reset).
  size_t fence_counts_written() const { return fence_entries() + 8; }
  size_t bytes() const { return fence_counts_written() + 8; }
};

// One 64-bit word of a rank's part of a segment, used through the transport's atomics, or
// through CPU atomics on this process's mapping of it for words that only the owner's node
// touches (LockTable: the MPI transport's atomics go through MPI, which CPU atomics, such as
// the ghost's, are not atomic with). Shared-memory atomics cannot fail, so results are
// returned directly.
class SyncWord {
 public:
  SyncWord(transport::Transport& transport, const transport::Segment& segment, int rank,
           size_t offset)
      : transport_(&transport), segment_(&segment), rank_(rank), offset_(offset) {}
  explicit SyncWord(uint64_t* word) : word_(word) {}

  uint64_t fetch_add(uint64_t value) const {
    if (word_ != nullptr) return std::atomic_ref<uint64_t>(*word_).fetch_add(value);
    uint64_t old = 0;
    transport_->atomic(*segment_, rank_, offset_, transport::AtomicOp::FetchAdd, value, 0, &old);
    return old;
  }
  uint64_t load() const { return fetch_add(0); }
  // Whether this is a CPU atomic on this process's mapping (else a transport call).
  bool direct() const { return word_ != nullptr; }
  // The word on this process's mapping when direct(), else nullptr.
  uint64_t* address() const { return word_; }
  void store(uint64_t value) const {
    if (word_ != nullptr) return std::atomic_ref<uint64_t>(*word_).store(value);
    exchange(value);
  }
  // Stores value and returns the previous one.
  uint64_t exchange(uint64_t value) const {
    if (word_ != nullptr) return std::atomic_ref<uint64_t>(*word_).exchange(value);
    uint64_t old = 0;
    transport_->atomic(*segment_, rank_, offset_, transport::AtomicOp::Swap, value, 0, &old);
    return old;
  }
  bool compare_swap(uint64_t expected, uint64_t desired) const {
    if (word_ != nullptr)
      return std::atomic_ref<uint64_t>(*word_).compare_exchange_strong(expected, desired);
    uint64_t old = 0;
    transport_->atomic(*segment_, rank_, offset_, transport::AtomicOp::CompareSwap, desired,
                       expected, &old);
    return old == expected;
  }

 private:
  transport::Transport* transport_ = nullptr;
  const transport::Segment* segment_ = nullptr;
  int rank_ = -1;
  size_t offset_ = 0;
  uint64_t* word_ = nullptr;
};

}  // namespace remora::rma
