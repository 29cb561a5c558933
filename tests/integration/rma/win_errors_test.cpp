// Every misuse of windows returns the right error with a message, on every rank at once (so
// that the collective calls stay matched), and leaves the window usable.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "multirank.hpp"
#include "sub_comm.hpp"

namespace {

int rank_, size_;

void allocation_errors() {
  remora_win_t win = nullptr;
  REQUIRE_ERROR(remora_win_allocate(8, 1, nullptr, nullptr, nullptr), REMORA_ERR_ARG,
                "win is NULL");
  REQUIRE_ERROR(remora_win_allocate(8, 0, nullptr, nullptr, &win), REMORA_ERR_ARG, "disp_unit=0");
  REQUIRE_ERROR(remora_win_allocate(SIZE_MAX, 1, nullptr, nullptr, &win), REMORA_ERR_ARG, "bytes=");
  REQUIRE_ERROR(remora_win_allocate(8, 1, "colour=blue,strict=1", nullptr, &win), REMORA_ERR_ARG,
                "info key 'colour'");
  // Without strict=1 an unknown key is ignored (with a warning), as MPI ignores it.
  REQUIRE_OK(remora_win_allocate(8, 1, "colour=blue", nullptr, &win));
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_ERROR(remora_win_allocate(8, 1, "acc_strategy=magic", nullptr, &win), REMORA_ERR_ARG,
                "acc_strategy='magic'");
  REQUIRE_ERROR(remora_win_allocate(8, 1, "acc_lock_stripes=0", nullptr, &win), REMORA_ERR_ARG,
                "acc_lock_stripes='0'");
  REQUIRE_ERROR(remora_win_allocate(8, 1, "acc_strategy", nullptr, &win), REMORA_ERR_ARG,
                "key=value");
  if (size_ > 1) {  // collective: every rank learns that the info differs
    char info[64];
    std::snprintf(info, sizeof info, "acc_lock_stripes=%d", rank_ == size_ - 1 ? 2 : 1);
    REQUIRE_ERROR(remora_win_allocate(8, 1, info, nullptr, &win), REMORA_ERR_ARG,
                  "info differs between ranks");
  }
  if (size_ > 1) {  // bad arguments on one rank only: every rank fails, nobody waits forever
    const int bad = size_ - 1;
    const bool mine = rank_ == bad;
    REQUIRE_ERROR(remora_win_allocate(8, mine ? 0 : 8, nullptr, nullptr, &win), REMORA_ERR_ARG,
                  mine ? "disp_unit=0" : "passed invalid arguments");
    REQUIRE_ERROR(remora_win_allocate(8, 1, mine ? "acc_strategy=magic" : nullptr, nullptr, &win),
                  REMORA_ERR_ARG, mine ? "acc_strategy='magic'" : "passed invalid arguments");
    REQUIRE_ERROR(remora_win_allocate(8, 1, nullptr, nullptr, mine ? nullptr : &win),
                  REMORA_ERR_ARG, mine ? "win is NULL" : "passed invalid arguments");
    remora_comm_t world;
    REQUIRE_OK(remora_comm_world(&world));
    REQUIRE_ERROR(remora_win_allocate_comm(world, mine ? SIZE_MAX : 8, 1, nullptr, nullptr, &win),
                  REMORA_ERR_ARG, mine ? "bytes=" : "passed invalid arguments");
    int64_t memory[4] = {};
    REQUIRE_ERROR(remora_win_create(memory, sizeof memory, mine ? 0 : 8, nullptr, &win),
                  REMORA_ERR_ARG, mine ? "disp_unit=0" : "passed invalid arguments");
  }
  // Per-window override of the default strategy.
  REQUIRE_OK(remora_win_allocate(8, 1, "acc_strategy=owner", nullptr, &win));
  remora_acc_strategy_t strategy = REMORA_ACC_AUTO;
  REQUIRE_OK(remora_win_acc_strategy(win, &strategy));
  REQUIRE(strategy == REMORA_ACC_OWNER, "strategy %d", strategy);
  REQUIRE_OK(remora_win_free(&win));
}

void operation_errors(remora_win_t win) {
  const int64_t value = 1;
  int64_t result = 0;
  const double dvalue = 1;
  double dresult = 0;
  // Outside any epoch.
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &value, 1, REMORA_INT64), REMORA_ERR_STATE,
                "no access epoch to target=0");
  REQUIRE_ERROR(remora_win_fetch_and_op(win, 0, 0, &value, &result, REMORA_INT64, REMORA_OP_SUM),
                REMORA_ERR_STATE, "remora_win_fetch_and_op: no access epoch");
  REQUIRE_OK(remora_win_lock_all(win, 0));
  // Arguments.
  REQUIRE_ERROR(remora_win_put(win, size_, 0, &value, 1, REMORA_INT64), REMORA_ERR_RANK, "target=");
  REQUIRE_ERROR(remora_win_put(win, 0, 4, &value, 1, REMORA_INT64), REMORA_ERR_RANGE, "disp=4");
  REQUIRE_ERROR(remora_win_get(win, 0, 0, &result, 5, REMORA_INT64), REMORA_ERR_RANGE, "count=5");
  REQUIRE_ERROR(remora_win_get(win, 0, SIZE_MAX, &result, 1, REMORA_INT64), REMORA_ERR_RANGE,
                "negative");
  REQUIRE_ERROR(remora_win_put(win, 0, 0, nullptr, 1, REMORA_INT64), REMORA_ERR_ARG,
                "origin is NULL");
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &value, 1, static_cast<remora_datatype_t>(13)),
                REMORA_ERR_ARG, "type=13");
  // Each overflow the range check tests (disp * disp_unit, count * element, their sum).
  REQUIRE_ERROR(remora_win_put(win, 0, SIZE_MAX / 4, &value, 1, REMORA_INT64), REMORA_ERR_RANGE,
                "disp=");
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &value, SIZE_MAX / 8 + 2, REMORA_INT64), REMORA_ERR_RANGE,
                "count=");
  REQUIRE_ERROR(remora_win_get(win, 0, SIZE_MAX / 8, &result, 1, REMORA_INT64), REMORA_ERR_RANGE,
                "disp=");
  // fetch_and_op's checks on its fast path (the window last used), each naming its argument.
  REQUIRE_ERROR(
      remora_win_fetch_and_op(win, size_, 0, &value, &result, REMORA_INT64, REMORA_OP_SUM),
      REMORA_ERR_RANK, "remora_win_fetch_and_op: target=");
  REQUIRE_ERROR(remora_win_fetch_and_op(win, 0, 4, &value, &result, REMORA_INT64, REMORA_OP_SUM),
                REMORA_ERR_RANGE, "remora_win_fetch_and_op: disp=4");
  REQUIRE_ERROR(remora_win_fetch_and_op(win, 0, 0, &value, &result,
                                        static_cast<remora_datatype_t>(13), REMORA_OP_SUM),
                REMORA_ERR_ARG, "type=13");
  REQUIRE_ERROR(
      remora_win_fetch_and_op(win, 0, 0, &dvalue, &dresult, REMORA_DOUBLE, REMORA_OP_BAND),
      REMORA_ERR_ARG, "REMORA_OP_BAND is not valid for type=REMORA_DOUBLE");
  REQUIRE_ERROR(remora_win_fetch_and_op(win, 0, 0, nullptr, &result, REMORA_INT64, REMORA_OP_SUM),
                REMORA_ERR_ARG, "origin is NULL");
  REQUIRE_ERROR(remora_win_fetch_and_op(win, 0, 0, &value, nullptr, REMORA_INT64, REMORA_OP_SUM),
                REMORA_ERR_ARG, "result is NULL");
  REQUIRE_ERROR(
      remora_win_accumulate(win, 0, 0, &dvalue, 1, REMORA_DOUBLE, REMORA_OP_BAND, nullptr),
      REMORA_ERR_ARG, "REMORA_OP_BAND is not valid for type=REMORA_DOUBLE");
  REQUIRE_ERROR(
      remora_win_accumulate(win, 0, 0, &value, 1, REMORA_INT64, REMORA_OP_SCALED_SUM, nullptr),
      REMORA_ERR_ARG, "alpha is NULL");
  REQUIRE_ERROR(remora_win_accumulate(win, 0, 0, &value, 1, REMORA_INT64, REMORA_OP_SUM, &value),
                REMORA_ERR_ARG, "does not use it");
  REQUIRE_ERROR(
      remora_win_fetch_and_op(win, 0, 0, &value, &result, REMORA_INT64, REMORA_OP_SCALED_SUM),
      REMORA_ERR_ARG, "SCALED_SUM");
  REQUIRE_ERROR(remora_win_compare_and_swap(win, 0, 0, &dvalue, &dvalue, &dresult, REMORA_DOUBLE),
                REMORA_ERR_ARG, "not an integer type");
  REQUIRE_ERROR(remora_win_get_accumulate(win, 0, 0, &value, nullptr, 1, REMORA_INT64,
                                          REMORA_OP_SUM, nullptr),
                REMORA_ERR_ARG, "result is NULL");
  // Conflicting synchronisation.
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0), REMORA_ERR_STATE,
                "already locked by remora_win_lock_all");
  REQUIRE_ERROR(remora_win_lock_all(win, 0), REMORA_ERR_STATE, "already open");
  REQUIRE_ERROR(remora_win_fence(win, 0), REMORA_ERR_STATE, "passive-target epoch is open");
  REQUIRE_ERROR(remora_win_unlock(win, 0), REMORA_ERR_STATE, "use remora_win_unlock_all");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "still locked");
  REQUIRE_OK(remora_win_unlock_all(win));
}

void synchronisation_errors(remora_win_t win) {
  const int64_t value = 1;
  REQUIRE_ERROR(remora_win_unlock(win, 0), REMORA_ERR_STATE, "target=0 is not locked");
  REQUIRE_ERROR(remora_win_unlock_all(win), REMORA_ERR_STATE, "was not called");
  REQUIRE_ERROR(remora_win_flush(win, 0), REMORA_ERR_STATE, "flush needs a passive epoch");
  REQUIRE_ERROR(remora_win_flush_all(win), REMORA_ERR_STATE, "no passive-target epoch");
  REQUIRE_ERROR(remora_win_flush_local(win, 0), REMORA_ERR_STATE, "not locked");
  REQUIRE_ERROR(remora_win_lock(win, 3, 0, 0), REMORA_ERR_ARG, "lock_type=3");
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 64), REMORA_ERR_ARG, "assert_flags=64");
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, -1, 0), REMORA_ERR_RANK, "target=-1");
  REQUIRE_ERROR(remora_win_fence(win, 1 << 10), REMORA_ERR_ARG, "assert_flags=1024");
  // Locking twice; locking while a lock is held conflicts with lock_all and fence.
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0), REMORA_ERR_STATE,
                "already locked by this rank");
  REQUIRE_ERROR(remora_win_lock_all(win, 0), REMORA_ERR_STATE, "holds 1 lock");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "still locked");
  REQUIRE_OK(remora_win_unlock(win, 0));
  // A fence epoch with operations conflicts with locks, NOPRECEDE and free.
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE_OK(remora_win_put(win, rank_, 0, &value, 1, REMORA_INT64));
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0), REMORA_ERR_STATE,
                "fence epoch with operations");
  REQUIRE_ERROR(remora_win_fence(win, REMORA_MODE_NOPRECEDE), REMORA_ERR_STATE, "NOPRECEDE");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "pending");
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  // A fence without operations after it may be followed by a lock.
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, rank_, REMORA_MODE_NOCHECK));
  REQUIRE_OK(remora_win_flush_local(win, rank_));
  REQUIRE_OK(remora_win_unlock(win, rank_));
}

// Put and get to another rank in an immediate passive epoch take a fast path (the epoch check
// is implied by the epoch being open): it opens with the epoch and closes with it, so that an
// operation after unlock or unlock_all is refused as before, and values still arrive.
void passive_epoch_ends(remora_win_t win) {
  const int other = (rank_ + 1) % size_;
  int64_t value = 1000 + rank_, result = 0;
  REQUIRE_OK(remora_barrier());  // every rank is done with the window's previous epochs
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, other, 0));
  REQUIRE_OK(remora_win_put(win, other, 1, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE_OK(remora_win_get(win, other, 1, &result, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_unlock(win, other));
  REQUIRE(result == value, "read back %lld, put %lld", static_cast<long long>(result),
          static_cast<long long>(value));
  REQUIRE_ERROR(remora_win_put(win, other, 1, &value, 1, REMORA_INT64), REMORA_ERR_STATE,
                "no access epoch");
  REQUIRE_ERROR(remora_win_get(win, other, 1, &result, 1, REMORA_INT64), REMORA_ERR_STATE,
                "no access epoch");
  // Bad arguments are still refused inside the epoch.
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, other, REMORA_MODE_NOCHECK));
  REQUIRE_ERROR(remora_win_put(win, other, 4, &value, 1, REMORA_INT64), REMORA_ERR_RANGE, "disp=4");
  REQUIRE_ERROR(remora_win_get(win, other, 0, nullptr, 1, REMORA_INT64), REMORA_ERR_ARG,
                "result is NULL");
  REQUIRE_OK(remora_win_put(win, other, 0, nullptr, 0, REMORA_INT64));  // count 0, no buffer
  REQUIRE_OK(remora_win_unlock(win, other));
  REQUIRE_ERROR(remora_win_get(win, other, 1, &result, 1, REMORA_INT64), REMORA_ERR_STATE,
                "no access epoch");
  REQUIRE_OK(remora_win_lock_all(win, 0));
  value = 2000 + rank_;
  REQUIRE_OK(remora_win_put(win, other, 2, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_ERROR(remora_win_put(win, other, 2, &value, 1, REMORA_INT64), REMORA_ERR_STATE,
                "no access epoch");
  // A fence epoch afterwards takes the fence path (not the closed fast path).
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE_OK(remora_win_get(win, other, 2, &result, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE(result == value, "read %lld at the next rank, put %lld there",
          static_cast<long long>(result), static_cast<long long>(value));
}

// Lock, put, get and unlock to another rank of this node take the fast paths (the lock word a
// CPU atomic here; the epoch's lock mode and the deferred lock's byte in the window's
// per-target record): for every lock kind, with and without NOCHECK, on immediate and deferred
// windows, each misuse inside and after such an epoch is refused with the slow path's error,
// values arrive, and the lock words stay exclusive (a counter incremented under exclusive
// locks by every rank, between NOCHECK epochs, counts every increment).
void fast_path_states(const char* info) {
  remora_win_t win = nullptr;
  int64_t* mine = nullptr;
  REQUIRE_OK(remora_win_allocate(32, 8, info, reinterpret_cast<void**>(&mine), &win));
  mine[0] = -1;
  mine[3] = 0;
  REQUIRE_OK(remora_barrier());
  const int other = (rank_ + 1) % size_;
  int64_t value = 0, result = 0;
  for (int lock_type : {REMORA_LOCK_EXCLUSIVE, REMORA_LOCK_SHARED})
    for (int assert_flags : {0, REMORA_MODE_NOCHECK}) {
      value = 100 * lock_type + assert_flags + rank_;
      REQUIRE_OK(remora_win_lock(win, lock_type, other, assert_flags));
      REQUIRE_ERROR(remora_win_lock(win, lock_type, other, 0), REMORA_ERR_STATE,
                    "already locked by this rank");
      REQUIRE_ERROR(remora_win_lock_all(win, 0), REMORA_ERR_STATE, "holds 1 lock");
      REQUIRE_ERROR(remora_win_fence(win, 0), REMORA_ERR_STATE, "unlock before fencing");
      REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "still locked");
      REQUIRE_ERROR(remora_win_put(win, other, 4, &value, 1, REMORA_INT64), REMORA_ERR_RANGE,
                    "disp=4");
      REQUIRE_ERROR(remora_win_put(win, other, 0, &value, 1, static_cast<remora_datatype_t>(999)),
                    REMORA_ERR_ARG, "type=999");
      // The bounds of the types' one comparison (datatype_valid), on put's and get's fast path.
      REQUIRE_ERROR(remora_win_put(win, other, 0, &value, 1, static_cast<remora_datatype_t>(0)),
                    REMORA_ERR_ARG, "type=0");
      REQUIRE_ERROR(remora_win_get(win, other, 0, &result, 1, static_cast<remora_datatype_t>(0)),
                    REMORA_ERR_ARG, "type=0");
      REQUIRE_ERROR(remora_win_put(win, other, 0, &value, 1,
                                   static_cast<remora_datatype_t>(REMORA_DOUBLE_COMPLEX + 1)),
                    REMORA_ERR_ARG, "type=13");
      // A NULL buffer is refused only with elements to move.
      REQUIRE_OK(remora_win_put(win, other, 0, nullptr, 0, REMORA_INT64));
      REQUIRE_OK(remora_win_get(win, other, 0, nullptr, 0, REMORA_INT64));
      REQUIRE_ERROR(remora_win_get(win, other, 0, nullptr, 1, REMORA_INT64), REMORA_ERR_ARG,
                    "result is NULL");
      REQUIRE_ERROR(remora_win_put(win, other, 0, nullptr, 1, REMORA_INT64), REMORA_ERR_ARG,
                    "origin is NULL");
      REQUIRE_ERROR(remora_win_put(win, size_, 0, &value, 1, REMORA_INT64), REMORA_ERR_RANK,
                    "target=");
      REQUIRE_ERROR(remora_win_unlock(win, -1), REMORA_ERR_RANK, "target=-1");
      REQUIRE_OK(remora_win_put(win, other, 0, &value, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(win, other));
      REQUIRE_OK(remora_win_get(win, other, 0, &result, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(win, other));
      REQUIRE(result == value, "%s: lock_type %d assert %d: read back %lld, put %lld", info,
              lock_type, assert_flags, static_cast<long long>(result),
              static_cast<long long>(value));
      REQUIRE_ERROR(remora_win_unlock(win, other), REMORA_ERR_STATE, "is not locked");
      REQUIRE_ERROR(remora_win_put(win, other, 0, &value, 1, REMORA_INT64), REMORA_ERR_STATE,
                    "no access epoch");
      // An epoch without operations, and one whose first operation is a get.
      REQUIRE_OK(remora_win_lock(win, lock_type, other, assert_flags));
      REQUIRE_OK(remora_win_unlock(win, other));
      REQUIRE_OK(remora_win_lock(win, lock_type, other, assert_flags));
      REQUIRE_OK(remora_win_get(win, other, 0, &result, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(win, other));
      REQUIRE(result == value, "%s: first get read %lld, put %lld", info,
              static_cast<long long>(result), static_cast<long long>(value));
    }
  // lock_all excludes single locks, and its targets are not unlocked one by one.
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, other, 0), REMORA_ERR_STATE,
                "already locked by remora_win_lock_all");
  REQUIRE_ERROR(remora_win_unlock(win, other), REMORA_ERR_STATE, "use remora_win_unlock_all");
  REQUIRE_OK(remora_win_unlock_all(win));
  // Increments of every rank's counter (slot 3) under exclusive locks, each after a NOCHECK
  // epoch to the same target (which must not leave the next lock unchecked).
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round)
    for (int step = 1; step <= size_; ++step) {
      const int target = (rank_ + step) % size_;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, target, REMORA_MODE_NOCHECK));
      REQUIRE_OK(remora_win_unlock(win, target));
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0));
      int64_t count = -1;
      REQUIRE_OK(remora_win_get(win, target, 3, &count, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(win, target));  // a deferred epoch: the get completes here
      ++count;
      REQUIRE_OK(remora_win_put(win, target, 3, &count, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(win, target));
    }
  REQUIRE_OK(remora_barrier());
  const int from = (rank_ + size_ - 1) % size_;
  REQUIRE(mine[0] == 100 * REMORA_LOCK_SHARED + REMORA_MODE_NOCHECK + from,
          "%s: slot 0 holds %lld, not rank %d's last put", info, static_cast<long long>(mine[0]),
          from);
  REQUIRE(mine[3] == int64_t{kRounds} * size_, "%s: counter %lld after %d increments", info,
          static_cast<long long>(mine[3]), kRounds * size_);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// The handle check remembers the last window used: switching between windows and using a
// freed one is still checked.
void handles_alternate(remora_win_t win) {
  remora_win_t second = nullptr;
  REQUIRE_OK(remora_win_allocate(16, 8, nullptr, nullptr, &second));
  size_t bytes = 0;
  for (int round = 0; round < 3; ++round) {
    REQUIRE_OK(remora_win_size(win, 0, &bytes));
    REQUIRE(bytes == 32, "first window: %zu bytes", bytes);
    REQUIRE_OK(remora_win_size(second, 0, &bytes));
    REQUIRE(bytes == 16, "second window: %zu bytes", bytes);
  }
  // lock, put, get and unlock check the last window's handle inline and any other one out of
  // line: alternate the windows call by call, each keeps its own epoch and data.
  const int me = rank_, other = (rank_ + 1) % size_;
  REQUIRE_OK(remora_barrier());
  for (int round = 0; round < 3; ++round) {
    const int64_t first_value = 100 * round + me, second_value = 1000 * round + me;
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, me, 0));
    REQUIRE_OK(remora_win_lock(second, REMORA_LOCK_EXCLUSIVE, other, 0));
    REQUIRE_OK(remora_win_put(win, me, 3, &first_value, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_put(second, other, 0, &second_value, 1, REMORA_INT64));
    if (other != me)
      REQUIRE_ERROR(remora_win_unlock(second, me), REMORA_ERR_STATE, "is not locked");
    REQUIRE_ERROR(remora_win_unlock(win, size_), REMORA_ERR_RANK, "target=");
    int64_t got = -1;
    REQUIRE_OK(remora_win_get(win, me, 3, &got, 1, REMORA_INT64));
    REQUIRE(got == first_value, "round %d: first window holds %lld", round, (long long)got);
    REQUIRE_OK(remora_win_unlock(second, other));
    REQUIRE_OK(remora_win_unlock(win, me));
  }
  REQUIRE_OK(remora_barrier());  // every rank's puts into the second window are done
  int64_t mine = -1;
  REQUIRE_OK(remora_win_lock(second, REMORA_LOCK_SHARED, me, 0));
  REQUIRE_OK(remora_win_get(second, me, 0, &mine, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_unlock(second, me));
  const int from = (rank_ + size_ - 1) % size_;
  REQUIRE(mine == 2000 + from, "second window holds %lld, not rank %d's last put", (long long)mine,
          from);
  REQUIRE_OK(remora_barrier());
  remora_win_t stale = second;
  REQUIRE_OK(remora_win_free(&second));  // the last window used
  REQUIRE_ERROR(remora_win_size(stale, 0, &bytes), REMORA_ERR_ARG, "not a live window");
  REQUIRE_OK(remora_win_size(win, 0, &bytes));
  REQUIRE_ERROR(remora_win_size(stale, 0, &bytes), REMORA_ERR_ARG, "not a live window");
  const int64_t value = 1;
  int64_t result = 0;
  for (remora_win_t bad : {stale, static_cast<remora_win_t>(nullptr)}) {
    const char* why = bad == nullptr ? "win is NULL" : "not a live window";
    REQUIRE_ERROR(remora_win_lock(bad, REMORA_LOCK_EXCLUSIVE, 0, 0), REMORA_ERR_ARG, why);
    REQUIRE_ERROR(remora_win_put(bad, 0, 0, &value, 1, REMORA_INT64), REMORA_ERR_ARG, why);
    REQUIRE_ERROR(remora_win_get(bad, 0, 0, &result, 1, REMORA_INT64), REMORA_ERR_ARG, why);
    REQUIRE_ERROR(remora_win_unlock(bad, 0), REMORA_ERR_ARG, why);
    REQUIRE_ERROR(remora_win_fetch_and_op(bad, 0, 0, &value, &result, REMORA_INT64, REMORA_OP_SUM),
                  REMORA_ERR_ARG, why);
  }
}

// Freeing with a bad handle, or in an epoch, on one rank only: every rank fails, the window
// stays usable, and a correct free afterwards works.
void free_misuse_on_one_rank() {
  if (size_ < 2) return;
  const int bad = size_ - 1;
  const bool mine = rank_ == bad;
  char named[96];
  std::snprintf(named, sizeof named, "rank %d of the communicator passed invalid arguments", bad);
  remora_win_t win = nullptr, gone = nullptr;
  REQUIRE_OK(remora_win_allocate(8 * sizeof(int64_t), 8, nullptr, nullptr, &win));
  REQUIRE_OK(remora_win_allocate(8, 8, nullptr, nullptr, &gone));
  const remora_win_t stale = gone;
  REQUIRE_OK(remora_win_free(&gone));
  auto expect = [&](int rc, int code, const char* own) {
    REQUIRE(rc == (mine ? code : REMORA_ERR_ARG), "-> %d (%s)", rc, remora_last_error());
    REQUIRE(std::strstr(remora_last_error(), mine ? own : named) != nullptr,
            "message \"%s\" lacks \"%s\"", remora_last_error(), mine ? own : named);
    if (!mine)
      REQUIRE(std::strstr(remora_last_error(), "no rank freed the window") != nullptr,
              "message \"%s\"", remora_last_error());
  };
  remora_win_t null_handle = nullptr;
  remora_win_t stale_copy = stale;
  expect(remora_win_free(mine ? nullptr : &win), REMORA_ERR_ARG, "win is NULL");
  expect(remora_win_free(mine ? &null_handle : &win), REMORA_ERR_ARG, "win is NULL");
  expect(remora_win_free(mine ? &stale_copy : &win), REMORA_ERR_ARG, "not a live window");
  // One rank still holds a lock, then has operations in a fence epoch.
  if (mine) REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
  expect(remora_win_free(&win), REMORA_ERR_STATE, "still locked");
  if (mine) REQUIRE_OK(remora_win_unlock(win, 0));
  REQUIRE_OK(remora_win_fence(win, 0));
  const int64_t value = rank_ + 1;
  if (mine) REQUIRE_OK(remora_win_put(win, 0, static_cast<size_t>(rank_), &value, 1, REMORA_INT64));
  expect(remora_win_free(&win), REMORA_ERR_STATE, "pending");
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  // Nothing was freed: the window still works everywhere.
  REQUIRE(win != nullptr, "a failed free cleared the handle");
  REQUIRE_OK(remora_win_lock_all(win, 0));
  int64_t got = 0;
  REQUIRE_OK(remora_win_get(win, 0, static_cast<size_t>(bad), &got, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE(got == bad + 1, "rank 0's slot %d holds %lld", bad, static_cast<long long>(got));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// The same on a window over a sub-communicator (every rank but rank 0): the members agree among
// themselves, rank 0 takes no part, and the bad rank is named by its rank in the communicator.
void free_misuse_on_one_rank_of_a_sub_communicator() {
  if (size_ < 3) return;
  remora_test::SubComm sub = remora_test::split_world(rank_ > 0 ? 0 : REMORA_UNDEFINED);
  if (sub.comm != REMORA_COMM_NULL) {
    const bool mine = sub.rank == sub.size - 1;
    char named[96];
    std::snprintf(named, sizeof named, "rank %d of the communicator passed invalid arguments",
                  sub.size - 1);
    remora_win_t win = nullptr;
    REQUIRE_OK(remora_win_allocate_comm(sub.comm, sizeof(int64_t), 8, nullptr, nullptr, &win));
    if (mine) REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0));
    const int rc = remora_win_free(&win);
    REQUIRE(rc == (mine ? REMORA_ERR_STATE : REMORA_ERR_ARG), "-> %d (%s)", rc,
            remora_last_error());
    REQUIRE(std::strstr(remora_last_error(), mine ? "still locked" : named) != nullptr,
            "message \"%s\"", remora_last_error());
    REQUIRE(win != nullptr, "a failed free cleared the handle");
    if (mine) REQUIRE_OK(remora_win_unlock(win, 0));
    REQUIRE_OK(remora_win_free(&win));
    REQUIRE_OK(remora_comm_free(&sub.comm));
  }
  REQUIRE_OK(remora_barrier());
}

// A handler's lock and unlock fail (they may wait for other ranks), also on the window the
// inline handle check remembers (lock's and unlock's frameless path).
struct HandlerCalls {
  remora_win_t win = nullptr;
  int target = 0;
  std::atomic<int> lock_status{0}, unlock_status{0};
  std::atomic<bool> lock_named{false}, unlock_named{false}, done{false};
};

void lock_in_handler(int, const void*, size_t, void* context) {
  auto* calls = static_cast<HandlerCalls*>(context);
  calls->lock_status = remora_win_lock(calls->win, REMORA_LOCK_EXCLUSIVE, calls->target, 0);
  calls->lock_named = std::strstr(remora_last_error(),
                                  "remora_win_lock: not allowed inside an "
                                  "active-message handler") != nullptr;
  calls->unlock_status = remora_win_unlock(calls->win, calls->target);
  calls->unlock_named = std::strstr(remora_last_error(),
                                    "remora_win_unlock: not allowed inside "
                                    "an active-message handler") != nullptr;
  calls->done = true;
}

void sync_in_handler(remora_win_t win) {
  static HandlerCalls calls;  // the handler stays registered after this function
  calls.win = win;
  calls.target = (rank_ + 1) % size_;
  int handler = -1;
  REQUIRE_OK(remora_am_register(lock_in_handler, &calls, &handler));
  REQUIRE_OK(remora_barrier());  // every rank registered its handler
  // The window's epoch to the target works outside the handler: it is the last one used.
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, calls.target, 0));
  REQUIRE_OK(remora_win_unlock(win, calls.target));
  REQUIRE_OK(remora_am_send(rank_, handler, nullptr, 0));
  while (!calls.done) remora_test::progress_and_yield();
  REQUIRE(calls.lock_status == REMORA_ERR_STATE && calls.lock_named,
          "lock in a handler returned %d", calls.lock_status.load());
  REQUIRE(calls.unlock_status == REMORA_ERR_STATE && calls.unlock_named,
          "unlock in a handler returned %d", calls.unlock_status.load());
  // Nothing was locked: the epoch opens and closes as before.
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, calls.target, 0));
  REQUIRE_OK(remora_win_unlock(win, calls.target));
  REQUIRE_OK(remora_barrier());
}

// flush and the one-element accumulate family take fast paths in an epoch whose operations to
// the target run at once (lock_all, or a lock whose word is taken; on a deferred window once its
// first put took the word): values are those of the slow paths (results checked, the target's
// memory checked afterwards), and each misuse after the epoch or with a bad argument is refused
// with the slow path's error. info: the window's lock and accumulate strategy.
void flush_and_element_ops(const char* info) {
  remora_win_t win = nullptr;
  int64_t* base = nullptr;
  REQUIRE_OK(
      remora_win_allocate(size_t(8) * 4 * size_, 8, info, reinterpret_cast<void**>(&base), &win));
  const int other = (rank_ + 1) % size_, from = (rank_ + size_ - 1) % size_;
  const size_t mine = size_t(4) * rank_;  // this origin's four slots at every target
  for (int i = 0; i < 4 * size_; ++i) base[i] = 0;
  REQUIRE_OK(remora_barrier());
  int64_t value = 100 + rank_, result = -1, compare = 0, pair[2] = {-1, -1};
  const int64_t add[2] = {3, 4};
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_OK(remora_win_put(win, other, mine, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE_OK(remora_win_get(win, other, mine, &result, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, other));  // a deferred epoch: the get completes here
  REQUIRE(result == value, "%s: got %lld after the put of %lld", info, (long long)result,
          (long long)value);
  const int64_t five = 5, nine = 9;
  REQUIRE_OK(
      remora_win_fetch_and_op(win, other, mine + 1, &five, &result, REMORA_INT64, REMORA_OP_SUM));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE(result == 0, "%s: fetch_and_op fetched %lld, not 0", info, (long long)result);
  compare = 5;
  REQUIRE_OK(
      remora_win_compare_and_swap(win, other, mine + 1, &nine, &compare, &result, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE(result == 5, "%s: compare_and_swap found %lld, not 5", info, (long long)result);
  REQUIRE_OK(
      remora_win_compare_and_swap(win, other, mine + 1, &five, &compare, &result, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE(result == 9, "%s: compare_and_swap found %lld, not 9 (no swap)", info, (long long)result);
  REQUIRE_OK(remora_win_get_accumulate(win, other, mine + 2, add, pair, 2, REMORA_INT64,
                                       REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE(pair[0] == 0 && pair[1] == 0, "%s: get_accumulate fetched %lld %lld", info,
          (long long)pair[0], (long long)pair[1]);
  REQUIRE_OK(remora_win_get_accumulate(win, other, mine + 2, add, pair, 2, REMORA_INT64,
                                       REMORA_OP_NO_OP, nullptr));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE(pair[0] == 3 && pair[1] == 4, "%s: get_accumulate fetched %lld %lld, not 3 4", info,
          (long long)pair[0], (long long)pair[1]);
  // Bad arguments inside the epoch.
  REQUIRE_ERROR(remora_win_flush(win, -1), REMORA_ERR_RANK, "target=-1");
  REQUIRE_ERROR(remora_win_flush(win, size_), REMORA_ERR_RANK, "outside the window's ranks");
  REQUIRE_ERROR(remora_win_flush(nullptr, other), REMORA_ERR_ARG, "win is NULL");
  REQUIRE_ERROR(
      remora_win_compare_and_swap(win, other, mine, &five, nullptr, &result, REMORA_INT64),
      REMORA_ERR_ARG, "compare is NULL");
  REQUIRE_ERROR(
      remora_win_compare_and_swap(win, size_, mine, &five, &compare, &result, REMORA_INT64),
      REMORA_ERR_RANK, "target=");
  REQUIRE_ERROR(
      remora_win_compare_and_swap(win, other, 4 * size_, &five, &compare, &result, REMORA_INT64),
      REMORA_ERR_RANGE, "disp=");
  REQUIRE_ERROR(
      remora_win_get_accumulate(win, -1, 0, add, pair, 1, REMORA_INT64, REMORA_OP_SUM, nullptr),
      REMORA_ERR_RANK, "target=-1");
  REQUIRE_ERROR(remora_win_get_accumulate(win, other, 4 * size_ - 1, add, pair, 2, REMORA_INT64,
                                          REMORA_OP_SUM, nullptr),
                REMORA_ERR_RANGE, "disp=");
  REQUIRE_ERROR(
      remora_win_get_accumulate(win, other, mine, add, pair, 1, REMORA_INT64, REMORA_OP_SUM, &five),
      REMORA_ERR_ARG, "alpha=");
  REQUIRE_OK(remora_win_unlock_all(win));
  // After the epoch: refused as before (the fast paths closed with it).
  REQUIRE_ERROR(remora_win_flush(win, other), REMORA_ERR_STATE, "flush needs a passive epoch");
  REQUIRE_ERROR(
      remora_win_fetch_and_op(win, other, mine + 1, &five, &result, REMORA_INT64, REMORA_OP_SUM),
      REMORA_ERR_STATE, "no access epoch");
  REQUIRE_ERROR(
      remora_win_compare_and_swap(win, other, mine + 1, &nine, &compare, &result, REMORA_INT64),
      REMORA_ERR_STATE, "no access epoch");
  REQUIRE_ERROR(remora_win_get_accumulate(win, other, mine + 2, add, pair, 1, REMORA_INT64,
                                          REMORA_OP_SUM, nullptr),
                REMORA_ERR_STATE, "no access epoch");
  // An exclusive lock whose first operation is a put (on a deferred window, the put takes the
  // free word and the epoch runs at once from there), then the accumulate family in the same
  // epoch.
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, other, 0));
  value = 200 + rank_;
  REQUIRE_OK(remora_win_put(win, other, mine, &value, 1, REMORA_INT64));
  REQUIRE_OK(
      remora_win_fetch_and_op(win, other, mine, &five, &result, REMORA_INT64, REMORA_OP_SUM));
  compare = value + 5;
  int64_t swapped = -1;
  REQUIRE_OK(
      remora_win_compare_and_swap(win, other, mine, &nine, &compare, &swapped, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, other));
  REQUIRE_OK(remora_win_unlock(win, other));
  REQUIRE(result == value && swapped == value + 5,
          "%s: in one exclusive epoch after the put of %lld: fetch_and_op %lld, "
          "compare_and_swap %lld",
          info, (long long)value, (long long)result, (long long)swapped);
  REQUIRE_OK(remora_barrier());
  // The target's memory: every origin's slots hold what its operations left there.
  const size_t theirs = size_t(4) * from;
  REQUIRE(
      base[theirs] == 9 && base[theirs + 1] == 9 && base[theirs + 2] == 3 && base[theirs + 3] == 4,
      "%s: rank %d's slots here hold %lld %lld %lld %lld, not 9 9 3 4", info, from,
      (long long)base[theirs], (long long)base[theirs + 1], (long long)base[theirs + 2],
      (long long)base[theirs + 3]);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  allocation_errors();
  free_misuse_on_one_rank();
  free_misuse_on_one_rank_of_a_sub_communicator();
  remora_win_t win;
  REQUIRE_OK(remora_win_allocate(32, 8, nullptr, nullptr, &win));
  operation_errors(win);
  synchronisation_errors(win);
  passive_epoch_ends(win);
  handles_alternate(win);
  sync_in_handler(win);
  fast_path_states("lock=immediate");
  fast_path_states("lock=deferred");
  for (const char* info : {"acc_strategy=auto", "acc_strategy=caller", "acc_strategy=native",
                           "lock=deferred,acc_strategy=caller", "acc_strategy=owner"})
    flush_and_element_ops(info);
  remora_win_t stale = win;
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_ERROR(remora_win_fence(stale, 0), REMORA_ERR_ARG, "not a live window");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_ARG, "win is NULL");
  REQUIRE_OK(remora_finalize());
  return 0;
}
