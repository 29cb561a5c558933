#include "arrays/mutex_set.hpp"

#include "remora/status.h"

namespace remora::arrays {

int MutexSet::create(int count, int ranks, MutexSet** out) {
  auto* set = new MutexSet;
  set->count_ = count;
  set->ranks_ = ranks;
  set->held_.assign(static_cast<size_t>(count), 0);
  const int windows = (count + ranks - 1) / ranks;
  for (int w = 0; w < windows; ++w) {
    remora_win_t win = nullptr;
    if (int status = remora_win_allocate(0, 1, nullptr, nullptr, &win)) {
      set->destroy();
      delete set;
      return status;
    }
    set->windows_.push_back(win);
  }
  *out = set;
  return REMORA_SUCCESS;
}

int MutexSet::destroy() {
  int result = REMORA_SUCCESS;
  for (remora_win_t& win : windows_)
    if (int status = remora_win_free(&win); status != REMORA_SUCCESS && result == REMORA_SUCCESS)
      result = status;
  windows_.clear();
  return result;
}

int MutexSet::lock(int index) {
  if (int status = remora_win_lock(windows_[static_cast<size_t>(index / ranks_)],
                                   REMORA_LOCK_EXCLUSIVE, index % ranks_, 0))
    return status;
  held_[static_cast<size_t>(index)] = 1;
  return REMORA_SUCCESS;
}

int MutexSet::unlock(int index) {
  if (int status = remora_win_unlock(windows_[static_cast<size_t>(index / ranks_)], index % ranks_))
    return status;
  held_[static_cast<size_t>(index)] = 0;
  return REMORA_SUCCESS;
}

}  // namespace remora::arrays
