#include "rma/pscw.hpp"

#include "core/error.hpp"
#include "progress/poll_pacing.hpp"
#include "remora/win.h"
#include "rma/window.hpp"

namespace remora::rma {

Pscw::Pscw(Window& window)
    : window_(window),
      posts_made_(static_cast<size_t>(window.transport_.size())),
      starts_made_(static_cast<size_t>(window.transport_.size())) {}

Pscw::~Pscw() = default;

int Pscw::post(const char* function, const std::vector<int>& group, int assert_flags) {
  constexpr int kPostAsserts = REMORA_MODE_NOCHECK | REMORA_MODE_NOSTORE | REMORA_MODE_NOPUT;
  if ((assert_flags & ~kPostAsserts) != 0)
    return fail(REMORA_ERR_ARG, "%s: assert_flags=%d has bits other than NOCHECK, NOSTORE, NOPUT",
                function, assert_flags);
  if (int status = window_.epoch_.begin_post(function)) return status;
  if (int status = window_.await_fence_entries_if_pending()) return status;
  window_.sync();  // this rank's stores to its memory precede the origins' accesses
  transport::Transport& transport = window_.transport_;
  const int me = transport.rank();
  for (int origin : group) {
    ++posts_made_[static_cast<size_t>(origin)];
    SyncWord(transport, *window_.sync_, origin, window_.sync_geometry().pscw_posts_from(me))
        .fetch_add(1);
    transport.wake(origin);
  }
  exposure_group_ = group;
  window_.epoch_.posted();
  return REMORA_SUCCESS;
}

// Whether this rank's part counts, for every rank r of group, at least made[r] events at the
// counter offset_of(r).
template <typename OffsetOf>
bool Pscw::counted(const std::vector<int>& group, OffsetOf offset_of,
                   const std::vector<uint64_t>& made) const {
  transport::Transport& transport = window_.transport_;
  for (int r : group)
    if (SyncWord(transport, *window_.sync_, transport.rank(), offset_of(r)).load() <
        made[static_cast<size_t>(r)])
      return false;
  return true;
}

bool Pscw::posts_arrived() const {
  const SyncGeometry geometry = window_.sync_geometry();
  return counted(
      access_group_, [&geometry](int target) { return geometry.pscw_posts_from(target); },
      starts_made_);
}

int Pscw::start(const char* function, const std::vector<int>& group, int assert_flags) {
  if ((assert_flags & ~REMORA_MODE_NOCHECK) != 0)
    return fail(REMORA_ERR_ARG, "%s: assert_flags=%d has bits other than REMORA_MODE_NOCHECK",
                function, assert_flags);
  if (int status = window_.epoch_.begin_start(function)) return status;
  if (int status = window_.await_fence_entries_if_pending()) return status;
  std::vector<bool> members(static_cast<size_t>(window_.transport_.size()), false);
  for (int target : group) {
    ++starts_made_[static_cast<size_t>(target)];
    members[static_cast<size_t>(target)] = true;
  }
  access_group_ = group;
  const bool nocheck = (assert_flags & REMORA_MODE_NOCHECK) != 0;
  deferring_ = !nocheck && window_.options_.pscw == SyncImpl::Deferred;
  if (!nocheck && !deferring_)
    if (int status = window_.transport_.wait_until([this] { return posts_arrived(); }))
      return status;
  window_.epoch_.started(std::move(members));
  return REMORA_SUCCESS;
}

// Performs the queue in issue order; the epoch checks were made when each was queued.
int Pscw::issue_deferred() {
  const int status = queue_.for_each([this](const QueuedOp& op) { return window_.execute(op); });
  queue_.clear();
  return status;
}

int Pscw::complete(const char* function) {
  if (int status = window_.epoch_.check_complete(function)) return status;
  int status = REMORA_SUCCESS;
  if (deferring_) {
    status = window_.transport_.wait_until([this] { return posts_arrived(); });
    if (status == REMORA_SUCCESS) status = issue_deferred();
    deferring_ = false;
  }
  if (int completed = window_.complete_all(); status == REMORA_SUCCESS) status = completed;
  // The targets are told even after a failed operation, so that their wait cannot hang.
  transport::Transport& transport = window_.transport_;
  const int me = transport.rank();
  for (int target : access_group_) {
    SyncWord(transport, *window_.sync_, target, window_.sync_geometry().pscw_completes_from(me))
        .fetch_add(1);
    transport.wake(target);
  }
  access_group_.clear();
  window_.epoch_.completed();
  return status;
}

bool Pscw::completes_arrived() const {
  const SyncGeometry geometry = window_.sync_geometry();
  return counted(
      exposure_group_, [&geometry](int origin) { return geometry.pscw_completes_from(origin); },
      posts_made_);
}

int Pscw::wait(const char* function) {
  if (int status = window_.epoch_.check_wait(function)) return status;
  if (int status = window_.transport_.wait_until([this] { return completes_arrived(); }))
    return status;
  int flag = 0;
  return test(function, &flag);
}

int Pscw::test(const char* function, int* flag) {
  if (int status = window_.epoch_.check_wait(function)) return status;
  progress::PacedTestCall call;
  const bool progressed = window_.transport_.poll();
  call.finish(window_.transport_, progressed || completes_arrived(),
              [this] { return completes_arrived(); });
  *flag = completes_arrived() ? 1 : 0;
  if (*flag == 0) return REMORA_SUCCESS;
  exposure_group_.clear();
  window_.epoch_.waited();
  window_.sync();  // the origins' updates are visible to this rank's loads
  return REMORA_SUCCESS;
}

}  // namespace remora::rma
