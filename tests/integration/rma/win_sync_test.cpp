// Windows: creation and queries (remora_win_shared_query included); puts and gets are visible at
// the end of each kind of epoch (fence with its asserts, lock/unlock, lock_all with flush); remote
// completion after flush is observed by a third rank.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;

// Rank r's window holds one int64 slot per rank (disp_unit 8) and, to make per-rank sizes
// and units differ, r extra bytes.
void check_queries(remora_win_t win) {
  for (int r = 0; r < size_; ++r) {
    size_t bytes = 0, unit = 0;
    REQUIRE_OK(remora_win_size(win, r, &bytes));
    REQUIRE_OK(remora_win_disp_unit(win, r, &unit));
    REQUIRE(bytes == 8u * static_cast<size_t>(size_) + static_cast<size_t>(r), "size %zu", bytes);
    REQUIRE(unit == 8, "disp_unit %zu", unit);
  }
}

int64_t value(int writer, int target, int round) {
  return 1000000 * round + 1000 * writer + target + 1;
}

// Every rank puts value(me, t, round) into slot me of every target t; after the epoch every
// rank finds value(w, me, round) in its slot w, and a get of every target's slots agrees.
void check_all_slots(const int64_t* base, int round) {
  for (int w = 0; w < size_; ++w)
    REQUIRE(base[w] == value(w, rank_, round), "slot %d holds %lld", w, (long long)base[w]);
}

void put_everywhere(remora_win_t win, int round) {
  for (int t = 0; t < size_; ++t) {
    const int64_t v = value(rank_, t, round);
    REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
  }
}

void get_everywhere(remora_win_t win, int round) {
  std::vector<int64_t> slots(static_cast<size_t>(size_));
  for (int t = 0; t < size_; ++t) {
    REQUIRE_OK(remora_win_get(win, t, 0, slots.data(), slots.size(), REMORA_INT64));
    for (int w = 0; w < size_; ++w)
      REQUIRE(slots[static_cast<size_t>(w)] == value(w, t, round), "target %d slot %d: %lld", t, w,
              (long long)slots[static_cast<size_t>(w)]);
  }
}

void fence_epochs(remora_win_t win, const int64_t* base) {
  // Opening fence asserts nothing precedes; closing fence asserts nothing follows.
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));
  put_everywhere(win, 1);
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSTORE));
  check_all_slots(base, 1);
  get_everywhere(win, 1);
  REQUIRE_OK(remora_win_fence(win, 0));  // the gets above end before anyone puts again
  put_everywhere(win, 2);
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPUT | REMORA_MODE_NOSUCCEED));
  check_all_slots(base, 2);
  // After NOSUCCEED no epoch is open; NOPRECEDE|NOSUCCEED synchronises nothing and opens none.
  const int64_t v = 0;
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE, "no access");
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE | REMORA_MODE_NOSUCCEED));
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE, "no access");
  REQUIRE_OK(remora_barrier());
}

// remora_win_shared_query: every rank this process maps (remora_win_path says so) is read
// through the returned pointer and holds the values of the last fence round; every other rank
// is refused with the reason. A barrier ends the reads before anyone writes again.
void shared_query(remora_win_t win) {
  for (int r = 0; r < size_; ++r) {
    remora_win_path_t path;
    REQUIRE_OK(remora_win_path(win, r, &path));
    size_t bytes = 0, unit = 0;
    void* memory = nullptr;
    if (path != REMORA_WIN_PATH_SHARED) {
      REQUIRE_ERROR(remora_win_shared_query(win, r, &bytes, &unit, &memory), REMORA_ERR_UNSUPPORTED,
                    "is not mapped by this process");
      continue;
    }
    REQUIRE_OK(remora_win_shared_query(win, r, &bytes, &unit, &memory));
    REQUIRE(bytes == 8u * static_cast<size_t>(size_) + static_cast<size_t>(r), "size %zu", bytes);
    REQUIRE(unit == 8, "disp_unit %zu", unit);
    const auto* slots = static_cast<const int64_t*>(memory);
    for (int w = 0; w < size_; ++w)
      REQUIRE(slots[w] == value(w, r, 2), "rank %d slot %d read through the shared pointer: %lld",
              r, w, static_cast<long long>(slots[w]));
  }
  size_t bytes, unit;
  void* memory;
  REQUIRE_ERROR(remora_win_shared_query(win, size_, &bytes, &unit, &memory), REMORA_ERR_RANK,
                "rank=");
  REQUIRE_ERROR(remora_win_shared_query(win, 0, &bytes, &unit, nullptr), REMORA_ERR_ARG, "base");
  REQUIRE_OK(remora_barrier());
}

void lock_epochs(remora_win_t win, const int64_t* base) {
  for (int t = 0; t < size_; ++t) {
    const int target = (rank_ + t) % size_;  // spread the first locks over the targets
    REQUIRE_OK(remora_win_lock(win, t % 2 ? REMORA_LOCK_SHARED : REMORA_LOCK_EXCLUSIVE, target, 0));
    const int64_t v = value(rank_, target, 3);
    REQUIRE_OK(remora_win_put(win, target, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, target));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  check_all_slots(base, 3);
  REQUIRE_OK(remora_barrier());
}

void lock_all_epochs(remora_win_t win, const int64_t* base) {
  REQUIRE_OK(remora_win_lock_all(win, 0));
  put_everywhere(win, 4);
  REQUIRE_OK(remora_win_flush_local_all(win));
  REQUIRE_OK(remora_win_flush_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  check_all_slots(base, 4);
  get_everywhere(win, 4);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
}

// Waits until the flag (disp 7) in rank's window reaches round.
void wait_for(remora_win_t win, int rank, int64_t round) {
  int64_t seen = 0;
  for (;;) {
    REQUIRE_OK(
        remora_win_fetch_and_op(win, rank, 7, nullptr, &seen, REMORA_INT64, REMORA_OP_NO_OP));
    if (seen >= round) return;
    remora_test::progress_and_yield();
  }
}

// Rank 0 accumulates into rank 1's window and flushes, then tells rank 2 through a flag in
// rank 2's window; rank 2 must then see the data. Run for every strategy.
void third_rank_sees_flush(const char* info) {
  if (size_ < 3) return;
  remora_win_t win;
  int64_t* base = nullptr;
  REQUIRE_OK(remora_win_allocate(64, 8, info, reinterpret_cast<void**>(&base), &win));
  constexpr int kRounds = 20;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 1; round <= kRounds; ++round) {
    const int64_t data = round, one = 1;
    if (rank_ == 0) {
      REQUIRE_OK(
          remora_win_accumulate(win, 1, 0, &data, 1, REMORA_INT64, REMORA_OP_REPLACE, nullptr));
      REQUIRE_OK(remora_win_put(win, 1, 1, &data, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(win, 1));
      REQUIRE_OK(remora_win_accumulate(win, 2, 7, &one, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
      REQUIRE_OK(remora_win_flush(win, 2));
      wait_for(win, 0, round);  // rank 2's acknowledgement: the next round may overwrite
    } else if (rank_ == 2) {
      wait_for(win, 2, round);
      int64_t at_target[2] = {0, 0};
      REQUIRE_OK(remora_win_get(win, 1, 0, at_target, 2, REMORA_INT64));
      REQUIRE(at_target[0] == round && at_target[1] == round, "round %d: rank 1 holds %lld %lld",
              round, (long long)at_target[0], (long long)at_target[1]);
      REQUIRE_OK(remora_win_accumulate(win, 0, 7, &one, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
      REQUIRE_OK(remora_win_flush(win, 0));
    }
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();

  remora_win_t win;
  int64_t* base = nullptr;
  REQUIRE_OK(remora_win_allocate(8u * static_cast<size_t>(size_) + static_cast<size_t>(rank_), 8,
                                 nullptr, reinterpret_cast<void**>(&base), &win));
  for (int w = 0; w < size_; ++w) REQUIRE(base[w] == 0, "fresh window memory is not zero");
  void* queried = nullptr;
  REQUIRE_OK(remora_win_base(win, &queried));
  REQUIRE(queried == base);
  check_queries(win);

  fence_epochs(win, base);
  shared_query(win);
  lock_epochs(win, base);
  lock_all_epochs(win, base);
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE(win == nullptr);

  for (const char* info : {"acc_strategy=native", "acc_strategy=caller", "acc_strategy=owner"})
    third_rank_sees_flush(info);

  REQUIRE_OK(remora_finalize());
  return 0;
}
