#include "rma/deferred_fence.hpp"

#include <atomic>

#include "rma/member_marks.hpp"
#include "rma/window.hpp"

#include "remora/win.h"

namespace remora::rma {

DeferredFence::DeferredFence(Window& window)
    : window_(window), counts_(static_cast<size_t>(window.transport_.size()), 0) {}

int DeferredFence::fence(int assert_flags) {
  // NOPRECEDE and NOSUCCEED are the same on every rank (MPI's rule, as for the immediate fence).
  const bool closes = opened_ && (assert_flags & REMORA_MODE_NOPRECEDE) == 0;
  opened_ = (assert_flags & REMORA_MODE_NOSUCCEED) == 0;
  // Opening needs no work: the operations wait for the closing fence, which first learns
  // that every rank has left this one. NOSTORE and NOPUT need nothing either: local stores
  // are ordered by the reduce-scatter, remote ones by the completion counters.
  return closes ? close_epoch() : REMORA_SUCCESS;
}

int DeferredFence::reduce_counts(uint64_t* incoming) {
  if (!window_.cpu_atomics_) return window_.reduce_scatter_(counts_.data(), incoming);
  transport::Transport& transport = window_.transport_;
  const transport::Segment& sync = *window_.sync_;
  const SyncGeometry geometry = window_.sync_geometry();
  const int me = transport.rank();
  const uint64_t closing = ++closed_;
  const int parity = static_cast<int>(closing & 1);
  // CPU atomics on the mapping (cpu_atomics_: every part is mapped here).
  auto address = [&](int rank, size_t offset) {
    auto* part = static_cast<unsigned char*>(transport.address(sync, rank));
    return reinterpret_cast<uint64_t*>(part + offset);
  };
  auto word = [&](int rank, size_t offset) {
    return std::atomic_ref<uint64_t>(*address(rank, offset));
  };
  for (int target : window_.members_)
    word(me, geometry.fence_counts(parity, target))
        .store(counts_[static_cast<size_t>(target)], std::memory_order_relaxed);
  // The mark's release orders the row (and this rank's stores before the fence) before it;
  // whoever acquires every member's mark reads their rows.
  const MemberMarks marks(transport, window_.members_,
                          [&](int rank) { return address(rank, geometry.fence_counts_written()); });
  if (int status = marks.arrive_and_await(me, closing)) return status;
  uint64_t sum = 0;
  for (int origin : window_.members_)
    sum += word(origin, geometry.fence_counts(parity, me)).load(std::memory_order_relaxed);
  *incoming = sum;
  return REMORA_SUCCESS;
}

int DeferredFence::close_epoch() {
  transport::Transport& transport = window_.transport_;
  const int me = transport.rank();
  queue_.count_targets(&counts_);
  uint64_t incoming = 0;
  int status = reduce_counts(&incoming);
  if (status != REMORA_SUCCESS) {
    queue_.clear();
    counts_.assign(counts_.size(), 0);
    return status;
  }
  expected_ += incoming;
  // Issue order, as the immediate fence would have performed them (accumulate ordering).
  status = queue_.for_each([this](const QueuedOp& op) { return window_.execute(op); });
  queue_.clear();
  // Owner-computes requests are acknowledged and every update is visible before the counters
  // say so.
  const int completed = window_.complete_all();
  if (status == REMORA_SUCCESS) status = completed;
  for (int target = 0; target < transport.size(); ++target) {
    uint64_t& count = counts_[static_cast<size_t>(target)];
    if (count == 0) continue;
    SyncWord(transport, *window_.sync_, target, SyncGeometry::kFenceDone).fetch_add(count);
    count = 0;
    if (target != me) transport.wake(target);
  }
  const SyncWord done(transport, *window_.sync_, me, SyncGeometry::kFenceDone);
  const uint64_t expected = expected_;
  const int waited = transport.wait_until([&done, expected] { return done.load() >= expected; });
  if (status == REMORA_SUCCESS) status = waited;
  window_.sync();  // the epoch's updates of this rank's memory are visible to its loads
  return status;
}

}  // namespace remora::rma
