// 64-bit remote atomics under contention: fetch-add totals are exact, fetch-add tickets are
// unique, and a compare-and-swap lock gives mutual exclusion.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kAdds = 100000;
constexpr int kLockRounds = 1000;
// Layout of rank 0's part: [0] counter, [8] lock word, [16] occupancy, [24] guarded counter.
constexpr size_t kCounter = 0, kLock = 8, kOccupancy = 16, kGuarded = 24;

void acquire(remora_segment_t segment, int rank) {
  int64_t old = -1;
  for (;;) {
    REQUIRE_OK(remora_compare_swap(segment, 0, kLock, 0, rank + 1, &old));
    if (old == 0) return;
    remora_test::progress_and_yield();
  }
}

void release(remora_segment_t segment, int rank) {
  int64_t old = -1;
  REQUIRE_OK(remora_swap(segment, 0, kLock, 0, &old));
  REQUIRE(old == rank + 1, "lock held by %lld, not by me (%d)", (long long)old - 1, rank);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(64, &segment));

  // 1. Every rank adds 1 to one word 100,000 times; the tickets it gets back never repeat.
  int64_t previous = -1, old = 0;
  for (int i = 0; i < kAdds; ++i) {
    REQUIRE_OK(remora_fetch_add(segment, 0, kCounter, 1, &old));
    REQUIRE(old > previous, "ticket %lld after %lld", (long long)old, (long long)previous);
    previous = old;
  }
  REQUIRE_OK(remora_barrier());
  int64_t total = 0;
  REQUIRE_OK(remora_get(segment, 0, kCounter, &total, 8));
  REQUIRE(total == static_cast<int64_t>(size) * kAdds, "total %lld", (long long)total);

  // 2. Negative and large operands wrap as two's complement 64-bit integers.
  REQUIRE_OK(remora_barrier());
  if (rank == 0) {
    REQUIRE_OK(remora_swap(segment, 0, kCounter, INT64_MAX, &old));
    REQUIRE_OK(remora_fetch_add(segment, 0, kCounter, 1, &old));
    REQUIRE(old == INT64_MAX);
    REQUIRE_OK(remora_fetch_add(segment, 0, kCounter, -1, &old));
    REQUIRE(old == INT64_MIN);
    REQUIRE_OK(remora_compare_swap(segment, 0, kCounter, 5, 6, &old));  // fails: not 5
    REQUIRE(old == INT64_MAX);
  }
  REQUIRE_OK(remora_barrier());

  // 3. A CAS lock: inside the critical section nobody else is (occupancy swap sees 0), and a
  //    read-modify-write of a plain guarded word by get + put is never lost.
  for (int round = 0; round < kLockRounds; ++round) {
    acquire(segment, rank);
    REQUIRE_OK(remora_swap(segment, 0, kOccupancy, rank + 1, &old));
    REQUIRE(old == 0, "rank %lld was in the critical section with me", (long long)old - 1);
    int64_t guarded = 0;
    REQUIRE_OK(remora_get(segment, 0, kGuarded, &guarded, 8));
    ++guarded;
    REQUIRE_OK(remora_put(segment, 0, kGuarded, &guarded, 8));
    REQUIRE_OK(remora_flush(segment, 0));
    REQUIRE_OK(remora_swap(segment, 0, kOccupancy, 0, &old));
    REQUIRE(old == rank + 1);
    release(segment, rank);
  }
  REQUIRE_OK(remora_barrier());
  int64_t guarded = 0;
  REQUIRE_OK(remora_get(segment, 0, kGuarded, &guarded, 8));
  REQUIRE(guarded == static_cast<int64_t>(size) * kLockRounds, "guarded counter %lld",
          (long long)guarded);

  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
