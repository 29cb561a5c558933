#include "rma/pscw.hpp"

#include <cstring>

#include "core/error.hpp"
#include "remora/win.h"
#include "rma/reduce_op.hpp"
#include "rma/window.hpp"

namespace remora::rma {

// One queued operation of a deferred access epoch. Origin data (and compare, alpha) are copied
// at issue, so the caller may reuse its buffers at once, as with an immediate operation.
struct Pscw::Deferred {
  enum class Kind { Put, Get, Accumulate } kind;
  AccArgs args;  // target, offset, result, count, type, op; origin bytes for put/get in count
  std::vector<unsigned char> origin, compare, alpha;
};

Pscw::Pscw(Window& window)
    : window_(window),
      posts_made_(static_cast<size_t>(window.transport_.size())),
      starts_made_(static_cast<size_t>(window.transport_.size())) {}

Pscw::~Pscw() = default;

namespace {

std::vector<unsigned char> copy_bytes(const void* data, size_t bytes) {
  if (data == nullptr) return {};
  const auto* begin = static_cast<const unsigned char*>(data);
  return std::vector<unsigned char>(begin, begin + bytes);
}

}  // namespace

int Pscw::post(const char* function, const std::vector<int>& group, int assert_flags) {
  constexpr int kPostAsserts = REMORA_MODE_NOCHECK | REMORA_MODE_NOSTORE | REMORA_MODE_NOPUT;
  if ((assert_flags & ~kPostAsserts) != 0)
    return fail(REMORA_ERR_ARG, "%s: assert_flags=%d has bits other than NOCHECK, NOSTORE, NOPUT",
                function, assert_flags);
  if (int status = window_.epoch_.begin_post(function)) return status;
  window_.sync();  // this rank's stores to its memory precede the origins' accesses
  transport::Transport& transport = window_.transport_;
  const int me = transport.rank();
  for (int origin : group) {
    ++posts_made_[static_cast<size_t>(origin)];
    SyncWord(transport, *window_.sync_, origin, window_.layout().pscw_posts_from(me)).fetch_add(1);
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
  const SyncLayout layout = window_.layout();
  return counted(
      access_group_, [&layout](int target) { return layout.pscw_posts_from(target); },
      starts_made_);
}

int Pscw::start(const char* function, const std::vector<int>& group, int assert_flags) {
  if ((assert_flags & ~REMORA_MODE_NOCHECK) != 0)
    return fail(REMORA_ERR_ARG, "%s: assert_flags=%d has bits other than REMORA_MODE_NOCHECK",
                function, assert_flags);
  if (int status = window_.epoch_.begin_start(function)) return status;
  std::vector<bool> members(static_cast<size_t>(window_.transport_.size()), false);
  for (int target : group) {
    ++starts_made_[static_cast<size_t>(target)];
    members[static_cast<size_t>(target)] = true;
  }
  access_group_ = group;
  const bool nocheck = (assert_flags & REMORA_MODE_NOCHECK) != 0;
  deferring_ = !nocheck && window_.options_.pscw == PscwMode::Deferred;
  if (!nocheck && !deferring_)
    if (int status = window_.transport_.wait_until([this] { return posts_arrived(); }))
      return status;
  window_.epoch_.started(std::move(members));
  return REMORA_SUCCESS;
}

int Pscw::defer_put(int target, uint64_t offset, const void* origin, size_t bytes) {
  Deferred op{Deferred::Kind::Put, {}, copy_bytes(origin, bytes), {}, {}};
  op.args.target = target;
  op.args.offset = offset;
  op.args.count = bytes;
  queue_.push_back(std::move(op));
  return REMORA_SUCCESS;
}

int Pscw::defer_get(int target, uint64_t offset, void* result, size_t bytes) {
  Deferred op{Deferred::Kind::Get, {}, {}, {}, {}};
  op.args.target = target;
  op.args.offset = offset;
  op.args.result = result;
  op.args.count = bytes;
  queue_.push_back(std::move(op));
  return REMORA_SUCCESS;
}

int Pscw::defer_accumulate(const AccArgs& args) {
  const size_t element = datatype_size(args.type);
  queue_.push_back(Deferred{Deferred::Kind::Accumulate, args,
                            copy_bytes(args.origin, args.count * element),
                            copy_bytes(args.compare, element), copy_bytes(args.alpha, element)});
  return REMORA_SUCCESS;
}

// Issues the queue in order through the window's ordinary paths (the epoch is still open).
int Pscw::issue_deferred(const char* function) {
  draining_ = true;
  int first = REMORA_SUCCESS;
  for (Deferred& op : queue_) {
    AccArgs& args = op.args;
    int status = REMORA_SUCCESS;
    if (op.kind == Deferred::Kind::Put) {
      status = window_.put(function, args.target, args.offset, op.origin.data(), args.count);
    } else if (op.kind == Deferred::Kind::Get) {
      status = window_.get(function, args.target, args.offset, args.result, args.count);
    } else {
      args.origin = op.origin.empty() ? nullptr : op.origin.data();
      args.compare = op.compare.empty() ? nullptr : op.compare.data();
      args.alpha = op.alpha.empty() ? nullptr : op.alpha.data();
      status = window_.accumulate(function, args);
    }
    if (first == REMORA_SUCCESS) first = status;
  }
  queue_.clear();
  draining_ = false;
  return first;
}

int Pscw::complete(const char* function) {
  if (int status = window_.epoch_.check_complete(function)) return status;
  int status = REMORA_SUCCESS;
  if (deferring_) {
    status = window_.transport_.wait_until([this] { return posts_arrived(); });
    if (status == REMORA_SUCCESS) status = issue_deferred(function);
    deferring_ = false;
  }
  if (int completed = window_.complete_all(); status == REMORA_SUCCESS) status = completed;
  // The targets are told even after a failed operation, so that their wait cannot hang.
  transport::Transport& transport = window_.transport_;
  const int me = transport.rank();
  for (int target : access_group_) {
    SyncWord(transport, *window_.sync_, target, window_.layout().pscw_completes_from(me))
        .fetch_add(1);
    transport.wake(target);
  }
  access_group_.clear();
  window_.epoch_.completed();
  return status;
}

bool Pscw::completes_arrived() const {
  const SyncLayout layout = window_.layout();
  return counted(
      exposure_group_, [&layout](int origin) { return layout.pscw_completes_from(origin); },
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
  window_.transport_.poll();
  *flag = completes_arrived() ? 1 : 0;
  if (*flag == 0) return REMORA_SUCCESS;
  exposure_group_.clear();
  window_.epoch_.waited();
  window_.sync();  // the origins' updates are visible to this rank's loads
  return REMORA_SUCCESS;
}

}  // namespace remora::rma
