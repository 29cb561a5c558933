#include "coll/bypass_slots.hpp"

#include <cstddef>
#include <cstring>
#include <memory>

#include "coll/algorithms/algorithms.hpp"
#include "coll/algorithms/common.hpp"
#include "core/error.hpp"
#include "rma/reduce_op.hpp"

namespace remora::coll {
namespace {

struct alignas(64) Counters {
  std::atomic<uint64_t> arrivals;
  std::atomic<uint64_t> wake_at;  // 0: no root waits
  std::atomic<uint64_t> expected;
};

// The header shares the data's first line: a small contribution is one line for the root.
struct alignas(64) Slot {
  std::atomic<uint64_t> full;
  std::atomic<uint32_t> waiting;
  uint32_t root;
  uint64_t bytes;
  uint64_t reserved;
  uint8_t data[BypassSlots::kSlotBytes];
};
static_assert(offsetof(Slot, data) == 32);
static_assert(sizeof(Counters) + BypassSlots::kSlots * sizeof(Slot) <= ShmArea::kBypassBytes,
              "the bypass ring must fit in its part of the area");

Counters& counters(const ShmArea& area, int rank) {
  return *reinterpret_cast<Counters*>(area.bypass_ring(rank));
}

Slot& slot(const ShmArea& area, int rank, uint64_t sequence) {
  auto* slots = reinterpret_cast<Slot*>(area.bypass_ring(rank) + sizeof(Counters));
  return slots[sequence % BypassSlots::kSlots];
}

// Whether a member may write its slot: free, or holding a contribution to a call its root
// abandoned (nobody will fold it).
bool writable(const ShmArea& area, const Slot& s) {
  const uint64_t full = s.full.load(std::memory_order_seq_cst);
  return full == 0 || area.abandoned(static_cast<int>(s.root), full - 1);
}

}  // namespace

BypassSlots::Contribution::Contribution(transport::Transport& transport, const Communicator& comm,
                                        ShmArea& area, uint64_t sequence,
                                        const CollectiveArgs& args, bool nonblocking)
    : transport_(transport),
      area_(area),
      sequence_(sequence),
      root_(args.root),
      root_world_(comm.world_rank(args.root)),
      input_(input_of(args)),
      bytes_(args.count * args.extent),
      nonblocking_(nonblocking) {
  if (!nonblocking) return;
  keep_area_ = area.shared_from_this();
  const auto* input = static_cast<const uint8_t*>(input_);
  kept_.assign(input, input + bytes_);
  input_ = kept_.data();
}

bool BypassSlots::Contribution::deposit() {
  Slot& s = slot(area_, area_.rank(), sequence_);
  if (!writable(area_, s)) {
    // Asks the root that frees it for a wake-up, then looks again (one of the two sees the
    // other's store).
    s.waiting.store(1, std::memory_order_seq_cst);
    if (!writable(area_, s)) return false;
  }
  s.waiting.store(0, std::memory_order_relaxed);
  if (bytes_ > 0) std::memcpy(s.data, input_, bytes_);
  s.bytes = bytes_;
  s.root = static_cast<uint32_t>(root_);
  s.full.store(sequence_ + 1, std::memory_order_seq_cst);
  Counters& c = counters(area_, root_);
  const uint64_t arrived = c.arrivals.fetch_add(1, std::memory_order_seq_cst) + 1;
  const uint64_t wake_at = c.wake_at.load(std::memory_order_seq_cst);
  if (wake_at != 0 && arrived >= wake_at) transport_.wake(root_world_);
  return true;
}

bool BypassSlots::Contribution::drain(ShmArea::BypassBacklog& backlog) {
  while (!backlog.waiting.empty()) {
    // The backlog holds Contributions only.
    auto& oldest = static_cast<Contribution&>(*backlog.waiting.front());
    if (!oldest.deposit()) return false;
    oldest.deposited_ = true;
    backlog.waiting.pop_front();
    backlog.size.store(backlog.waiting.size(), std::memory_order_release);
  }
  return true;
}

int BypassSlots::Contribution::poll() {
  // Once in, the same again: another deposit would fill the slot with this call once more
  // after its root had freed it, and nobody would free it then.
  if (went_in_) return REMORA_SUCCESS;
  ShmArea::BypassBacklog& backlog = area_.bypass_backlog();
  // The common case: no earlier contribution of this member waits, the slot is free.
  if (!queued_ && backlog.size.load(std::memory_order_acquire) == 0 && deposit()) {
    went_in_ = true;
    return REMORA_SUCCESS;
  }
  std::unique_lock lock(backlog.mutex, std::try_to_lock);
  if (!lock.owns_lock()) return 1;        // another thread deposits the backlog now
  if (cancelled_) return REMORA_ERR_ARG;  // its collective failed (the status is not used)
  const bool drained = drain(backlog);
  if (queued_) return deposited_ ? REMORA_SUCCESS : 1;
  if (drained && deposit()) {
    went_in_ = true;
    return REMORA_SUCCESS;
  }
  if (!nonblocking_) return 1;  // its own wait polls it again
  queued_ = true;
  backlog.waiting.push_back(shared_from_this());
  backlog.size.store(backlog.waiting.size(), std::memory_order_release);
  lock.unlock();  // ShmAreas::advance takes its lock before this one
  area_.enlist(shared_from_this());
  return 1;
}

void BypassSlots::Contribution::cancel() {
  std::lock_guard lock(area_.bypass_backlog().mutex);
  cancelled_ = true;
  if (!queued_ || deposited_) return;
  // Taken out: the member's later contributions no longer wait for it.
  ShmArea::BypassBacklog& backlog = area_.bypass_backlog();
  std::erase_if(backlog.waiting, [this](const std::shared_ptr<Schedule::Polled>& entry) {
    return entry.get() == this;
  });
  backlog.size.store(backlog.waiting.size(), std::memory_order_release);
}

BypassSlots::Collection::Collection(transport::Transport& transport, const Communicator& comm,
                                    ShmArea& area, uint64_t sequence, const CollectiveArgs& args)
    : transport_(transport),
      comm_(comm),
      area_(area),
      sequence_(sequence),
      root_(args.root),
      size_(comm.size()),
      op_(args.op),
      type_(args.type),
      count_(args.count),
      bytes_(args.count * args.extent),
      result_(args.recv),
      input_(args.in_place ? nullptr : args.send) {
  // Only this member writes expected; calls are made here in sequence order.
  std::atomic<uint64_t>& expected = counters(area_, root_).expected;
  target_ = expected.load(std::memory_order_relaxed) + static_cast<uint64_t>(size_ - 1);
  expected.store(target_, std::memory_order_relaxed);
}

int BypassSlots::Collection::arrived(int relative) const {
  const int rank = absolute_rank(relative, root_, size_);
  // seq_cst (a plain load on x86): after the root's store of wake_at, the other half of the
  // Dekker pair with the contributor's store of full and load of wake_at.
  if (slot(area_, rank, sequence_).full.load(std::memory_order_seq_cst) == sequence_ + 1) return 1;
  return area_.abandoned(rank, sequence_) ? -1 : 0;
}

int BypassSlots::Collection::poll() {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return 1;
  if (finished_) return status_;
  if (!started_) {
    if (input_ != nullptr && bytes_ > 0) std::memcpy(result_, input_, bytes_);
    started_ = true;
  }
  for (int relative = 1; relative < size_; ++relative) {
    int in = arrived(relative);
    if (in == 0) {
      // From now on the contribution that completes the count wakes this rank: wake_at is
      // lowered to target_ (another call of this root may wait for a smaller count, or have
      // reset it), then the member is looked at again.
      std::atomic<uint64_t>& wake_at = counters(area_, root_).wake_at;
      uint64_t seen = wake_at.load(std::memory_order_seq_cst);
      while ((seen == 0 || seen > target_) &&
             !wake_at.compare_exchange_weak(seen, target_, std::memory_order_seq_cst))
        ;
      may_sleep_ = true;
      in = arrived(relative);
    }
    if (in > 0) continue;
    if (in == 0) return 1;
    abandoned_by_ = absolute_rank(relative, root_, size_);
    give_up();
    status_ =
        fail(REMORA_ERR_ARG, "rank %d of the communicator failed this collective", abandoned_by_);
    return status_;
  }
  stop_waking();
  // Every contribution is in: folded in the flat tree's order (the last rank first), which
  // fixes the floating-point result.
  int status = REMORA_SUCCESS;
  for (int relative = size_ - 1; relative >= 1; --relative) {
    const int rank = absolute_rank(relative, root_, size_);
    Slot& s = slot(area_, rank, sequence_);
    if (s.bytes != bytes_) {
      if (status == REMORA_SUCCESS)
        status = fail(REMORA_ERR_ARG,
                      "mismatched counts: an application-bypass reduce expected %zu bytes from "
                      "rank %d of the communicator but was given %zu",
                      bytes_, rank, static_cast<size_t>(s.bytes));
    } else if (bytes_ > 0) {
      rma::apply_op(op_, type_, result_, s.data, count_);
    }
    s.full.store(0, std::memory_order_seq_cst);
    if (s.waiting.load(std::memory_order_seq_cst) != 0) transport_.wake(comm_.world_rank(rank));
  }
  finished_ = true;
  status_ = status;
  return status;
}

void BypassSlots::Collection::stop_waking() {
  if (!may_sleep_) return;
  may_sleep_ = false;
  uint64_t mine = target_;
  counters(area_, root_).wake_at.compare_exchange_strong(mine, 0, std::memory_order_seq_cst);
}

void BypassSlots::Collection::cancel() {
  std::lock_guard lock(mutex_);
  give_up();
}

void BypassSlots::Collection::give_up() {
  if (finished_) return;
  finished_ = true;
  status_ = REMORA_ERR_ARG;
  stop_waking();
  // The members' contributions to this call stay in their slots: abandoned, they take them back.
  area_.abandon(sequence_);
}

}  // namespace remora::coll
