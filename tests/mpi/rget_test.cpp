// Request-based gets across nodes (run with REMORA_NODE_SIZE=1: every other rank is on another
// node, and remora_win_rget leaves MPI_Get in flight), and the same program on one node (the
// shared-memory path, where every rget is complete when it returns). Each round, every rank
// issues a few hundred rgets of 1-8 elements at random places of every rank's memory (its own
// too) and completes them in one of the ways docs/rma.md allows: remora_request_wait in a random
// order, waitall, test loops, flush of each target in a random order, flush_all, flush_local,
// unlock of each target (lock epochs), unlock_all, or mixed: a random part of the requests
// tested until complete one by one (each test probing its target, then flushing it) and then every
// request in one waitall, in a round of more rgets than the request table keeps spare entries for
// (the rest completed together after one flush); after a flush or unlock every request must test
// complete at once. Request handles are never reused while live, and a copy of a completed one
// (from this round or an earlier one, whose slots later rgets reuse) is rejected as freed.
// Puts go along: a put, a flush and an rget of the same place read the
// put's value (a flush orders them, docs/rma.md "Ordering"); puts to other places of the same
// targets while the rgets are in flight land; a blocking remora_win_get among the rgets is
// complete when it returns. The seed is printed (REMORATEST_SEED repeats a run).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <random>
#include <set>
#include <vector>

#include "multirank.hpp"
#include "shared_seed.hpp"

namespace {

constexpr size_t kData = 4096;    // elements each rank writes itself before a round
constexpr int kGets = 300;        // rgets per rank and round
constexpr int kMixedGets = 1500;  // in a mixed round (above the request table's 1024-slot chunk)
constexpr int kMaxCount = 8;      // elements per rget

int64_t value(int round, int owner, size_t index) {
  return int64_t{round} * 1000000000 + int64_t{owner} * 1000000 + static_cast<int64_t>(index);
}
int64_t put_value(int round, int origin, int target, int which) {
  return -(int64_t{round} * 1000000 + int64_t{origin} * 1000 + target * 10 + which);
}

enum class Completion {
  Wait,
  Waitall,
  Test,
  Flush,
  FlushAll,
  FlushLocal,
  Unlock,
  UnlockAll,
  Mixed,
  kCount
};
const char* name(Completion how) {
  static const char* const names[] = {"wait",        "waitall", "test",       "flush", "flush_all",
                                      "flush_local", "unlock",  "unlock_all", "mixed"};
  return names[static_cast<int>(how)];
}

struct Get {
  int target;
  size_t index;
  int count;
  size_t slot;  // first element of its result in results
  remora_request_t request;
};

class Round {
 public:
  Round(remora_win_t win, int64_t* base, int rank, int size, std::mt19937_64& random)
      : win_(win), base_(base), rank_(rank), size_(size), random_(random) {}

  void run(int round, Completion how) {
    for (size_t i = 0; i < kData; ++i) base_[i] = value(round, rank_, i);
    REQUIRE_OK(remora_barrier());
    const bool per_target = how == Completion::Unlock;
    if (per_target) {
      for (int target : shuffled_targets())
        REQUIRE_OK(remora_win_lock(win_, REMORA_LOCK_SHARED, target, 0));
    } else {
      REQUIRE_OK(remora_win_lock_all(win_, 0));
    }
    // A put to this rank's first mailbox element at each target, flushed: the rget of it below
    // reads the put's value.
    for (int target = 0; target < size_; ++target) {
      const int64_t first = put_value(round, rank_, target, 1);
      REQUIRE_OK(remora_win_put(win_, target, mailbox(rank_), &first, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(win_, target));
    }
    issue(round, how == Completion::Mixed ? kMixedGets : kGets);
    check_handles();
    complete(round, how);
    check(round, how);
    check_stale();
    if (per_target) {
      for (int target = 0; target < size_; ++target) REQUIRE_OK(remora_win_unlock(win_, target));
    } else if (how != Completion::UnlockAll) {
      REQUIRE_OK(remora_win_unlock_all(win_));
    }
    REQUIRE_OK(remora_barrier());  // every rank has read this round's data and mailboxes
    check_mailboxes(round);
    REQUIRE_OK(remora_barrier());  // before the next round rewrites the data
  }

 private:
  static size_t mailbox(int origin) { return kData + 2 * static_cast<size_t>(origin); }

  std::vector<int> shuffled_targets() {
    std::vector<int> targets(static_cast<size_t>(size_));
    for (int t = 0; t < size_; ++t) targets[static_cast<size_t>(t)] = t;
    std::shuffle(targets.begin(), targets.end(), random_);
    return targets;
  }

  void issue(int round, int gets) {
    gets_.clear();
    results_.assign(static_cast<size_t>(gets) * kMaxCount + static_cast<size_t>(size_), -7);
    // The mailbox rgets first: one per target, into the last size_ slots of results.
    const size_t mailbox_slots = static_cast<size_t>(gets) * kMaxCount;
    for (int target = 0; target < size_; ++target) {
      Get get{target, mailbox(rank_), 1, mailbox_slots + static_cast<size_t>(target), nullptr};
      gets_.push_back(get);
    }
    std::uniform_int_distribution<int> pick_target(0, size_ - 1), pick_count(1, kMaxCount);
    for (int i = 0; i < gets; ++i) {
      const int count = pick_count(random_);
      std::uniform_int_distribution<size_t> pick_index(0, kData - static_cast<size_t>(count));
      gets_.push_back(Get{pick_target(random_), pick_index(random_), count,
                          static_cast<size_t>(i) * kMaxCount, nullptr});
    }
    std::shuffle(gets_.begin(), gets_.end(), random_);
    for (size_t i = 0; i < gets_.size(); ++i) {
      Get& get = gets_[i];
      REQUIRE_OK(remora_win_rget(win_, get.target, get.index, &results_[get.slot],
                                 static_cast<size_t>(get.count), REMORA_INT64, &get.request));
      if (i == gets_.size() / 2)  // with rgets in flight: a put to every target's mailbox 2
        for (int target = 0; target < size_; ++target) {
          const int64_t second = put_value(round, rank_, target, 2);
          REQUIRE_OK(remora_win_put(win_, target, mailbox(rank_) + 1, &second, 1, REMORA_INT64));
        }
      if (i % 50 == 25) {  // and a blocking get, whose result is there when it returns
        int64_t now = -7;
        const size_t index = (i * 37) % kData;
        REQUIRE_OK(remora_win_get(win_, get.target, index, &now, 1, REMORA_INT64));
        REQUIRE(now == value(round, get.target, index),
                "round %d: remora_win_get of element %zu of rank %d read %lld, expected %lld",
                round, index, get.target, static_cast<long long>(now),
                static_cast<long long>(value(round, get.target, index)));
      }
    }
  }

  void complete(int round, Completion how) {
    (void)round;
    switch (how) {
      case Completion::Wait:
        for (Get& get : gets_) REQUIRE_OK(remora_request_wait(&get.request));
        return;
      case Completion::Waitall: {
        std::vector<remora_request_t> requests;
        for (const Get& get : gets_) requests.push_back(get.request);
        REQUIRE_OK(remora_request_waitall(static_cast<int>(requests.size()), requests.data()));
        for (remora_request_t request : requests) REQUIRE(request == REMORA_REQUEST_NULL);
        for (Get& get : gets_) get.request = REMORA_REQUEST_NULL;
        return;
      }
      case Completion::Test:
        for (Get& get : gets_) {
          int flag = 0;
          while (true) {
            REQUIRE_OK(remora_request_test(&get.request, &flag));
            if (flag) break;
            sched_yield();
          }
          REQUIRE(get.request == REMORA_REQUEST_NULL);
        }
        return;
      case Completion::Flush:
        for (int target : shuffled_targets()) REQUIRE_OK(remora_win_flush(win_, target));
        return;
      case Completion::FlushAll:
        REQUIRE_OK(remora_win_flush_all(win_));
        return;
      case Completion::FlushLocal:
        for (int target : shuffled_targets()) REQUIRE_OK(remora_win_flush_local(win_, target));
        return;
      case Completion::Unlock:
        for (int target : shuffled_targets()) REQUIRE_OK(remora_win_unlock(win_, target));
        for (int target : shuffled_targets())  // run() unlocks once more at the end
          REQUIRE_OK(remora_win_lock(win_, REMORA_LOCK_SHARED, target, 0));
        return;
      case Completion::UnlockAll:
        REQUIRE_OK(remora_win_unlock_all(win_));
        return;
      case Completion::Mixed: {
        std::bernoulli_distribution tested_first(0.3);
        std::vector<remora_request_t> requests;
        for (Get& get : gets_) {
          if (tested_first(random_)) {
            int flag = 0;
            while (!flag) {
              REQUIRE_OK(remora_request_test(&get.request, &flag));
              if (!flag) sched_yield();
            }
            REQUIRE(get.request == REMORA_REQUEST_NULL);
          }
          requests.push_back(get.request);  // REMORA_REQUEST_NULL when tested complete
        }
        REQUIRE_OK(remora_request_waitall(static_cast<int>(requests.size()), requests.data()));
        for (remora_request_t request : requests) REQUIRE(request == REMORA_REQUEST_NULL);
        for (Get& get : gets_) get.request = REMORA_REQUEST_NULL;
        return;
      }
      case Completion::kCount:
        break;
    }
  }

  // The results; after a synchronisation call every request tests complete at once (the
  // synchronisation completed them), and is freed.
  void check(int round, Completion how) {
    for (const Get& get : gets_) {
      for (int e = 0; e < get.count; ++e) {
        const int64_t got = results_[get.slot + static_cast<size_t>(e)];
        const bool is_mailbox = get.index == mailbox(rank_);
        const int64_t expected = is_mailbox ? put_value(round, rank_, get.target, 1)
                                            : value(round, get.target, get.index + e);
        REQUIRE(got == expected,
                "round %d (%s): rget of %d elements at %zu of rank %d: element %d is %lld, "
                "expected %lld",
                round, name(how), get.count, get.index, get.target, e, static_cast<long long>(got),
                static_cast<long long>(expected));
      }
    }
    for (Get& get : gets_) {
      if (get.request == REMORA_REQUEST_NULL) continue;
      int flag = 0;
      REQUIRE_OK(remora_request_test(&get.request, &flag));
      REQUIRE(flag == 1, "round %d (%s): an rget to rank %d is not complete after it", round,
              name(how), get.target);
      REQUIRE(get.request == REMORA_REQUEST_NULL);
    }
  }

  // The live handles are distinct and none is a handle of an earlier round (their slots are
  // reused: the generation tells them apart); kept as this round's stale handles.
  void check_handles() {
    std::set<remora_request_t> live;
    for (const Get& get : gets_) {
      REQUIRE(get.request != REMORA_REQUEST_NULL);
      REQUIRE(live.insert(get.request).second, "handle %p given to two live rgets",
              static_cast<void*>(get.request));
      REQUIRE(stale_.count(get.request) == 0, "handle %p of a completed rget given again",
              static_cast<void*>(get.request));
    }
    stale_.insert(live.begin(), live.end());
  }

  // Once completed (and freed), a copy of a handle is rejected by name, this round's or an
  // earlier round's whose slot was reused since.
  void check_stale() {
    for (remora_request_t stale : {*stale_.begin(), *stale_.rbegin()}) {
      REQUIRE_ERROR(remora_request_wait(&stale), REMORA_ERR_ARG, "completed and freed already");
      int flag = 0;
      REQUIRE_ERROR(remora_request_test(&stale, &flag), REMORA_ERR_ARG, "is not a live request");
    }
  }

  // Every origin's puts to this rank's mailboxes, complete since the origin's unlock (the
  // second one put while its rgets were in flight).
  void check_mailboxes(int round) {
    for (int origin = 0; origin < size_; ++origin) {
      const int64_t first = base_[mailbox(origin)];
      REQUIRE(first == put_value(round, origin, rank_, 1),
              "round %d: mailbox 1 of origin %d holds %lld, expected %lld", round, origin,
              static_cast<long long>(first),
              static_cast<long long>(put_value(round, origin, rank_, 1)));
      const int64_t second = base_[mailbox(origin) + 1];
      REQUIRE(second == put_value(round, origin, rank_, 2),
              "round %d: mailbox 2 of origin %d holds %lld, expected %lld", round, origin,
              static_cast<long long>(second),
              static_cast<long long>(put_value(round, origin, rank_, 2)));
    }
  }

  remora_win_t win_;
  int64_t* base_;
  int rank_, size_;
  std::mt19937_64& random_;
  std::vector<Get> gets_;
  std::vector<int64_t> results_;
  std::set<remora_request_t> stale_;  // every handle given so far
};

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  const uint64_t seed = remora_test::shared_seed("rget_test");
  std::mt19937_64 random(seed + static_cast<uint64_t>(rank));
  remora_win_t win;
  int64_t* base =
      remora_test::allocate_int64_window(kData + 2 * static_cast<size_t>(size), "", &win);
  Round round(win, base, rank, size, random);
  constexpr int kPasses = 3;
  for (int pass = 0; pass < kPasses; ++pass)
    for (int how = 0; how < static_cast<int>(Completion::kCount); ++how)
      round.run(1 + pass * static_cast<int>(Completion::kCount) + how,
                static_cast<Completion>(how));
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_finalize());
  return 0;
}
