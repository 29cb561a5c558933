// Passive-target locks and the atomic operations built on windows: exclusive locks exclude
// (an occupancy word never shows a second holder), shared locks are held concurrently and
// exclude exclusive ones (a pair written under exclusive locks is never read torn, also with
// lock=deferred), a ticket lock and a compare-and-swap spin lock built from fetch_and_op /
// compare_and_swap protect a plain counter, and compare_and_swap races leave only legal final
// states. Puts and gets of every size up to 130 bytes move exactly their bytes.
#include <cstdint>

#include "multirank.hpp"

namespace {

int rank_, size_;
constexpr int kRounds = 150;
// Displacements (int64 units) in rank 0's window.
constexpr size_t kOccupancy = 0, kCounter = 1, kArrived = 2, kTicket = 3, kServing = 4, kSpin = 5,
                 kCas = 6, kWinners = 7, kPairA = 8, kPairB = 9;
constexpr size_t kWindowBytes = 10 * sizeof(int64_t);

int64_t fetch(remora_win_t win, size_t disp, remora_op_t op, int64_t operand) {
  int64_t old = 0;
  REQUIRE_OK(remora_win_fetch_and_op(win, 0, disp, &operand, &old, REMORA_INT64, op));
  return old;
}

// Inside mutual exclusion: mark occupancy, increment the counter with a plain get + put,
// unmark. Any overlap shows as a non-zero occupancy or a lost increment.
void critical_section(remora_win_t win) {
  const int64_t me = rank_ + 1;
  int64_t previous = fetch(win, kOccupancy, REMORA_OP_REPLACE, me);
  REQUIRE(previous == 0, "rank %lld is in the critical section with me", (long long)previous - 1);
  int64_t counter = 0;
  REQUIRE_OK(remora_win_get(win, 0, kCounter, &counter, 1, REMORA_INT64));
  ++counter;
  REQUIRE_OK(remora_win_put(win, 0, kCounter, &counter, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, 0));
  previous = fetch(win, kOccupancy, REMORA_OP_REPLACE, 0);
  REQUIRE(previous == me, "occupancy %lld changed under me", (long long)previous);
}

int64_t read_counter(remora_win_t win) {
  int64_t counter = 0;
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
  REQUIRE_OK(remora_win_get(win, 0, kCounter, &counter, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_unlock(win, 0));
  return counter;
}

void reset_counter(remora_win_t win) {
  REQUIRE_OK(remora_barrier());
  if (rank_ == 0) {
    const int64_t zero = 0;
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0));
    REQUIRE_OK(remora_win_put(win, 0, kCounter, &zero, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, 0));
  }
  REQUIRE_OK(remora_barrier());
}

void exclusive_locks_exclude(remora_win_t win) {
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0));
    critical_section(win);
    REQUIRE_OK(remora_win_unlock(win, 0));
  }
  REQUIRE_OK(remora_barrier());
  const int64_t counter = read_counter(win);
  REQUIRE(counter == int64_t{size_} * kRounds, "counter %lld", (long long)counter);
}

// Every rank holds a shared lock until all ranks have arrived: only possible if shared locks
// are granted concurrently (otherwise the job hangs and the launcher's timeout fails it).
void shared_locks_overlap(remora_win_t win) {
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
  fetch(win, kArrived, REMORA_OP_SUM, 1);
  while (fetch(win, kArrived, REMORA_OP_NO_OP, 0) < size_) remora_test::progress_and_yield();
  REQUIRE_OK(remora_win_unlock(win, 0));
  REQUIRE_OK(remora_barrier());
}

// Shared and exclusive locks of every rank on rank 0, interleaved: a writer (exclusive) stores
// the same new value into two words with a flush between them, a reader (shared) loads both
// and must see them equal; a reader that overlapped a writer would see the pair torn. Readers
// that meet a writer's word back out and wait (the shared attempt is undone), writers wait for
// readers. On a window with lock=deferred the loads are complete at unlock.
void readers_and_writers(remora_win_t win) {
  for (int round = 0; round < kRounds; ++round) {
    if ((round + rank_) % 2 == 0) {
      const int64_t value = int64_t{rank_} * 100000 + round + 1;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0));
      REQUIRE_OK(remora_win_put(win, 0, kPairA, &value, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(win, 0));
      REQUIRE_OK(remora_win_put(win, 0, kPairB, &value, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(win, 0));
    } else {
      int64_t a = -1, b = -2;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
      REQUIRE_OK(remora_win_get(win, 0, kPairA, &a, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_get(win, 0, kPairB, &b, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(win, 0));
      REQUIRE(a == b, "round %d: a reader saw the pair torn: %lld and %lld", round, (long long)a,
              (long long)b);
    }
  }
  REQUIRE_OK(remora_barrier());
}

// Ends a lock_all epoch of kRounds critical sections per rank and checks the counter.
void expect_every_increment(remora_win_t win, const char* lock) {
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  const int64_t counter = read_counter(win);
  REQUIRE(counter == int64_t{size_} * kRounds, "%s: counter %lld", lock, (long long)counter);
}

void ticket_lock(remora_win_t win) {
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    const int64_t ticket = fetch(win, kTicket, REMORA_OP_SUM, 1);
    while (fetch(win, kServing, REMORA_OP_NO_OP, 0) != ticket) remora_test::progress_and_yield();
    critical_section(win);
    fetch(win, kServing, REMORA_OP_SUM, 1);
  }
  expect_every_increment(win, "ticket lock");
}

void cas_spin_lock(remora_win_t win) {
  REQUIRE_OK(remora_win_lock_all(win, 0));
  const int64_t me = rank_ + 1, free_value = 0;
  for (int round = 0; round < kRounds; ++round) {
    int64_t holder = -1;
    for (;;) {
      REQUIRE_OK(
          remora_win_compare_and_swap(win, 0, kSpin, &me, &free_value, &holder, REMORA_INT64));
      if (holder == 0) break;
      remora_test::progress_and_yield();
    }
    critical_section(win);
    REQUIRE(fetch(win, kSpin, REMORA_OP_REPLACE, 0) == me, "spin lock stolen");
  }
  expect_every_increment(win, "CAS lock");
}

// Everyone tries once to swap 0 -> rank+1 on a 32-bit word: exactly one wins, and the word
// holds the winner.
void cas_race(remora_win_t win) {
  REQUIRE_OK(remora_win_lock_all(win, 0));
  const int32_t me = rank_ + 1, zero = 0;
  int32_t previous = -1;
  REQUIRE_OK(remora_win_compare_and_swap(win, 0, kCas, &me, &zero, &previous, REMORA_INT32));
  REQUIRE(previous >= 0 && previous <= size_, "CAS returned %d", previous);
  if (previous == 0) fetch(win, kWinners, REMORA_OP_SUM, 1);
  const int64_t winner_marker = previous == 0 ? me : 0;
  REQUIRE_OK(remora_win_flush_all(win));
  REQUIRE_OK(remora_barrier());
  int32_t final_value = 0;
  REQUIRE_OK(remora_win_get(win, 0, kCas, &final_value, 1, REMORA_INT32));
  REQUIRE(fetch(win, kWinners, REMORA_OP_NO_OP, 0) == 1, "not exactly one CAS winner");
  REQUIRE(final_value >= 1 && final_value <= size_, "final %d", final_value);
  if (winner_marker != 0) REQUIRE(final_value == me, "I won but the word holds %d", final_value);
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
}

}  // namespace

// Every transfer size from 0 to 130 bytes at several offsets, put and got back in one exclusive
// epoch to the next rank (on one node: put's and get's inline copies of up to 64 bytes, and
// the deferred epoch's first put): exactly the bytes moved change, at the target and in the
// result buffer.
void every_small_size(const char* info) {
  constexpr size_t kBytes = 256, kMax = 130, kGuard = 8;
  constexpr unsigned char kUntouched = 0xEE, kResultGuard = 0xA5;
  remora_win_t win;
  REQUIRE_OK(remora_win_allocate(kBytes, 1, info, nullptr, &win));
  const int target = (rank_ + 1) % size_;
  unsigned char fill[kBytes], source[kMax], window[kBytes], result[kMax + 2 * kGuard];
  for (unsigned char& b : fill) b = kUntouched;
  for (size_t bytes = 0; bytes <= kMax; ++bytes)
    for (size_t offset : {0, 1, 5, 8, 13, 63}) {
      for (size_t i = 0; i < bytes; ++i)
        source[i] = static_cast<unsigned char>(rank_ * 31 + bytes * 7 + offset + i + 1);
      for (unsigned char& b : result) b = kResultGuard;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0));
      REQUIRE_OK(remora_win_put(win, target, 0, fill, kBytes, REMORA_UINT8));
      REQUIRE_OK(remora_win_put(win, target, offset, source, bytes, REMORA_UINT8));
      REQUIRE_OK(remora_win_get(win, target, offset, result + kGuard, bytes, REMORA_UINT8));
      REQUIRE_OK(remora_win_get(win, target, 0, window, kBytes, REMORA_UINT8));
      REQUIRE_OK(remora_win_unlock(win, target));
      for (size_t i = 0; i < kBytes; ++i) {
        const bool moved = i >= offset && i < offset + bytes;
        const unsigned char want = moved ? source[i - offset] : kUntouched;
        REQUIRE(window[i] == want, "%s: %zu bytes at %zu: target byte %zu is %d, not %d", info,
                bytes, offset, i, window[i], want);
      }
      for (size_t i = 0; i < sizeof result; ++i) {
        const bool moved = i >= kGuard && i < kGuard + bytes;
        const unsigned char want = moved ? source[i - kGuard] : kResultGuard;
        REQUIRE(result[i] == want, "%s: %zu bytes at %zu: result byte %zu is %d, not %d", info,
                bytes, offset, i, result[i], want);
      }
    }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  for (const char* info : {"acc_strategy=native", "acc_strategy=caller", "acc_strategy=owner"}) {
    remora_win_t win;
    REQUIRE_OK(remora_win_allocate(kWindowBytes, 8, info, nullptr, &win));
    exclusive_locks_exclude(win);
    shared_locks_overlap(win);
    readers_and_writers(win);
    reset_counter(win);
    ticket_lock(win);
    reset_counter(win);
    cas_spin_lock(win);
    cas_race(win);
    REQUIRE_OK(remora_win_free(&win));
  }
  {
    remora_win_t win;
    REQUIRE_OK(remora_win_allocate(kWindowBytes, 8, "lock=deferred", nullptr, &win));
    readers_and_writers(win);
    REQUIRE_OK(remora_win_free(&win));
  }
  every_small_size("lock=immediate");
  every_small_size("lock=deferred");
  REQUIRE_OK(remora_finalize());
  return 0;
}
