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

int rank_, size_;               // in the window's communicator
remora_comm_t comm_ = nullptr;  // the window's communicator
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
  remora_group_t group = nullptr;
  REQUIRE_OK(remora_comm_group(comm_, &group));  // every rank exposes to and accesses every rank
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
    // Every epoch above has ended at every target; then the checks end before the next
    // round's stores. (World barriers: every rank runs the same rounds.)
    REQUIRE_OK(remora_barrier());
    check_slots(base, round, 0);
    REQUIRE_OK(remora_barrier());
  }
  REQUIRE_OK(remora_group_free(&group));
}

// Every kind of round on a window of comm with the given accumulate strategy and an immediate
// fence.
void rounds_on(remora_comm_t comm, const std::string& info) {
  comm_ = comm;
  REQUIRE_OK(remora_comm_rank(comm, &rank_));
  REQUIRE_OK(remora_comm_size(comm, &size_));
  void* memory = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate_comm(comm, 8u * static_cast<size_t>(size_ + 1), 8, info.c_str(),
                                      &memory, &win));
  auto* base = static_cast<int64_t*>(memory);
  fence_rounds(win, base);
  for (Then then : {Then::Lock, Then::LockAll, Then::Pscw}) then_rounds(win, base, then);
  REQUIRE_OK(remora_win_free(&win));
}

// On every rank, then on the even and the odd ranks apart (a window's members are not the job;
// not for owner computes, which ghost progress does not serve on sub-communicators).
void all_rounds(const char* strategy) {
  const std::string info = std::string("fence=immediate,") + strategy;
  remora_comm_t world = nullptr, half = nullptr;
  REQUIRE_OK(remora_comm_world(&world));
  rounds_on(world, info);
  if (info.find("owner") != std::string::npos) return;
  REQUIRE_OK(remora_comm_split(world, remora_rank() % 2, 0, &half));
  rounds_on(half, info);
  REQUIRE_OK(remora_comm_free(&half));
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  return remora_test::run_per_acc_strategy(argc, argv, &rank, &size, all_rounds);
}
