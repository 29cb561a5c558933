// Request-based gets across nodes that share their completion (run with REMORA_NODE_SIZE=1: every
// other rank is on another node). There an rget is MPI_Get without an MPI request, joining its
// target's batch until the next MPI_Win_flush of the target; a test sends a probe get behind the
// batch and flushes once it is back (docs/architecture.md, "The MPI transport"). Every rank is an
// origin to every rank (itself too) at once:
//   interleaved  rgets to a target, a test of one of them (its probe now in flight), more rgets to
//                the same target, then every request completed in a random order by wait, by a
//                test loop or in one final waitall;
//   boundaries   an rget completed by a flush or flush_local of its target tests complete at
//                once (one completed by a test after a blocking get reads its value), and an rget
//                issued after a flush (a new batch) completes on its own, waited for before or
//                after the older one;
//   reuse        one request variable for hundreds of rgets in turn (wait or test loop each), and
//                one array of handles reused round after round, completed by waitall in reverse;
//   many         thousands of rgets to every target in flight at once (beyond the request
//                table's chunk), completed by test loops alone, last issued first;
//   misuse       bad arguments (NULL request or result, target outside the window, range past
//                the end, bad type) return their errors and make no request while rgets are in
//                flight, which then complete with their values; rgets left in flight complete at
//                unlock_all and stay waitable; without an epoch an rget is refused.
//   handles      handles of completed rgets (and rputs) kept and used again are rejected by
//                test, wait and waitall with messages naming them, also once their slots hold
//                new rgets, which still complete with their values; a waitall with such a
//                handle among live ones completes none of them; waitall over rgets of several
//                targets interleaved (the same batch not adjacent), NULL handles and completed
//                rputs; NULL, stale or freed-looking window handles and a NULL request fail
//                with their argument named and make no request.
// Every result is checked against the value its owner wrote for the phase. A request that never
// completed would hang the test (CTest timeout). The seed is printed (REMORATEST_SEED repeats it).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include "multirank.hpp"
#include "shared_seed.hpp"

namespace {

constexpr size_t kData = 2048;  // elements per rank
constexpr int kMany = 3000;     // rgets in flight at once in `many`

int rank_ = 0, size_ = 0;

int64_t value(int phase, int owner, size_t index) {
  return int64_t{phase} * 1000000000 + int64_t{owner} * 1000000 + static_cast<int64_t>(index);
}

struct Get {
  int target = 0;
  size_t index = 0;
  int64_t result = -7;
  remora_request_t request = REMORA_REQUEST_NULL;
};

class Phases {
 public:
  Phases(remora_win_t win, int64_t* base, std::mt19937_64& random)
      : win_(win), base_(base), random_(random) {}

  void run(int phase, void (Phases::*body)(int)) {
    for (size_t i = 0; i < kData; ++i) base_[i] = value(phase, rank_, i);
    REQUIRE_OK(remora_barrier());
    REQUIRE_OK(remora_win_lock_all(win_, 0));
    (this->*body)(phase);
    REQUIRE_OK(remora_win_unlock_all(win_));
    REQUIRE_OK(remora_barrier());  // every rank has read this phase's values
  }

  void interleaved(int phase) {
    for (int target : targets()) {
      for (int round = 0; round < 20; ++round) {
        std::vector<Get> gets(8);
        for (size_t i = 0; i < 4; ++i) issue(gets[i], target);
        int flag = 0;
        REQUIRE_OK(remora_request_test(&gets[0].request, &flag));
        for (size_t i = 4; i < gets.size(); ++i) issue(gets[i], target);
        std::vector<Get*> order;  // the gets stay in place: their results are in flight
        for (Get& get : gets) order.push_back(&get);
        std::shuffle(order.begin(), order.end(), random_);
        std::vector<remora_request_t> rest;
        std::uniform_int_distribution<int> how(0, 2);
        for (Get* get_in_order : order) {
          Get& get = *get_in_order;
          switch (how(random_)) {
            case 0:
              REQUIRE_OK(remora_request_wait(&get.request));
              break;
            case 1:
              test_until_done(&get.request);
              break;
            default:
              rest.push_back(get.request);
              get.request = REMORA_REQUEST_NULL;
          }
        }
        REQUIRE_OK(remora_request_waitall(static_cast<int>(rest.size()), rest.data()));
        for (remora_request_t request : rest) REQUIRE(request == REMORA_REQUEST_NULL);
        for (const Get& get : gets) check(phase, get, "interleaved");
      }
    }
  }

  void boundaries(int phase) {
    for (int target : targets()) {
      for (int round = 0; round < 10; ++round) {
        Get flushed, fetched, local, newer, other;
        issue(flushed, target);
        REQUIRE_OK(remora_win_flush(win_, target));
        expect_complete_at_once(&flushed.request, "after remora_win_flush");
        issue(fetched, target);
        int64_t now = -7;
        REQUIRE_OK(remora_win_get(win_, target, 3, &now, 1, REMORA_INT64));
        REQUIRE(now == value(phase, target, 3), "blocking get read %lld",
                static_cast<long long>(now));
        test_until_done(&fetched.request);  // (a blocking get may wait outside MPI_Win_flush)
        issue(local, target);
        REQUIRE_OK(remora_win_flush_local(win_, target));
        expect_complete_at_once(&local.request, "after remora_win_flush_local");
        // Two batches of one target: one completed by a flush, the next one in flight.
        issue(other, target);
        REQUIRE_OK(remora_win_flush(win_, target));
        issue(newer, target);
        if (round % 2 == 0) {
          REQUIRE_OK(remora_request_wait(&newer.request));
          test_until_done(&other.request);
        } else {
          test_until_done(&other.request);
          test_until_done(&newer.request);
        }
        for (const Get* get : {&flushed, &fetched, &local, &newer, &other})
          check(phase, *get, "boundaries");
      }
    }
  }

  void reuse(int phase) {
    remora_request_t request = REMORA_REQUEST_NULL;
    std::uniform_int_distribution<int> pick_target(0, size_ - 1);
    // Not the last element: `handles` rputs its own value there.
    std::uniform_int_distribution<size_t> pick_index(0, kData - 2);
    for (int i = 0; i < 400; ++i) {
      Get get;
      get.target = pick_target(random_);
      get.index = pick_index(random_);
      REQUIRE_OK(
          remora_win_rget(win_, get.target, get.index, &get.result, 1, REMORA_INT64, &request));
      REQUIRE(request != REMORA_REQUEST_NULL);
      if (i % 2 == 0)
        REQUIRE_OK(remora_request_wait(&request));
      else
        test_until_done(&request);
      REQUIRE(request == REMORA_REQUEST_NULL);
      check(phase, get, "reuse (one variable)");
    }
    std::vector<Get> gets(64);
    std::vector<remora_request_t> handles(gets.size());
    for (int round = 0; round < 20; ++round) {
      for (size_t i = 0; i < gets.size(); ++i) {
        issue(gets[i], pick_target(random_));
        handles[gets.size() - 1 - i] = gets[i].request;  // waitall completes the last first
      }
      REQUIRE_OK(remora_request_waitall(static_cast<int>(handles.size()), handles.data()));
      for (size_t i = 0; i < gets.size(); ++i) {
        REQUIRE(handles[i] == REMORA_REQUEST_NULL);
        gets[i].request = REMORA_REQUEST_NULL;  // its copy in handles was completed
        check(phase, gets[i], "reuse (one array)");
      }
    }
  }

  void many(int phase) {
    std::vector<Get> gets(static_cast<size_t>(kMany));
    std::uniform_int_distribution<int> pick_target(0, size_ - 1);
    for (Get& get : gets) issue(get, pick_target(random_));
    for (auto get = gets.rbegin(); get != gets.rend(); ++get) test_until_done(&get->request);
    for (const Get& get : gets) check(phase, get, "many");
  }

  void misuse(int phase) {
    const int target = (rank_ + 1) % size_;
    std::vector<Get> gets(16);
    for (Get& get : gets) issue(get, target);
    int64_t result = 0;
    remora_request_t request = REMORA_REQUEST_NULL;
    REQUIRE_ERROR(remora_win_rget(win_, target, 0, &result, 1, REMORA_INT64, nullptr),
                  REMORA_ERR_ARG, "remora_win_rget: request is NULL");
    REQUIRE_ERROR(remora_win_rget(win_, target, 0, nullptr, 1, REMORA_INT64, &request),
                  REMORA_ERR_ARG, "result is NULL");
    REQUIRE(request == REMORA_REQUEST_NULL);
    REQUIRE_ERROR(remora_win_rget(win_, size_, 0, &result, 1, REMORA_INT64, &request),
                  REMORA_ERR_RANK, "target=");
    REQUIRE(request == REMORA_REQUEST_NULL);
    REQUIRE_ERROR(remora_win_rget(win_, target, kData - 1, &result, 2, REMORA_INT64, &request),
                  REMORA_ERR_RANGE, "disp=");
    REQUIRE(request == REMORA_REQUEST_NULL);
    REQUIRE_ERROR(remora_win_rget(win_, target, 0, &result, 1,
                                  static_cast<remora_datatype_t>(12345), &request),
                  REMORA_ERR_ARG, "type");
    REQUIRE(request == REMORA_REQUEST_NULL);
    // Half waited for now; the other half left in flight to the unlock_all of run().
    for (size_t i = 0; i < gets.size() / 2; ++i) REQUIRE_OK(remora_request_wait(&gets[i].request));
    for (size_t i = 0; i < gets.size() / 2; ++i) check(phase, gets[i], "misuse");
    REQUIRE_OK(remora_win_unlock_all(win_));
    for (size_t i = gets.size() / 2; i < gets.size(); ++i)
      expect_complete_at_once(&gets[i].request, "after remora_win_unlock_all");
    for (size_t i = gets.size() / 2; i < gets.size(); ++i) check(phase, gets[i], "misuse");
    REQUIRE_ERROR(remora_win_rget(win_, target, 0, &result, 1, REMORA_INT64, &request),
                  REMORA_ERR_STATE, "is not locked");
    REQUIRE(request == REMORA_REQUEST_NULL);
    REQUIRE_OK(remora_win_lock_all(win_, 0));  // run() unlocks
  }

  void handles(int phase) {
    const int target = (rank_ + 1) % size_;
    // Completed handles kept: every later use names them.
    std::vector<Get> gets(8);
    std::vector<remora_request_t> kept;
    for (Get& get : gets) {
      issue(get, target);
      kept.push_back(get.request);
    }
    int64_t origin = value(phase, rank_, kData - 1);  // what is there already
    remora_request_t put = REMORA_REQUEST_NULL;
    REQUIRE_OK(remora_win_rput(win_, rank_, kData - 1, &origin, 1, REMORA_INT64, &put));
    kept.push_back(put);
    REQUIRE_OK(remora_request_wait(&put));
    for (size_t i = 0; i < gets.size(); i += 2) REQUIRE_OK(remora_request_wait(&gets[i].request));
    for (size_t i = 1; i < gets.size(); i += 2) test_until_done(&gets[i].request);
    for (const Get& get : gets) check(phase, get, "handles");
    // The slots are free: new rgets take them (with new generations).
    std::vector<Get> fresh(gets.size());
    for (Get& get : fresh) issue(get, (target + 1) % size_);
    for (remora_request_t stale : kept) {
      char name[64];
      std::snprintf(name, sizeof name, "requests[0]=%p", static_cast<void*>(stale));
      remora_request_t copy = stale;
      REQUIRE_ERROR(remora_request_wait(&copy), REMORA_ERR_ARG, name);
      REQUIRE(std::strstr(remora_last_error(), "completed and freed already") != nullptr, "%s",
              remora_last_error());
      REQUIRE(copy == stale);  // a failed call leaves the handle
      int flag = -1;
      REQUIRE_ERROR(remora_request_test(&copy, &flag), REMORA_ERR_ARG, name);
      // Among live ones (index 1): none is completed, all stay live.
      remora_request_t list[3] = {fresh[0].request, stale, fresh[1].request};
      std::snprintf(name, sizeof name, "requests[1]=%p", static_cast<void*>(stale));
      REQUIRE_ERROR(remora_request_waitall(3, list), REMORA_ERR_ARG, name);
      REQUIRE(list[0] == fresh[0].request && list[2] == fresh[1].request);
    }
    // An invented handle is named too.
    remora_request_t invented = reinterpret_cast<remora_request_t>(uintptr_t{0x1230});
    REQUIRE_ERROR(remora_request_wait(&invented), REMORA_ERR_ARG, "not a request handle");
    // waitall over rgets to every target, interleaved so that one batch's requests are not
    // adjacent, with NULL handles and completed rputs between them.
    std::vector<Get> mixed(4 * static_cast<size_t>(size_));
    for (size_t i = 0; i < mixed.size(); ++i) issue(mixed[i], static_cast<int>(i) % size_);
    std::vector<remora_request_t> list;
    for (size_t i = 0; i < mixed.size(); ++i) {
      list.push_back(mixed[i].request);
      if (i % 3 == 0) list.push_back(REMORA_REQUEST_NULL);
      if (i % 5 == 0) {
        remora_request_t request = REMORA_REQUEST_NULL;
        REQUIRE_OK(remora_win_rput(win_, rank_, kData - 1, &origin, 1, REMORA_INT64, &request));
        list.push_back(request);
      }
    }
    for (Get& get : fresh) list.push_back(get.request);
    REQUIRE_OK(remora_request_waitall(static_cast<int>(list.size()), list.data()));
    for (remora_request_t request : list) REQUIRE(request == REMORA_REQUEST_NULL);
    for (Get& get : mixed) get.request = REMORA_REQUEST_NULL;
    for (Get& get : fresh) get.request = REMORA_REQUEST_NULL;
    for (const Get& get : mixed) check(phase, get, "handles (mixed waitall)");
    for (const Get& get : fresh) check(phase, get, "handles (slots reused)");
    // Bad window handles: named, and no request (the request argument first).
    int64_t result = 0;
    remora_request_t request = reinterpret_cast<remora_request_t>(uintptr_t{0x77});
    REQUIRE_ERROR(remora_win_rget(nullptr, target, 0, &result, 1, REMORA_INT64, &request),
                  REMORA_ERR_ARG, "remora_win_rget: win is NULL");
    REQUIRE(request == REMORA_REQUEST_NULL);
    remora_win_t bogus = reinterpret_cast<remora_win_t>(&result);
    REQUIRE_ERROR(remora_win_rget(bogus, target, 0, &result, 1, REMORA_INT64, &request),
                  REMORA_ERR_ARG, "is not a live window");
    REQUIRE(request == REMORA_REQUEST_NULL);
    REQUIRE_ERROR(remora_win_rput(bogus, target, 0, &origin, 1, REMORA_INT64, &request),
                  REMORA_ERR_ARG, "remora_win_rput: win=");
    REQUIRE(request == REMORA_REQUEST_NULL);
    REQUIRE_ERROR(remora_win_rget(nullptr, target, 0, &result, 1, REMORA_INT64, nullptr),
                  REMORA_ERR_ARG, "remora_win_rget: request is NULL");
    REQUIRE_ERROR(remora_win_rput(win_, target, 0, nullptr, 1, REMORA_INT64, &request),
                  REMORA_ERR_ARG, "remora_win_rput: origin is NULL");
    REQUIRE(request == REMORA_REQUEST_NULL);
    REQUIRE_ERROR(remora_win_rput(win_, -1, 0, &origin, 1, REMORA_INT64, &request), REMORA_ERR_RANK,
                  "remora_win_rput: target=-1");
    REQUIRE(request == REMORA_REQUEST_NULL);
  }

 private:
  std::vector<int> targets() {
    std::vector<int> all(static_cast<size_t>(size_));
    for (int t = 0; t < size_; ++t) all[static_cast<size_t>(t)] = t;
    std::shuffle(all.begin(), all.end(), random_);
    return all;
  }

  void issue(Get& get, int target) {
    // Not the last element: `handles` rputs its own value there.
    std::uniform_int_distribution<size_t> pick_index(0, kData - 2);
    get.target = target;
    get.index = pick_index(random_);
    get.result = -7;
    REQUIRE_OK(
        remora_win_rget(win_, target, get.index, &get.result, 1, REMORA_INT64, &get.request));
    REQUIRE(get.request != REMORA_REQUEST_NULL);
  }

  static void test_until_done(remora_request_t* request) {
    int flag = 0;
    while (true) {
      REQUIRE_OK(remora_request_test(request, &flag));
      if (flag) break;
      sched_yield();
    }
    REQUIRE(*request == REMORA_REQUEST_NULL);
  }

  static void expect_complete_at_once(remora_request_t* request, const char* after) {
    int flag = 0;
    REQUIRE_OK(remora_request_test(request, &flag));
    REQUIRE(flag == 1, "an rget is not complete %s", after);
    REQUIRE(*request == REMORA_REQUEST_NULL);
  }

  static void check(int phase, const Get& get, const char* where) {
    REQUIRE(get.request == REMORA_REQUEST_NULL, "%s, phase %d: a request left live", where, phase);
    REQUIRE(get.result == value(phase, get.target, get.index),
            "%s, phase %d: rget of element %zu of rank %d read %lld, expected %lld", where, phase,
            get.index, get.target, static_cast<long long>(get.result),
            static_cast<long long>(value(phase, get.target, get.index)));
  }

  remora_win_t win_;
  int64_t* base_;
  std::mt19937_64& random_;
};

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  const uint64_t seed = remora_test::shared_seed("rget_batch_test");
  std::mt19937_64 random(seed + static_cast<uint64_t>(rank_));
  remora_win_t win;
  int64_t* base = remora_test::allocate_int64_window(kData, "", &win);
  Phases phases(win, base, random);
  int phase = 0;
  for (int pass = 0; pass < 2; ++pass) {
    phases.run(++phase, &Phases::interleaved);
    phases.run(++phase, &Phases::boundaries);
    phases.run(++phase, &Phases::reuse);
    phases.run(++phase, &Phases::many);
    phases.run(++phase, &Phases::misuse);
    phases.run(++phase, &Phases::handles);
  }
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_finalize());
  return 0;
}
