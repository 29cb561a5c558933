// The post-start-complete-wait part of the epoch state machine (see epoch.hpp). As with lock,
// start and post close a fence epoch that has seen no operation; fence, lock and lock_all are
// refused while the matching PSCW epoch is open.
#include "core/error.hpp"
#include "remora/win.h"
#include "rma/epoch.hpp"

namespace remora::rma {

int EpochState::check_start_member(const char* function, int target) const {
  if (start_members_[static_cast<size_t>(target)]) return REMORA_SUCCESS;
  return fail(REMORA_ERR_STATE,
              "%s: target=%d is not in the group of remora_win_start (the access epoch reaches "
              "only its members)",
              function, target);
}

int EpochState::check_no_access_epoch(const char* function) const {
  if (!blocked_.access_open) return REMORA_SUCCESS;
  return fail(
      REMORA_ERR_STATE,
      "%s: a remora_win_start access epoch is open; close it with remora_win_complete first",
      function);
}

int EpochState::check_pscw_closed(const char* function) const {
  if (int status = check_no_access_epoch(function)) return status;
  if (!exposure_open_) return REMORA_SUCCESS;
  return fail(REMORA_ERR_STATE,
              "%s: a remora_win_post exposure epoch is open; close it with remora_win_wait (or a "
              "successful remora_win_test) first",
              function);
}

int EpochState::begin_start(const char* function) {
  if (int status = check_fence_unused(function)) return status;
  if (blocked_.access_open)
    return fail(REMORA_ERR_STATE, "%s: remora_win_start was already called without complete",
                function);
  if (locks_held_ > 0 || blocked_.lock_all)
    return fail(REMORA_ERR_STATE, "%s: a passive-target epoch is open (%s); unlock first", function,
                blocked_.lock_all ? "remora_win_lock_all" : "remora_win_lock");
  fence_open_ = false;
  return REMORA_SUCCESS;
}

int EpochState::check_complete(const char* function) const {
  if (blocked_.access_open) return REMORA_SUCCESS;
  return fail(REMORA_ERR_STATE, "%s: no access epoch is open (remora_win_start was not called)",
              function);
}

int EpochState::begin_post(const char* function) {
  if (int status = check_fence_unused(function)) return status;
  if (exposure_open_)
    return fail(REMORA_ERR_STATE, "%s: remora_win_post was already called without remora_win_wait",
                function);
  fence_open_ = false;
  return REMORA_SUCCESS;
}

int EpochState::check_wait(const char* function) const {
  if (exposure_open_) return REMORA_SUCCESS;
  return fail(REMORA_ERR_STATE, "%s: no exposure epoch is open (remora_win_post was not called)",
              function);
}

}  // namespace remora::rma
