// Request-based operations: rput / rget / raccumulate / rget_accumulate inside lock and lock_all
// epochs, completed by remora_request_wait / waitall / waitany / testall / test, or first by
// unlock_all (the requests must stay waitable and report success), mixed with a collective's
// request in one waitall; more requests live than a chunk of the request table, completed out of
// order, and copies of freed handles; and their misuse. Each accumulate strategy through the info
// key.
#include <cstdint>
#include <set>
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

// More requests live than one chunk of the request table (1024 slots) - rgets of every target's
// slots, rputs of the values this rank's slots hold, and ibarriers - completed out of issue order
// (tests from the last to the first, then waitany and waitall), then as many again, which reuse
// the freed slots: no live handle is given twice, none equals a freed one, every rget read
// what it should, and a freed handle's copy is refused by name, also after its slot is reused.
void many_requests_out_of_order(remora_win_t win) {
  constexpr size_t kMany = 2600;
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  std::vector<int64_t> results(kMany, -1), own(kSlots);
  for (size_t slot = 0; slot < kSlots; ++slot) own[slot] = pattern(rank_, slot);
  std::set<remora_request_t> freed;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<remora_request_t> requests(kMany, REMORA_REQUEST_NULL);
    for (size_t i = 0; i < kMany; ++i) {
      const int t = static_cast<int>(i % static_cast<size_t>(size_));
      const size_t slot = (i / static_cast<size_t>(size_)) % kSlots;
      if (i % 500 == 7)  // the same i on every rank
        REQUIRE_OK(remora_ibarrier(world, REMORA_COLL_AUTO, &requests[i]));
      else if (i % 3 == 1 && t == rank_)  // the value the slot holds already
        REQUIRE_OK(remora_win_rput(win, t, slot, &own[slot], 1, REMORA_INT64, &requests[i]));
      else
        REQUIRE_OK(remora_win_rget(win, t, slot, &results[i], 1, REMORA_INT64, &requests[i]));
    }
    const std::set<remora_request_t> live(requests.begin(), requests.end());
    REQUIRE(live.size() == kMany && live.count(REMORA_REQUEST_NULL) == 0,
            "pass %d: %zu distinct live handles for %zu requests", pass, live.size(), kMany);
    for (remora_request_t handle : requests)
      REQUIRE(freed.count(handle) == 0, "pass %d: freed handle %p given again", pass,
              static_cast<void*>(handle));
    const std::vector<remora_request_t> copies = requests;
    for (size_t i = kMany; i-- > kMany / 2;) {
      if (i % 500 == 7) continue;  // the ibarriers: waitall below
      int flag = 0;
      while (!flag) REQUIRE_OK(remora_request_test(&requests[i], &flag));
      REQUIRE(requests[i] == REMORA_REQUEST_NULL);
    }
    int index = -1;
    REQUIRE_OK(remora_request_waitany(static_cast<int>(kMany), requests.data(), &index));
    REQUIRE(index >= 0 && requests[static_cast<size_t>(index)] == REMORA_REQUEST_NULL);
    REQUIRE_OK(remora_request_waitall(static_cast<int>(kMany), requests.data()));
    for (size_t i = 0; i < kMany; ++i) {
      REQUIRE(requests[i] == REMORA_REQUEST_NULL);
      const int t = static_cast<int>(i % static_cast<size_t>(size_));
      const size_t slot = (i / static_cast<size_t>(size_)) % kSlots;
      if (i % 500 != 7 && !(i % 3 == 1 && t == rank_))
        REQUIRE(results[i] == pattern(t, slot), "pass %d: rget %zu read %lld", pass, i,
                (long long)results[i]);
    }
    freed.insert(copies.begin(), copies.end());
    for (remora_request_t stale : {copies.front(), copies.back()}) {
      REQUIRE_ERROR(remora_request_wait(&stale), REMORA_ERR_ARG, "completed and freed already");
      REQUIRE(stale != REMORA_REQUEST_NULL);  // a failed wait leaves the handle
    }
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
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
  many_requests_out_of_order(win);
  accumulate_requests(win, base);
  misuse(win);
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  return remora_test::run_per_acc_strategy(argc, argv, &rank_, &size_, run);
}
