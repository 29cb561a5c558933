#include "rma/deferred_lock.hpp"

#include <cstring>

#include "rma/window.hpp"

namespace remora::rma {

DeferredLock::DeferredLock(Window& window)
    : window_(window),
      waiting_(&window.targets_.front().deferred_waiting, sizeof(Window::Target)),
      queues_(),
      slots_(static_cast<size_t>(window.transport_.size())) {
  queues_.reserve(static_cast<size_t>(window.transport_.size()));
  for (int target = 0; target < window.transport_.size(); ++target)
    queues_.emplace_back(OriginData::Referenced);
}

LockMode DeferredLock::mode(int target) const {
  const LockMode held = window_.epoch_.lock_mode(target);
  return held == LockMode::None ? LockMode::Shared : held;  // None in a passive epoch: lock_all
}

int DeferredLock::lock(int target) {
  if (target == window_.rank()) return window_.take_lock_word(target, mode(target));
  waiting_[static_cast<size_t>(target)] = kFresh;
  return REMORA_SUCCESS;
}

bool DeferredLock::take_now(int target, uint64_t offset, const void* origin, size_t bytes) {
  const auto t = static_cast<size_t>(target);
  unsigned char* part = window_.targets_[t].direct;
  if (part == nullptr) return false;
  if (window_.targets_[t].lock_checked) {
    RwLock& word = window_.rw_locks_[t];
    if (!word.direct()) return false;
    const bool taken =
        mode(target) == LockMode::Exclusive ? word.try_exclusive() : word.try_shared();
    if (!taken) return false;
  }
  waiting_[t] = kNotWaiting;
  window_.open_passive_direct(target);
  if (bytes > 0) std::memcpy(part + offset, origin, bytes);  // as do_put (target is not us)
  return true;
}

[[gnu::noinline]] bool DeferredLock::queue(int target, OpKind kind, uint64_t offset, void* buffer,
                                           size_t bytes) {
  const auto t = static_cast<size_t>(target);
  spill(t);
  waiting_[t] = kRecorded;
  if (kind == OpKind::Put)
    queues_[t].push_put(target, offset, buffer, bytes);
  else
    queues_[t].push_get(target, offset, buffer, bytes);
  return true;
}

void DeferredLock::spill(size_t t) {
  Slot& slot = slots_[t];
  if (!slot.used) return;
  slot.used = false;
  const int target = static_cast<int>(t);
  if (slot.kind == OpKind::Put)
    queues_[t].push_put(target, slot.offset, slot.buffer, slot.bytes);
  else
    queues_[t].push_get(target, slot.offset, slot.buffer, slot.bytes);
}

int DeferredLock::perform_slot(int target) {
  Slot& slot = slots_[static_cast<size_t>(target)];
  slot.used = false;
  return slot.kind == OpKind::Put ? window_.do_put(target, slot.offset, slot.buffer, slot.bytes)
                                  : window_.do_get(target, slot.offset, slot.buffer, slot.bytes);
}

[[gnu::noinline]] int DeferredLock::force(int target) {
  const auto t = static_cast<size_t>(target);
  if (!waiting_[t]) return REMORA_SUCCESS;
  spill(t);
  if (int status = window_.take_lock_word(target, mode(target))) return status;
  waiting_[t] = kNotWaiting;
  const int status =
      queues_[t].for_each_get_last([this](const QueuedOp& op) { return window_.execute(op); });
  queues_[t].clear();
  return status;
}

// The slot path is the hot one; the queue walk stays out of line (force) so that this
// function keeps a small frame.
int DeferredLock::unlock(int target) {
  const auto t = static_cast<size_t>(target);
  const LockMode held = mode(target);
  int status = REMORA_SUCCESS;
  if (waiting_[t]) {
    if (slots_[t].used) {
      // Lock-op-unlock (paper 001): one put or get in the slot, the queue is empty.
      waiting_[t] = kNotWaiting;
      if ((status = window_.take_lock_word(target, held))) {
        slots_[t].used = false;  // the epoch ends all the same
        return status;
      }
      status = perform_slot(target);
    } else if (queues_[t].empty()) {  // an empty epoch: the lock word is never touched
      waiting_[t] = kNotWaiting;
      return REMORA_SUCCESS;
    } else {
      status = force(target);
      if (waiting_[t]) {  // the lock word could not be taken; the epoch ends all the same
        waiting_[t] = kNotWaiting;
        queues_[t].clear();
        return status;
      }
    }
  }
  // Gets went last: on shared memory they completed on return; owner-computes requests and
  // the transport's remote completion are waited for here.
  const int completed = window_.complete_for_release(target);
  const int released = window_.release_lock_word(target, held);
  if (status != REMORA_SUCCESS) return status;
  return completed != REMORA_SUCCESS ? completed : released;
}

int DeferredLock::lock_all() {
  for (int target = 0; target < window_.transport_.size(); ++target)
    if (int status = lock(target)) {
      for (int locked = 0; locked < target; ++locked)
        waiting_[static_cast<size_t>(locked)] = kNotWaiting;
      return status;
    }
  return REMORA_SUCCESS;
}

// Every target, even after a failure: each epoch must end and release what it took.
int DeferredLock::unlock_all() {
  int first_failure = REMORA_SUCCESS;
  for (int target = 0; target < window_.transport_.size(); ++target)
    if (const int status = unlock(target); first_failure == REMORA_SUCCESS) first_failure = status;
  return first_failure;
}

}  // namespace remora::rma
