#include "rma/rw_lock.hpp"

namespace remora::rma {

bool RwLock::try_shared() {
  if ((word_.fetch_add(1) & kWriter) == 0) return true;
  word_.fetch_add(~uint64_t{0});
  waiters_.wake_all();  // our transient count may have made a writer's attempt fail
  return false;
}

int RwLock::lock_shared() {
  while (!try_shared()) {
    if (int status = waiters_.wait([this] { return (word_.load() & kWriter) == 0; })) return status;
  }
  return REMORA_SUCCESS;
}

int RwLock::lock_exclusive() {
  while (!word_.compare_swap(0, kWriter)) {
    if (int status = waiters_.wait([this] { return word_.load() == 0; })) return status;
  }
  return REMORA_SUCCESS;
}

void RwLock::unlock_shared() {
  word_.fetch_add(~uint64_t{0});
  waiters_.wake_all();
}

void RwLock::unlock_exclusive() {
  word_.fetch_add(uint64_t{0} - kWriter);  // keeps the transient counts of arriving readers
  waiters_.wake_all();
}

}  // namespace remora::rma
