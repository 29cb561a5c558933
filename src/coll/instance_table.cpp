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
  Context& entry = contexts_[context];
  const uint64_t sequence = entry.next++;
  auto future = entry.future.find(sequence);
  *announced = Failure{};
  if (future != entry.future.end()) {
    *announced = std::move(future->second);
    entry.future.erase(future);
  }
  entry.running[sequence].signature = signature;
  return sequence;
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
  entry->second.ended[sequence % kRecent] = {sequence + 1, running->second.signature};
  entry->second.running.erase(running);
}

InstanceTable::Found InstanceTable::find(uint32_t context, uint64_t sequence) {
  std::lock_guard lock(mutex_);
  Found found;
  found.signature = kUncheckedSignature;
  auto entry = contexts_.find(context);
  if (entry == contexts_.end() || !entry->second.open || sequence >= entry->second.next)
    return found;  // Future
  if (entry->second.unscheduled == sequence) {
    found.state = State::Running;
    found.signature = entry->second.unscheduled_signature;
    return found;
  }
  auto running = entry->second.running.find(sequence);
  if (running != entry->second.running.end()) {
    found.state = State::Running;
    found.signature = running->second.signature;
    if (running->second.started) found.schedule = running->second.schedule.lock();
    return found;
  }
  found.state = State::Ended;
  const auto& [stored, signature] = entry->second.ended[sequence % kRecent];
  if (stored == sequence + 1) found.signature = signature;
  return found;
}

std::shared_ptr<Schedule> InstanceTable::announce(uint32_t context, uint64_t sequence,
                                                  const Failure& failure) {
  std::lock_guard lock(mutex_);
  announcements_.fetch_add(1, std::memory_order_release);
  Context& entry = contexts_[context];
  if (sequence >= entry.next || !entry.open) {
    entry.future.emplace(sequence, failure);  // the first announcement explains it
    return nullptr;
  }
  if (entry.unscheduled == sequence) {
    if (entry.unscheduled_announced.code == 0) entry.unscheduled_announced = failure;
    return nullptr;
  }
  auto running = entry.running.find(sequence);
  if (running == entry.running.end()) return nullptr;  // ended here: nothing left to fail
  if (running->second.started) return running->second.schedule.lock();
  if (running->second.announced.code == 0) running->second.announced = failure;
  return nullptr;
}

uint64_t InstanceTable::begin_unscheduled(uint32_t context, uint32_t signature,
                                          Failure* announced) {
  std::lock_guard lock(mutex_);
  Context& entry = contexts_[context];
  const uint64_t sequence = entry.next++;
  *announced = Failure{};
  if (!entry.future.empty()) {
    auto future = entry.future.find(sequence);
    if (future != entry.future.end()) {
      *announced = std::move(future->second);
      entry.future.erase(future);
    }
  }
  entry.unscheduled = sequence;
  entry.unscheduled_signature = signature;
  entry.unscheduled_announced = Failure{};
  return sequence;
}

void InstanceTable::end_unscheduled(uint32_t context, uint64_t sequence) {
  std::lock_guard lock(mutex_);
  auto entry = contexts_.find(context);
  if (entry == contexts_.end() || entry->second.unscheduled != sequence) return;
  entry->second.ended[sequence % kRecent] = {sequence + 1, entry->second.unscheduled_signature};
  entry->second.unscheduled = kNone;
  entry->second.unscheduled_announced = Failure{};
}

Failure InstanceTable::announced(uint32_t context, uint64_t sequence) {
  std::lock_guard lock(mutex_);
  auto entry = contexts_.find(context);
  if (entry == contexts_.end()) return {};
  if (entry->second.unscheduled == sequence) return entry->second.unscheduled_announced;
  auto running = entry->second.running.find(sequence);
  if (running == entry->second.running.end()) return {};
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
