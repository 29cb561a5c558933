// The deferred fence and deferred lock (paper 001), on windows created with
// info "fence=deferred,lock=deferred" (the accumulate strategy comes from REMORA_ACC_STRATEGY):
// puts, gets and accumulates are visible at the end of each epoch, origin buffers may be
// reused at once in fence epochs and after unlock in lock epochs (the lock queue refers to
// them), accumulates stay atomic under contention, every fence assert and a fence
// that both closes and opens, exclusive deferred locks exclude, shared ones overlap, a lock
// on the own window is held at once, lock_all is deferred too, and misuse is still reported.
#include <cstdint>
#include <vector>

#include "multirank.hpp"
#include "writer_slots.hpp"

namespace {

constexpr const char* kDeferred = "fence=deferred,lock=deferred";

remora_win_t allocate(const char* info, int64_t** base) {
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(8 * slots(), 8, info, reinterpret_cast<void**>(base), &win));
  return win;
}

// Every fence assert, fences that both close and open, and the state after NOSUCCEED.
void fence_epochs() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  remora_sync_impl_t fence = REMORA_SYNC_IMMEDIATE, lock = REMORA_SYNC_IMMEDIATE;
  REQUIRE_OK(remora_win_sync_impl(win, &fence, &lock));
  REQUIRE(fence == REMORA_SYNC_DEFERRED && lock == REMORA_SYNC_DEFERRED);
  std::vector<int64_t> got;

  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));  // opens only
  put_everywhere(win, 1);
  put_origins.assign(put_origins.size(), -1);  // the deferred fence copied the origin data
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSTORE));  // closes and opens
  check_all_slots(base, 1);
  get_everywhere(win, &got);
  REQUIRE_OK(remora_win_fence(win, 0));  // closes the gets' epoch and opens the next
  check_got(got, 1);
  put_everywhere(win, 2);
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPUT));  // nobody puts in the next epoch
  check_all_slots(base, 2);
  get_everywhere(win, &got);
  REQUIRE_OK(remora_win_fence(win, 0));
  check_got(got, 2);
  // NOPRECEDE after operations is an error (on every rank alike); the epoch stays open.
  put_everywhere(win, 3);
  REQUIRE_ERROR(remora_win_fence(win, REMORA_MODE_NOPRECEDE), REMORA_ERR_STATE, "NOPRECEDE");
  // An epoch with operations cannot be left for a lock, nor the window freed.
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0), REMORA_ERR_STATE, "fence epoch");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "pending");
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));  // closes only
  check_all_slots(base, 3);
  const int64_t v = 0;
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE, "no access");
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE | REMORA_MODE_NOSUCCEED));
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE, "no access");
  // A fresh epoch after NOSUCCEED, and an empty epoch between two fences.
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE_OK(remora_win_fence(win, 0));
  put_everywhere(win, 4);
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  check_all_slots(base, 4);
  REQUIRE_OK(remora_win_free(&win));
}

// All ranks accumulate into the same slots of every target within fence epochs; the owners
// check exact totals, and the fetched values of one origin increase (accumulate ordering).
void fence_accumulates() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  constexpr int kEpochs = 3, kPerEpoch = 40;
  const int64_t mine = rank_ + 1;
  const int64_t all = int64_t{size_} * (size_ + 1) / 2;  // sum of (r + 1)
  std::vector<int64_t> fetched(static_cast<size_t>(size_ * kPerEpoch));
  REQUIRE_OK(remora_win_fence(win, 0));
  for (int epoch = 1; epoch <= kEpochs; ++epoch) {
    for (int i = 0; i < kPerEpoch; ++i)
      for (int t = 0; t < size_; ++t) {
        REQUIRE_OK(remora_win_accumulate(win, t, scratch(0), &mine, 1, REMORA_INT64, REMORA_OP_SUM,
                                         nullptr));
        const int64_t one = 1;
        REQUIRE_OK(remora_win_fetch_and_op(win, t, scratch(1), &one,
                                           &fetched[static_cast<size_t>(t * kPerEpoch + i)],
                                           REMORA_INT64, REMORA_OP_SUM));
      }
    REQUIRE_OK(remora_win_fence(win, 0));
    REQUIRE(base[scratch(0)] == epoch * kPerEpoch * all, "epoch %d: sum %lld", epoch,
            (long long)base[scratch(0)]);
    const int64_t total = int64_t{epoch} * kPerEpoch * size_;
    REQUIRE(base[scratch(1)] == total, "epoch %d: fetch_and_op count %lld", epoch,
            (long long)base[scratch(1)]);
    for (int t = 0; t < size_; ++t)
      for (int i = 0; i < kPerEpoch; ++i) {
        const int64_t f = fetched[static_cast<size_t>(t * kPerEpoch + i)];
        REQUIRE(f >= total - kPerEpoch * size_ && f < total, "epoch %d: fetched %lld", epoch,
                (long long)f);
        if (i > 0)
          REQUIRE(f > fetched[static_cast<size_t>(t * kPerEpoch + i - 1)],
                  "fetched values of one origin do not increase");
      }
  }
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_win_free(&win));
}

// Puts and gets at the end of deferred lock epochs, exclusive and shared.
void lock_visibility() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  for (int t = 0; t < size_; ++t) {
    const int target = (rank_ + t) % size_;
    REQUIRE_OK(remora_win_lock(win, t % 2 ? REMORA_LOCK_SHARED : REMORA_LOCK_EXCLUSIVE, target, 0));
    int64_t v = value(rank_, target, 5);
    REQUIRE_OK(remora_win_put(win, target, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, target));
    v = -1;  // the queue refers to v (no copy): reusing it after unlock changes nothing there
  }
  REQUIRE_OK(remora_barrier());
  check_all_slots(base, 5);
  // Several operations per epoch: put into a scratch slot, get all writer slots (get-last).
  std::vector<int64_t> got(static_cast<size_t>(size_ * size_), -7);
  for (int t = 0; t < size_; ++t) {
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, t, 0));
    REQUIRE_OK(remora_win_get(win, t, 0, got.data() + t * size_, static_cast<size_t>(size_),
                              REMORA_INT64));
    const int64_t v = rank_;
    REQUIRE_OK(
        remora_win_accumulate(win, t, scratch(2), &v, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_unlock(win, t));
  }
  check_got(got, 5);
  REQUIRE_OK(remora_barrier());
  REQUIRE(base[scratch(2)] == int64_t{size_} * (size_ - 1) / 2, "sum %lld",
          (long long)base[scratch(2)]);
  REQUIRE_OK(remora_win_free(&win));
}

// Exclusive deferred locks on rank 0 exclude: a plain get + put counter (the flush forces the
// lock and the get; the put follows under the held lock) and rank 0's own local increments
// (a lock on the own window is held at once) add up exactly. A second counter is bumped by
// single-accumulate epochs (the lock-op-unlock path), a third by epochs of a put then a get of
// the same scratch slot, which must read back the own put (the get goes last).
void exclusive_locks_exclude() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  constexpr int kRounds = 60;
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0));
    if (rank_ == 0) {
      ++base[scratch(3)];  // local store under the lock on the own window
    } else {
      increment_with_get_put(win, 0, scratch(3));
    }
    REQUIRE_OK(remora_win_unlock(win, 0));

    const int64_t one = 1;
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0));
    REQUIRE_OK(
        remora_win_accumulate(win, 0, scratch(4), &one, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_unlock(win, 0));

    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 0, 0));
    const int64_t me = value(rank_, 0, round);
    int64_t read = -1;
    REQUIRE_OK(remora_win_get(win, 0, scratch(5), &read, 1, REMORA_INT64));  // performed last
    REQUIRE_OK(remora_win_put(win, 0, scratch(5), &me, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, 0));
    if (rank_ != 0)  // rank 0's lock on its own window is immediate: no reordering there
      REQUIRE(read == me, "round %d: read %lld after my put of %lld", round, (long long)read,
              (long long)me);
  }
  REQUIRE_OK(remora_barrier());
  if (rank_ == 0) {
    REQUIRE(base[scratch(3)] == int64_t{size_} * kRounds, "counter %lld",
            (long long)base[scratch(3)]);
    REQUIRE(base[scratch(4)] == int64_t{size_} * kRounds, "accumulated %lld",
            (long long)base[scratch(4)]);
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// The single-operation slot of the deferred lock and its spill into the queue. A window of 8
// longs per writer plus scratch. Each epoch's single put of 8 longs refers to the origin buffer,
// which is overwritten right after unlock (the target must hold the values put); single gets,
// single accumulates, epochs of several operations (put, accumulate, get: the get reads the own
// put), a get issued before a put in one epoch (the slot moves into the queue; the get still
// goes last), and a flush between two puts.
void lock_single_and_multi() {
  constexpr size_t kLongs = 8;
  const size_t scratch_at = kLongs * static_cast<size_t>(size_);
  int64_t* base = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(8 * (scratch_at + 4), 8, kDeferred,
                                 reinterpret_cast<void**>(&base), &win));
  for (size_t i = 0; i < scratch_at + 4; ++i) base[i] = 0;
  REQUIRE_OK(remora_barrier());
  const size_t mine = kLongs * static_cast<size_t>(rank_);
  auto fill = [](std::vector<int64_t>* v, int64_t from) {
    for (size_t i = 0; i < v->size(); ++i) (*v)[i] = from + static_cast<int64_t>(i);
  };
  auto expect = [&](const int64_t* got, int64_t from, const char* what, int t) {
    for (size_t i = 0; i < kLongs; ++i)
      REQUIRE(got[i] == from + static_cast<int64_t>(i),
              "%s, target %d, element %zu: %lld, not %lld", what, t, i, (long long)got[i],
              (long long)(from + static_cast<int64_t>(i)));
  };
  constexpr int kRounds = 20;
  std::vector<int64_t> origin(kLongs), read(kLongs);
  for (int round = 0; round < kRounds; ++round)
    for (int t = 0; t < size_; ++t) {
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
      fill(&origin, value(rank_, t, round) * 100);
      REQUIRE_OK(remora_win_put(win, t, mine, origin.data(), kLongs, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(win, t));
      fill(&origin, -1);  // reused at once: the epoch is complete
    }
  REQUIRE_OK(remora_barrier());
  for (int w = 0; w < size_; ++w)
    expect(base + kLongs * static_cast<size_t>(w), value(w, rank_, kRounds - 1) * 100,
           "single puts", rank_);
  REQUIRE_OK(remora_barrier());
  // Single gets (shared) of another writer's row, and single accumulates (exclusive).
  const int w = (rank_ + 1) % size_;
  for (int t = 0; t < size_; ++t) {
    fill(&read, -5);
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, t, 0));
    REQUIRE_OK(
        remora_win_get(win, t, kLongs * static_cast<size_t>(w), read.data(), kLongs, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, t));
    expect(read.data(), value(w, t, kRounds - 1) * 100, "single get", t);
    for (int round = 0; round < kRounds; ++round) {
      const int64_t add = rank_ + 1;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
      REQUIRE_OK(
          remora_win_accumulate(win, t, scratch_at, &add, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
      REQUIRE_OK(remora_win_unlock(win, t));
    }
  }
  REQUIRE_OK(remora_barrier());  // every single get read its row before the rows change
  // Several operations per epoch.
  for (int round = 0; round < kRounds; ++round)
    for (int t = 0; t < size_; ++t) {
      const int64_t from = value(rank_, t, round) * 10;
      const int64_t one = 1;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
      fill(&origin, from);
      fill(&read, -3);
      if (round % 2 == 0) {  // put (slot), accumulate, get of the same row
        REQUIRE_OK(remora_win_put(win, t, mine, origin.data(), kLongs, REMORA_INT64));
        REQUIRE_OK(remora_win_accumulate(win, t, scratch_at + 1, &one, 1, REMORA_INT64,
                                         REMORA_OP_SUM, nullptr));
        REQUIRE_OK(remora_win_get(win, t, mine, read.data(), kLongs, REMORA_INT64));
      } else {  // get (slot), then put: the get still goes last; a flush between two puts
        REQUIRE_OK(remora_win_get(win, t, mine, read.data(), kLongs, REMORA_INT64));
        std::vector<int64_t> first(kLongs);
        fill(&first, -900);
        REQUIRE_OK(remora_win_put(win, t, mine, first.data(), kLongs, REMORA_INT64));
        REQUIRE_OK(remora_win_flush(win, t));
        fill(&first, -1100);  // reusable after the flush
        REQUIRE_OK(remora_win_put(win, t, mine, origin.data(), kLongs, REMORA_INT64));
        REQUIRE_OK(remora_win_accumulate(win, t, scratch_at + 1, &one, 1, REMORA_INT64,
                                         REMORA_OP_SUM, nullptr));
      }
      REQUIRE_OK(remora_win_unlock(win, t));
      fill(&origin, -1);
      if (round % 2 == 0 || t == rank_)  // the own window's lock is immediate: no reordering
        expect(read.data(), round % 2 == 0 || t != rank_ ? from : value(rank_, t, round - 1) * 10,
               "get after put in one epoch", t);
      else
        expect(read.data(), -900, "get before the flush of a put", t);
    }
  REQUIRE_OK(remora_barrier());
  REQUIRE(base[scratch_at] == int64_t{kRounds} * size_ * (size_ + 1) / 2,
          "single accumulates: %lld", (long long)base[scratch_at]);
  REQUIRE(base[scratch_at + 1] == int64_t{kRounds} * size_, "accumulates in epochs: %lld",
          (long long)base[scratch_at + 1]);
  for (int v = 0; v < size_; ++v)
    expect(base + kLongs * static_cast<size_t>(v), value(v, rank_, kRounds - 1) * 10,
           "last epoch's put", rank_);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// Single-operation deferred lock epochs of every kind, values checked after each unlock: each
// rank owns its writer slot on every target, so every result is known. fetch_and_op, then
// compare_and_swap, then get_accumulate (each queued, performed at unlock), a put that finds
// the word free (taken at the put) and a get (kept in the slot for unlock).
void lock_single_ops_each_kind() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  const size_t mine = static_cast<size_t>(rank_);
  for (size_t i = 0; i < slots(); ++i) base[i] = 0;
  REQUIRE_OK(remora_barrier());
  constexpr int kRounds = 10;
  for (int round = 0; round < kRounds; ++round)
    for (int t = 0; t < size_; ++t) {
      const int64_t r = round;
      auto single = [&](auto op) {
        REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
        op();
        REQUIRE_OK(remora_win_unlock(win, t));
      };
      int64_t result = -7, one = 1, swap = -(r + 1), compare = r + 1, replace = r + 1;
      single([&] {  // the slot holds r: r + 1
        REQUIRE_OK(
            remora_win_fetch_and_op(win, t, mine, &one, &result, REMORA_INT64, REMORA_OP_SUM));
      });
      REQUIRE(result == r, "fetch_and_op to %d, round %d: %lld", t, round, (long long)result);
      result = -7;
      single([&] {  // r + 1 -> -(r + 1)
        REQUIRE_OK(
            remora_win_compare_and_swap(win, t, mine, &swap, &compare, &result, REMORA_INT64));
      });
      REQUIRE(result == r + 1, "compare_and_swap to %d, round %d: %lld", t, round,
              (long long)result);
      result = -7;
      single([&] {  // -(r + 1) -> r + 1
        REQUIRE_OK(remora_win_get_accumulate(win, t, mine, &replace, &result, 1, REMORA_INT64,
                                             REMORA_OP_REPLACE, nullptr));
      });
      REQUIRE(result == -(r + 1), "get_accumulate to %d, round %d: %lld", t, round,
              (long long)result);
      // The slot now holds r + 1: a put of r + 1 (the same value) and a get read it back.
      int64_t put = r + 1, got = -7;
      single([&] { REQUIRE_OK(remora_win_put(win, t, mine, &put, 1, REMORA_INT64)); });
      put = -9;  // reusable after unlock
      single([&] { REQUIRE_OK(remora_win_get(win, t, mine, &got, 1, REMORA_INT64)); });
      REQUIRE(got == r + 1, "get from %d, round %d: %lld", t, round, (long long)got);
    }
  REQUIRE_OK(remora_barrier());
  for (int w = 0; w < size_; ++w)
    REQUIRE(base[w] == kRounds, "slot of writer %d: %lld", w, (long long)base[w]);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// A put after an operation recorded in the epoch (an accumulate, queued; a get, in the slot)
// must not take the lock word at once (the put fast path only takes it for an epoch with
// nothing recorded): it is queued behind them, the get still goes last, and all are performed.
void put_after_recorded_operation() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  const size_t mine = static_cast<size_t>(rank_);
  for (size_t i = 0; i < slots(); ++i) base[i] = 0;
  REQUIRE_OK(remora_barrier());
  constexpr int kRounds = 10;
  for (int round = 0; round < kRounds; ++round)
    for (int t = 0; t < size_; ++t) {
      const int64_t one = 1, put = value(rank_, t, round);
      int64_t got = -7;
      REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
      if (round % 2 == 0)
        REQUIRE_OK(remora_win_accumulate(win, t, scratch(0), &one, 1, REMORA_INT64, REMORA_OP_SUM,
                                         nullptr));
      else
        REQUIRE_OK(remora_win_get(win, t, mine, &got, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_put(win, t, mine, &put, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(win, t));
      // The own window's lock is immediate: there the get reads the previous round's put.
      if (round % 2 == 1)
        REQUIRE(got == (t == rank_ ? value(rank_, t, round - 1) : put),
                "get before a put to %d, round %d: %lld", t, round, (long long)got);
    }
  REQUIRE_OK(remora_barrier());
  REQUIRE(base[scratch(0)] == int64_t{kRounds / 2} * size_, "accumulates: %lld",
          (long long)base[scratch(0)]);
  for (int w = 0; w < size_; ++w)
    REQUIRE(base[w] == value(w, rank_, kRounds - 1), "slot of writer %d: %lld", w,
            (long long)base[w]);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// Closing deferred fences in a row with counts that differ per epoch, origin and target (0, 1
// or 2 puts; some epochs have none at all): each closing fence must wait for exactly its own
// epoch's operations, whichever row of counts it uses.
void fence_varying_counts() {
  int64_t* base = nullptr;
  remora_win_t win = nullptr;
  const size_t n = 2 * static_cast<size_t>(size_);
  REQUIRE_OK(remora_win_allocate(8 * n, 8, kDeferred, reinterpret_cast<void**>(&base), &win));
  for (size_t i = 0; i < n; ++i) base[i] = 0;
  std::vector<int64_t> expected(n, 0);
  REQUIRE_OK(remora_win_fence(win, 0));
  constexpr int kEpochs = 13;
  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    auto puts = [epoch](int origin, int target) {
      return epoch % 4 == 3 ? 0 : (epoch + origin + 2 * target) % 3;
    };
    std::vector<int64_t> origins(n);
    for (int t = 0; t < size_; ++t)
      for (int j = 0; j < puts(rank_, t); ++j) {
        int64_t& v = origins[static_cast<size_t>(2 * t + j)];
        v = value(rank_, t, epoch) * 2 + j;
        REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(2 * rank_ + j), &v, 1, REMORA_INT64));
      }
    origins.assign(n, -1);  // the fence queue copied them
    REQUIRE_OK(remora_win_fence(win, 0));
    for (int o = 0; o < size_; ++o)
      for (int j = 0; j < puts(o, rank_); ++j)
        expected[static_cast<size_t>(2 * o + j)] = value(o, rank_, epoch) * 2 + j;
    for (size_t i = 0; i < n; ++i)
      REQUIRE(base[i] == expected[i], "epoch %d: slot %zu holds %lld, not %lld", epoch, i,
              (long long)base[i], (long long)expected[i]);
  }
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_win_free(&win));
}

// Closing deferred fences where one rank, a different one each epoch, arrives late (it works
// for 2 ms first): the others wait for its row of counts (long enough to reach the sleeping
// phase of their wait), and whichever rank stores the last mark wakes them. Each rank puts its
// epoch number to every target; every slot holds the epoch just closed.
void fence_late_arrival() {
  int64_t* base = nullptr;
  remora_win_t win = nullptr;
  const auto n = static_cast<size_t>(size_);
  REQUIRE_OK(remora_win_allocate(8 * n, 8, kDeferred, reinterpret_cast<void**>(&base), &win));
  for (size_t i = 0; i < n; ++i) base[i] = -1;
  REQUIRE_OK(remora_win_fence(win, 0));
  const int epochs = 2 * size_ + 1;  // every rank late twice, each row of counts used
  for (int epoch = 0; epoch < epochs; ++epoch) {
    const int64_t mine = value(rank_, rank_, epoch);
    for (int t = 0; t < size_; ++t)
      REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &mine, 1, REMORA_INT64));
    if (rank_ == epoch % size_) {
      const double until = remora_wtime() + 0.002;
      while (remora_wtime() < until) remora_test::progress_and_yield();
    }
    REQUIRE_OK(remora_win_fence(win, 0));
    for (int o = 0; o < size_; ++o)
      REQUIRE(base[o] == value(o, o, epoch), "epoch %d: slot of origin %d holds %lld", epoch, o,
              (long long)base[o]);
  }
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_win_free(&win));
}

// Shared deferred locks are granted concurrently: every rank forces its shared lock with a
// flush and holds it until all ranks have arrived (a hang here means they were not).
void shared_locks_overlap() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  const int64_t one = 1;
  int64_t arrived = 0;
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
  REQUIRE_OK(remora_win_flush(win, 0));  // the lock is held from here
  REQUIRE_OK(
      remora_win_fetch_and_op(win, 0, scratch(6), &one, &arrived, REMORA_INT64, REMORA_OP_SUM));
  REQUIRE_OK(remora_win_flush(win, 0));
  while (arrived < size_) {
    remora_test::progress_and_yield();
    REQUIRE_OK(remora_win_fetch_and_op(win, 0, scratch(6), nullptr, &arrived, REMORA_INT64,
                                       REMORA_OP_NO_OP));
    REQUIRE_OK(remora_win_flush(win, 0));
  }
  REQUIRE_OK(remora_win_unlock(win, 0));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// lock_all with a put per target (the lock-op-unlock path at unlock_all); flush_local and
// flush_all force deferred epochs to several targets at once.
void lock_all_and_flush_all() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  std::vector<int64_t> v(static_cast<size_t>(size_));  // one origin buffer per queued put
  for (int t = 0; t < size_; ++t) {
    v[static_cast<size_t>(t)] = value(rank_, t, 6);
    REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v[static_cast<size_t>(t)], 1,
                              REMORA_INT64));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  v.assign(v.size(), -1);  // reused after unlock_all
  REQUIRE_OK(remora_barrier());
  check_all_slots(base, 6);
  REQUIRE_OK(remora_barrier());
  for (int t = 0; t < size_; ++t) REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, t, 0));
  std::vector<int64_t> got(static_cast<size_t>(size_ * size_), -7);
  for (int t = 0; t < size_; ++t)
    REQUIRE_OK(remora_win_get(win, t, 0, got.data() + t * size_, static_cast<size_t>(size_),
                              REMORA_INT64));
  REQUIRE_OK(remora_win_flush_local_all(win));
  check_got(got, 6);
  got.assign(got.size(), -7);
  for (int t = 0; t < size_; ++t)
    REQUIRE_OK(remora_win_get(win, t, 0, got.data() + t * size_, static_cast<size_t>(size_),
                              REMORA_INT64));
  REQUIRE_OK(remora_win_flush_all(win));
  check_got(got, 6);
  for (int t = 0; t < size_; ++t) REQUIRE_OK(remora_win_unlock(win, t));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// The deferred lock_all (the same rules as the deferred lock, per target): returns while
// another rank holds an exclusive lock (an immediate lock_all would wait for it, and this test
// would hang), queues per target, performs at unlock_all with gets last, and flush forces one
// target's queue. Accumulates under lock_all from every rank add up exactly.
void deferred_lock_all() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  const int holder = size_ - 1;
  // holder's lock on its own window is taken at once; the others' lock_all to it is not.
  if (rank_ == holder) REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, holder, 0));
  REQUIRE_OK(remora_barrier());
  int64_t v = value(rank_, holder, 7);  // read by the queued put at unlock_all
  if (rank_ != holder) {
    REQUIRE_OK(remora_win_lock_all(win, 0));
    REQUIRE_OK(remora_win_put(win, holder, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
  }
  REQUIRE_OK(remora_barrier());  // every lock_all returned although holder is locked
  if (rank_ == holder) {
    for (int w = 0; w < size_ - 1; ++w)
      REQUIRE(base[w] == 0, "slot %d written (%lld) while holder held its exclusive lock", w,
              (long long)base[w]);
    base[holder] = value(holder, holder, 7);
    REQUIRE_OK(remora_win_unlock(win, holder));
  } else {
    REQUIRE_OK(remora_win_unlock_all(win));
  }
  REQUIRE_OK(remora_barrier());
  if (rank_ == holder) check_all_slots(base, 7);  // everyone wrote to holder only
  REQUIRE_OK(remora_barrier());

  // Several operations per target: put to a scratch slot, get it back (gets go last), one
  // accumulate per target; then a flush forces one target and its results are valid.
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_win_lock_all(win, 0));
    std::vector<int64_t> read(static_cast<size_t>(size_), -7);
    std::vector<int64_t> mine(static_cast<size_t>(size_));  // origin buffers until unlock_all
    const int64_t one = 1;
    for (int t = 0; t < size_; ++t) {
      REQUIRE_OK(remora_win_get(win, t, scratch(8) + static_cast<size_t>(rank_) % 4,
                                &read[static_cast<size_t>(t)], 1, REMORA_INT64));
      mine[static_cast<size_t>(t)] = value(rank_, t, round);
      if (rank_ < 4)  // scratch(8..11): one slot per writer, nobody else writes it
        REQUIRE_OK(remora_win_put(win, t, scratch(8) + static_cast<size_t>(rank_),
                                  &mine[static_cast<size_t>(t)], 1, REMORA_INT64));
      REQUIRE_OK(remora_win_accumulate(win, t, scratch(12), &one, 1, REMORA_INT64, REMORA_OP_SUM,
                                       nullptr));
    }
    const int forced = round % size_;
    int64_t fetched = -7;
    REQUIRE_OK(remora_win_fetch_and_op(win, forced, scratch(13), &one, &fetched, REMORA_INT64,
                                       REMORA_OP_SUM));
    REQUIRE_OK(remora_win_flush(win, forced));
    REQUIRE(fetched >= 0 && fetched < int64_t{size_} * kRounds, "fetched %lld", (long long)fetched);
    REQUIRE_OK(remora_win_unlock_all(win));
    if (rank_ < 4)
      for (int t = 0; t < size_; ++t)
        if (t != rank_ || round > 0)  // the own target's lock runs at once: get before put
          REQUIRE(read[static_cast<size_t>(t)] == value(rank_, t, t == rank_ ? round - 1 : round),
                  "round %d target %d: read %lld", round, t,
                  (long long)read[static_cast<size_t>(t)]);
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE(base[scratch(12)] == int64_t{size_} * kRounds, "accumulated %lld",
          (long long)base[scratch(12)]);
  const int64_t forced_here = kRounds / size_ + (rank_ < kRounds % size_ ? 1 : 0);
  REQUIRE(base[scratch(13)] == int64_t{size_} * forced_here, "fetch_and_op total %lld",
          (long long)base[scratch(13)]);
  REQUIRE_OK(remora_barrier());
  // NOCHECK: no lock word, the queue still works.
  REQUIRE_OK(remora_win_lock_all(win, REMORA_MODE_NOCHECK));
  int64_t got = -7;
  REQUIRE_OK(remora_win_get(win, (rank_ + 1) % size_, scratch(12), &got, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE(got == int64_t{size_} * kRounds, "got %lld", (long long)got);
  // Misuse in a deferred lock_all epoch.
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0), REMORA_ERR_STATE, "lock_all");
  REQUIRE_ERROR(remora_win_lock_all(win, 0), REMORA_ERR_STATE, "lock_all");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "");
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_ERROR(remora_win_unlock_all(win), REMORA_ERR_STATE, "");
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

void misuse() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  const int64_t v = 1;
  REQUIRE_ERROR(remora_win_put(win, 0, 0, &v, 1, REMORA_INT64), REMORA_ERR_STATE, "no access");
  REQUIRE_ERROR(remora_win_unlock(win, 0), REMORA_ERR_STATE, "not locked");
  REQUIRE_ERROR(remora_win_flush(win, 0), REMORA_ERR_STATE, "not locked");
  // A queued operation in a deferred lock epoch: the window cannot be freed, nor locked twice.
  const int target = (rank_ + 1) % size_;
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, target, 0));
  REQUIRE_OK(remora_win_put(win, target, scratch(7), &v, 1, REMORA_INT64));
  REQUIRE_ERROR(remora_win_lock(win, REMORA_LOCK_SHARED, target, 0), REMORA_ERR_STATE,
                "already locked");
  REQUIRE_ERROR(remora_win_free(&win), REMORA_ERR_STATE, "still locked");
  REQUIRE_ERROR(remora_win_fence(win, 0), REMORA_ERR_STATE, "passive-target");
  REQUIRE_OK(remora_win_unlock(win, target));
  REQUIRE_OK(remora_barrier());
  REQUIRE(base[scratch(7)] == 1, "the queued put of the refused calls' epoch is missing");
  REQUIRE_OK(remora_win_free(&win));

  remora_win_t bad = nullptr;
  REQUIRE_ERROR(remora_win_allocate(64, 8, "fence=lazy", nullptr, &bad), REMORA_ERR_ARG,
                "fence='lazy'");
  REQUIRE_ERROR(remora_win_allocate(64, 8, "lock=soon", nullptr, &bad), REMORA_ERR_ARG,
                "lock='soon'");
  REQUIRE_ERROR(remora_win_sync_impl(nullptr, nullptr, nullptr), REMORA_ERR_ARG, "win is NULL");
  if (size_ > 1) {  // all ranks see the disagreement and fail alike
    const char* info = rank_ == 0 ? "fence=deferred" : "fence=immediate";
    REQUIRE_ERROR(remora_win_allocate(64, 8, info, nullptr, &bad), REMORA_ERR_ARG, "info differs");
    info = rank_ == size_ - 1 ? "lock=deferred" : "lock=immediate";
    REQUIRE_ERROR(remora_win_allocate(64, 8, info, nullptr, &bad), REMORA_ERR_ARG, "lock=");
  }
}

// Many live windows (more than the registry's short list of recent handles): every handle is
// found, freed ones are rejected.
void many_windows() {
  constexpr int kWindows = 12;
  remora_win_t wins[kWindows];
  int64_t* bases[kWindows];
  for (int i = 0; i < kWindows; ++i) wins[i] = allocate(i % 2 ? kDeferred : nullptr, &bases[i]);
  for (int i = kWindows - 1; i >= 0; --i) {
    void* base = nullptr;
    REQUIRE_OK(remora_win_base(wins[i], &base));
    REQUIRE(base == bases[i], "window %d", i);
  }
  remora_win_t stale = wins[3];
  for (int i = 0; i < kWindows; ++i) REQUIRE_OK(remora_win_free(&wins[i]));
  void* base = nullptr;
  REQUIRE_ERROR(remora_win_base(stale, &base), REMORA_ERR_ARG, "not a live window");
}

// Deferred epochs whose first put finds the word busy: the last rank holds its own window's
// exclusive lock (taken at once) while every other rank opens an epoch to it (exclusive in
// round 0, shared in round 1) and puts twice into its slot, then gets the slot. Nothing waits:
// the first put stays in the slot, the second put and the get queue behind it, and nothing
// reaches the target while its holder keeps the word. Unlock performs them in issue order with
// the get last (it reads the second put), and the origin buffers are reused right after it.
void busy_first_put_then_queue() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  const int holder = size_ - 1;
  for (size_t i = 0; i < slots(); ++i) base[i] = 0;
  REQUIRE_OK(remora_barrier());
  for (int round = 0; round < 2; ++round) {
    if (rank_ == holder) REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, holder, 0));
    REQUIRE_OK(remora_barrier());  // the word is held
    int64_t first = value(rank_, holder, 10 * round + 1);
    int64_t second = value(rank_, holder, 10 * round + 2);
    int64_t got = -7;
    const size_t mine = static_cast<size_t>(rank_);
    if (rank_ != holder) {
      REQUIRE_OK(
          remora_win_lock(win, round == 0 ? REMORA_LOCK_EXCLUSIVE : REMORA_LOCK_SHARED, holder, 0));
      REQUIRE_OK(remora_win_put(win, holder, mine, &first, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_put(win, holder, mine, &second, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_get(win, holder, mine, &got, 1, REMORA_INT64));
    }
    REQUIRE_OK(remora_barrier());  // every origin has issued its operations
    if (rank_ == holder) {
      for (int w = 0; w < holder; ++w)
        REQUIRE(base[w] == (round == 0 ? 0 : value(w, holder, 2)),
                "round %d: slot of writer %d changed under the held word: %lld", round, w,
                (long long)base[w]);
      REQUIRE_OK(remora_win_unlock(win, holder));
    } else {
      REQUIRE_OK(remora_win_unlock(win, holder));
      const int64_t expected = second;
      first = second = -1;  // the origin buffers may be reused once unlock returned
      REQUIRE(got == expected, "round %d: get after two puts read %lld, expected %lld", round,
              (long long)got, (long long)expected);
    }
    REQUIRE_OK(remora_barrier());
    if (rank_ == holder)
      for (int w = 0; w < holder; ++w)
        REQUIRE(base[w] == value(w, holder, 10 * round + 2), "round %d: slot of writer %d: %lld",
                round, w, (long long)base[w]);
    REQUIRE_OK(remora_barrier());
  }
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

// Exclusive deferred epochs that begin with a put: one node takes the free lock word at the put
// (the rest of the epoch runs at once), a busy word leaves the put in the slot for unlock. Either
// way the epoch excludes the others: every rank writes its own marker into one shared word of
// the last rank, then reads it back in the same epoch, which must see its own marker (two
// epochs overlapping would let another rank's put in between). The origin buffer is reused
// right after unlock.
void put_first_epochs_exclude() {
  int64_t* base = nullptr;
  remora_win_t win = allocate(kDeferred, &base);
  const int target = size_ - 1;
  REQUIRE_OK(remora_barrier());
  constexpr int kRounds = 300;
  for (int round = 0; round < kRounds; ++round) {
    int64_t marker = int64_t{rank_ + 1} * 1000000 + round;
    int64_t read = -1;
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0));
    REQUIRE_OK(remora_win_put(win, target, 0, &marker, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_get(win, target, 0, &read, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, target));
    const int64_t expected = marker;
    marker = -2;  // the origin buffer may be reused once unlock returned
    REQUIRE(read == expected, "round %d: read %lld, put %lld", round, (long long)read,
            (long long)expected);
  }
  REQUIRE_OK(remora_barrier());
  // The last epoch of all was some rank's last round, whose marker the word keeps (not the -2
  // written into the origin buffer after unlock).
  if (rank_ == target)
    REQUIRE(
        base[0] % 1000000 == kRounds - 1 && base[0] / 1000000 >= 1 && base[0] / 1000000 <= size_,
        "the word holds %lld", (long long)base[0]);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  fence_epochs();
  fence_accumulates();
  lock_visibility();
  exclusive_locks_exclude();
  lock_single_and_multi();
  lock_single_ops_each_kind();
  put_after_recorded_operation();
  fence_varying_counts();
  fence_late_arrival();
  shared_locks_overlap();
  lock_all_and_flush_all();
  deferred_lock_all();
  put_first_epochs_exclude();
  busy_first_put_then_queue();
  misuse();
  many_windows();
  REQUIRE_OK(remora_finalize());
  return 0;
}
