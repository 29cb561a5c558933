#include "rma/locks/lock_table.hpp"

#include <algorithm>
#include <bit>

#include "core/backoff.hpp"
#include "transport/am_dispatcher.hpp"

namespace remora::rma {

void StripeSet::add_run(uint64_t begin, uint64_t length) {
  if (first_length_ == 0) {
    first_begin_ = begin;
    first_length_ = length;
  } else {
    second_begin_ = begin;
    second_length_ = length;
  }
}

std::vector<uint64_t> StripeSet::indices() const {
  std::vector<uint64_t> result;
  for (size_t i = 0; i < size(); ++i) result.push_back((*this)[i]);
  return result;
}

StripeSet stripes_for_range(uint64_t offset, uint64_t bytes, uint64_t granularity,
                            uint64_t stripes) {
  StripeSet result;
  if (bytes == 0) return result;
  // The defaults are powers of two: shifts and masks instead of four 64-bit divisions, which
  // cost more than the rest of a small accumulate.
  // (x & (x - 1)) == 0 rather than std::has_single_bit: without -mpopcnt that is a library call.
  const bool powers_of_two =
      (granularity & (granularity - 1)) == 0 && (stripes & (stripes - 1)) == 0;
  const int shift = std::countr_zero(granularity);
  const uint64_t first = powers_of_two ? offset >> shift : offset / granularity;
  const uint64_t last =
      powers_of_two ? (offset + bytes - 1) >> shift : (offset + bytes - 1) / granularity;
  if (last - first + 1 >= stripes) {
    result.add_run(0, stripes);
    return result;
  }
  const uint64_t begin = powers_of_two ? first & (stripes - 1) : first % stripes;
  const uint64_t end = powers_of_two ? last & (stripes - 1) : last % stripes;
  if (begin <= end) {
    result.add_run(begin, end - begin + 1);
  } else {  // wraps around: the table's beginning first, for a fixed order
    result.add_run(0, end + 1);
    result.add_run(begin, stripes - begin);
  }
  return result;
}

// A stripe is a test-and-set lock taken by exchange (swap), not compare-and-swap: a swap that
// finds the stripe taken only replaces one nonzero value by another, so exclusion is the same,
// and under the MPI transport a swap is an MPI_Rget_accumulate request, waited for with
// Remora's waiting policy, while MPI_Compare_and_swap needs MPI_Win_flush_local, which
// busy-polls inside MPI (under the transport's MPI mutex) until the target enters MPI.
//
// Handlers are held from before the first stripe is taken until the last is released (here on
// failure, in unlock() on success): over MPI each stripe operation waits for MPI and polls, and
// a handler run there (an owner-computes request for this table) could wait for a stripe this
// very thread holds. The waits for busy stripes in lock() hold none, so they serve handlers.
int64_t LockTable::try_lock_all(const StripeSet& stripes) {
  transport::AmDispatcher::hold_handlers();
  const int64_t busy = take_all(stripes, [this](uint64_t index) { return stripe(index); });
  if (busy >= 0) transport::AmDispatcher::release_handlers();
  return busy;
}

namespace {

// Pause instructions between reading a busy stripe free and retrying it (wait_in_place; 0, 32,
// 128 and 512 measured on this project's 2-CPU AMD EPYC VM, docs/rma.md "The lock table").
constexpr int kHandoffPauses = 128;

// A stripe that is a CPU atomic on this process's mapping: taken with acquire (the holder's
// plain accesses to the mapped memory follow it), dropped sequentially consistent (take_all's
// undo, before its wake_all).
struct DirectStripe {
  std::atomic_ref<uint64_t> word;
  uint64_t exchange(uint64_t value) const {
    return word.exchange(value, std::memory_order_acquire);
  }
  void store(uint64_t value) const { word.store(value); }
};

}  // namespace

template <class Set, class WordOf>
int64_t LockTable::take_all(const Set& stripes, WordOf word_of) {
  const auto tag = holder_tag_;
  for (size_t i = 0; i < stripes.size(); ++i) {
    if (word_of(stripes[i]).exchange(tag) == 0) continue;
    for (size_t j = 0; j < i; ++j) word_of(stripes[j]).store(0);
    if (i > 0) waiters_.wake_all();
    return static_cast<int64_t>(stripes[i]);
  }
  return -1;
}

int LockTable::lock(uint64_t offset, uint64_t bytes, StripeSet* held) {
  *held = stripes_for_range(offset, bytes, granularity_, geometry_.stripes);
  for (int64_t busy = try_lock_all(*held); busy >= 0; busy = try_lock_all(*held)) {
    const SyncWord word = stripe(static_cast<uint64_t>(busy));
    if (int status = waiters_.wait([&word] { return word.load() == 0; })) return status;
  }
  return REMORA_SUCCESS;
}

void LockTable::unlock(const StripeSet& held) {
  for (size_t i = 0; i < held.size(); ++i) stripe(held[i]).store(0);
  transport::AmDispatcher::release_handlers();
  waiters_.wake_all();
}

int64_t LockTable::take_in_place(uint64_t offset, uint64_t bytes, StripeSet* held) {
  if (power_of_two_ && (offset >> shift_) == ((offset + bytes - 1) >> shift_)) {
    const uint64_t index = (offset >> shift_) & (geometry_.stripes - 1);
    *held = StripeSet::single(index);
    return direct_stripe(index).exchange(holder_tag_, std::memory_order_acquire) == 0
               ? -1
               : static_cast<int64_t>(index);
  }
  *held = stripes_for_range(offset, bytes, granularity_, geometry_.stripes);
  return take_all(*held, [this](uint64_t index) { return DirectStripe{direct_stripe(index)}; });
}

bool LockTable::try_lock_in_place(uint64_t offset, uint64_t bytes, StripeSet* held) {
  return take_in_place(offset, bytes, held) < 0;
}

// The busy stripe is watched with relaxed loads, not retried by exchange: its cache line then
// stays shared until the holder's release store, and the other stripes of the range are not
// touched meanwhile (a range of many stripes would otherwise take and drop its first ones at
// every retry, taking their lines from the holder). The holder never waits while it holds
// them (an update in place), so the wait is short unless the holder is descheduled, which the
// policy's yields and then the waiting path's sleep cover. Nothing is polled meanwhile, which
// is safe: a holder in place does not need this rank, and the wait is bounded.
// Read free, the stripe is left alone for kHandoffPauses before the retry where the holder has
// a CPU of its own (not oversubscribed): a holder that accumulates again retakes it meanwhile,
// and its updates run on with the data's cache lines in its cache rather than handing stripe
// and data to this CPU after every update (2 ranks summing onto the same bytes of rank 0:
// 2-3x the MB/s at 8 B-8 KiB; docs/rma.md "The lock table", where the count was measured).
template <class Retry>
bool LockTable::wait_in_place(int64_t busy, Retry retry) {
  const WaitPolicy& policy = transport_.wait_policy();
  const int handoff_pauses = policy.oversubscribed ? 0 : kHandoffPauses;
  Backoff backoff(policy);
  while (!backoff.sleeping_phase()) {
    if (direct_stripe(static_cast<uint64_t>(busy)).load(std::memory_order_relaxed) != 0) {
      backoff.pause([](uint64_t) {});  // never called: the loop ends before the sleep phase
      continue;
    }
    for (int i = 0; i < handoff_pauses; ++i) cpu_relax();
    busy = retry();
    if (busy < 0) return true;
  }
  return false;
}

bool LockTable::lock_in_place(uint64_t offset, uint64_t bytes, StripeSet* held) {
  const int64_t busy = take_in_place(offset, bytes, held);
  return busy < 0 || wait_in_place(busy, [this, offset, bytes, held] {
           return take_in_place(offset, bytes, held);
         });
}

bool LockTable::wait_for_element(int64_t index) {
  return wait_in_place(index, [this, index] { return try_lock_element(index) ? -1 : index; });
}

// As release_then_wake, for several stripes: release stores, then one light fence before the
// load of the waiter total (no locked instruction; with full fences, one sequentially
// consistent fence for all rather than one per stripe: 6,100 against 3,300 TSC ticks per
// release of 256 stripes, measured alone on this machine).
template <class Set>
void LockTable::release_all_then_wake(const Set& held) {
  if (held.size() == 1) return release_then_wake(direct_stripe(held[0]));
  if (waiter_total_ == nullptr) [[unlikely]] {
    for (size_t i = 0; i < held.size(); ++i) direct_stripe(held[i]).store(0);
    waiters_.wake_all();
    return;
  }
  for (size_t i = 0; i < held.size(); ++i)
    direct_stripe(held[i]).store(0, std::memory_order_release);
  wake_after_release();
}

void LockTable::unlock_in_place(const StripeSet& held) {
  release_all_then_wake(held);
}

bool LockTable::try_lock_rows_in_place(uint64_t offset, uint64_t bytes, uint64_t stride,
                                       size_t rows, StripeList* held) {
  if (rows == 0 || bytes == 0) return true;
  const auto block = [this](uint64_t at) {
    return power_of_two_ ? at >> shift_ : at / granularity_;
  };
  const uint64_t last_byte = offset + (rows - 1) * stride + bytes - 1;
  if (power_of_two_ && (offset >> shift_) == (last_byte >> shift_)) {  // one block: one stripe
    const uint64_t index = (offset >> shift_) & (geometry_.stripes - 1);
    held->add(index);
    return direct_stripe(index).exchange(holder_tag_, std::memory_order_acquire) == 0;
  }
  // Fewer blocks than stripes: the rows' blocks map to distinct stripes.
  if (block(last_byte) - block(offset) + 1 >= geometry_.stripes) return false;
  uint64_t next = block(offset);  // the first block not listed yet (blocks ascend with rows)
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t begin = offset + r * stride;
    const uint64_t last = block(begin + bytes - 1);
    for (uint64_t b = std::max(next, block(begin)); b <= last; ++b)
      if (!held->add(power_of_two_ ? b & (geometry_.stripes - 1) : b % geometry_.stripes))
        return false;
    next = std::max(next, last + 1);
  }
  return take_all(*held, [this](uint64_t index) { return DirectStripe{direct_stripe(index)}; }) < 0;
}

void LockTable::unlock_rows_in_place(const StripeList& held) {
  release_all_then_wake(held);
}

}  // namespace remora::rma
