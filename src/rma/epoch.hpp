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

#include "rma/target_bytes.hpp"

namespace remora::rma {

enum class LockMode : uint8_t { None, Shared, Exclusive };

class EpochState {
 public:
  // The lock modes in storage of its own (one per rank).
  explicit EpochState(int nranks)
      : own_modes_(static_cast<size_t>(nranks), LockMode::None),
        locks_(own_modes_.data(), sizeof(LockMode)) {}
  // The lock modes in the caller's per-target records (Window::Target), each LockMode::None.
  explicit EpochState(TargetBytes<LockMode> modes) : locks_(modes) {}
  EpochState(const EpochState&) = delete;
  EpochState& operator=(const EpochState&) = delete;

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
  // slot: the target's mode (its record's, as locks_[target]; the caller has it at hand).
  bool try_begin_lock(const LockMode& slot) {
    if (std::bit_cast<uint32_t>(blocked_) != 0 || slot != LockMode::None) return false;
    if (fence_open_) fence_open_ = false;  // no store in the common case
    return true;
  }
  void locked(int target, LockMode mode) { locked_at(locks_[static_cast<size_t>(target)], mode); }
  void locked_at(LockMode& slot, LockMode mode) {
    slot = mode;
    ++locks_held_;
  }
  LockMode lock_mode(int target) const { return locks_[static_cast<size_t>(target)]; }
  int check_unlock(const char* function, int target) const;
  void unlocked(int target) { unlocked_at(locks_[static_cast<size_t>(target)]); }
  void unlocked_at(LockMode& slot) {
    slot = LockMode::None;
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
  std::vector<LockMode> own_modes_;  // the storage of EpochState(nranks), else empty
  TargetBytes<LockMode> locks_;      // per world rank: this rank's lock on it
  int locks_held_ = 0;
  bool exposure_open_ = false;  // between remora_win_post and remora_win_wait / test
  std::vector<bool> start_members_;
  int check_pscw_closed(const char* function) const;
  int check_no_access_epoch(const char* function) const;
  int check_start_member(const char* function, int target) const;
};

}  // namespace remora::rma
