#include "coll/instance_table.hpp"

#include "coll/signature.hpp"

namespace remora::coll {

void InstanceTable::open(uint32_t context, std::vector<int> members, int my_rank) {
  std::lock_guard lock(mutex_);
  Context& entry = contexts_[context];  // may already hold failures announced early
  entry.open = true;
  entry.members = std::move(members);
  entry.my_rank = my_rank;
}

void InstanceTable::close(uint32_t context) {
  std::lock_guard lock(mutex_);
  contexts_.erase(context);
}

uint64_t InstanceTable::begin(uint32_t context, uint32_t signature, Failure* announced) {
  std::lock_guard lock(mutex_);
  ++begun_;
  Context& entry = contexts_[context];
  const uint64_t sequence = entry.next.fetch_add(1, std::memory_order_acq_rel);
  *announced = Failure{};
  if (entry.has_future.load(std::memory_order_relaxed)) {
    auto future = entry.future.find(sequence);
    if (future != entry.future.end()) {
      *announced = std::move(future->second);
      entry.future.erase(future);
      entry.has_future.store(!entry.future.empty(), std::memory_order_release);
    }
  }
  if (entry.spare.empty()) {
    entry.running[sequence].signature = signature;
  } else {
    entry.spare.key() = sequence;
    entry.spare.mapped().signature = signature;
    entry.running.insert(std::move(entry.spare));
  }
  return sequence;
}

uint64_t InstanceTable::begun() {
  std::lock_guard lock(mutex_);
  return begun_;
}

Failure InstanceTable::started(uint32_t context, uint64_t sequence,
                               const std::shared_ptr<Schedule>& schedule) {
  std::lock_guard lock(mutex_);
  Running& running = contexts_[context].running[sequence];
  running.schedule = schedule;
  running.started = true;
  return std::move(running.announced);
}

void InstanceTable::end(uint32_t context, uint64_t sequence) {
  std::lock_guard lock(mutex_);
  auto entry = contexts_.find(context);
  if (entry == contexts_.end()) return;
  auto running = entry->second.running.find(sequence);
  if (running == entry->second.running.end()) return;
  entry->second.record_ended(sequence, running->second.signature);
  if (!entry->second.spare.empty()) {
    entry->second.running.erase(running);
    return;
  }
  entry->second.spare = entry->second.running.extract(running);
  entry->second.spare.mapped() = Running{};  // lets go of the schedule and the message
}

InstanceTable::Found InstanceTable::find(uint32_t context, uint64_t sequence) {
  std::lock_guard lock(mutex_);
  Found found;
  found.signature = kUncheckedSignature;
  auto entry = contexts_.find(context);
  if (entry == contexts_.end() || !entry->second.open ||
      sequence >= entry->second.next.load(std::memory_order_acquire))
    return found;  // Future
  // Scheduled instances first: the slot may name a number that a schedule took meanwhile.
  auto running = entry->second.running.find(sequence);
  if (running != entry->second.running.end()) {
    found.state = State::Running;
    found.signature = running->second.signature;
    if (running->second.started) found.schedule = running->second.schedule.lock();
    return found;
  }
  if (const Context::Unscheduled* unscheduled = entry->second.unscheduled_entry(sequence)) {
    found.state = State::Running;
    found.signature = unscheduled->signature.load(std::memory_order_relaxed);
    return found;
  }
  found.state = State::Ended;
  found.signature = entry->second.ended_signature(sequence);
  return found;
}

uint32_t InstanceTable::Context::ended_signature(uint64_t sequence) const {
  const Ended& slot = ended[sequence % kRecent];
  if (slot.sequence.load(std::memory_order_acquire) != sequence + 1) return kUncheckedSignature;
  const uint32_t signature = slot.signature.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  // Overwritten meanwhile (a later instance with the same slot): no longer known.
  if (slot.sequence.load(std::memory_order_relaxed) != sequence + 1) return kUncheckedSignature;
  return signature;
}

std::shared_ptr<Schedule> InstanceTable::announce(uint32_t context, uint64_t sequence,
                                                  const Failure& failure) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<Schedule> started = record_announcement(context, sequence, failure);
  // Counted only once recorded: a waiter that sees the count move finds the failure, and one
  // that read the count before it moved will see it move.
  announcements_.fetch_add(1, std::memory_order_release);
  return started;
}

std::shared_ptr<Schedule> InstanceTable::record_announcement(uint32_t context, uint64_t sequence,
                                                             const Failure& failure) {
  Context& entry = contexts_[context];
  if (sequence >= entry.next.load(std::memory_order_acquire) || !entry.open) {
    entry.future.emplace(sequence, failure);  // the first announcement explains it
    entry.has_future.store(true, std::memory_order_seq_cst);
    return nullptr;
  }
  auto running = entry.running.find(sequence);
  if (running == entry.running.end()) {
    Context::Unscheduled* unscheduled = entry.unscheduled_entry(sequence);
    if (unscheduled != nullptr && unscheduled->announced_for != sequence) {
      unscheduled->announced = failure;
      unscheduled->announced_for = sequence;
    }
    return nullptr;  // unscheduled (its waiter asks announced()), or ended: nothing to fail
  }
  if (running->second.started) return running->second.schedule.lock();
  if (running->second.announced.code == 0) running->second.announced = failure;
  return nullptr;
}

InstanceTable::Context* InstanceTable::slot(uint32_t context) {
  std::lock_guard lock(mutex_);
  return &contexts_[context];
}

InstanceTable::Context::Unscheduled* InstanceTable::Context::unscheduled_entry(uint64_t sequence) {
  for (Unscheduled& entry : unscheduled)
    if (entry.sequence.load(std::memory_order_acquire) == sequence) return &entry;
  return nullptr;
}

void InstanceTable::Context::drop_stale_future(uint64_t sequence) {
  for (auto it = future.begin(); it != future.end() && it->first < sequence;)
    it = unscheduled_entry(it->first) != nullptr ? std::next(it) : future.erase(it);
  has_future.store(!future.empty(), std::memory_order_release);
}

int InstanceTable::claim(Context* slot) {
  for (int entry = 1; entry <= kRequestEntries; ++entry) {
    uint64_t free = kNone;
    if (slot->unscheduled[entry].sequence.compare_exchange_strong(free, kClaimed,
                                                                  std::memory_order_relaxed))
      return entry;
  }
  return -1;
}

uint64_t InstanceTable::begin_unscheduled(Context* slot, uint32_t signature, Failure* announced,
                                          int entry) {
  const uint64_t sequence = take_unscheduled(slot, signature, entry);
  if (future_announced(slot)) *announced = take_announced(slot, sequence);
  return sequence;
}

Failure InstanceTable::take_announced(Context* slot, uint64_t sequence) {
  Failure announced;
  std::lock_guard lock(mutex_);
  auto future = slot->future.find(sequence);
  if (future != slot->future.end()) {
    announced = std::move(future->second);
    slot->future.erase(future);
  }
  // Left by a call that ended before it could ask (every earlier instance has begun; a
  // nonblocking one still running may yet ask for its own).
  slot->drop_stale_future(sequence);
  return announced;
}

void InstanceTable::drop_future(Context* slot, uint64_t sequence) {
  // One announced while the number was taken and never asked for: it is of no use now.
  std::lock_guard lock(mutex_);
  slot->future.erase(sequence);
  slot->has_future.store(!slot->future.empty(), std::memory_order_release);
}

Failure InstanceTable::announced(uint32_t context, uint64_t sequence) {
  std::lock_guard lock(mutex_);
  auto entry = contexts_.find(context);
  if (entry == contexts_.end()) return {};
  Context& found = entry->second;
  if (const Context::Unscheduled* unscheduled = found.unscheduled_entry(sequence)) {
    if (unscheduled->announced_for == sequence) return unscheduled->announced;
    auto future = found.future.find(sequence);
    if (future != found.future.end()) return future->second;
    return {};
  }
  auto running = found.running.find(sequence);
  if (running == found.running.end()) return {};
  return running->second.announced;
}

std::vector<int> InstanceTable::members(uint32_t context, int* my_rank) {
  std::lock_guard lock(mutex_);
  auto entry = contexts_.find(context);
  if (entry == contexts_.end()) return {};
  *my_rank = entry->second.my_rank;
  return entry->second.members;
}

}  // namespace remora::coll
