// REMORA_THREAD_MULTIPLE: four threads per rank hammer windows, collectives and arrays at the
// same time, and every result is an exact integer that a lost update, a duplicate or a torn
// value would change.
//  * windows, per accumulate strategy, in one shared lock_all epoch: fetch_and_op tickets
//    (each value handed out exactly once per target, recorded by an accumulate into the
//    target's ticket table), accumulates, compare_and_swap increments, puts to disjoint slots,
//    flushes;
//  * exclusive lock/unlock: threads lock different targets of one shared window at the same
//    time, and each thread owns a window on which it does read-modify-write increments under
//    an exclusive lock of every target in turn (threads of all ranks wait for each other's
//    locks at the same time);
//  * collectives: each thread allreduces on its own duplicate of the world communicator;
//  * arrays: accumulates over a shared patch, puts to disjoint rows read back by get, and the
//    read_inc counter (each ticket exactly once across all threads and ranks).
// Also: the thread level queries, and creation refused while another thread is inside Remora.
#include <cstdint>
#include <thread>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kThreads = 4;
constexpr int kOps = 200;  // per thread and phase
int rank_, size_;

template <typename Body>
void run_threads(const Body& body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(body, t);
  for (auto& thread : threads) thread.join();
}

// The target of operation i of thread t of rank r.
int target_of(int r, int t, int i) {
  return (r + t + i) % size_;
}

// How many operations of all ranks and threads address `target`.
int64_t ops_on(int target) {
  int64_t n = 0;
  for (int r = 0; r < size_; ++r)
    for (int t = 0; t < kThreads; ++t)
      for (int i = 0; i < kOps; ++i) n += target_of(r, t, i) == target;
  return n;
}

// Window layout (int64 slots): 0 fetch_and_op counter, 1 accumulate sum, 2 CAS counter,
// 3.. tickets (one per possible fetch_and_op value), then one put slot per (rank, thread, i).
constexpr size_t kCounter = 0, kSum = 1, kCas = 2, kTickets = 3;
size_t ticket_slots() {
  return static_cast<size_t>(size_) * kThreads * kOps;
}
size_t put_slot(int r, int t, int i) {
  return kTickets + ticket_slots() + (static_cast<size_t>(r) * kThreads + t) * kOps + i;
}
int64_t put_value(int r, int t, int i) {
  return 1000000LL * r + 1000LL * t + i + 1;
}

void window_phase(const char* info) {
  remora_win_t win = nullptr;
  const size_t slots = kTickets + 2 * ticket_slots();
  // Zero-initialised (remora_win_allocate); not written here, so that ThreadSanitizer sees no
  // write of this thread racing with the progress thread's owner-computes updates (their
  // happens-before runs through the other ranks' barrier, which it cannot see).
  const int64_t* base = remora_test::allocate_int64_window(slots, info, &win);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(win, 0));
  run_threads([&](int t) {
    const int64_t one = 1, mine = t + 1;
    for (int i = 0; i < kOps; ++i) {
      const int target = target_of(rank_, t, i);
      int64_t ticket = -1;
      REQUIRE_OK(remora_win_fetch_and_op(win, target, kCounter, &one, &ticket, REMORA_INT64,
                                         REMORA_OP_SUM));
      REQUIRE(ticket >= 0 && ticket < static_cast<int64_t>(ticket_slots()), "ticket %lld",
              (long long)ticket);
      REQUIRE_OK(remora_win_accumulate(win, target, kTickets + static_cast<size_t>(ticket), &one, 1,
                                       REMORA_INT64, REMORA_OP_SUM, nullptr));
      REQUIRE_OK(
          remora_win_accumulate(win, target, kSum, &mine, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
      // An increment by compare_and_swap: retried until no other thread or rank came between.
      int64_t seen = 0;
      REQUIRE_OK(remora_win_get_accumulate(win, target, kCas, nullptr, &seen, 1, REMORA_INT64,
                                           REMORA_OP_NO_OP, nullptr));
      for (;;) {
        const int64_t next = seen + 1;
        int64_t old = 0;
        REQUIRE_OK(
            remora_win_compare_and_swap(win, target, kCas, &next, &seen, &old, REMORA_INT64));
        if (old == seen) break;
        seen = old;
      }
      const int64_t value = put_value(rank_, t, i);
      REQUIRE_OK(remora_win_put(win, target, put_slot(rank_, t, i), &value, 1, REMORA_INT64));
      if (i % 16 == 15) REQUIRE_OK(remora_win_flush(win, target));
    }
    REQUIRE_OK(remora_win_flush_all(win));
  });
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  const int64_t n = ops_on(rank_);
  REQUIRE(base[kCounter] == n, "[%s] fetch_and_op counter %lld, expected %lld", info,
          (long long)base[kCounter], (long long)n);
  for (int64_t k = 0; k < static_cast<int64_t>(ticket_slots()); ++k)
    REQUIRE(base[kTickets + k] == (k < n ? 1 : 0), "[%s] ticket %lld handed out %lld times", info,
            (long long)k, (long long)base[kTickets + k]);
  int64_t sum = 0;
  for (int r = 0; r < size_; ++r)
    for (int t = 0; t < kThreads; ++t)
      for (int i = 0; i < kOps; ++i) sum += target_of(r, t, i) == rank_ ? t + 1 : 0;
  REQUIRE(base[kSum] == sum, "[%s] accumulated %lld, expected %lld", info, (long long)base[kSum],
          (long long)sum);
  REQUIRE(base[kCas] == n, "[%s] CAS counter %lld, expected %lld", info, (long long)base[kCas],
          (long long)n);
  for (int r = 0; r < size_; ++r)
    for (int t = 0; t < kThreads; ++t)
      for (int i = 0; i < kOps; ++i) {
        const int64_t expect = target_of(r, t, i) == rank_ ? put_value(r, t, i) : 0;
        REQUIRE(base[put_slot(r, t, i)] == expect, "[%s] put slot of %d/%d/%d holds %lld", info, r,
                t, i, (long long)base[put_slot(r, t, i)]);
      }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// Each thread owns a window: exclusive locks of every target in turn, a read-modify-write
// under each. Threads of all ranks contend for the same target's lock of their window.
void lock_phase() {
  constexpr int kRounds = 40;
  remora_win_t wins[kThreads];
  int64_t* bases[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    bases[t] = remora_test::allocate_int64_window(1, nullptr, &wins[t]);  // zeroed
  }
  // And one window shared by the threads: thread t < size locks target t only, so the
  // threads of a rank hold epochs on different targets of one window at the same time.
  remora_win_t shared = nullptr;
  const int64_t* shared_base = remora_test::allocate_int64_window(1, nullptr, &shared);
  REQUIRE_OK(remora_barrier());
  run_threads([&](int t) {
    for (int round = 0; round < kRounds && t < size_; ++round) {
      REQUIRE_OK(remora_win_lock(shared, REMORA_LOCK_EXCLUSIVE, t, 0));
      int64_t value = 0;
      REQUIRE_OK(remora_win_get(shared, t, 0, &value, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(shared, t));
      value += 1;
      REQUIRE_OK(remora_win_put(shared, t, 0, &value, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(shared, t));
    }
    for (int round = 0; round < kRounds; ++round) {
      const int target = (rank_ + round) % size_;
      REQUIRE_OK(remora_win_lock(wins[t], REMORA_LOCK_EXCLUSIVE, target, 0));
      int64_t value = 0;
      REQUIRE_OK(remora_win_get(wins[t], target, 0, &value, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(wins[t], target));
      value += 1;
      REQUIRE_OK(remora_win_put(wins[t], target, 0, &value, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_unlock(wins[t], target));
    }
  });
  REQUIRE_OK(remora_barrier());
  // Target r's word was incremented kRounds times by thread r of every rank (r < kThreads).
  const int64_t expect = rank_ < kThreads ? static_cast<int64_t>(size_) * kRounds : 0;
  REQUIRE(shared_base[0] == expect, "shared window: %lld increments, expected %lld",
          (long long)shared_base[0], (long long)expect);
  REQUIRE_OK(remora_win_free(&shared));
  for (int t = 0; t < kThreads; ++t) {
    REQUIRE(bases[t][0] == kRounds, "window %d: %lld increments, expected %d", t,
            (long long)bases[t][0], kRounds);
    REQUIRE_OK(remora_win_free(&wins[t]));
  }
}

// Each thread allreduces on its own communicator.
void collective_phase() {
  remora_comm_t world = REMORA_COMM_NULL, comms[kThreads];
  REQUIRE_OK(remora_comm_world(&world));
  for (int t = 0; t < kThreads; ++t) REQUIRE_OK(remora_comm_dup(world, &comms[t]));
  run_threads([&](int t) {
    for (int i = 0; i < kOps / 4; ++i) {
      const int64_t mine[2] = {(rank_ + 1) * (t + 1) + i, rank_};
      int64_t sum[2] = {0, 0};
      REQUIRE_OK(
          remora_allreduce(mine, sum, 2, REMORA_INT64, REMORA_OP_SUM, comms[t], REMORA_COLL_AUTO));
      const int64_t n = size_;
      REQUIRE(sum[0] == (t + 1) * n * (n + 1) / 2 + n * i, "thread %d call %d: %lld", t, i,
              (long long)sum[0]);
      REQUIRE(sum[1] == n * (n - 1) / 2, "thread %d call %d: %lld", t, i, (long long)sum[1]);
    }
  });
  for (int t = 0; t < kThreads; ++t) REQUIRE_OK(remora_comm_free(&comms[t]));
}

void array_phase() {
  constexpr int64_t kCols = 24;
  const int64_t rows = static_cast<int64_t>(size_) * kThreads;
  const int64_t dims[2] = {rows, kCols};
  remora_array_t shared = nullptr, rowwise = nullptr, counter = nullptr, seen = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_INT64, 2, dims, "shared", &shared));
  REQUIRE_OK(remora_array_create(REMORA_INT64, 2, dims, "rows", &rowwise));
  const int64_t one_dim[1] = {1};
  REQUIRE_OK(remora_array_create(REMORA_INT64, 1, one_dim, "counter", &counter));
  const int64_t tickets = rows * kOps;
  const int64_t seen_dims[1] = {tickets};
  REQUIRE_OK(remora_array_create(REMORA_INT64, 1, seen_dims, "seen", &seen));
  for (remora_array_t a : {shared, rowwise, counter, seen}) REQUIRE_OK(remora_array_zero(a));
  REQUIRE_OK(remora_array_sync());
  run_threads([&](int t) {
    const int64_t alpha = 1, ld[1] = {kCols};
    std::vector<int64_t> block(static_cast<size_t>(rows * kCols), t + 1);
    const int64_t lo[2] = {0, 0}, hi[2] = {rows - 1, kCols - 1};
    const int64_t row = static_cast<int64_t>(rank_) * kThreads + t;
    for (int i = 0; i < kOps; ++i) {
      if (i % 10 == 0) REQUIRE_OK(remora_array_acc(shared, lo, hi, block.data(), ld, &alpha));
      // This thread's row: put, read back.
      std::vector<int64_t> values(kCols), back(kCols, -1);
      for (int64_t c = 0; c < kCols; ++c)
        values[static_cast<size_t>(c)] = row * 100000 + i * 100 + c;
      const int64_t rlo[2] = {row, 0}, rhi[2] = {row, kCols - 1};
      REQUIRE_OK(remora_array_put(rowwise, rlo, rhi, values.data(), ld));
      REQUIRE_OK(remora_array_get(rowwise, rlo, rhi, back.data(), ld));
      REQUIRE(back == values, "thread %d: row %lld read back differs at op %d", t, (long long)row,
              i);
      // A ticket from the shared counter, marked as seen once.
      const int64_t zero[1] = {0};
      int64_t ticket = -1;
      REQUIRE_OK(remora_array_read_inc(counter, zero, 1, &ticket));
      REQUIRE(ticket >= 0 && ticket < tickets, "ticket %lld", (long long)ticket);
      const int64_t at[1] = {ticket};
      const int64_t one = 1, one_ld[1] = {1};
      REQUIRE_OK(remora_array_acc(seen, at, at, &one, one_ld, &alpha));
    }
  });
  REQUIRE_OK(remora_array_sync());
  if (rank_ == 0) {
    std::vector<int64_t> all(static_cast<size_t>(rows * kCols));
    const int64_t lo[2] = {0, 0}, hi[2] = {rows - 1, kCols - 1}, ld[1] = {kCols};
    REQUIRE_OK(remora_array_get(shared, lo, hi, all.data(), ld));
    const int64_t per = static_cast<int64_t>(size_) * (kOps / 10) * kThreads * (kThreads + 1) / 2;
    for (size_t k = 0; k < all.size(); ++k)
      REQUIRE(all[k] == per, "shared element %zu: %lld, expected %lld", k, (long long)all[k],
              (long long)per);
    REQUIRE_OK(remora_array_get(rowwise, lo, hi, all.data(), ld));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < kCols; ++c)
        REQUIRE(all[static_cast<size_t>(r * kCols + c)] == r * 100000 + (kOps - 1) * 100 + c,
                "row %lld col %lld", (long long)r, (long long)c);
    std::vector<int64_t> marks(static_cast<size_t>(tickets));
    const int64_t tlo[1] = {0}, thi[1] = {tickets - 1}, tld[1] = {1};
    REQUIRE_OK(remora_array_get(seen, tlo, thi, marks.data(), tld));
    for (int64_t k = 0; k < tickets; ++k)
      REQUIRE(marks[static_cast<size_t>(k)] == 1, "ticket %lld handed out %lld times", (long long)k,
              (long long)marks[static_cast<size_t>(k)]);
    int64_t count = 0;
    const int64_t zero[1] = {0};
    REQUIRE_OK(remora_array_get(counter, zero, zero, &count, tld));
    REQUIRE(count == tickets, "counter %lld, expected %lld", (long long)count, (long long)tickets);
  }
  REQUIRE_OK(remora_array_sync());
  for (remora_array_t* a : {&shared, &rowwise, &counter, &seen})
    REQUIRE_OK(remora_array_destroy(a));
}

// Creation and freeing while another thread of the rank is inside Remora are refused. Rank 0's
// second thread waits in an allreduce on comm that the other ranks join only once rank 0 has
// seen the refusal (a broken check would loop here until the test's timeout).
void single_threaded_check() {
  remora_comm_t world = REMORA_COMM_NULL, comm = REMORA_COMM_NULL, stale = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &comm));
  REQUIRE_OK(remora_comm_dup(world, &stale));
  remora_comm_t freed = stale;
  REQUIRE_OK(remora_comm_free(&freed));  // stale is now an invalid handle
  const int64_t mine = rank_ + 1;
  int64_t sum = 0;
  if (rank_ == 0) {
    std::thread waiter([&] {
      REQUIRE_OK(
          remora_allreduce(&mine, &sum, 1, REMORA_INT64, REMORA_OP_SUM, comm, REMORA_COLL_AUTO));
    });
    int status = REMORA_SUCCESS;
    remora_comm_t handle = stale;
    while ((status = remora_comm_free(&handle)) != REMORA_ERR_STATE) {
      REQUIRE(status == REMORA_ERR_ARG, "-> %d: %s", status, remora_last_error());
      std::this_thread::yield();  // the waiter has not entered yet: the stale handle is refused
    }
    REQUIRE(std::strstr(remora_last_error(), "single-threaded") != nullptr, "message \"%s\"",
            remora_last_error());
    REQUIRE_OK(remora_barrier());
    waiter.join();
  } else {
    REQUIRE_OK(remora_barrier());
    REQUIRE_OK(
        remora_allreduce(&mine, &sum, 1, REMORA_INT64, REMORA_OP_SUM, comm, REMORA_COLL_AUTO));
  }
  REQUIRE(sum == static_cast<int64_t>(size_) * (size_ + 1) / 2, "sum %lld", (long long)sum);
  REQUIRE_OK(remora_comm_free(&comm));
}

}  // namespace

int main(int argc, char** argv) {
  int provided = -1;
  REQUIRE_ERROR(remora_init_thread(&argc, &argv, 7, &provided), REMORA_ERR_ARG, "required=7");
  REQUIRE_ERROR(remora_query_thread(&provided), REMORA_ERR_NOT_INITIALIZED, "remora_query_thread");
  REQUIRE_OK(remora_init_thread(&argc, &argv, REMORA_THREAD_MULTIPLE, &provided));
  REQUIRE(provided == REMORA_THREAD_MULTIPLE, "provided %d", provided);
  int queried = -1;
  REQUIRE_OK(remora_query_thread(&queried));
  REQUIRE(queried == REMORA_THREAD_MULTIPLE, "queried %d", queried);
  REQUIRE_ERROR(remora_query_thread(nullptr), REMORA_ERR_ARG, "provided");
  rank_ = remora_rank();
  size_ = remora_size();
  REQUIRE(argc == 2 && size_ == std::atoi(argv[1]), "remora_size() = %d, launched for %s", size_,
          argc == 2 ? argv[1] : "?");
  for (const char* info : {"acc_strategy=native", "acc_strategy=caller", "acc_strategy=owner"})
    window_phase(info);
  lock_phase();
  collective_phase();
  array_phase();
  if (size_ > 1) single_threaded_check();
  REQUIRE_OK(remora_finalize());
  return 0;
}
