// Request-based operations: rput / rget / raccumulate / rget_accumulate inside lock and lock_all
// epochs, completed by remora_request_wait / waitall / waitany / testall / test, or first by
// unlock_all (the requests must stay waitable and report success), mixed with a collective's
// request in one waitall; and their misuse. Each accumulate strategy through the info key.
#include <cstdint>
#include <string>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
constexpr size_t kSlots = 16;

int64_t pattern(int owner, size_t slot) {
  return 100 * owner + static_cast<int64_t>(slot);
}

// Everyone reads every target's slots with rget under lock_all; unlock_all completes them, the
// buffer is checked, then the requests are waited for (success) and the buffer reused.
void rget_completed_by_unlock_all(remora_win_t win) {
  std::vector<int64_t> buffer(kSlots * static_cast<size_t>(size_), -1);
  std::vector<remora_request_t> requests(static_cast<size_t>(size_));
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int t = 0; t < size_; ++t)
    REQUIRE_OK(remora_win_rget(win, t, 0, &buffer[kSlots * static_cast<size_t>(t)], kSlots,
                               REMORA_INT64, &requests[static_cast<size_t>(t)]));
  REQUIRE_OK(remora_win_unlock_all(win));
  for (int t = 0; t < size_; ++t)
    for (size_t s = 0; s < kSlots; ++s)
      REQUIRE(buffer[kSlots * static_cast<size_t>(t) + s] == pattern(t, s), "target %d slot %zu", t,
              s);
  std::fill(buffer.begin(), buffer.end(), 0);  // reused before the requests are waited for
  REQUIRE_OK(remora_request_waitall(size_, requests.data()));
  for (remora_request_t request : requests) REQUIRE(request == REMORA_REQUEST_NULL);
}

// Every rank adds rank+1 to slot 0 of every target with raccumulate (waitany), fetches-and-adds
// slot 1 with rget_accumulate (testall), and rputs into its own slot 2+rank (test); an ibarrier's
// request shares one waitall with RMA requests.
void accumulate_requests(remora_win_t win, int64_t* base) {
  REQUIRE_OK(remora_barrier());
  for (int t = 0; t < size_; ++t) {
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, t, 0));
    const int64_t mine = rank_ + 1, one = 1;
    int64_t before = -1;
    remora_request_t requests[3];
    REQUIRE_OK(remora_win_raccumulate(win, t, 0, &mine, 1, REMORA_INT64, REMORA_OP_SUM, nullptr,
                                      &requests[0]));
    REQUIRE_OK(remora_win_rget_accumulate(win, t, 1, &one, &before, 1, REMORA_INT64, REMORA_OP_SUM,
                                          nullptr, &requests[1]));
    REQUIRE_OK(remora_win_rput(win, t, 2 + static_cast<size_t>(rank_), &mine, 1, REMORA_INT64,
                               &requests[2]));
    int index = -1;
    REQUIRE_OK(remora_request_waitany(3, requests, &index));
    REQUIRE(index >= 0 && index < 3 && requests[index] == REMORA_REQUEST_NULL);
    int flag = 0;
    while (!flag) REQUIRE_OK(remora_request_testall(3, requests, &flag));
    const int64_t increments = before - pattern(t, 1);
    REQUIRE(increments >= 0 && increments < size_, "fetched %lld", (long long)before);
    REQUIRE_OK(remora_win_unlock(win, t));
  }
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  remora_request_t mixed[2];
  REQUIRE_OK(remora_ibarrier(world, REMORA_COLL_AUTO, &mixed[0]));
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, rank_, 0));
  int64_t own = -1;
  REQUIRE_OK(remora_win_rget(win, rank_, 0, &own, 1, REMORA_INT64, &mixed[1]));
  REQUIRE_OK(remora_win_flush(win, rank_));
  int flag = 0;
  REQUIRE_OK(remora_request_test(&mixed[1], &flag));
  REQUIRE(flag == 1 && mixed[1] == REMORA_REQUEST_NULL);
  REQUIRE_OK(remora_win_unlock(win, rank_));
  REQUIRE_OK(remora_request_waitall(2, mixed));  // mixed[1] is NULL now: ignored
  REQUIRE_OK(remora_barrier());
  const int64_t sum = static_cast<int64_t>(size_) * (size_ + 1) / 2;
  REQUIRE(base[0] == pattern(rank_, 0) + sum, "slot 0 holds %lld", (long long)base[0]);
  REQUIRE(base[1] == pattern(rank_, 1) + size_, "slot 1 holds %lld", (long long)base[1]);
  for (int r = 0; r < size_ && 2 + r < static_cast<int>(kSlots); ++r)
    REQUIRE(base[2 + r] == r + 1, "slot %d holds %lld", 2 + r, (long long)base[2 + r]);
}

void misuse(remora_win_t win) {
  int64_t value = 0;
  remora_request_t request = REMORA_REQUEST_NULL;
  REQUIRE_ERROR(remora_win_rput(win, 0, 0, &value, 1, REMORA_INT64, &request), REMORA_ERR_STATE,
                "request-based operations need a passive-target epoch");
  REQUIRE(request == REMORA_REQUEST_NULL);
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE_ERROR(remora_win_rget(win, 0, 0, &value, 1, REMORA_INT64, &request), REMORA_ERR_STATE,
                "remora_win_rget: target=0 is not locked");
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, rank_, 0));
  REQUIRE_ERROR(remora_win_raccumulate(win, rank_, 0, &value, 1, REMORA_INT64, REMORA_OP_SUM,
                                       nullptr, nullptr),
                REMORA_ERR_ARG, "remora_win_raccumulate: request is NULL");
  REQUIRE_ERROR(remora_win_rget_accumulate(win, rank_, 0, &value, nullptr, 1, REMORA_INT64,
                                           REMORA_OP_SUM, nullptr, &request),
                REMORA_ERR_ARG, "result is NULL");
  REQUIRE_ERROR(remora_win_rput(win, rank_, kSlots, &value, 1, REMORA_INT64, &request),
                REMORA_ERR_RANGE, "remora_win_rput: disp=16");
  if (size_ > 1)
    REQUIRE_ERROR(remora_win_rput(win, (rank_ + 1) % size_, 0, &value, 1, REMORA_INT64, &request),
                  REMORA_ERR_STATE, "is not locked");
  REQUIRE(request == REMORA_REQUEST_NULL);
  REQUIRE_OK(remora_win_unlock(win, rank_));
}

void run(const char* info) {
  remora_win_t win;
  int64_t* base = remora_test::allocate_int64_window(kSlots, info, &win);
  for (size_t s = 0; s < kSlots; ++s) base[s] = pattern(rank_, s);
  REQUIRE_OK(remora_barrier());
  rget_completed_by_unlock_all(win);
  accumulate_requests(win, base);
  misuse(win);
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  return remora_test::run_per_acc_strategy(argc, argv, &rank_, &size_, run);
}
