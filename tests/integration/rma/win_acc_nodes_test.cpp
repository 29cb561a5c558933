// Accumulates on a window whose ranks span nodes (docs/rma.md, "Across nodes"): ranks on the
// target's node update it directly (CPU atomics, or the lock table for 16-byte elements), ranks
// on other nodes through the owner (owner computes), and both reach the same locations at the
// same time. Run under mpiexec with REMORA_NODE_SIZE=1 and =2 (two "nodes" of two ranks at 4
// ranks: the mix), and on one node. Every check compares with a value computed here:
//   * contended SUM of int32, int64, double and double complex into every rank's window, with
//     accumulate, get_accumulate and fetch_and_op mixed on the same elements: exact totals;
//   * fetch_and_op tickets: unique (each ticket marked exactly once), increasing per rank;
//   * get_accumulate SUM: the previous values one rank sees increase, and the previous values
//     of all ranks sum to what a serial order gives;
//   * a compare_and_swap spin lock protecting a plain get + put counter: exact;
//   * a 4 MiB accumulate (larger than one owner-computes message and, when REMORA_AM_MAX_BYTES is
//     small, than an active message) from every rank, then a 4 MiB get_accumulate NO_OP: exact.
// The info string (argument 1, default "") selects the strategy; REMORA_NODE_SIZE is checked
// against what remora_rank_node reports, so a registration cannot silently test one node.
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
remora_comm_t world_;
constexpr int kRounds = 60;
constexpr size_t kCount = 6;
constexpr size_t kLargeDoubles = size_t{4} << 20 >> 3;  // 4 MiB
// Byte offsets of the regions in every rank's window.
constexpr size_t kSums = 0;              // int32[kCount], int64[kCount], double[kCount], cd[kCount]
constexpr size_t kTicket = 512;          // int64 counter
constexpr size_t kMarks = 1024;          // int32 per ticket
constexpr size_t kLockWord = 8192;       // int64
constexpr size_t kLockedCounter = 8200;  // int64, plain get + put under the lock
constexpr size_t kPrevious = 8256;       // int64[kCount] for get_accumulate
constexpr size_t kLarge = 16384;         // double[kLargeDoubles]
constexpr size_t kWindowBytes = kLarge + kLargeDoubles * sizeof(double);

using cdouble = std::complex<double>;

unsigned char* base_ = nullptr;
template <typename T>
T* at(size_t offset) {
  return reinterpret_cast<T*>(base_ + offset);
}

int64_t allreduce_sum(int64_t value) {
  int64_t sum = 0;
  REQUIRE_OK(
      remora_allreduce(&value, &sum, 1, REMORA_INT64, REMORA_OP_SUM, world_, REMORA_COLL_AUTO));
  return sum;
}

void check_nodes() {
  const char* node_size = std::getenv("REMORA_NODE_SIZE");
  const char* progress = std::getenv("REMORA_PROGRESS");
  // Under MPI the cut counts each node's ghost process, which is not an application rank.
  const bool ghost = progress != nullptr && std::strcmp(progress, "ghost") == 0;
  const int k = (node_size != nullptr ? std::atoi(node_size) : 0) - (ghost ? 1 : 0);
  if (k <= 0) return;
  for (int r = 0; r < size_; ++r)
    REQUIRE(remora_rank_node(r) == remora_rank_node(r / k * k),
            "REMORA_NODE_SIZE=%d: rank %d is on node %d, rank %d on node %d", k, r,
            remora_rank_node(r), r / k * k, remora_rank_node(r / k * k));
  if (size_ > k)
    REQUIRE(remora_rank_node(0) != remora_rank_node(size_ - 1),
            "REMORA_NODE_SIZE=%d with %d ranks: one node only", k, size_);
}

void reset(remora_win_t win) {
  REQUIRE_OK(remora_barrier());
  std::memset(base_, 0, kLarge);
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
}

// Every rank adds to every rank's sums, mixing the three calls on the same elements.
void contended_sums(remora_win_t win) {
  reset(win);
  const std::vector<int32_t> i32(kCount, rank_ + 1);
  const std::vector<int64_t> i64(kCount, int64_t{1} << 33 | (rank_ + 1));
  const std::vector<double> f64(kCount, 0.25 * (rank_ + 1));
  const std::vector<cdouble> c128(kCount, cdouble(rank_ + 1, -(rank_ + 1)));
  std::vector<unsigned char> previous(kCount * sizeof(cdouble));
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round)
    for (int step = 0; step < size_; ++step) {
      const int target = (rank_ + step) % size_;  // everyone hits everyone, in a different order
      if (round % 3 == 0) {
        REQUIRE_OK(remora_win_accumulate(win, target, kSums, i32.data(), kCount, REMORA_INT32,
                                         REMORA_OP_SUM, nullptr));
        REQUIRE_OK(remora_win_accumulate(win, target, kSums + 64, i64.data(), kCount, REMORA_INT64,
                                         REMORA_OP_SUM, nullptr));
      } else if (round % 3 == 1) {
        REQUIRE_OK(remora_win_get_accumulate(win, target, kSums, i32.data(), previous.data(),
                                             kCount, REMORA_INT32, REMORA_OP_SUM, nullptr));
        REQUIRE_OK(remora_win_get_accumulate(win, target, kSums + 64, i64.data(), previous.data(),
                                             kCount, REMORA_INT64, REMORA_OP_SUM, nullptr));
      } else {
        for (size_t i = 0; i < kCount; ++i) {
          REQUIRE_OK(remora_win_fetch_and_op(win, target, kSums + 4 * i, &i32[i], previous.data(),
                                             REMORA_INT32, REMORA_OP_SUM));
          REQUIRE_OK(remora_win_fetch_and_op(win, target, kSums + 64 + 8 * i, &i64[i],
                                             previous.data(), REMORA_INT64, REMORA_OP_SUM));
        }
      }
      REQUIRE_OK(remora_win_accumulate(win, target, kSums + 128, f64.data(), kCount, REMORA_DOUBLE,
                                       REMORA_OP_SUM, nullptr));
      REQUIRE_OK(remora_win_accumulate(win, target, kSums + 192, c128.data(), kCount,
                                       REMORA_DOUBLE_COMPLEX, REMORA_OP_SUM, nullptr));
    }
  REQUIRE_OK(remora_win_flush_all(win));  // everyone waits here for its owner replies
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  const int64_t ranks_sum = int64_t{size_} * (size_ + 1) / 2;
  const double sum_d = static_cast<double>(kRounds * ranks_sum);
  for (size_t i = 0; i < kCount; ++i) {
    REQUIRE(at<int32_t>(kSums)[i] == kRounds * ranks_sum, "int32 SUM element %zu: %d, want %lld", i,
            at<int32_t>(kSums)[i], static_cast<long long>(kRounds * ranks_sum));
    const int64_t want64 = kRounds * (size_ * (int64_t{1} << 33) + ranks_sum);
    REQUIRE(at<int64_t>(kSums + 64)[i] == want64, "int64 SUM element %zu: %lld, want %lld", i,
            static_cast<long long>(at<int64_t>(kSums + 64)[i]), static_cast<long long>(want64));
    REQUIRE(at<double>(kSums + 128)[i] == 0.25 * sum_d, "double SUM element %zu: %.17g, want %.17g",
            i, at<double>(kSums + 128)[i], 0.25 * sum_d);
    const cdouble want_c(sum_d, -sum_d);
    REQUIRE(at<cdouble>(kSums + 192)[i] == want_c, "double complex SUM element %zu: (%g,%g)", i,
            at<cdouble>(kSums + 192)[i].real(), at<cdouble>(kSums + 192)[i].imag());
  }
}

// Tickets from every rank's counter; each ticket is marked at its target exactly once.
void tickets(remora_win_t win) {
  reset(win);
  const int64_t one = 1;
  const int32_t mark = 1;
  constexpr int kTickets = 40;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int target = 0; target < size_; ++target) {
    int64_t last = -1;
    for (int i = 0; i < kTickets; ++i) {
      int64_t ticket = -1;
      REQUIRE_OK(remora_win_fetch_and_op(win, target, kTicket, &one, &ticket, REMORA_INT64,
                                         REMORA_OP_SUM));
      REQUIRE(ticket > last && ticket < int64_t{kTickets} * size_,
              "ticket %lld from rank %d after %lld", static_cast<long long>(ticket), target,
              static_cast<long long>(last));
      last = ticket;
      REQUIRE_OK(remora_win_accumulate(win, target, kMarks + 4 * static_cast<size_t>(ticket), &mark,
                                       1, REMORA_INT32, REMORA_OP_SUM, nullptr));
    }
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE(*at<int64_t>(kTicket) == int64_t{kTickets} * size_, "counter %lld",
          static_cast<long long>(*at<int64_t>(kTicket)));
  for (int t = 0; t < kTickets * size_; ++t)
    REQUIRE(at<int32_t>(kMarks)[t] == 1, "ticket %d handed out %d times", t,
            at<int32_t>(kMarks)[t]);
}

// get_accumulate SUM of 1 on kCount elements of the last rank: the previous values a rank sees
// increase; over all ranks they are 0..total-1 per element, whose sum is known.
void get_accumulate_previous(remora_win_t win) {
  reset(win);
  const int target = size_ - 1;
  const std::vector<int64_t> ones(kCount, 1);
  std::vector<int64_t> previous(kCount), last(kCount, -1);
  int64_t seen_sum = 0;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_win_get_accumulate(win, target, kPrevious, ones.data(), previous.data(),
                                         kCount, REMORA_INT64, REMORA_OP_SUM, nullptr));
    for (size_t i = 0; i < kCount; ++i) {
      REQUIRE(previous[i] > last[i], "element %zu: previous %lld after %lld", i,
              static_cast<long long>(previous[i]), static_cast<long long>(last[i]));
      last[i] = previous[i];
      seen_sum += previous[i];
    }
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  const int64_t total = int64_t{kRounds} * size_;
  const int64_t all = allreduce_sum(seen_sum);
  REQUIRE(all == static_cast<int64_t>(kCount) * total * (total - 1) / 2,
          "previous values sum to %lld, want %lld", static_cast<long long>(all),
          static_cast<long long>(static_cast<int64_t>(kCount) * total * (total - 1) / 2));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target)
    for (size_t i = 0; i < kCount; ++i)
      REQUIRE(at<int64_t>(kPrevious)[i] == total, "element %zu: %lld", i,
              static_cast<long long>(at<int64_t>(kPrevious)[i]));
}

// A compare_and_swap spin lock on rank 0 protecting a plain get + put counter there.
void cas_lock(remora_win_t win) {
  reset(win);
  constexpr int kEntries = 15;
  const int64_t unlocked = 0, mine = rank_ + 1;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int i = 0; i < kEntries; ++i) {
    for (;;) {
      int64_t seen = -1;
      REQUIRE_OK(
          remora_win_compare_and_swap(win, 0, kLockWord, &mine, &unlocked, &seen, REMORA_INT64));
      if (seen == unlocked) break;
      REQUIRE(seen >= 1 && seen <= size_, "lock word %lld", static_cast<long long>(seen));
      remora_test::progress_and_yield();
    }
    int64_t counter = -1;
    REQUIRE_OK(remora_win_get(win, 0, kLockedCounter, &counter, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_flush(win, 0));
    ++counter;
    REQUIRE_OK(remora_win_put(win, 0, kLockedCounter, &counter, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_flush(win, 0));  // the put is complete before the lock is released
    int64_t held = -1;
    REQUIRE_OK(
        remora_win_compare_and_swap(win, 0, kLockWord, &unlocked, &mine, &held, REMORA_INT64));
    REQUIRE(held == mine, "released a lock word holding %lld", static_cast<long long>(held));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == 0)
    REQUIRE(*at<int64_t>(kLockedCounter) == int64_t{kEntries} * size_, "counter %lld, want %d",
            static_cast<long long>(*at<int64_t>(kLockedCounter)), kEntries * size_);
}

// 4 MiB from every rank into the next rank's region, twice; then read back with NO_OP.
void large(remora_win_t win) {
  REQUIRE_OK(remora_barrier());
  std::memset(at<double>(kLarge), 0, kLargeDoubles * sizeof(double));
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  std::vector<double> addend(kLargeDoubles);
  for (size_t i = 0; i < kLargeDoubles; ++i) addend[i] = static_cast<double>(i % 1000) + rank_;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int target : {(rank_ + 1) % size_, rank_}) {
    REQUIRE_OK(remora_win_accumulate(win, target, kLarge, addend.data(), kLargeDoubles,
                                     REMORA_DOUBLE, REMORA_OP_SUM, nullptr));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  const int source = (rank_ + size_ - 1) % size_;
  auto expected = [source](size_t i) {
    const double base = static_cast<double>(i % 1000);
    return base + source + base + rank_;
  };
  const double* mine = at<double>(kLarge);
  REQUIRE_OK(remora_win_sync(win));
  for (size_t i = 0; i < kLargeDoubles; ++i)
    REQUIRE(mine[i] == expected(i), "large accumulate element %zu: %g, want %g", i, mine[i],
            expected(i));
  // Read the next rank's region back through the accumulate path (results in chunks).
  const int next = (rank_ + 1) % size_;
  std::vector<double> readback(kLargeDoubles, -1.0);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_OK(remora_win_get_accumulate(win, next, kLarge, nullptr, readback.data(), kLargeDoubles,
                                       REMORA_DOUBLE, REMORA_OP_NO_OP, nullptr));
  REQUIRE_OK(remora_win_unlock_all(win));
  for (size_t i = 0; i < kLargeDoubles; ++i) {
    const double base = static_cast<double>(i % 1000);
    REQUIRE(readback[i] == base + rank_ + base + next, "get_accumulate NO_OP element %zu: %g", i,
            readback[i]);
  }
  REQUIRE_OK(remora_barrier());
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  REQUIRE_OK(remora_comm_world(&world_));
  check_nodes();
  const char* info = argc > 1 ? argv[1] : "";
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(kWindowBytes, 1, info, reinterpret_cast<void**>(&base_), &win));
  contended_sums(win);
  tickets(win);
  get_accumulate_previous(win);
  cas_lock(win);
  large(win);
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_finalize());
  return 0;
}
