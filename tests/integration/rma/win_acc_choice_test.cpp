// Which path `acc_strategy=auto` takes under contention, observed through the window's count of
// owner-computes requests (Window::owner_requests; an internal test, no timing): on one node
// auto never hands an accumulate to the target's agent, whatever the progress mode, so
// contended accumulates to a target that computes without calling Remora complete under manual
// progress too (docs/rma.md, "Choosing `auto`").
//   phase 1 (every target on this node): rank 0 computes (watches a word of a second window with
//            atomic loads, no Remora call) while the other ranks sum onto the same bytes of it at
//            once in lock_all: one element, 64 B and 512 B (one stripe of the lock table), 3 KiB
//            over two stripes, 24 KiB over six blocks, fetch_and_op on a counter, one-element
//            get_accumulate; then flush and add 1 to the word. Had auto sent owner requests,
//            the flush would wait for rank 0, which waits for the word: a hang, which the
//            test's timeout fails. Then the sums are exact and no rank sent a request.
//   phase 2: every rank (rank 0 too) sums onto the same bytes again: exact sums, and on one
//            node still no request.
// Argument 1: the window's info (default acc_strategy=auto). With acc_strategy=owner (thread or
// ghost progress only) every origin's count is exactly its calls to other ranks: the counter
// itself is checked.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "multirank.hpp"
#include "rma/window.hpp"

namespace {

constexpr int kTarget = 0;
constexpr int kRounds = 150;
struct Range {
  size_t offset;  // bytes
  size_t count;   // int64 elements
};
// One element, 64 B and 512 B within the first 4 KiB block; 3 KiB across the first block
// boundary; 24 KiB over blocks 2-7.
constexpr Range kRanges[] = {{0, 1}, {64, 8}, {512, 64}, {3072, 384}, {8192, 3072}};
constexpr size_t kCounter = 40960;
constexpr size_t kWindowBytes = kCounter + 64;
// Calls per round: one accumulate per range, a fetch_and_op and a get_accumulate.
constexpr uint64_t kCallsPerRound = std::size(kRanges) + 2;

int64_t load(const unsigned char* base, size_t offset) {
  return std::atomic_ref<int64_t>(
             *reinterpret_cast<int64_t*>(const_cast<unsigned char*>(base) + offset))
      .load(std::memory_order_acquire);
}

// kRounds rounds of every range, the counter and a read of element 0, adding rank + 1.
void sum_rounds(remora_win_t win, int rank) {
  const std::vector<int64_t> values(3072, rank + 1);
  const int64_t one = 1;
  for (int round = 0; round < kRounds; ++round) {
    for (const Range& range : kRanges)
      REQUIRE_OK(remora_win_accumulate(win, kTarget, range.offset, values.data(), range.count,
                                       REMORA_INT64, REMORA_OP_SUM, nullptr));
    int64_t before = -1;
    REQUIRE_OK(remora_win_fetch_and_op(win, kTarget, kCounter, &one, &before, REMORA_INT64,
                                       REMORA_OP_SUM));
    REQUIRE(before >= 0, "counter was %lld", static_cast<long long>(before));
    int64_t seen = -1;
    REQUIRE_OK(remora_win_get_accumulate(win, kTarget, 0, nullptr, &seen, 1, REMORA_INT64,
                                         REMORA_OP_NO_OP, nullptr));
    REQUIRE(seen >= 0, "element 0 read %lld", static_cast<long long>(seen));
  }
  REQUIRE_OK(remora_win_flush(win, kTarget));
}

void check_sums(const unsigned char* base, int64_t expected, int64_t counter, const char* when) {
  for (const Range& range : kRanges)
    for (size_t i = 0; i < range.count; ++i) {
      const int64_t value = load(base, range.offset + 8 * i);
      REQUIRE(value == expected, "%s: element %zu of the range at %zu is %lld, expected %lld", when,
              i, range.offset, static_cast<long long>(value), static_cast<long long>(expected));
    }
  REQUIRE(load(base, kCounter) == counter, "%s: the counter is %lld, expected %lld", when,
          static_cast<long long>(load(base, kCounter)), static_cast<long long>(counter));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  const std::string info = argc > 1 ? argv[1] : "acc_strategy=auto";
  const bool owner = info == "acc_strategy=owner";
  unsigned char* base = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(
      remora_win_allocate(kWindowBytes, 1, info.c_str(), reinterpret_cast<void**>(&base), &win));
  int64_t* done_word = nullptr;
  remora_win_t done_win = nullptr;
  REQUIRE_OK(remora_win_allocate(sizeof(int64_t), 1, "acc_strategy=native",
                                 reinterpret_cast<void**>(&done_word), &done_win));
  std::atomic_ref<int64_t> done(*done_word);
  bool one_node = true;
  for (int target = 0; target < size; ++target) {
    remora_win_path_t path = REMORA_WIN_PATH_TRANSPORT;
    REQUIRE_OK(remora_win_path(win, target, &path));
    if (path != REMORA_WIN_PATH_SHARED) one_node = false;
  }
  // What a strategy may hand to the target's agent: auto nothing on one node; owner every call
  // to another rank (this rank's own memory it updates itself).
  auto check_requests = [&](uint64_t calls_to_others, const char* when) {
    const uint64_t requests = static_cast<remora::rma::Window*>(win)->owner_requests();
    if (owner)
      REQUIRE(requests == calls_to_others, "%s: %llu owner requests, expected %llu", when,
              static_cast<unsigned long long>(requests),
              static_cast<unsigned long long>(calls_to_others));
    else if (one_node)
      REQUIRE(requests == 0, "%s: auto sent %llu owner requests on one node", when,
              static_cast<unsigned long long>(requests));
  };
  int64_t origins_add = 0;  // of ranks 1..size-1, each adding rank + 1
  for (int r = 1; r < size; ++r) origins_add += r + 1;
  const int64_t all_add = origins_add + 1;
  const uint64_t round_calls = rank != kTarget ? kRounds * kCallsPerRound : 0;

  // Phase 1: the target computes (on one node, or with an agent that serves owner requests).
  int64_t expected = 0;
  int64_t counter = 0;
  if (one_node || owner) {
    REQUIRE_OK(remora_barrier());
    REQUIRE_OK(remora_win_lock_all(win, 0));
    if (rank != kTarget) {
      sum_rounds(win, rank);
      const int64_t one = 1;
      REQUIRE_OK(remora_win_lock(done_win, REMORA_LOCK_SHARED, kTarget, 0));
      REQUIRE_OK(remora_win_accumulate(done_win, kTarget, 0, &one, 1, REMORA_INT64, REMORA_OP_SUM,
                                       nullptr));
      REQUIRE_OK(remora_win_unlock(done_win, kTarget));
    } else {
      // No deadline: if the origins cannot complete while the target computes, this loop never
      // ends and the test's timeout fails it, however slow the machine.
      while (done.load(std::memory_order_acquire) != size - 1)
        std::this_thread::yield();  // "computing" politely: 2 cores, up to 8 ranks
    }
    REQUIRE_OK(remora_win_unlock_all(win));
    REQUIRE_OK(remora_barrier());
    REQUIRE_OK(remora_win_sync(win));
    expected = kRounds * origins_add;
    counter = static_cast<int64_t>(size - 1) * kRounds;
    if (rank == kTarget) check_sums(base, expected, counter, "phase 1");
    check_requests(round_calls, "phase 1");
  }

  // Phase 2: every rank, the target too, onto the same bytes.
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(win, 0));
  sum_rounds(win, rank);
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank == kTarget)
    check_sums(base, expected + kRounds * all_add, counter + static_cast<int64_t>(size) * kRounds,
               "phase 2");
  check_requests(2 * round_calls, "phase 2");  // owner: phase 1 ran
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_win_free(&done_win));
  return remora_finalize() == REMORA_SUCCESS ? 0 : 1;
}
