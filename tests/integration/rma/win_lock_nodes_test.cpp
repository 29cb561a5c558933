// Passive-target locks under contention, on one node and across nodes (there the lock words
// are node-local and ranks of other nodes ask the target's agent; docs/rma.md, "Locks across
// nodes"). Every rank locks every target in turn, so each target has lockers on its own node
// (itself included) and, under mpiexec with REMORA_NODE_SIZE, on other nodes at once.
//   1. exclusive: each rank adds 1 to a counter at every target with a non-atomic get, add,
//      put under an exclusive lock; the counters must be exact (a lost update shows a breach).
//   2. shared against exclusive: writers put one value into two words of a target under an
//      exclusive lock (flushed in between); readers under a shared lock, or lock_all, must see
//      the two words equal.
//   3. shared locks are held together: every rank holds a shared lock of the same target
//      while all of them meet in a barrier (a shared lock that excluded would hang here).
//   4. phase 1 on a window with deferred locks (lock=deferred), and with NOCHECK epochs that
//      only read.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kRounds = 40;
constexpr size_t kCounter = 0;  // byte offsets in each rank's part
constexpr size_t kFirst = 8;
constexpr size_t kSecond = 16;
constexpr size_t kBytes = 24;

int64_t get_word(remora_win_t win, int target, size_t offset) {
  int64_t value = -1;
  REQUIRE_OK(remora_win_get(win, target, offset, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, target));
  return value;
}

void put_word(remora_win_t win, int target, size_t offset, int64_t value) {
  REQUIRE_OK(remora_win_put(win, target, offset, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, target));
}

// Phase 1 (and 4): returns the count each target's counter must reach.
void exclusive_counters(remora_win_t win, int rank, int size) {
  for (int round = 0; round < kRounds; ++round) {
    const int target = (rank + round) % size;
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0));
    const int64_t value = get_word(win, target, kCounter);
    put_word(win, target, kCounter, value + 1);
    REQUIRE_OK(remora_win_unlock(win, target));
  }
}

void check_counters(remora_win_t win, int rank, int size, const char* phase) {
  REQUIRE_OK(remora_barrier());
  // Every rank visited every target kRounds / size times, plus once more for the first
  // kRounds % size targets after its own.
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, rank, 0));
  const int64_t counter = get_word(win, rank, kCounter);
  REQUIRE_OK(remora_win_unlock(win, rank));
  int64_t expected = 0;
  for (int r = 0; r < size; ++r)
    for (int round = 0; round < kRounds; ++round)
      if ((r + round) % size == rank) ++expected;
  REQUIRE(counter == expected, "%s: counter of rank %d is %lld, expected %lld", phase, rank,
          static_cast<long long>(counter), static_cast<long long>(expected));
}

void readers_and_writers(remora_win_t win, int rank, int size) {
  for (int round = 0; round < kRounds; ++round) {
    const int target = (rank + round) % size;
    if ((rank + round) % 3 == 0) {
      const int64_t value = int64_t{rank} * 1000000 + round + 1;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0));
      put_word(win, target, kFirst, value);
      put_word(win, target, kSecond, value);
      REQUIRE_OK(remora_win_unlock(win, target));
    } else if ((rank + round) % 3 == 1) {
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, target, 0));
      const int64_t first = get_word(win, target, kFirst);
      const int64_t second = get_word(win, target, kSecond);
      REQUIRE_OK(remora_win_unlock(win, target));
      REQUIRE(first == second, "shared lock of rank %d: words %lld and %lld differ (round %d)",
              target, static_cast<long long>(first), static_cast<long long>(second), round);
    } else {
      REQUIRE_OK(remora_win_lock_all(win, 0));
      for (int t = 0; t < size; ++t) {
        const int64_t first = get_word(win, t, kFirst);
        const int64_t second = get_word(win, t, kSecond);
        REQUIRE(first == second, "lock_all: words of rank %d are %lld and %lld (round %d)", t,
                static_cast<long long>(first), static_cast<long long>(second), round);
      }
      REQUIRE_OK(remora_win_unlock_all(win));
    }
  }
}

void shared_together(remora_win_t win, int size) {
  for (int target = 0; target < size; ++target) {
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, target, 0));
    REQUIRE_OK(remora_barrier());  // every rank holds the shared lock of target here
    REQUIRE_OK(remora_win_unlock(win, target));
  }
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_OK(remora_barrier());  // lock_all of every rank at once
  REQUIRE_OK(remora_win_unlock_all(win));
}

// NOCHECK epochs take no lock word: read-only here, while nobody writes.
void nocheck_reads(remora_win_t win, int rank, int size) {
  REQUIRE_OK(remora_barrier());
  const int target = (rank + 1) % size;
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, target, REMORA_MODE_NOCHECK));
  const int64_t counter = get_word(win, target, kCounter);
  REQUIRE_OK(remora_win_unlock(win, target));
  REQUIRE(counter > 0, "NOCHECK read of rank %d's counter: %lld", target,
          static_cast<long long>(counter));
  REQUIRE_OK(remora_win_lock_all(win, REMORA_MODE_NOCHECK));
  REQUIRE(get_word(win, target, kFirst) == get_word(win, target, kSecond),
          "NOCHECK lock_all read of rank %d: words differ", target);
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
}

void run(const char* info, bool deferred, int rank, int size) {
  void* base = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(kBytes, 1, info, &base, &win));
  remora_sync_impl_t lock_impl;
  REQUIRE_OK(remora_win_sync_impl(win, nullptr, &lock_impl));
  REQUIRE((lock_impl == REMORA_SYNC_DEFERRED) == deferred, "info \"%s\": lock implementation %d",
          info, static_cast<int>(lock_impl));
  REQUIRE_OK(remora_barrier());
  exclusive_counters(win, rank, size);
  check_counters(win, rank, size, info);
  readers_and_writers(win, rank, size);
  REQUIRE_OK(remora_barrier());
  shared_together(win, size);
  nocheck_reads(win, rank, size);
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  run("", false, rank, size);
  run("lock=deferred", true, rank, size);
  REQUIRE_OK(remora_finalize());
  return 0;
}
