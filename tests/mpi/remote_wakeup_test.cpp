// A rank waits in a Remora call for a lock held by a rank on another node, which releases it
// and then sleeps (first outside Remora, then in a Remora barrier): the waiter must still get
// the lock (nobody on another node can wake its futex, so its wait must notice the release by
// itself). Run under mpiexec with REMORA_NODE_SIZE=1, so that every rank is its own node.
//
// Each round, the holder (rank 1) takes an exclusive lock of target t (alternately the waiter's
// memory and the holder's own), tells the waiter so in a barrier, stays away from Remora for
// longer than REMORA_MPI_ACTIVE_US (so that the waiter's wait reaches its sleep phase), writes
// the round's value under the lock, unlocks, and sleeps. The waiter (rank 0), blocked in
// remora_win_lock meanwhile, must then read that value under its own lock, add 1000 and write
// it back; after the round's barrier every rank checks the word. Ranks beyond 1 only join the
// barriers (their waits sleep too).
#include <time.h>

#include <cstdint>

#include "multirank.hpp"

namespace {

constexpr int kRounds = 6;
constexpr int kWaiter = 0;
constexpr int kHolder = 1;

void sleep_ms(long ms) {
  timespec duration{ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&duration, &duration) != 0) {
  }
}

int64_t get_word(remora_win_t win, int target) {
  int64_t value = -1;
  REQUIRE_OK(remora_win_get(win, target, 0, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, target));
  return value;
}

void put_word(remora_win_t win, int target, int64_t value) {
  REQUIRE_OK(remora_win_put(win, target, 0, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, target));
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  REQUIRE(size >= 2, "needs at least 2 ranks, has %d", size);
  remora_win_t win = nullptr;
  int64_t* mine = remora_test::allocate_int64_window(1, nullptr, &win);
  *mine = 0;
  REQUIRE_OK(remora_barrier());
  for (int round = 0; round < kRounds; ++round) {
    const int target = round % 2 == 0 ? kWaiter : kHolder;
    const int64_t value = 10 * (round + 1);
    if (rank == kHolder) REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0));
    REQUIRE_OK(remora_barrier());  // the holder holds the lock
    if (rank == kHolder) {
      sleep_ms(50);  // the waiter is inside remora_win_lock by now, sleeping
      put_word(win, target, value);
      REQUIRE_OK(remora_win_unlock(win, target));
      sleep_ms(50);  // outside Remora: only the waiter's own polls can see the release
    } else if (rank == kWaiter) {
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0));
      const int64_t seen = get_word(win, target);
      REQUIRE(seen == value, "round %d: the waiter read %lld at rank %d, expected %lld", round,
              static_cast<long long>(seen), target, static_cast<long long>(value));
      put_word(win, target, seen + 1000);
      REQUIRE_OK(remora_win_unlock(win, target));
    }
    REQUIRE_OK(remora_barrier());  // the holder sleeps in here until the waiter is done
    if (rank == target)
      REQUIRE(*mine == value + 1000, "round %d: rank %d holds %lld, expected %lld", round, rank,
              static_cast<long long>(*mine), static_cast<long long>(value + 1000));
    REQUIRE_OK(remora_barrier());
  }
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_finalize());
  return 0;
}
