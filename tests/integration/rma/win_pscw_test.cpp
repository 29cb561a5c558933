// Post-start-complete-wait: ring and all-to-one groups over many epochs (monotonic counters),
// accumulate ordering from one origin inside an epoch, start called before the matching post,
// empty groups, NOCHECK, remora_win_test, and every PSCW misuse. Run with REMORA_RMA_PSCW set
// to immediate and to deferred; each accumulate strategy through the window's info key.
#include <cstdint>
#include <string>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
remora_comm_t world_;
remora_group_t world_group_;

// The group of the given world ranks (the caller frees it).
remora_group_t group_of(const std::vector<int>& ranks) {
  remora_group_t group;
  REQUIRE_OK(remora_group_incl(world_group_, static_cast<int>(ranks.size()), ranks.data(), &group));
  return group;
}

int left() {
  return (rank_ + size_ - 1) % size_;
}
int right() {
  return (rank_ + 1) % size_;
}

// Each epoch: expose to the left neighbour, access the right one; the origin writes round-
// dependent values and increments a counter, the target checks them after wait.
void ring_epochs(remora_win_t win, const int64_t* base, int first_round, bool use_test) {
  remora_group_t to_left = group_of({left()}), to_right = group_of({right()});
  for (int round = first_round; round < first_round + 20; ++round) {
    REQUIRE_OK(remora_win_post(to_left, 0, win));
    REQUIRE_OK(remora_win_start(to_right, 0, win));
    const int64_t v = 1000 * round + rank_, one = 1;
    REQUIRE_OK(remora_win_put(win, right(), 0, &v, 1, REMORA_INT64));
    REQUIRE_OK(
        remora_win_accumulate(win, right(), 1, &one, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    // Accumulates from one origin are ordered: REPLACE then SUM leaves v + 5.
    REQUIRE_OK(
        remora_win_accumulate(win, right(), 2, &v, 1, REMORA_INT64, REMORA_OP_REPLACE, nullptr));
    const int64_t five = 5;
    REQUIRE_OK(
        remora_win_accumulate(win, right(), 2, &five, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_complete(win));
    if (use_test) {
      int flag = 0;
      while (true) {
        REQUIRE_OK(remora_win_test(win, &flag));
        if (flag) break;
        sched_yield();
      }
    } else {
      REQUIRE_OK(remora_win_wait(win));
    }
    const int64_t expected = 1000 * round + left();
    REQUIRE(base[0] == expected, "round %d: slot 0 holds %lld, expected %lld", round,
            (long long)base[0], (long long)expected);
    REQUIRE(base[1] == round, "round %d: counter %lld", round, (long long)base[1]);
    REQUIRE(base[2] == expected + 5, "round %d: ordered accumulates gave %lld", round,
            (long long)base[2]);
  }
  REQUIRE_OK(remora_group_free(&to_left));
  REQUIRE_OK(remora_group_free(&to_right));
}

// Rank 0 accesses every other rank, which exposes to rank 0 only; rank 0 also reads back with
// get inside the epoch (valid after complete in deferred mode). Ranks > 0 post only after rank 0
// has called start (and, deferred, issued its operations): start comes before post.
void start_before_post(remora_win_t win, const int64_t* base, bool deferred) {
  std::vector<int> others;
  for (int r = 1; r < size_; ++r) others.push_back(r);
  remora_group_t targets = group_of(others), origin = group_of({0});
  remora_request_t arrived;
  std::vector<int64_t> got(static_cast<size_t>(size_), -1);
  if (rank_ == 0) {
    if (!deferred) REQUIRE_OK(remora_ibarrier(world_, REMORA_COLL_AUTO, &arrived));
    REQUIRE_OK(remora_win_start(targets, 0, win));
    for (int t : others) {
      const int64_t v = 7000 + t;
      REQUIRE_OK(remora_win_put(win, t, 3, &v, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_get(win, t, 4, &got[static_cast<size_t>(t)], 1, REMORA_INT64));
    }
    if (deferred) REQUIRE_OK(remora_ibarrier(world_, REMORA_COLL_AUTO, &arrived));
    REQUIRE_OK(remora_win_complete(win));
    for (int t : others)
      REQUIRE(got[static_cast<size_t>(t)] == 100 + t, "get from %d: %lld", t,
              (long long)got[static_cast<size_t>(t)]);
    REQUIRE_OK(remora_request_wait(&arrived));
  } else {
    REQUIRE_OK(remora_ibarrier(world_, REMORA_COLL_AUTO, &arrived));
    REQUIRE_OK(remora_request_wait(&arrived));
    REQUIRE_OK(remora_win_post(origin, 0, win));
    REQUIRE_OK(remora_win_wait(win));
    REQUIRE(base[3] == 7000 + rank_, "slot 3 holds %lld", (long long)base[3]);
  }
  REQUIRE_OK(remora_group_free(&targets));
  REQUIRE_OK(remora_group_free(&origin));
}

void empty_groups(remora_win_t win) {
  remora_group_t empty = group_of({});
  for (int i = 0; i < 3; ++i) {
    REQUIRE_OK(remora_win_post(empty, 0, win));
    REQUIRE_OK(remora_win_start(empty, 0, win));
    const int64_t v = 1;
    REQUIRE_ERROR(remora_win_put(win, rank_, 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE,
                  "not in the group of remora_win_start");
    REQUIRE_OK(remora_win_complete(win));
    int flag = 0;
    REQUIRE_OK(remora_win_test(win, &flag));
    REQUIRE(flag == 1, "an empty exposure epoch ends at once");
  }
  REQUIRE_OK(remora_win_post(empty, 0, win));
  REQUIRE_OK(remora_win_wait(win));
  REQUIRE_OK(remora_group_free(&empty));
}

// Every rank exposes to every rank; after a barrier the posts have happened, so start may
// assert NOCHECK. Each origin adds its rank + 1 to slot 5 of every target.
void nocheck_epoch(remora_win_t win, const int64_t* base) {
  std::vector<int> all;
  for (int r = 0; r < size_; ++r) all.push_back(r);
  remora_group_t everyone = group_of(all);
  REQUIRE_OK(remora_win_post(everyone, REMORA_MODE_NOCHECK, win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_start(everyone, REMORA_MODE_NOCHECK, win));
  const int64_t mine = rank_ + 1;
  for (int t = 0; t < size_; ++t)
    REQUIRE_OK(remora_win_accumulate(win, t, 5, &mine, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_complete(win));
  REQUIRE_OK(remora_win_wait(win));
  const int64_t expected = static_cast<int64_t>(size_) * (size_ + 1) / 2;
  REQUIRE(base[5] == expected, "NOCHECK sum %lld, expected %lld", (long long)base[5],
          (long long)expected);
  REQUIRE_OK(remora_group_free(&everyone));
}

void misuse(remora_win_t win) {
  remora_group_t self = group_of({rank_}), empty = group_of({});
  const int64_t v = 1;
  int flag = 0;
  REQUIRE_ERROR(remora_win_complete(win), REMORA_ERR_STATE, "remora_win_start was not called");
  REQUIRE_ERROR(remora_win_wait(win), REMORA_ERR_STATE, "remora_win_post was not called");
  REQUIRE_ERROR(remora_win_test(win, &flag), REMORA_ERR_STATE, "remora_win_post was not called");
  REQUIRE_ERROR(remora_win_test(win, nullptr), REMORA_ERR_ARG, "flag is NULL");
  REQUIRE_ERROR(remora_win_start(REMORA_GROUP_NULL, 0, win), REMORA_ERR_ARG,
                "group is REMORA_GROUP_NULL");
  REQUIRE_ERROR(remora_win_post(reinterpret_cast<remora_group_t>(&flag), 0, win), REMORA_ERR_ARG,
                "is not a live group");
  REQUIRE_ERROR(remora_win_start(self, REMORA_MODE_NOPUT, win), REMORA_ERR_ARG, "assert_flags=4");
  REQUIRE_ERROR(remora_win_post(self, REMORA_MODE_NOSUCCEED, win), REMORA_ERR_ARG,
                "assert_flags=16");
  REQUIRE_ERROR(remora_win_post(self, 0, nullptr), REMORA_ERR_ARG, "win is NULL");
  // An operation outside the access epoch.
  REQUIRE_ERROR(remora_win_put(win, rank_, 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE,
                "no access epoch");

  REQUIRE_OK(remora_win_post(self, 0, win));
  REQUIRE_ERROR(remora_win_post(self, 0, win), REMORA_ERR_STATE, "already called");
  REQUIRE_ERROR(remora_win_fence(win, 0), REMORA_ERR_STATE, "exposure epoch is open");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "exposure epoch is open");
  REQUIRE_OK(remora_win_start(self, 0, win));
  REQUIRE_ERROR(remora_win_start(self, 0, win), REMORA_ERR_STATE, "already called");
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, rank_, 0), REMORA_ERR_STATE,
                "access epoch is open");
  REQUIRE_ERROR(remora_win_lock_all(win, 0), REMORA_ERR_STATE, "access epoch is open");
  REQUIRE_ERROR(remora_win_fence(win, 0), REMORA_ERR_STATE, "access epoch is open");
  REQUIRE_ERROR(remora_win_flush(win, rank_), REMORA_ERR_STATE, "not locked");
  if (size_ > 1)
    REQUIRE_ERROR(remora_win_put(win, right(), 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE,
                  "not in the group of remora_win_start");
  REQUIRE_OK(remora_win_put(win, rank_, 6, &v, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_complete(win));
  REQUIRE_OK(remora_win_wait(win));
  REQUIRE_ERROR(remora_win_put(win, rank_, 6, &v, 1, REMORA_INT64), REMORA_ERR_STATE,
                "no access epoch");

  // Start while holding a lock; a fence epoch with operations.
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, rank_, 0));
  REQUIRE_ERROR(remora_win_start(self, 0, win), REMORA_ERR_STATE, "passive-target epoch is open");
  REQUIRE_OK(remora_win_unlock(win, rank_));
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE_OK(remora_win_put(win, rank_, 6, &v, 1, REMORA_INT64));
  REQUIRE_ERROR(remora_win_start(empty, 0, win), REMORA_ERR_STATE, "fence epoch");
  REQUIRE_ERROR(remora_win_post(empty, 0, win), REMORA_ERR_STATE, "fence epoch");
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_group_free(&self));
  REQUIRE_OK(remora_group_free(&empty));
}

void run(const std::string& info, bool deferred) {
  remora_win_t win;
  int64_t* base = remora_test::allocate_int64_window(8, info.c_str(), &win);
  for (int i = 0; i < 8; ++i) base[i] = 0;
  if (rank_ > 0) base[4] = 100 + rank_;
  REQUIRE_OK(remora_barrier());
  ring_epochs(win, base, 1, false);
  ring_epochs(win, base, 21, true);  // counters keep growing: epochs never reset anything
  start_before_post(win, base, deferred);
  empty_groups(win);
  nocheck_epoch(win, base);
  misuse(win);
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  REQUIRE_OK(remora_comm_world(&world_));
  REQUIRE_OK(remora_comm_group(world_, &world_group_));
  const char* mode = std::getenv("REMORA_RMA_PSCW");
  const bool deferred = mode != nullptr && std::string(mode) == "deferred";
  remora_test::for_each_acc_strategy([deferred](const char* info) { run(info, deferred); });
  // The info key overrides the environment, and ranks may pick different modes.
  run(rank_ % 2 == 0 ? "pscw=deferred" : "pscw=immediate", rank_ % 2 == 0);
  REQUIRE_OK(remora_group_free(&world_group_));
  REQUIRE_OK(remora_finalize());
  return 0;
}
