// The accumulate lock table of one rank's window: `stripes` mutex words in its sync part.
// Byte offset o of the window belongs to stripe (o / granularity) % stripes, so a range takes
// only the stripes it touches (one stripe = the whole window). Both accumulate paths that do
// not use CPU atomics take these locks: the caller-computes path from any rank and the
// owner-computes handler at the target, so the two interoperate.
//
// A range's stripes are taken all or nothing: a rank never waits while holding a stripe, so
// waiting may serve messages (whose handlers take stripes too) without deadlock.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/asymmetric_fence.hpp"
#include "rma/locks/sync_geometry.hpp"
#include "rma/locks/waiter_set.hpp"

namespace remora::rma {

// The distinct stripes covering a byte range, in ascending order: at most two runs of
// consecutive indices (a range that wraps around the table covers its end and its beginning).
// A value, so that taking the locks of an accumulate allocates nothing.
class StripeSet {
 public:
  StripeSet() = default;
  size_t size() const { return first_length_ + second_length_; }
  uint64_t operator[](size_t i) const {
    return i < first_length_ ? first_begin_ + i : second_begin_ + (i - first_length_);
  }
  void add_run(uint64_t begin, uint64_t length);  // after every run with smaller indices
  std::vector<uint64_t> indices() const;          // for diagnostics and tests
  static StripeSet single(uint64_t index) {
    StripeSet set;
    set.add_run(index, 1);
    return set;
  }

 private:
  uint64_t first_begin_ = 0, first_length_ = 0;
  uint64_t second_begin_ = 0, second_length_ = 0;
};

// The distinct stripes of a patch's rows (StripeSet's interface), when they are few: a value
// of fixed capacity, so that taking them allocates nothing.
class StripeList {
 public:
  static constexpr size_t kCapacity = 32;
  size_t size() const { return size_; }
  uint64_t operator[](size_t i) const { return index_[i]; }
  // False (the list is full) when there is no room.
  bool add(uint64_t index) {
    if (size_ == kCapacity) return false;
    index_[size_++] = index;
    return true;
  }

 private:
  uint64_t index_[kCapacity] = {};
  size_t size_ = 0;
};

// The stripes covering [offset, offset + bytes).
StripeSet stripes_for_range(uint64_t offset, uint64_t bytes, uint64_t granularity,
                            uint64_t stripes);

class LockTable {
 public:
  // node_local: only the owner's node takes these stripes (every strategy but caller across
  // nodes): CPU atomics on the mapping, whatever the transport's atomics are. So are they when
  // the transport's atomics are CPU atomics (geometry.cpu_atomics).
  LockTable(transport::Transport& transport, const transport::Segment& sync, SyncGeometry geometry,
            uint64_t granularity, int owner, bool node_local = false)
      : transport_(transport),
        sync_(sync),
        geometry_(geometry),
        granularity_(granularity),
        owner_(owner),
        holder_tag_(static_cast<uint64_t>(transport.rank()) + 1),
        power_of_two_((granularity & (granularity - 1)) == 0 &&
                      (geometry.stripes & (geometry.stripes - 1)) == 0),
        shift_(std::countr_zero(granularity)),
        part_(node_local || geometry.cpu_atomics
                  ? static_cast<unsigned char*>(transport.address(sync, owner))
                  : nullptr),
        waiters_(transport, sync, geometry, owner) {
    // Registered for the heavy side's barriers before the window's first operation (creation
    // is collective), not at the first release, which may race with a waiter's.
    enable_asymmetric_fences();
  }

  // Locks the stripes of [offset, offset + bytes); *held receives them for unlock().
  int lock(uint64_t offset, uint64_t bytes, StripeSet* held);
  // Whether the stripes are CPU atomics on this process's mapping: holders' plain accesses to
  // mapped memory are then ordered by them.
  bool direct() const { return part_ != nullptr; }
  uint64_t granularity() const { return granularity_; }

  // The fast path of a direct() table for a holder that does not poll while it holds the
  // stripes (an update in place): one exchange per stripe, no handler hold (no handler can run
  // on this thread meanwhile). False, holding nothing, when a stripe is busy: then lock().
  bool try_lock_in_place(uint64_t offset, uint64_t bytes, StripeSet* held);
  // try_lock_in_place, and while a stripe is busy, the spin and yield phases of the wait policy
  // (core/backoff.hpp) watching the busy stripe with loads, before lock() registers as a waiter:
  // registration issues a membarrier (heavy_fence) and makes the holder's release call
  // wake_all, a few microseconds each, where osc/sm's holder of its one accumulate lock spins.
  // False, holding nothing, once the policy would sleep: then lock().
  bool lock_in_place(uint64_t offset, uint64_t bytes, StripeSet* held);
  void unlock_in_place(const StripeSet& held);

  // A range within one block (Window::accumulate_in_place: an accumulate-family operation of a
  // few elements) on a direct() table: the index of the one stripe holding
  // [offset, offset + bytes), or -1 when the range is
  // not within one block of granularity bytes or the geometry is not powers of two (then
  // try_lock_in_place or lock()). Shifts and a mask; no StripeSet.
  int64_t element_stripe(uint64_t offset, uint64_t bytes) const {
    if (!power_of_two_ || (offset >> shift_) != ((offset + bytes - 1) >> shift_)) return -1;
    return static_cast<int64_t>((offset >> shift_) & (geometry_.stripes - 1));
  }
  // Takes that stripe with one compare-and-swap (0 -> this process's tag; acquire: the holder's
  // plain accesses to the mapped memory follow it). False, holding nothing, when it is busy.
  // The other paths take the same word by exchange, so the holders exclude each other.
  bool try_lock_element(int64_t index) {
    uint64_t expected = 0;
    return direct_stripe(static_cast<uint64_t>(index))
        .compare_exchange_strong(expected, holder_tag_, std::memory_order_acquire,
                                 std::memory_order_relaxed);
  }
  // try_lock_element, and while the stripe is busy lock_in_place's wait (spin and yield, no
  // registration). False, holding nothing, once the policy would sleep: then the waiting path.
  bool lock_element(int64_t index) { return try_lock_element(index) || wait_for_element(index); }
  // Releases it as unlock_in_place does: a release store, and a call only if someone waits.
  void unlock_element(int64_t index) {
    release_then_wake(direct_stripe(static_cast<uint64_t>(index)));
  }
  void unlock(const StripeSet& held);

  // The in-place path (as try_lock_in_place) for `rows` ranges of `bytes` each, row r at
  // offset + r * stride (a patch's rows in the owner's block): takes each distinct stripe of
  // the rows once, all or nothing. False, holding nothing, when a stripe is busy, or when the
  // rows span as many blocks of granularity bytes as there are stripes or touch more than
  // StripeList::kCapacity stripes (then one range at a time).
  bool try_lock_rows_in_place(uint64_t offset, uint64_t bytes, uint64_t stride, size_t rows,
                              StripeList* held);
  void unlock_rows_in_place(const StripeList& held);

 private:
  std::atomic_ref<uint64_t> direct_stripe(uint64_t index) const {
    return std::atomic_ref<uint64_t>(
        *reinterpret_cast<uint64_t*>(part_ + stripes_begin_ + index * SyncGeometry::kStripeBytes));
  }
  SyncWord stripe(uint64_t index) const {
    if (part_ != nullptr)
      return SyncWord(reinterpret_cast<uint64_t*>(part_ + geometry_.stripe(index)));
    return SyncWord(transport_, sync_, owner_, geometry_.stripe(index));
  }
  // Stores 0 to a held direct stripe (release: the holder's accesses come before it), then
  // wakes the registered waiters if the registry's total is not 0. The store and the load are
  // separated by a light fence only: a waiter registers, issues the heavy fence, then
  // re-reads the stripe (WaiterSet::wait), so either it sees the stripe free or this load sees
  // it registered (core/asymmetric_fence.hpp) and no wake-up is lost, without a locked
  // instruction here (the one difference from osc/sm's accumulate lock at 8-512 B).
  // A registry reached through the transport: the old way (sequentially consistent store,
  // then wake_all, which reads the total).
  void release_then_wake(std::atomic_ref<uint64_t> stripe) {
    if (waiter_total_ == nullptr) [[unlikely]] {
      stripe.store(0, std::memory_order_seq_cst);
      waiters_.wake_all();
      return;
    }
    stripe.store(0, std::memory_order_release);
    wake_after_release();
  }
  // After the release stores: the light fence, then wake_all if the total is not 0.
  void wake_after_release() {
    light_fence();
    if (std::atomic_ref<uint64_t>(*waiter_total_).load(std::memory_order_relaxed) != 0)
      waiters_.wake_all();
  }
  template <class Set>
  void release_all_then_wake(const Set& held);
  // Takes every stripe or none; returns the index of a busy stripe, or -1 on success.
  int64_t try_lock_all(const StripeSet& stripes);
  // try_lock_in_place's attempt: -1 on success, else the index of a busy stripe.
  int64_t take_in_place(uint64_t offset, uint64_t bytes, StripeSet* held);
  // The wait of lock_in_place and lock_element: while stripe `busy` is nonzero, the policy's
  // spin and yields; once it reads 0, busy = retry() (-1: taken). False once the policy would
  // sleep.
  template <class Retry>
  bool wait_in_place(int64_t busy, Retry retry);
  bool wait_for_element(int64_t index);
  // The same with one exchange per stripe of word_of(index) (a SyncWord or a direct stripe); a
  // busy one releases those taken before it and wakes their waiters. Set: StripeSet or
  // StripeList.
  template <class Set, class WordOf>
  int64_t take_all(const Set& stripes, WordOf word_of);

  transport::Transport& transport_;
  const transport::Segment& sync_;
  SyncGeometry geometry_;
  uint64_t granularity_;
  int owner_;
  uint64_t holder_tag_;  // what a stripe this process holds contains
  // Granularity and stripe count are powers of two: a range within one block of granularity
  // bytes has stripe (offset >> shift_) & (stripes - 1) (try_lock_in_place's common case).
  bool power_of_two_;
  int shift_;
  size_t stripes_begin_ = geometry_.stripes_begin();
  unsigned char* part_;  // the owner's sync part, when its stripes are CPU atomics here
  WaiterSet waiters_;
  uint64_t* waiter_total_ = waiters_.total_here();  // on this mapping, or null
};

}  // namespace remora::rma
