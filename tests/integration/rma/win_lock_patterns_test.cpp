// Synchronisation patterns that MPI test suites build from RMA, written for Remora: an MCS
// queue lock from compare_and_swap and fetch_and_op protecting a non-atomic read-modify-write;
// concurrent appends to a linked list distributed over all ranks; and every rank holding
// exclusive locks on all targets at once (taken in rank order) while it increments a plain
// counter on each, so that lock contention really holds the lock. Each accumulate strategy.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
constexpr int64_t kNil = -1;

// Window slots (int64) of every rank.
constexpr size_t kMcsTail = 0;     // rank 0: the last rank in the MCS queue
constexpr size_t kMcsNext = 1;     // my successor in the queue
constexpr size_t kMcsBlocked = 2;  // 1 while I wait for my predecessor
constexpr size_t kCounter = 3;     // rank 0: protected by the MCS lock; all: by the locks
constexpr size_t kListTail = 4;    // rank 0: pointer to the list's last element
constexpr size_t kElements = 5;    // elements (value, next) from here; rank 0's first: the head
constexpr int kAppends = 12;
constexpr size_t kSlots = kElements + 2 * (kAppends + 1);

int64_t fetch_op(remora_win_t win, int target, size_t slot, remora_op_t op, int64_t operand) {
  int64_t old = 0;
  REQUIRE_OK(remora_win_fetch_and_op(win, target, slot, &operand, &old, REMORA_INT64, op));
  return old;
}
int64_t atomic_read(remora_win_t win, int target, size_t slot) {
  return fetch_op(win, target, slot, REMORA_OP_NO_OP, 0);
}

// Waits (polling, yielding the CPU) until target's slot differs from value.
int64_t wait_while(remora_win_t win, int target, size_t slot, int64_t value) {
  int64_t current = atomic_read(win, target, slot);
  while (current == value) {
    remora_test::progress_and_yield();
    current = atomic_read(win, target, slot);
  }
  return current;
}

void mcs_acquire(remora_win_t win) {
  fetch_op(win, rank_, kMcsNext, REMORA_OP_REPLACE, kNil);
  fetch_op(win, rank_, kMcsBlocked, REMORA_OP_REPLACE, 1);
  const int64_t predecessor = fetch_op(win, 0, kMcsTail, REMORA_OP_REPLACE, rank_);
  if (predecessor == kNil) return;
  fetch_op(win, static_cast<int>(predecessor), kMcsNext, REMORA_OP_REPLACE, rank_);
  REQUIRE_OK(remora_win_flush(win, static_cast<int>(predecessor)));
  wait_while(win, rank_, kMcsBlocked, 1);
}

void mcs_release(remora_win_t win) {
  int64_t successor = atomic_read(win, rank_, kMcsNext);
  if (successor == kNil) {
    const int64_t me = rank_, nil = kNil;
    int64_t tail = 0;
    REQUIRE_OK(remora_win_compare_and_swap(win, 0, kMcsTail, &nil, &me, &tail, REMORA_INT64));
    if (tail == me) return;                              // nobody queued behind me
    successor = wait_while(win, rank_, kMcsNext, kNil);  // one is linking itself in
  }
  fetch_op(win, static_cast<int>(successor), kMcsBlocked, REMORA_OP_REPLACE, 0);
  REQUIRE_OK(remora_win_flush(win, static_cast<int>(successor)));
}

// A plain get + put on rank 0's counter: any overlap of two holders loses an increment.
void plain_increment(remora_win_t win, int target) {
  int64_t value = 0;
  REQUIRE_OK(remora_win_get(win, target, kCounter, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, target));
  sched_yield();  // invite the others in, should the lock let them
  ++value;
  REQUIRE_OK(remora_win_put(win, target, kCounter, &value, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, target));
}

void mcs_lock(remora_win_t win, int64_t* base) {
  constexpr int kRounds = 30;
  if (rank_ == 0) base[kMcsTail] = kNil;
  base[kCounter] = 0;
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    mcs_acquire(win);
    plain_increment(win, 0);
    mcs_release(win);
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  if (rank_ == 0)
    REQUIRE(base[kCounter] == kRounds * size_, "MCS-protected counter %lld, expected %d",
            (long long)base[kCounter], kRounds * size_);
  REQUIRE_OK(remora_barrier());
}

int64_t pointer(int rank, size_t slot) {
  return (int64_t{rank} << 32) | static_cast<int64_t>(slot);
}
int pointer_rank(int64_t p) {
  return static_cast<int>(p >> 32);
}
size_t pointer_slot(int64_t p) {
  return static_cast<size_t>(p & 0xffffffff);
}
int64_t element_value(int rank, int i) {
  return 1000 * rank + i;
}

// Each rank appends kAppends elements that live in its own memory: it writes the element,
// swaps the tail pointer to it, then links the previous tail to it. Rank 0 then walks the list.
void linked_list(remora_win_t win, int64_t* base) {
  if (rank_ == 0) {
    base[kElements] = kNil;  // the head: value -1, no successor yet
    base[kElements + 1] = kNil;
    base[kListTail] = pointer(0, kElements);
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int i = 0; i < kAppends; ++i) {
    const size_t slot = kElements + 2 * static_cast<size_t>(i + 1);
    const int64_t element[2] = {element_value(rank_, i), kNil};
    REQUIRE_OK(remora_win_put(win, rank_, slot, element, 2, REMORA_INT64));
    REQUIRE_OK(remora_win_flush(win, rank_));
    const int64_t previous = fetch_op(win, 0, kListTail, REMORA_OP_REPLACE, pointer(rank_, slot));
    fetch_op(win, pointer_rank(previous), pointer_slot(previous) + 1, REMORA_OP_REPLACE,
             pointer(rank_, slot));
    REQUIRE_OK(remora_win_flush(win, pointer_rank(previous)));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  if (rank_ == 0) {
    std::vector<int> next_expected(static_cast<size_t>(size_), 0);
    int count = 0;
    REQUIRE_OK(remora_win_lock_all(win, 0));
    for (int64_t at = atomic_read(win, 0, kElements + 1); at != kNil; ++count) {
      REQUIRE(count < kAppends * size_, "the list has a cycle");
      int64_t element[2];
      REQUIRE_OK(remora_win_get(win, pointer_rank(at), pointer_slot(at), element, 2, REMORA_INT64));
      const int owner = pointer_rank(at);
      int& expected = next_expected[static_cast<size_t>(owner)];
      REQUIRE(element[0] == element_value(owner, expected),
              "element %d: %lld, expected rank %d's append %d", count, (long long)element[0], owner,
              expected);
      ++expected;
      at = element[1];
    }
    REQUIRE_OK(remora_win_unlock_all(win));
    REQUIRE(count == kAppends * size_, "the list holds %d elements, expected %d", count,
            kAppends * size_);
  }
  REQUIRE_OK(remora_barrier());
}

// Every rank, many times: lock every target exclusively (ascending ranks: no deadlock), do a
// plain increment on each, unlock them in reverse order.
void locks_on_every_target(remora_win_t win, int64_t* base) {
  constexpr int kRounds = 15;
  base[kCounter] = 0;
  REQUIRE_OK(remora_barrier());
  for (int round = 0; round < kRounds; ++round) {
    for (int t = 0; t < size_; ++t) REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
    for (int t = 0; t < size_; ++t) plain_increment(win, t);
    for (int t = size_ - 1; t >= 0; --t) REQUIRE_OK(remora_win_unlock(win, t));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE(base[kCounter] == kRounds * size_, "counter %lld, expected %d", (long long)base[kCounter],
          kRounds * size_);
  REQUIRE_OK(remora_barrier());
}

void run(const char* info) {
  remora_win_t win;
  int64_t* base = remora_test::allocate_int64_window(kSlots, info, &win);
  mcs_lock(win, base);
  linked_list(win, base);
  locks_on_every_target(win, base);
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  return remora_test::run_per_acc_strategy(argc, argv, &rank_, &size_, run);
}
