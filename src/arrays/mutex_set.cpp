#include "arrays/mutex_set.hpp"

#include "remora/status.h"

namespace remora::arrays {

int MutexSet::create(const Context& context, int count, MutexSet** out) {
  constexpr const char* function = "remora_mutexes_create";
  auto* set = new MutexSet(context);
  set->count_ = count;
  set->ranks_ = context.transport.size();
  set->held_.assign(static_cast<size_t>(count), 0);
  rma::WindowOptions options;
  int status = rma::parse_window_options(function, context.config, nullptr, &options);
  const int windows = (count + set->ranks_ - 1) / set->ranks_;
  for (int w = 0; w < windows && status == REMORA_SUCCESS; ++w) {
    rma::Window* window = nullptr;
    status = context.windows.allocate(function, nullptr, 0, 1, options, &window);
    if (status == REMORA_SUCCESS) set->windows_.push_back(window);
  }
  if (status != REMORA_SUCCESS) {
    set->destroy();
    delete set;
    return status;
  }
  *out = set;
  return REMORA_SUCCESS;
}

int MutexSet::destroy() {
  int result = REMORA_SUCCESS;
  for (rma::Window* window : windows_)
    if (int status = context_.windows.free("remora_mutexes_destroy", window);
        status != REMORA_SUCCESS && result == REMORA_SUCCESS)
      result = status;
  windows_.clear();
  return result;
}

int MutexSet::lock(int index) {
  if (int status = windows_[static_cast<size_t>(index / ranks_)]->lock(
          "remora_mutex_lock", REMORA_LOCK_EXCLUSIVE, index % ranks_, 0))
    return status;
  held_[static_cast<size_t>(index)] = 1;
  return REMORA_SUCCESS;
}

int MutexSet::unlock(int index) {
  if (int status = windows_[static_cast<size_t>(index / ranks_)]->unlock("remora_mutex_unlock",
                                                                         index % ranks_))
    return status;
  held_[static_cast<size_t>(index)] = 0;
  return REMORA_SUCCESS;
}

}  // namespace remora::arrays
