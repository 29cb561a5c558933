// A target that computes outside Remora and MPI still serves, through its progress thread, the
// one-sided operations that other nodes aim at it (run with REMORA_NODE_SIZE=1 and
// REMORA_PROGRESS=thread: MPICH over UCX completes them in software on the target, in its MPI
// calls, and across nodes the progress thread waits without yields: mpi/router.hpp).
// Rank 1 is the target; every other rank, in turn, while rank 1 computes:
// segment put + flush, get, fetch_add, compare_swap; window put + flush, get, accumulate,
// fetch_and_op, compare_and_swap (lock_all); then it adds 1 to rank 1's done word. Rank 1
// watches that word with plain loads (no Remora call) until every origin is done: if the progress
// thread did not serve them, the origins' flushes would never return and the test would time out.
// Afterwards every value is checked on both sides.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kTarget = 1;
constexpr int kRounds = 20;
// Segment and window layout (int64 words): per origin o a put word at 8 * o, then the shared
// counters.
constexpr size_t kMaxRanks = 16;
constexpr size_t kCounter = kMaxRanks * 8;  // fetch_add / fetch_and_op / accumulate target
constexpr size_t kSwap = kCounter + 8;      // compare_swap word (origins take turns by value)
constexpr size_t kDone = kSwap + 8;         // origins that finished (segment only)
constexpr size_t kBytes = kDone + 8;

int64_t load(void* base, size_t offset) {
  return std::atomic_ref<int64_t>(*reinterpret_cast<int64_t*>(static_cast<char*>(base) + offset))
      .load(std::memory_order_acquire);
}

int64_t value_of(int origin, int round) {
  return int64_t{1000} * origin + round;
}

void origin_rounds(remora_segment_t segment, remora_win_t win, int rank) {
  for (int round = 0; round < kRounds; ++round) {
    const int64_t value = value_of(rank, round);
    const size_t mine = static_cast<size_t>(rank) * 8;
    REQUIRE_OK(remora_put(segment, kTarget, mine, &value, 8));
    REQUIRE_OK(remora_flush(segment, kTarget));
    int64_t back = -1;
    REQUIRE_OK(remora_get(segment, kTarget, mine, &back, 8));
    REQUIRE(back == value, "round %d: segment get read %lld after putting %lld", round,
            static_cast<long long>(back), static_cast<long long>(value));
    int64_t before = -1;
    REQUIRE_OK(remora_fetch_add(segment, kTarget, kCounter, 1, &before));
    REQUIRE(before >= 0, "round %d: fetch_add found %lld", round, static_cast<long long>(before));
    // Swap in this rank's id (rank + 1) when the word holds none (0), and back: other origins
    // may hold it.
    const int64_t id = rank + 1;
    int64_t old = -1;
    REQUIRE_OK(remora_compare_swap(segment, kTarget, kSwap, 0, id, &old));
    if (old == 0) {
      REQUIRE_OK(remora_compare_swap(segment, kTarget, kSwap, id, 0, &old));
      REQUIRE(old == id, "round %d: segment swap word held %lld, not this rank's id %lld", round,
              static_cast<long long>(old), static_cast<long long>(id));
    }

    REQUIRE_OK(remora_win_put(win, kTarget, mine, &value, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_flush(win, kTarget));
    back = -1;
    REQUIRE_OK(remora_win_get(win, kTarget, mine, &back, 1, REMORA_INT64));
    REQUIRE(back == value, "round %d: window get read %lld after putting %lld", round,
            static_cast<long long>(back), static_cast<long long>(value));
    const int64_t two = 2;
    REQUIRE_OK(remora_win_accumulate(win, kTarget, kCounter, &two, 1, REMORA_INT64, REMORA_OP_SUM,
                                     nullptr));
    REQUIRE_OK(remora_win_flush(win, kTarget));
    const int64_t one = 1;
    before = -1;
    REQUIRE_OK(remora_win_fetch_and_op(win, kTarget, kCounter, &one, &before, REMORA_INT64,
                                       REMORA_OP_SUM));
    REQUIRE(before >= 2, "round %d: window fetch_and_op found %lld after this rank's accumulate",
            round, static_cast<long long>(before));
    const int64_t none = 0, me = id;
    old = -1;
    REQUIRE_OK(remora_win_compare_and_swap(win, kTarget, kSwap, &me, &none, &old, REMORA_INT64));
    if (old == 0) {
      REQUIRE_OK(remora_win_compare_and_swap(win, kTarget, kSwap, &none, &me, &old, REMORA_INT64));
      REQUIRE(old == id, "round %d: window swap word held %lld, not this rank's id %lld", round,
              static_cast<long long>(old), static_cast<long long>(id));
    }
    REQUIRE_OK(remora_win_flush(win, kTarget));
  }
  REQUIRE_OK(remora_fetch_add(segment, kTarget, kDone, 1, nullptr));
}

// The target computes, calling neither Remora nor MPI, until every origin is done.
void compute_until_done(void* segment_base, int origins) {
  volatile double sink = 0;
  while (load(segment_base, kDone) < origins)
    for (int i = 0; i < 1000; ++i) sink = sink + 1.0;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(size >= 2 && static_cast<size_t>(size) <= kMaxRanks, "run with 2 to %zu ranks, not %d",
          kMaxRanks, size);
  remora_segment_t segment = nullptr;
  REQUIRE_OK(remora_segment_allocate(kBytes, &segment));
  void* mine = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, &mine));
  std::memset(mine, 0, kBytes);
  void* base = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(kBytes, 1, nullptr, &base, &win));
  std::memset(base, 0, kBytes);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(win, 0));
  if (rank == kTarget)
    compute_until_done(mine, size - 1);
  else
    origin_rounds(segment, win, rank);
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());

  const int64_t origins = size - 1;
  if (rank == kTarget) {
    for (int origin = 0; origin < size; ++origin) {
      if (origin == kTarget) continue;
      const size_t at = static_cast<size_t>(origin) * 8;
      REQUIRE(load(mine, at) == value_of(origin, kRounds - 1),
              "segment word of origin %d holds %lld", origin,
              static_cast<long long>(load(mine, at)));
    }
    REQUIRE(load(mine, kCounter) == origins * kRounds, "segment counter %lld, expected %lld",
            static_cast<long long>(load(mine, kCounter)),
            static_cast<long long>(origins * kRounds));
    REQUIRE(load(mine, kSwap) == 0, "segment swap word left at %lld",
            static_cast<long long>(load(mine, kSwap)));
  }
  // The window's words, read by every rank through Remora (the target's own included).
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int origin = 0; origin < size; ++origin) {
    if (origin == kTarget) continue;
    int64_t word = -1;
    REQUIRE_OK(
        remora_win_get(win, kTarget, static_cast<size_t>(origin) * 8, &word, 1, REMORA_INT64));
    REQUIRE(word == value_of(origin, kRounds - 1), "window word of origin %d holds %lld", origin,
            static_cast<long long>(word));
  }
  int64_t counter = -1, swap = -1;
  REQUIRE_OK(remora_win_fetch_and_op(win, kTarget, kCounter, nullptr, &counter, REMORA_INT64,
                                     REMORA_OP_NO_OP));
  REQUIRE_OK(
      remora_win_fetch_and_op(win, kTarget, kSwap, nullptr, &swap, REMORA_INT64, REMORA_OP_NO_OP));
  REQUIRE(counter == 3 * origins * kRounds, "window counter %lld, expected %lld",
          static_cast<long long>(counter), static_cast<long long>(3 * origins * kRounds));
  REQUIRE(swap == 0, "window swap word left at %lld", static_cast<long long>(swap));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
