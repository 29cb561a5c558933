// Windows on communicators (remora_win_allocate_comm): the even and the odd ranks each work on
// a window of their own at the same time, then the ranks other than 0 on one while rank 0 stays
// away; fence (immediate and deferred), accumulate, get, lock (exclusive and shared), PSCW and
// the queries, all addressed by ranks of the window's communicator. Then bad arguments. Each
// accumulate strategy through the window's info key.
#include <cstdint>
#include <string>
#include <vector>

#include "multirank.hpp"
#include "sub_comm.hpp"

namespace {

int rank_, size_;
remora_comm_t world_;

using Comm = remora_test::SubComm;
using remora_test::split_world;

// A window of `slots` int64 per rank of c (disp_unit 8); the caller's memory in *base.
remora_win_t allocate(const Comm& c, size_t slots, const std::string& info, int64_t** base) {
  remora_win_t win = nullptr;
  void* memory = nullptr;
  REQUIRE_OK(remora_win_allocate_comm(c.comm, slots * sizeof(int64_t), sizeof(int64_t),
                                      info.c_str(), &memory, &win));
  *base = static_cast<int64_t*>(memory);
  int size = 0, rank = -1;
  REQUIRE_OK(remora_win_comm_size(win, &size));
  REQUIRE_OK(remora_win_comm_rank(win, &rank));
  REQUIRE(size == c.size && rank == c.rank, "window ranks %d of %d, comm %d of %d", rank, size,
          c.rank, c.size);
  for (int r = 0; r < c.size; ++r) {
    size_t bytes = 0, unit = 0;
    REQUIRE_OK(remora_win_size(win, r, &bytes));
    REQUIRE_OK(remora_win_disp_unit(win, r, &unit));
    REQUIRE(bytes == slots * sizeof(int64_t) && unit == sizeof(int64_t), "rank %d: %zu/%zu", r,
            bytes, unit);
  }
  return win;
}

// Fence epochs: every rank puts its comm rank and world rank into its slots at every target,
// accumulates into target 0, and gets the right neighbour's slot back after the fence.
void fence_epochs(const Comm& c, const std::string& info) {
  const size_t slots = 2 * static_cast<size_t>(c.size) + 1;
  int64_t* base = nullptr;
  remora_win_t win = allocate(c, slots, info, &base);
  const int rounds = 5;
  REQUIRE_OK(remora_win_fence(win, 0));
  for (int round = 1; round <= rounds; ++round) {
    for (int t = 0; t < c.size; ++t) {
      const int64_t mine[2] = {1000 * round + c.rank, rank_};
      REQUIRE_OK(remora_win_put(win, t, 2 * static_cast<size_t>(c.rank), mine, 2, REMORA_INT64));
    }
    const int64_t one = 1;
    REQUIRE_OK(
        remora_win_accumulate(win, 0, slots - 1, &one, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_fence(win, 0));
    for (int r = 0; r < c.size; ++r)
      REQUIRE(base[2 * r] == 1000 * round + r, "round %d: slot of comm rank %d holds %lld", round,
              r, static_cast<long long>(base[2 * r]));
    if (c.rank == 0)
      REQUIRE(base[slots - 1] == static_cast<int64_t>(round) * c.size, "round %d: counter %lld",
              round, static_cast<long long>(base[slots - 1]));
    const int right = (c.rank + 1) % c.size;
    int64_t got[2] = {-1, -1};
    REQUIRE_OK(remora_win_get(win, right, 2 * static_cast<size_t>(c.rank), got, 2, REMORA_INT64));
    REQUIRE_OK(remora_win_fence(win, 0));
    REQUIRE(got[0] == 1000 * round + c.rank && got[1] == rank_, "round %d: got %lld %lld", round,
            static_cast<long long>(got[0]), static_cast<long long>(got[1]));
  }
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_win_free(&win));
}

// Passive target: a counter at each target under an exclusive lock, read back under a shared
// lock once every rank of the communicator is done.
void lock_epochs(const Comm& c, const std::string& info) {
  int64_t* base = nullptr;
  remora_win_t win = allocate(c, 1, info, &base);
  const int increments = 20;
  for (int i = 0; i < increments; ++i)
    for (int t = 0; t < c.size; ++t) {
      int64_t old = 0;
      const int64_t one = 1;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
      REQUIRE_OK(remora_win_fetch_and_op(win, t, 0, &one, &old, REMORA_INT64, REMORA_OP_SUM));
      REQUIRE_OK(remora_win_unlock(win, t));
    }
  REQUIRE_OK(remora_comm_barrier(c.comm, REMORA_COLL_AUTO));
  for (int t = 0; t < c.size; ++t) {
    int64_t value = 0;
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, t, 0));
    REQUIRE_OK(remora_win_get(win, t, 0, &value, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, t));
    REQUIRE(value == static_cast<int64_t>(increments) * c.size, "target %d counts %lld", t,
            static_cast<long long>(value));
  }
  REQUIRE_OK(remora_comm_barrier(c.comm, REMORA_COLL_AUTO));  // everyone has read
  REQUIRE_OK(remora_win_lock_all(win, 0));
  const int64_t seven = 7;
  REQUIRE_OK(remora_win_accumulate(win, (c.rank + 1) % c.size, 0, &seven, 1, REMORA_INT64,
                                   REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_flush_all(win));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_comm_barrier(c.comm, REMORA_COLL_AUTO));
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE(*base == static_cast<int64_t>(increments) * c.size + 7, "after lock_all: %lld",
          static_cast<long long>(*base));
  REQUIRE_OK(remora_comm_barrier(c.comm, REMORA_COLL_AUTO));
  REQUIRE_OK(remora_win_free(&win));
}

// PSCW with groups made from the communicator's group: each rank exposes to its left
// neighbour and accesses its right one (ranks of the communicator).
void pscw_epochs(const Comm& c, const std::string& info) {
  int64_t* base = nullptr;
  remora_win_t win = allocate(c, 1, info, &base);
  remora_group_t comm_group, to_left, to_right;
  REQUIRE_OK(remora_comm_group(c.comm, &comm_group));
  const int left = (c.rank + c.size - 1) % c.size, right = (c.rank + 1) % c.size;
  REQUIRE_OK(remora_group_incl(comm_group, 1, &left, &to_left));
  REQUIRE_OK(remora_group_incl(comm_group, 1, &right, &to_right));
  for (int round = 1; round <= 5; ++round) {
    REQUIRE_OK(remora_win_post(to_left, 0, win));
    REQUIRE_OK(remora_win_start(to_right, 0, win));
    const int64_t v = 100 * round + c.rank;
    REQUIRE_OK(remora_win_put(win, right, 0, &v, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_complete(win));
    REQUIRE_OK(remora_win_wait(win));
    REQUIRE(*base == 100 * round + left, "round %d: %lld from the left", round,
            static_cast<long long>(*base));
  }
  REQUIRE_OK(remora_group_free(&to_left));
  REQUIRE_OK(remora_group_free(&to_right));
  REQUIRE_OK(remora_group_free(&comm_group));
  REQUIRE_OK(remora_win_free(&win));
}

void exercise(const Comm& c, const std::string& info) {
  fence_epochs(c, info);
  fence_epochs(c, info + ",fence=deferred");  // the reduce-scatter runs over the communicator
  lock_epochs(c, info);
  lock_epochs(c, info + ",lock=deferred");
  pscw_epochs(c, info);
  pscw_epochs(c, info + ",pscw=deferred");
}

void bad_arguments(const Comm& c) {
  remora_win_t win = nullptr;
  REQUIRE_ERROR(remora_win_allocate_comm(REMORA_COMM_NULL, 8, 8, nullptr, nullptr, &win),
                REMORA_ERR_ARG, "comm is REMORA_COMM_NULL");
  remora_comm_t stale = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_dup(c.comm, &stale));
  const remora_comm_t freed = stale;
  REQUIRE_OK(remora_comm_free(&stale));
  REQUIRE_ERROR(remora_win_allocate_comm(freed, 8, 8, nullptr, nullptr, &win), REMORA_ERR_ARG,
                "not a live communicator");
  REQUIRE_ERROR(remora_win_allocate_comm(c.comm, 8, 0, nullptr, nullptr, &win), REMORA_ERR_ARG,
                "disp_unit=0");
  // The window outlives the communicator it was made on (it keeps a duplicate).
  remora_comm_t mine = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_dup(c.comm, &mine));
  REQUIRE_OK(remora_win_allocate_comm(mine, 8, 8, nullptr, nullptr, &win));
  REQUIRE_OK(remora_comm_free(&mine));
  int64_t value = 0;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_ERROR(remora_win_get(win, c.size, 0, &value, 1, REMORA_INT64), REMORA_ERR_RANK,
                "outside the window's ranks");
  REQUIRE_ERROR(remora_win_get(win, -1, 0, &value, 1, REMORA_INT64), REMORA_ERR_RANK, "target=-1");
  size_t bytes = 0;
  REQUIRE_ERROR(remora_win_size(win, c.size, &bytes), REMORA_ERR_RANK, "rank=");
  REQUIRE_OK(remora_win_unlock_all(win));
  if (c.size < size_) {  // a group with a rank outside the window's communicator
    remora_group_t world_group, outsider;
    REQUIRE_OK(remora_comm_group(world_, &world_group));
    remora_group_t comm_group;
    REQUIRE_OK(remora_comm_group(c.comm, &comm_group));
    int other = 0, in_comm = 0;
    for (;; ++other) {  // the first world rank that is not a member
      REQUIRE_OK(remora_group_translate_ranks(world_group, 1, &other, comm_group, &in_comm));
      if (in_comm == REMORA_UNDEFINED) break;
    }
    REQUIRE_OK(remora_group_free(&comm_group));
    REQUIRE_OK(remora_group_incl(world_group, 1, &other, &outsider));
    REQUIRE_ERROR(remora_win_post(outsider, 0, win), REMORA_ERR_ARG, "not a member");
    REQUIRE_ERROR(remora_win_start(outsider, 0, win), REMORA_ERR_ARG, "not a member");
    REQUIRE_OK(remora_group_free(&outsider));
    REQUIRE_OK(remora_group_free(&world_group));
  }
  REQUIRE_OK(remora_win_free(&win));
}

void run(const char* info) {
  // Even and odd ranks at the same time, each on a window of their own.
  Comm parity = split_world(rank_ % 2);
  exercise(parity, info);
  // Every rank but 0; rank 0 works on a window of its own meanwhile (a communicator of one).
  Comm rest = split_world(rank_ == 0 ? REMORA_UNDEFINED : 1);
  Comm alone = split_world(rank_ == 0 ? 0 : REMORA_UNDEFINED);
  if (rest.comm != REMORA_COMM_NULL) {
    exercise(rest, info);
    bad_arguments(rest);
    REQUIRE_OK(remora_comm_free(&rest.comm));
  } else {
    exercise(alone, info);
    REQUIRE_OK(remora_comm_free(&alone.comm));
  }
  bad_arguments(parity);
  REQUIRE_OK(remora_comm_free(&parity.comm));
  // The world communicator through the same call is the world window.
  Comm world{world_, rank_, size_};
  fence_epochs(world, info);
  REQUIRE_OK(remora_barrier());
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  REQUIRE_OK(remora_comm_world(&world_));
  remora_test::for_each_acc_strategy(run);
  REQUIRE_OK(remora_finalize());
  return 0;
}
