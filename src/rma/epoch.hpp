// The origin side of a window's synchronisation: which access epochs are open, so that every
// operation and synchronisation call can be checked before it touches anything. Misuse (an
// operation outside an epoch, conflicting modes, unlock without lock, ...) is reported as
// REMORA_ERR_STATE with a message naming the function and the target.
//
// As in MPI, a fence that does not assert NOSUCCEED opens an epoch only if operations follow:
// until the first operation, the window may still be locked (which closes the fence epoch).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace remora::rma {

enum class LockMode : uint8_t { None, Shared, Exclusive };

class EpochState {
 public:
  explicit EpochState(int nranks) : locks_(static_cast<size_t>(nranks), LockMode::None) {}

  int check_access(const char* function, int target) const;
  void note_operation() {
    if (fence_open_) blocked_.fence_used = true;
  }

  // An operation now belongs to a fence epoch (else to a passive-target one).
  bool fence_open() const { return fence_open_; }

  int check_fence(const char* function, int assert_flags) const;
  void fenced(int assert_flags);

  // An immediate fence opened this epoch without a barrier (Window::fence): other ranks may not
  // have entered it yet, so this rank's first access to any window memory (an operation, a
  // lock, lock_all, start or post) waits for them (Window::await_fence_entries) first.
  void set_entries_pending(bool pending) { blocked_.entries_pending = pending; }
  bool entries_pending() const { return blocked_.entries_pending; }

  // Passive target. begin_* check and close an unused fence epoch.
  int begin_lock(const char* function, int target);
  // begin_lock's checks at once, for the lock fast path: true (and an unused fence epoch is
  // closed) when begin_lock would succeed, false when it would fail (begin_lock then says why)
  // or fence entries are pending (lock_slow awaits them).
  bool try_begin_lock(int target) {
    if (std::bit_cast<uint32_t>(blocked_) != 0 ||
        locks_[static_cast<size_t>(target)] != LockMode::None)
      return false;
    fence_open_ = false;
    return true;
  }
  void locked(int target, LockMode mode) {
    locks_[static_cast<size_t>(target)] = mode;
    ++locks_held_;
  }
  LockMode lock_mode(int target) const { return locks_[static_cast<size_t>(target)]; }
  int check_unlock(const char* function, int target) const;
  void unlocked(int target) {
    locks_[static_cast<size_t>(target)] = LockMode::None;
    --locks_held_;
  }
  int begin_lock_all(const char* function);
  void locked_all() { blocked_.lock_all = true; }
  int check_unlock_all(const char* function) const;
  void unlocked_all() { blocked_.lock_all = false; }
  bool passive(int target) const { return passive_to(target); }
  // flush*: target -1 means any passive epoch will do.
  int check_passive(const char* function, int target) const;

  int check_free(const char* function) const;

  // Post-start-complete-wait (epoch_pscw.cpp). start_members: by world rank, in the group.
  int begin_start(const char* function);
  void started(std::vector<bool> start_members) {
    start_members_ = std::move(start_members);
    blocked_.access_open = true;
  }
  int check_complete(const char* function) const;
  void completed() { blocked_.access_open = false; }
  int begin_post(const char* function);
  void posted() { exposure_open_ = true; }
  int check_wait(const char* function) const;
  void waited() { exposure_open_ = false; }

 private:
  bool passive_to(int target) const {
    return blocked_.lock_all || locks_[static_cast<size_t>(target)] != LockMode::None;
  }
  int check_fence_unused(const char* function) const;

  bool fence_open_ = false;  // a fence without NOSUCCEED was the last synchronisation
  // The states in which no lock may begin (or begin_lock must first await fence entries), in
  // one word: try_begin_lock tests them with one comparison.
  struct LockBlockers {
    bool fence_used = false;  // fence_open_, and operations were issued since
    bool entries_pending = false;
    bool lock_all = false;
    bool access_open = false;  // between remora_win_start and remora_win_complete
  };
  static_assert(sizeof(LockBlockers) == sizeof(uint32_t));
  LockBlockers blocked_;
  std::vector<LockMode> locks_;
  int locks_held_ = 0;
  bool exposure_open_ = false;  // between remora_win_post and remora_win_wait / test
  std::vector<bool> start_members_;
  int check_pscw_closed(const char* function) const;
  int check_no_access_epoch(const char* function) const;
  int check_start_member(const char* function, int target) const;
};

}  // namespace remora::rma
