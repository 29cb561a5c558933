// Application-bypass reduce, wake-ups (paper 002: "wake-ups requested only while descriptors
// are pending"). On 4 ranks rooted at 0, rank 2 is an internal node with one child, rank 3.
//  - Early: rank 3's message reaches rank 2 while rank 2 has no descriptor and its progress
//    thread sleeps. The count of message wake-ups of that thread must not change, and the
//    reduction must still complete once rank 2 enters it.
//  - Late: rank 2 has returned with a descriptor pending and makes no Remora call until the
//    root has the result: rank 3's message must wake its progress thread, which completes the
//    reduction (the count of wake-ups rises).
//  - Early, application asleep: as Early, but rank 2's application thread sleeps in the
//    transport (as in an unrelated wait, e.g. a barrier) when rank 3's message comes: it must
//    not be woken by it either (the count of application wake-ups by messages stays), and
//    the reduction completes once rank 2 enters it.
// The ranks sequence the steps through their control-block `exchange` words (used only during
// start-up and segment allocation, neither of which happens here), so that no Remora call, and
// no message, disturbs what is counted.
#include <sched.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "bypass_test_support.hpp"

namespace {

using bypass_test::node;
using bypass_test::runtime;

constexpr int kRounds = 100;
constexpr size_t kCount = 4;
constexpr int kRoot = 0, kParent = 2, kChild = 3;

remora::shm::RankSlot& slot(int rank) {
  return node().control_block().rank(rank);
}

template <typename F>
void wait_for(const F& condition) {
  while (!condition()) sched_yield();
}

// Rank `from` tells the others it reached step `step`, and they wait for it.
void signal(int from, uint64_t step) {
  slot(from).exchange.store(step, std::memory_order_release);
}
void wait_signal(int from, uint64_t step) {
  wait_for([&] { return slot(from).exchange.load(std::memory_order_acquire) == step; });
}

// This rank's progress thread is inside sleep(), registered as a sleeper.
void wait_progress_thread_asleep() {
  const int me = remora_rank();
  wait_for([&] { return slot(me).progress.sleepers.load(std::memory_order_seq_cst) > 0; });
}

void reduce(int round, int rank, int size) {
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  std::vector<int64_t> send(kCount), recv(kCount);
  for (size_t i = 0; i < kCount; ++i) send[i] = round * 100 + rank * 10 + static_cast<int64_t>(i);
  REQUIRE_OK(remora_reduce(send.data(), recv.data(), kCount, REMORA_INT64, REMORA_OP_SUM, kRoot,
                           world, REMORA_COLL_APPLICATION_BYPASS));
  if (rank != kRoot) return;
  for (size_t i = 0; i < kCount; ++i) {
    int64_t expected = 0;
    for (int r = 0; r < size; ++r) expected += round * 100 + r * 10 + static_cast<int64_t>(i);
    REQUIRE(recv[i] == expected, "round %d element %zu: %lld, expected %lld", round, i,
            static_cast<long long>(recv[i]), static_cast<long long>(expected));
  }
}

// Steps are numbered so that each round and phase uses fresh values.
uint64_t step(int phase, int round, int part) {
  return static_cast<uint64_t>(phase) * 1000000 + static_cast<uint64_t>(round) * 10 +
         static_cast<uint64_t>(part);
}

uint64_t early(int rank, int size) {
  uint64_t woken = 0;
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_barrier());
    if (rank == kParent) {
      wait_progress_thread_asleep();
      const uint64_t before = node().progress_wakeups();
      signal(kParent, step(1, round, 1));  // child: send now
      wait_signal(kChild, step(1, round, 2));
      woken += node().progress_wakeups() - before;
    } else if (rank == kChild) {
      wait_signal(kParent, step(1, round, 1));
    }
    reduce(round, rank, size);  // a leaf sends and returns at once
    if (rank == kChild) signal(kChild, step(1, round, 2));
  }
  return woken;
}

uint64_t early_application_asleep(int rank, int size) {
  uint64_t woken = 0;
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_barrier());
    if (rank == kParent) {
      const uint64_t before = node().application_wakeups();
      signal(kParent, step(3, round, 1));
      // Sleeps until the child says it has sent (it wakes us itself, not by a message); other
      // ends of a sleep (a timeout, the progress thread's own wake) just sleep again.
      const auto sent = [&] {
        return slot(kChild).exchange.load(std::memory_order_acquire) == step(3, round, 2);
      };
      while (!sent()) {
        node().sleep(1000000000, sent, remora::transport::Sleeper::Application);
        if (!sent()) sched_yield();  // the message in our queue ends each sleep at once
      }
      woken += node().application_wakeups() - before;
    } else if (rank == kChild) {
      wait_signal(kParent, step(3, round, 1));
      wait_for(
          [] { return slot(kParent).application.sleepers.load(std::memory_order_seq_cst) > 0; });
    }
    reduce(round, rank, size);  // the leaf sends while its parent sleeps
    if (rank == kChild) {
      signal(kChild, step(3, round, 2));
      node().control_block().wake(kParent, remora::shm::WakeTarget::Application);
    }
  }
  return woken;
}

uint64_t late(int rank, int size) {
  uint64_t woken = 0;
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_barrier());
    if (rank == kChild) wait_signal(kParent, step(2, round, 1));
    reduce(round, rank, size);
    if (rank == kParent) {
      // Returned with a descriptor pending; from here no Remora call until the root is done.
      REQUIRE(runtime().collectives->bypass_reduce().pending() == 1,
              "round %d: rank 2 returned without a pending descriptor", round);
      wait_progress_thread_asleep();
      const uint64_t before = node().progress_wakeups();
      signal(kParent, step(2, round, 1));
      wait_signal(kRoot, step(2, round, 2));
      woken += node().progress_wakeups() - before;
    }
    if (rank == kRoot) signal(kRoot, step(2, round, 2));
  }
  return woken;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(size == 4, "needs 4 ranks, has %d", size);
  const uint64_t early_wakeups = early(rank, size);
  const uint64_t late_wakeups = late(rank, size);
  const uint64_t application_wakeups = early_application_asleep(rank, size);
  if (rank == kParent) {
    std::printf(
        "rank 2: progress-thread wake-ups by messages: %llu in %d early rounds, %llu in "
        "%d late rounds\n",
        static_cast<unsigned long long>(early_wakeups), kRounds,
        static_cast<unsigned long long>(late_wakeups), kRounds);
    REQUIRE(early_wakeups == 0, "early bypass messages woke the idle progress thread %llu times",
            static_cast<unsigned long long>(early_wakeups));
    // It slept when each message was sent; it may have been between two timed sleeps when one
    // arrived (then it found the message without a wake-up), but not every time.
    REQUIRE(late_wakeups > 0, "late messages never woke the sleeping progress thread");
    std::printf("rank 2: application wake-ups by early messages: %llu in %d rounds\n",
                static_cast<unsigned long long>(application_wakeups), kRounds);
    REQUIRE(application_wakeups == 0,
            "early bypass messages woke the sleeping application thread %llu times",
            static_cast<unsigned long long>(application_wakeups));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE(runtime().collectives->bypass_reduce().pending() == 0, "descriptors left behind");
  REQUIRE_OK(remora_finalize());
  return 0;
}
