// Passive-target owner-computes accumulates complete while the target computes and never
// calls Remora: served by the target's progress thread (REMORA_PROGRESS=thread) or by the
// node's ghost process (REMORA_PROGRESS=ghost). Not run with manual progress, where they
// would wait for the target's next call (that is the point of the other two modes).
//   phase 1: the origins do lock - accumulate - fetch_and_op - unlock, alternating exclusive
//            and shared locks, then each adds 1 to a "done" word of rank 0 (in a second window,
//            acc_strategy=native: CPU atomics from rank 0's node, applied with CPU atomics by
//            rank 0's agent from other nodes, so rank 0 may watch it with atomic loads while
//            its other window is being updated). Rank 0 only watches that word until every
//            origin is done; then (win_sync, its first call since) the sums are exact. Across
//            nodes (mpiexec, REMORA_NODE_SIZE) the locks of other nodes' origins are granted by
//            rank 0's agent too (docs/rma.md, "Locks across nodes").
//   phase 2: the target accumulates into the same elements too (its own updates take the
//            lock table directly, the others' go through the agent): no update is lost.
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kTarget = 0;
constexpr int kRounds = 200;
constexpr size_t kCount = 6;                   // int64 elements per accumulate
constexpr size_t kCounter = kCount * 8;        // byte offset of the arrival counter
constexpr size_t kWindowBytes = kCounter + 8;  // disp_unit 1

int64_t load(const unsigned char* base, size_t offset) {
  return std::atomic_ref<int64_t>(
             *reinterpret_cast<int64_t*>(const_cast<unsigned char*>(base) + offset))
      .load(std::memory_order_acquire);
}

void origin_rounds(remora_win_t win, int rank, int size) {
  const std::vector<int64_t> values(kCount, rank);
  for (int round = 0; round < kRounds; ++round) {
    const int lock = round % 2 == 0 ? REMORA_LOCK_EXCLUSIVE : REMORA_LOCK_SHARED;
    REQUIRE_OK(remora_win_lock(win, lock, kTarget, 0));
    REQUIRE_OK(remora_win_accumulate(win, kTarget, 0, values.data(), kCount, REMORA_INT64,
                                     REMORA_OP_SUM, nullptr));
    const int64_t one = 1;
    int64_t before = -1;
    REQUIRE_OK(remora_win_fetch_and_op(win, kTarget, kCounter, &one, &before, REMORA_INT64,
                                       REMORA_OP_SUM));
    REQUIRE(before >= 0 && before < static_cast<int64_t>(size - 1) * kRounds,
            "counter was %lld before round %d", static_cast<long long>(before), round);
    REQUIRE_OK(remora_win_unlock(win, kTarget));
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  unsigned char* base = nullptr;
  remora_win_t win = nullptr;
  // Argument 1: the window's info (default owner; auto must take the owner path wherever the
  // target has an agent, also across nodes under MPI with ghosts).
  const char* info = argc > 1 ? argv[1] : "acc_strategy=owner";
  REQUIRE_OK(remora_win_allocate(kWindowBytes, 1, info, reinterpret_cast<void**>(&base), &win));
  int64_t origin_sum = 0;  // of every origin's value, ranks 1..size-1
  for (int r = 1; r < size; ++r) origin_sum += r;

  int64_t* done_word = nullptr;
  remora_win_t done_win = nullptr;
  REQUIRE_OK(remora_win_allocate(sizeof(int64_t), 1, "acc_strategy=native",
                                 reinterpret_cast<void**>(&done_word), &done_win));
  std::atomic_ref<int64_t> done(*done_word);

  // Phase 1: the target computes.
  REQUIRE_OK(remora_barrier());
  if (rank != kTarget) {
    origin_rounds(win, rank, size);  // every unlock waited for its updates' completion
    const int64_t one = 1;
    REQUIRE_OK(remora_win_lock(done_win, REMORA_LOCK_SHARED, kTarget, 0));
    REQUIRE_OK(
        remora_win_accumulate(done_win, kTarget, 0, &one, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_unlock(done_win, kTarget));
  } else {
    // No deadline: if the origins cannot complete while the target computes, this loop never
    // ends and the test's CTest timeout fails it, however slow the machine.
    while (done.load(std::memory_order_acquire) != size - 1)
      std::this_thread::yield();  // "computing" politely: 2 cores, up to 8 ranks
    REQUIRE_OK(remora_win_sync(win));
    REQUIRE(load(base, kCounter) == static_cast<int64_t>(size - 1) * kRounds, "the counter is %lld",
            static_cast<long long>(load(base, kCounter)));
    for (size_t i = 0; i < kCount; ++i)
      REQUIRE(load(base, i * 8) == kRounds * origin_sum, "element %zu is %lld, expected %lld", i,
              static_cast<long long>(load(base, i * 8)),
              static_cast<long long>(kRounds * origin_sum));
  }
  REQUIRE_OK(remora_barrier());

  // Phase 2: the target accumulates into the same elements as well.
  const std::vector<int64_t> ones(kCount, 1);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round)
    REQUIRE_OK(remora_win_accumulate(win, kTarget, 0, ones.data(), kCount, REMORA_INT64,
                                     REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank == kTarget)
    for (size_t i = 0; i < kCount; ++i)
      REQUIRE(load(base, i * 8) == kRounds * (origin_sum + size), "phase 2: element %zu is %lld", i,
              static_cast<long long>(load(base, i * 8)));
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_win_free(&done_win));
  return remora_finalize() == REMORA_SUCCESS ? 0 : 1;
}
