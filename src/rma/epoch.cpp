#include "rma/epoch.hpp"

#include "core/error.hpp"
#include "remora/win.h"

namespace remora::rma {

int EpochState::check_access(const char* function, int target) const {
  if (fence_open_ || passive_to(target)) return REMORA_SUCCESS;
  if (blocked_.access_open) return check_start_member(function, target);
  return fail(REMORA_ERR_STATE,
              "%s: no access epoch to target=%d is open (call remora_win_fence, "
              "remora_win_lock or remora_win_lock_all first)",
              function, target);
}

int EpochState::check_fence(const char* function, int assert_flags) const {
  constexpr int kFenceAsserts =
      REMORA_MODE_NOSTORE | REMORA_MODE_NOPUT | REMORA_MODE_NOPRECEDE | REMORA_MODE_NOSUCCEED;
  if ((assert_flags & ~kFenceAsserts) != 0)
    return fail(REMORA_ERR_ARG,
                "%s: assert_flags=%d has bits other than NOSTORE, NOPUT, NOPRECEDE, NOSUCCEED",
                function, assert_flags);
  if (locks_held_ > 0 || blocked_.lock_all)
    return fail(REMORA_ERR_STATE, "%s: a passive-target epoch is open (%s); unlock before fencing",
                function, blocked_.lock_all ? "remora_win_lock_all" : "remora_win_lock");
  if (int status = check_pscw_closed(function)) return status;
  if ((assert_flags & REMORA_MODE_NOPRECEDE) && blocked_.fence_used)
    return fail(REMORA_ERR_STATE,
                "%s: assert_flags=%d asserts NOPRECEDE but operations were issued since the last "
                "fence",
                function, assert_flags);
  return REMORA_SUCCESS;
}

void EpochState::fenced(int assert_flags) {
  fence_open_ = (assert_flags & REMORA_MODE_NOSUCCEED) == 0;
  blocked_.fence_used = false;
}

int EpochState::check_fence_unused(const char* function) const {
  if (blocked_.fence_used)
    return fail(REMORA_ERR_STATE,
                "%s: a fence epoch with operations is open; close it with "
                "remora_win_fence(REMORA_MODE_NOSUCCEED) first",
                function);
  return REMORA_SUCCESS;
}

int EpochState::begin_lock(const char* function, int target) {
  if (int status = check_fence_unused(function)) return status;
  if (int status = check_no_access_epoch(function)) return status;
  if (blocked_.lock_all)
    return fail(REMORA_ERR_STATE, "%s: target=%d is already locked by remora_win_lock_all",
                function, target);
  if (locks_[static_cast<size_t>(target)] != LockMode::None)
    return fail(REMORA_ERR_STATE, "%s: target=%d is already locked by this rank", function, target);
  fence_open_ = false;
  return REMORA_SUCCESS;
}

int EpochState::check_unlock(const char* function, int target) const {
  if (locks_[static_cast<size_t>(target)] == LockMode::None)
    return fail(
        REMORA_ERR_STATE, "%s: target=%d is not locked by this rank%s", function, target,
        blocked_.lock_all ? " (it is part of remora_win_lock_all: use remora_win_unlock_all)" : "");
  return REMORA_SUCCESS;
}

int EpochState::begin_lock_all(const char* function) {
  if (int status = check_fence_unused(function)) return status;
  if (int status = check_no_access_epoch(function)) return status;
  if (blocked_.lock_all)
    return fail(REMORA_ERR_STATE, "%s: remora_win_lock_all is already open", function);
  if (locks_held_ > 0)
    return fail(REMORA_ERR_STATE, "%s: this rank holds %d lock(s) from remora_win_lock", function,
                locks_held_);
  fence_open_ = false;
  return REMORA_SUCCESS;
}

int EpochState::check_unlock_all(const char* function) const {
  if (!blocked_.lock_all)
    return fail(REMORA_ERR_STATE, "%s: remora_win_lock_all was not called", function);
  return REMORA_SUCCESS;
}

int EpochState::check_passive(const char* function, int target) const {
  const bool open = target >= 0 ? passive_to(target) : (blocked_.lock_all || locks_held_ > 0);
  if (open) return REMORA_SUCCESS;
  if (target >= 0)
    return fail(REMORA_ERR_STATE, "%s: target=%d is not locked (flush needs a passive epoch)",
                function, target);
  return fail(REMORA_ERR_STATE, "%s: no passive-target epoch is open", function);
}

int EpochState::check_free(const char* function) const {
  if (locks_held_ > 0 || blocked_.lock_all)
    return fail(REMORA_ERR_STATE, "%s: the window is still locked by this rank (%s)", function,
                blocked_.lock_all ? "remora_win_lock_all" : "remora_win_lock");
  if (blocked_.fence_used)
    return fail(REMORA_ERR_STATE,
                "%s: operations issued since the last fence are pending; call remora_win_fence "
                "first",
                function);
  return check_pscw_closed(function);
}

}  // namespace remora::rma
