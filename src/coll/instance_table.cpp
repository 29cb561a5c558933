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
  Context& entry = contexts_[context];
  if (sequence >= entry.next || !entry.open) {
    entry.future.emplace(sequence, failure);  // the first announcement explains it
    return nullptr;
  }
  auto running = entry.running.find(sequence);
  if (running == entry.running.end()) return nullptr;  // ended here: nothing left to fail
  if (running->second.started) return running->second.schedule.lock();
  if (running->second.announced.code == 0) running->second.announced = failure;
  return nullptr;
}

std::vector<int> InstanceTable::members(uint32_t context, int* my_rank) {
  std::lock_guard lock(mutex_);
  auto entry = contexts_.find(context);
  if (entry == contexts_.end()) return {};
  *my_rank = entry->second.my_rank;
  return entry->second.members;
}

}  // namespace remora::coll
