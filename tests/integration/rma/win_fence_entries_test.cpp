// The immediate fence that opens an epoch without ending one (NOPRECEDE) and, on one node, does
// not act as a barrier (docs/rma.md, "Fence, immediate"): every access after it must still wait
// until its target has entered the fence. Each rank stores to its own window just before the
// opening fence, one rank per round after a pause, and every access of the epoch (put, get,
// fetch_and_op, and a lock, lock_all or PSCW epoch that closes the unused fence epoch) must find
// or keep those stores: a put that landed before them would be overwritten, a get would read the
// previous round. Many epochs in a row, with and without operations.
#include <unistd.h>

#include <cstdint>
#include <string>

#include "multirank.hpp"

namespace {

int rank_, size_;
constexpr int kRounds = 12;

int64_t value(int writer, int target, int round) {
  return 1000000 * round + 1000 * writer + target + 1;
}

// Slots 0..size-1: one per writer; slot size: a fetch_and_op counter.
void store_before_fence(int64_t* base, int round) {
  if (round % size_ == rank_) usleep(300);  // this rank enters late: the others must wait
  for (int w = 0; w < size_; ++w) base[w] = -round;
  base[size_] = 1000 * round;
}

void check_slots(const int64_t* base, int round, int counted) {
  for (int w = 0; w < size_; ++w)
    REQUIRE(base[w] == value(w, rank_, round), "round %d: slot %d holds %lld", round, w,
            static_cast<long long>(base[w]));
  REQUIRE(base[size_] == 1000 * round + counted, "round %d: counter %lld, expected %lld", round,
          static_cast<long long>(base[size_]), static_cast<long long>(1000 * round + counted));
}

// A get of every target's own store (made before its fence), then a put into every target and
// one fetch_and_op on every target's counter.
void access_everywhere(remora_win_t win, int round) {
  for (int t = 0; t < size_; ++t) {
    int64_t seen = 0;
    REQUIRE_OK(remora_win_get(win, t, static_cast<size_t>(size_), &seen, 1, REMORA_INT64));
    REQUIRE(seen >= 1000 * round, "round %d: target %d's counter %lld precedes its fence", round, t,
            static_cast<long long>(seen));
    const int64_t v = value(rank_, t, round);
    REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
    const int64_t one = 1;
    int64_t old = 0;
    REQUIRE_OK(remora_win_fetch_and_op(win, t, static_cast<size_t>(size_), &one, &old, REMORA_INT64,
                                       REMORA_OP_SUM));
  }
}

// Fence epochs: opening NOPRECEDE, operations, closing NOSUCCEED; every third round an unused
// pair (the benchmark's pattern) and a second NOPRECEDE fence before the operations.
void fence_rounds(remora_win_t win, int64_t* base) {
  for (int round = 1; round <= kRounds; ++round) {
    if (round % 3 == 0) {
      REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));
      REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
    }
    store_before_fence(base, round);
    REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));
    if (round % 3 == 1) REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));
    access_everywhere(win, round);
    REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
    check_slots(base, round, size_);
  }
}

// A passive or PSCW epoch right after an unused NOPRECEDE fence (which it closes).
enum class Then { Lock, LockAll, Pscw };

void then_rounds(remora_win_t win, int64_t* base, Then then) {
  remora_comm_t world = nullptr;
  remora_group_t group = nullptr;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_group(world, &group));  // every rank exposes to and accesses every rank
  for (int round = 1; round <= kRounds; ++round) {
    store_before_fence(base, round);
    REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));
    if (then == Then::Lock) {
      for (int t = 0; t < size_; ++t) {
        REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
        const int64_t v = value(rank_, t, round);
        REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
        REQUIRE_OK(remora_win_unlock(win, t));
      }
    } else if (then == Then::LockAll) {
      REQUIRE_OK(remora_win_lock_all(win, 0));
      for (int t = 0; t < size_; ++t) {
        const int64_t v = value(rank_, t, round);
        REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
      }
      REQUIRE_OK(remora_win_unlock_all(win));
    } else {
      REQUIRE_OK(remora_win_post(group, 0, win));
      REQUIRE_OK(remora_win_start(group, 0, win));
      for (int t = 0; t < size_; ++t) {
        const int64_t v = value(rank_, t, round);
        REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
      }
      REQUIRE_OK(remora_win_complete(win));
      REQUIRE_OK(remora_win_wait(win));
    }
    REQUIRE_OK(remora_barrier());  // every epoch above has ended at every target
    check_slots(base, round, 0);
    REQUIRE_OK(remora_barrier());  // the checks end before the next round's stores
  }
  REQUIRE_OK(remora_group_free(&group));
}

// Every kind of round on a window with the given accumulate strategy and an immediate fence.
void all_rounds(const char* strategy) {
  remora_win_t win = nullptr;
  const std::string info = std::string("fence=immediate,") + strategy;
  int64_t* base =
      remora_test::allocate_int64_window(static_cast<size_t>(size_ + 1), info.c_str(), &win);
  fence_rounds(win, base);
  for (Then then : {Then::Lock, Then::LockAll, Then::Pscw}) then_rounds(win, base, then);
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  return remora_test::run_per_acc_strategy(argc, argv, &rank_, &size_, all_rounds);
}
